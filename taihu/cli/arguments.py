"""The `taihu` command line: every command, argument and option, with its help, as data.

`TAIHU` is the one record of the command line: each `Command` lists its
`Argument`s (names, help, and what argparse is told of them) and its own
commands. `parser` builds argparse's parser from it, and shell completion
(taihu/cli/completion.py) reads its words from the same record, so the two
cannot disagree and neither reads argparse's internals.

argparse is the standard library's (2.5 ms to import, where typer and click took 40 ms and
typer's pydantic coercion 50 ms more at each call). Each command's description is its function's
docstring.
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
NO_VALUE = frozenset({"store_true", "help"})  # actions of an option that is a word alone, with no value after it


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


class Argument:
    """One argument or option of a command: its names (`-r`, `--rules`; a positional's one name), its help,
    and `settings`, the keywords argparse's `add_argument` is given as they are (default, metavar, action …).

    A plain class, not a dataclass: the record is built at each start-up, and a dataclass costs 0.5 ms to make.
    """

    __slots__ = ("names", "help", "settings")

    def __init__(self, names: tuple[str, ...], help: str, settings: Mapping[str, Any] | None = None) -> None:
        self.names = names
        self.help = help
        self.settings: Mapping[str, Any] = settings or {}

    @property
    def is_option(self) -> bool:
        return self.names[0].startswith("-")

    @property
    def takes_value(self) -> bool:
        """Whether a word follows the option (`-r lingxi`) rather than the option standing alone (`--json`)."""
        return self.settings.get("action") not in NO_VALUE

    @property
    def required(self) -> bool:
        """A positional argument (unless it may be left out) or an option marked required (`--players`)."""
        if self.is_option:
            return bool(self.settings.get("required"))
        return self.settings.get("nargs") not in ("?", "*")

    def values(self, rule_sets: Sequence[str]) -> list[str]:
        """The words that can stand for it: the rule sets' names, its choices, or none (a hand, a file)."""
        if self.settings.get("metavar") == RULES:
            return list(rule_sets)
        return [str(choice) for choice in self.settings.get("choices") or () if str(choice)]


# argparse's own help option, given here so that the record lists it too (each parser is made without it)
HELP = Argument(("-h", "--help"), "show this help message and exit", {"action": "help", "default": argparse.SUPPRESS})


class Command:
    """A command: its arguments, and the commands under it (`ledger new` …); `doc` is its description
    where it runs no function of its own (`ledger`), else that function's docstring describes it."""

    __slots__ = ("name", "arguments", "commands", "doc")

    def __init__(
        self,
        name: str,
        arguments: tuple[Argument, ...] = (),
        commands: tuple[Command, ...] = (),
        doc: str | None = None,
    ) -> None:
        self.name = name
        self.arguments = arguments
        self.commands = commands
        self.doc = doc

    @property
    def every_argument(self) -> tuple[Argument, ...]:
        """Its arguments with `--help` first, as argparse lists them."""
        return (HELP, *self.arguments)

    def options(self) -> dict[str, Argument]:
        """Each name of each of its options (`-r` and `--rules` alike) and the option it names."""
        return {name: argument for argument in self.every_argument if argument.is_option for name in argument.names}

    def command(self, name: str) -> Command | None:
        return next((command for command in self.commands if command.name == name), None)


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


def json_flag(help: str) -> Argument:
    return Argument(("--json",), help, {"dest": "as_json", "action": "store_true"})


def db(help: str) -> Argument:
    return Argument(("--db",), help, {"metavar": "PATH|URL"})


def rules_option(help: str) -> Argument:
    return Argument(("-r", "--rules"), help, {"default": "lingxi", "metavar": RULES})


OPTION = Argument(
    ("-o", "--option"), "house option NAME=VALUE (repeatable)", {"action": "append", "metavar": "NAME=VALUE"}
)
LANG = Argument(
    ("--lang",),
    "names shown: zh (中文), en (English) or both",
    {"type": lang, "choices": list(Lang), "default": Lang.both, "metavar": "{zh,en,both}"},
)
LEDGER_DB = db("the ledger database: a SQLite file or a postgresql:// URL (default: $TAIHU_DB, else the user data dir)")
LEDGER_NAME = Argument(("name",), "the ledger")


def hand_command(name: str, hand_help: str, json_help: str) -> Command:
    """What `score` and `waits` share: the hand, the rule set, house options, `--json` and `--lang`."""
    return Command(
        name,
        (
            Argument(("hand",), hand_help),
            rules_option("rule set (default: lingxi)"),
            OPTION,
            json_flag(json_help),
            LANG,
        ),
    )


def completion_option(flag: str, what: str, more: str = "") -> Argument:
    return Argument(
        (f"--{flag}-completion",),
        f"{what} the current shell (bash, zsh or fish; default: $SHELL){more}",
        {"nargs": "?", "const": "", "metavar": "SHELL"},
    )


LEDGER_COMMANDS = (
    Command(
        "new",
        (
            Argument(("name",), "a name for the ledger, e.g. friday"),
            rules_option("rule set of every deal (default: lingxi)"),
            Argument(("--players",), "four names in table order, comma-separated; the first deals", {"required": True}),
            OPTION,
            LEDGER_DB,
        ),
    ),
    Command(
        "add",
        (
            LEDGER_NAME,
            Argument(("table",), "the deal as JSON (players or winds); - reads stdin", {"metavar": "TABLE.json"}),
            Argument(
                ("--deal",),
                "the number this deal is to get: refused (exit 2, nothing stored) if the ledger is elsewhere",
                {"type": whole(1), "metavar": "N", "dest": "expect"},
            ),
            Argument(
                ("--idempotency-key",),
                "a key of your own for this deal: run again with it, nothing is stored twice",
                {"metavar": "KEY", "dest": "key"},
            ),
            LEDGER_DB,
        ),
    ),
    Command("show", (LEDGER_NAME, json_flag("print the ledger JSON"), LEDGER_DB)),
    Command("undo", (LEDGER_NAME, LEDGER_DB)),
    Command(
        "export",
        (
            LEDGER_NAME,
            Argument(
                ("--csv",),
                "CSV: one row per deal and player, a header row first",
                {"dest": "as_csv", "action": "store_true"},
            ),
            LEDGER_DB,
        ),
    ),
    Command("list", (LEDGER_DB,)),
)

# the command line, in the order `taihu --help` lists the commands
TAIHU = Command(
    "taihu",
    (
        Argument(("--version",), "print taihu's version and exit", {"action": "store_true"}),
        completion_option("install", "Install completion for"),
        completion_option("show", "Show completion for", ", to copy it or customize the installation"),
    ),
    (
        hand_command(
            "score",
            "the hand in taihu notation, quoted; - reads one hand per line from stdin",
            "print the HandScore JSON (JSON lines with -)",
        ),
        hand_command(
            "waits", "the hand without a winning tile, quoted (one tile more: which to discard)", "print the waits JSON"
        ),
        Command(
            "rules",
            (
                Argument(("name",), "a rule set; omit to list them all", {"nargs": "?", "metavar": RULES}),
                json_flag("print as JSON"),
                LANG,
            ),
        ),
        Command(
            "settle",
            (
                Argument(("table",), "the table as JSON; - reads stdin", {"metavar": "TABLE.json"}),
                json_flag("print the Settlement JSON"),
                LANG,
            ),
        ),
        Command(
            "serve",
            (
                Argument(
                    ("--cors-origin",),
                    "an origin allowed to call the API from a browser (repeatable); none by default",
                    {"action": "append", "metavar": "URL"},
                ),
                Argument(("--host",), "address to listen on (default: 127.0.0.1)", {"default": "127.0.0.1"}),
                Argument(
                    ("--allowed-host",),
                    "a Host name the server answers besides the loopback names and the --host address "
                    "(repeatable), e.g. the address phones use with --host 0.0.0.0",
                    {"action": "append", "metavar": "NAME"},
                ),
                Argument(("--port",), "port to listen on (default: 8000)", {"type": int, "default": 8000}),
                db("the ledger database of /ledgers: a SQLite file, or a postgresql:// URL for several hosts"),
                Argument(
                    ("--workers",),
                    "server processes (uvicorn's worker mode; default: 1)",
                    {"type": whole(1, 64), "default": 1},
                ),
                Argument(
                    ("--limit-concurrency",),
                    "open connections per process; beyond, requests get 503 (default: 100)",
                    {"type": whole(1), "default": 100},
                ),
                Argument(
                    ("--cache-mb",),
                    "memory for the core's caches, per process (default: 64)",
                    {"type": whole(1, 65536), "default": 64},
                ),
                Argument(
                    ("--root-path",),
                    "the path a reverse proxy serves the API under, e.g. /taihu (docs/deploy.md)",
                    {"default": "", "metavar": "PATH"},
                ),
                Argument(("--no-access-log",), "write no line per request", {"action": "store_true"}),
                Argument(("--api-only",), "the API alone: no page at /, no /docs", {"action": "store_true"}),
            ),
        ),
        Command("ledger", commands=LEDGER_COMMANDS, doc=LEDGER),
    ),
    doc=DESCRIPTION,
)


def command_paths(command: Command = TAIHU, prefix: str = "") -> list[str]:
    """Every command that runs a function, as `run` names them: `"score"`, `"ledger new"` …"""
    paths: list[str] = []
    for sub in command.commands:
        path = f"{prefix}{sub.name}"
        paths += command_paths(sub, f"{path} ") if sub.commands else [path]
    return paths


def add_arguments(parser: argparse.ArgumentParser, command: Command) -> None:
    for argument in command.every_argument:
        parser.add_argument(*argument.names, help=argument.help, **argument.settings)


def add_commands(
    parser: argparse.ArgumentParser,
    command: Command,
    run: Mapping[str, Callable[..., Any]],
    wanted: str | None = None,
    prefix: str = "",
) -> None:
    """The commands under `command`, each running its function of `run`; with `wanted`, only that one's
    arguments are added (the others stay listed with their help)."""
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    for sub in command.commands:
        path = f"{prefix}{sub.name}"
        function = run.get(path)
        doc = inspect.cleandoc(sub.doc or (function.__doc__ if function else "") or "")  # inspect: loaded already
        made = commands.add_parser(
            sub.name,
            help=doc.split("\n", 1)[0],
            description=doc,
            allow_abbrev=False,
            formatter_class=Help,
            add_help=False,
        )
        made.set_defaults(run=function, usage_of=made)
        if wanted in (None, sub.name):
            add_arguments(made, sub)
            if sub.commands:
                add_commands(made, sub, run, prefix=f"{path} ")


def parser(run: Mapping[str, Callable[..., Any]], argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser of `taihu`, built from `TAIHU`; `run` maps each command (`"score"`, `"ledger new"` …) to its function.

    With `argv` whose first word is a command, only that command gets its arguments (the others
    stay listed with their help): each argument costs argparse a help formatter, and start-up counts.
    """
    wanted = argv[0] if argv and TAIHU.command(argv[0]) is not None else None
    top = argparse.ArgumentParser(
        prog="taihu", description=TAIHU.doc, allow_abbrev=False, formatter_class=Help, add_help=False
    )
    top.set_defaults(run=None, usage_of=top)
    add_arguments(top, TAIHU)
    add_commands(top, TAIHU, run, wanted)
    return top
