"""The `taihu` command line: every command, argument and option, with its help, as one argparse parser.

argparse is the standard library's (2.5 ms to import, where typer and click took 40 ms and
typer's pydantic coercion 50 ms more at each call). Each command's description is its function's
docstring; shell completion (taihu/cli/completion.py) reads its words from this parser.
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from typing import Any

DESCRIPTION = "Score and settle hands of Zhejiang/Fujian regional mahjong (Lingxi and friends)."
LEDGER = "Keep the ledger (记账) of an evening: the deals, who sat where, the running totals."
RULES = "RULES"  # the metavar of an argument that takes a rule set: completion offers the rule sets' names
# what the parser puts in the namespace that is not a parameter of the command's function
NOT_PARAMETERS = frozenset({"run", "usage_of", "version", "show_completion", "install_completion"})


class Lang(StrEnum):
    """Which name columns a table shows: 中文, English or both."""

    zh = "zh"
    en = "en"
    both = "both"


def lang(text: str) -> Lang:
    try:
        return Lang(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not one of zh, en, both") from None


def whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """A whole number in low..high (no upper bound without `high`), as a converter of argparse."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        if value < low or (high is not None and value > high):
            bound = f"between {low} and {high}" if high is not None else f"at least {low}"
            raise argparse.ArgumentTypeError(f"{value} is not {bound}")
        return value

    convert.__name__ = "whole number"
    return convert


def add_command(
    commands: Any, name: str, run: Callable[..., Any] | None, doc: str | None = None
) -> argparse.ArgumentParser:
    """A subcommand (of `commands`, an argparse subparsers action) that runs `run`, described by its docstring."""
    doc = inspect.cleandoc(doc or (run.__doc__ if run else "") or "")  # inspect: loaded already, by dataclasses
    command = commands.add_parser(
        name, help=doc.split("\n", 1)[0], description=doc, allow_abbrev=False, formatter_class=Help
    )
    command.set_defaults(run=run, usage_of=command)
    return command


def terminal_width() -> int:
    """`COLUMNS` if set, else the terminal's width, else 80 (a pipe or a file)."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns if sys.stdout.isatty() else 80
    except (OSError, ValueError, AttributeError):
        return 80


class Help(argparse.RawDescriptionHelpFormatter):
    """argparse's help (descriptions as written) at the terminal's width.

    Given the width, argparse does not import shutil to ask for it, at each argument added.
    """

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=terminal_width() - 2)


def add_hand_options(command: argparse.ArgumentParser, json_help: str) -> None:
    """What `score` and `waits` share: the rule set, house options, `--json` and `--lang`."""
    command.add_argument("-r", "--rules", default="lingxi", metavar=RULES, help="rule set (default: lingxi)")
    add_options(command)
    command.add_argument("--json", dest="as_json", action="store_true", help=json_help)
    add_lang(command)


def add_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "-o", "--option", action="append", metavar="NAME=VALUE", help="house option NAME=VALUE (repeatable)"
    )


def add_lang(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--lang",
        type=lang,
        choices=list(Lang),
        default=Lang.both,
        metavar="{zh,en,both}",
        help="names shown: zh (中文), en (English) or both",
    )


def add_db(command: argparse.ArgumentParser, help: str) -> None:
    command.add_argument("--db", metavar="PATH", help=help)


def parser(run: Mapping[str, Callable[..., Any]], argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser of `taihu`; `run` maps each command (`"score"`, `"ledger new"` …) to its function.

    With `argv` whose first word is a command, only that command gets its arguments (the others
    stay listed with their help): each argument costs argparse a help formatter, and start-up counts.
    """
    wanted = argv[0] if argv and argv[0] in COMMANDS else None
    top = argparse.ArgumentParser(prog="taihu", description=DESCRIPTION, allow_abbrev=False, formatter_class=Help)
    top.set_defaults(run=None, usage_of=top)
    top.add_argument("--version", action="store_true", help="print taihu's version and exit")
    for flag, what in (("install", "Install completion for"), ("show", "Show completion for")):
        top.add_argument(
            f"--{flag}-completion",
            nargs="?",
            const="",
            metavar="SHELL",
            help=f"{what} the current shell (bash, zsh or fish; default: $SHELL)"
            + (", to copy it or customize the installation" if flag == "show" else ""),
        )
    commands = top.add_subparsers(title="commands", metavar="COMMAND")
    for name, add_arguments in COMMANDS.items():
        command = add_command(commands, name, run.get(name), None if name in run else LEDGER)
        if wanted in (None, name):
            add_arguments(command, run)
    return top


def add_score(command: argparse.ArgumentParser, run: Mapping[str, Callable[..., Any]]) -> None:
    command.add_argument("hand", help="the hand in taihu notation, quoted; - reads one hand per line from stdin")
    add_hand_options(command, "print the HandScore JSON (JSON lines with -)")


def add_waits(command: argparse.ArgumentParser, run: Mapping[str, Callable[..., Any]]) -> None:
    command.add_argument("hand", help="the hand without a winning tile, quoted (one tile more: which to discard)")
    add_hand_options(command, "print the waits JSON")


def add_rules(command: argparse.ArgumentParser, run: Mapping[str, Callable[..., Any]]) -> None:
    command.add_argument("name", nargs="?", metavar=RULES, help="a rule set; omit to list them all")
    command.add_argument("--json", dest="as_json", action="store_true", help="print as JSON")
    add_lang(command)


def add_settle(command: argparse.ArgumentParser, run: Mapping[str, Callable[..., Any]]) -> None:
    command.add_argument("table", metavar="TABLE.json", help="the table as JSON; - reads stdin")
    command.add_argument("--json", dest="as_json", action="store_true", help="print the Settlement JSON")
    add_lang(command)


def add_serve(serve: argparse.ArgumentParser, run: Mapping[str, Callable[..., Any]]) -> None:
    serve.add_argument(
        "--cors-origin",
        action="append",
        metavar="URL",
        help="an origin allowed to call the API from a browser (repeatable); none by default",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (default: 8000)")
    add_db(serve, "the ledger database of /ledgers")
    serve.add_argument(
        "--workers", type=whole(1, 64), default=1, help="server processes (uvicorn's worker mode; default: 1)"
    )
    serve.add_argument(
        "--limit-concurrency",
        type=whole(1),
        default=100,
        help="open connections per process; beyond, requests get 503 (default: 100)",
    )
    serve.add_argument(
        "--cache-mb",
        type=whole(1, 65536),
        default=64,
        help="memory for the core's caches, per process (default: 64)",
    )


def add_ledger(ledger: argparse.ArgumentParser, run: Mapping[str, Callable[..., Any]]) -> None:
    commands = ledger.add_subparsers(title="commands", metavar="COMMAND")
    db_help = "the ledger database (default: $TAIHU_DB, else the user data dir)"
    new = add_command(commands, "new", run["ledger new"])
    new.add_argument("name", help="a name for the ledger, e.g. friday")
    new.add_argument("-r", "--rules", default="lingxi", metavar=RULES, help="rule set of every deal (default: lingxi)")
    new.add_argument("--players", required=True, help="four names in table order, comma-separated; the first deals")
    add_options(new)
    add_db(new, db_help)

    add = add_command(commands, "add", run["ledger add"])
    add.add_argument("name", help="the ledger")
    add.add_argument("table", metavar="TABLE.json", help="the deal as JSON (players or winds); - reads stdin")
    add_db(add, db_help)

    show = add_command(commands, "show", run["ledger show"])
    show.add_argument("name", help="the ledger")
    show.add_argument("--json", dest="as_json", action="store_true", help="print the ledger JSON")
    add_db(show, db_help)

    undo = add_command(commands, "undo", run["ledger undo"])
    undo.add_argument("name", help="the ledger")
    add_db(undo, db_help)

    export = add_command(commands, "export", run["ledger export"])
    export.add_argument("name", help="the ledger")
    export.add_argument(
        "--csv", dest="as_csv", action="store_true", help="CSV: one row per deal and player, a header row first"
    )
    add_db(export, db_help)

    listing = add_command(commands, "list", run["ledger list"])
    add_db(listing, db_help)


# each command and what adds its arguments, in the order `taihu --help` lists them
COMMANDS: dict[str, Callable[[argparse.ArgumentParser, Mapping[str, Callable[..., Any]]], None]] = {
    "score": add_score,
    "waits": add_waits,
    "rules": add_rules,
    "settle": add_settle,
    "serve": add_serve,
    "ledger": add_ledger,
}
