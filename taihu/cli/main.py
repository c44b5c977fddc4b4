"""The `taihu` command: a typer application that parses the arguments, calls the core and formats the answer.

Exit 0 on success, 2 on bad input (the library's message on stderr) and on a usage error (typer's),
1 on a bug: one line `internal error (id …)` on stderr, the traceback only in the `taihu.cli` log
(at DEBUG, so it stays off the terminal unless asked for). Typer's pretty tracebacks are off. A reader
that goes away (`taihu score - < hands | head -1`) ends the command quietly by SIGPIPE, as `yes | head -1`.

Start-up is most of a `taihu score`'s time, so this imports only what every command needs (typer,
the core's scoring path); rich (taihu/cli/draw.py), the waits search, the settlement, the ledger and
the server are imported by the commands that use them (docs/performance.md has the figures).

Every word the command prints is the catalog's (taihu/messages/), in the language `--lang` picks or,
without it, the locale's (docs/languages.md): `zh` under a `zh_*` locale, else `both` — the item names
in both languages and the rest in English, as the command printed before it had a catalog.
"""

import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from typer.exceptions import TyperException

from taihu.cli.language import Lang, LangOption, command_lang, locale_lang, option_lang
from taihu.cli.ledger import ledger_app
from taihu.cli.usage import Context, SpokenCommand, SpokenGroup
from taihu.messages import known
from taihu.messages.error_shape import CatalogError, hand_error_shape
from taihu.scorer import HandError, HandScore, rule_sets, score_hand
from taihu.scorer.errors import printable, quote
from taihu.scorer.limits import MAX_NUMBER_CHARACTERS, MAX_OPTION_VALUE, STDIN, check_json_text, json_file
from taihu.scorer.rulesets import DEFAULT_RULES, REGISTRY, get

if TYPE_CHECKING:  # imported where a table is printed, a table settled, a hand's waits searched
    from rich.console import Console
    from rich.table import Table

    from taihu.scorer import Settlement
    from taihu.scorer.waiting import Discards, Wait, Waits, WinValue


class Taihu(SpokenGroup):
    """The command group that ends every command, those of `taihu ledger` included, as the docstring above says.

    Typer's own ends (`typer.Exit`, usage errors, Ctrl-C's `Abort`) pass through; a `HandError` that reached
    no `answer` is bad input all the same; anything else is a bug.
    """

    def invoke(self, ctx: Context) -> Any:
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, TyperException):  # typer's ClickException is a TyperException
            raise
        except (HandError, Refused) as exc:
            refused = exc if isinstance(exc, Refused) else Refused(exc)
            raise typer.Exit(error_status(refused, command_lang(ctx.meta))) from None
        except KeyboardInterrupt:
            raise typer.Exit(130) from None
        except (
            BrokenPipeError
        ):  # the reader went away (`taihu rules | head`): no message, as the docs of `signal` advise
            try:
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # what is left to flush goes nowhere
            except (OSError, ValueError):  # a stdout that is no file (a test's) is flushed nowhere anyway
                pass
            raise typer.Exit(PIPE_CLOSED) from None
        except Exception as exc:
            import logging  # a bug's path only: start-up does without logging and secrets
            import secrets

            error_id = secrets.token_hex(4)
            command = ctx.invoked_subcommand or ""
            logging.getLogger("taihu.cli").debug("internal error %s in taihu %s", error_id, command, exc_info=exc)
            sys.stderr.write(command_lang(ctx.meta).say("cli.error.internal", id=error_id) + "\n")
            raise typer.Exit(1) from None


PIPE_CLOSED = 128 + 13  # the status a shell shows for a command ended by SIGPIPE (13 on every POSIX system)


def end_as_a_closed_pipe_ends() -> None:
    """End the process as a Unix tool whose reader went away ends (`yes | head -1`): killed by SIGPIPE, quietly.

    Python ignores SIGPIPE, so that a write to a closed pipe raises BrokenPipeError instead (the docs' "Note
    on SIGPIPE", which warns against restoring the default for the whole run: a socket closed under a server
    would kill it). Restored here only, at the very end, once there is nothing left to do; a shell then shows
    141, as for `yes`, and a program that reads the status sees the signal. Where there is no SIGPIPE: 141, by
    `os._exit`, not for speed: the interpreter's own exit would flush stdout into the closed pipe once more and
    print that error.
    """
    import signal

    sigpipe = getattr(signal, "SIGPIPE", None)
    if sigpipe is not None:
        signal.signal(sigpipe, signal.SIG_DFL)
        os.kill(os.getpid(), sigpipe)
    os._exit(PIPE_CLOSED)


app = typer.Typer(
    name="taihu",
    cls=Taihu,
    help="Score and settle hands of Zhejiang/Fujian regional mahjong (Lingxi and friends).",
    no_args_is_help=True,  # `taihu` alone: what there is to run, as a usage error (exit 2)
    pretty_exceptions_enable=False,  # a bug is one line with an id, never a traceback
    rich_markup_mode=None,  # help texts are plain: `[` in them is text
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(ledger_app, name="ledger")


def show_version(value: bool) -> None:
    if value:
        from taihu import __version__

        sys.stdout.write(f"taihu {__version__}\n")
        raise typer.Exit()


@app.callback()
def taihu(
    version: Annotated[
        bool, typer.Option("--version", callback=show_version, is_eager=True, help="print taihu's version and exit")
    ] = False,
) -> None:
    """Score and settle hands of Zhejiang/Fujian regional mahjong (Lingxi and friends)."""


def main() -> None:
    """The console script `taihu`: the command line's arguments, the exit status.

    A command that has finished has closed what it opened and leaves only its output to flush, so
    the process ends there (`os._exit`), without the interpreter's teardown of every module: 4% of a
    `taihu score`'s instructions, with or without `--json` (docs/performance.md, "Tricks outside the
    engine"). `serve` ends the usual way: its server and workers have their own clean-up.
    """
    try:
        app(prog_name="taihu")
        status = 0
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    if sys.argv[1:2] == ["serve"]:
        sys.exit(status)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader went away
        status = status or PIPE_CLOSED
    if status == PIPE_CLOSED:
        end_as_a_closed_pipe_ends()
    os._exit(status)


class Refused(Exception):
    """Bad input on its way out of a command: the error (the core's, ours, or a line of text), the lines
    pointing at its place, and whether the command answers JSON. `Taihu.invoke` prints it, in the
    command's language, which its context holds."""

    def __init__(self, error: HandError | str, pointer: str = "", as_json: bool = False) -> None:
        super().__init__(str(error))
        self.error, self.pointer, self.as_json = error, pointer, as_json


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def error_status(refused: Refused, lang: Lang) -> int:
    """Bad input: with `--json` the one error shape on stdout; the message on stderr, then the pointer lines
    (hand and caret) and the hint, all in the command's language; status 2.

    Each line is escaped (`printable`): what the input held reaches the terminal as text, never as a control.
    On a terminal the message and the hint are wrapped to its width (`COLUMNS` where set), as `fitted` breaks
    them (a phone's 40 columns); in a pipe each stays one line, whole, for a log or grep to read.
    """
    error, pointer, say = refused.error, refused.pointer, lang.say
    shape = hand_error_shape(error, say.lang) if isinstance(error, HandError) else None
    if shape is not None and refused.as_json:
        print_json(shape)
    lines = [say("cli.error", message=shape["message"] if shape is not None else error)]
    lines += pointer.split("\n") if pointer else ()
    if shape is not None and shape["hint"] and shape["hint"] not in shape["message"]:  # a message may hold its fix
        lines.append(say("cli.error.hint", hint=shape["hint"]))
    lines = [printable(line) for line in lines]
    if stderr_is_terminal():
        from taihu.cli.draw import Terminal, fitted

        width, pointed = Terminal(stderr=True).width, {printable(line) for line in pointer.split("\n") if pointer}
        lines = [fit for line in lines for fit in ([line] if line in pointed else fitted(line, width))]
    sys.stderr.write("".join(line + "\n" for line in lines))
    return 2


def answer(call: Callable[[], Any], as_json: bool = False, line: str | None = None) -> Any:
    """Runs a core call; bad input becomes exit 2 with the message, no traceback.

    With `as_json` the error in the one shape (`{"code", "message", "detail", "column", …}`,
    taihu/messages/error_shape.py) is also printed on stdout, so a program reading the JSON gets an
    answer either way. With `line` (the hand as typed), or the hand of a table's seat the error names
    (`HandError.line`), an error that has a column also shows the line with a caret under the place.
    """
    try:
        return call()
    except HandError as exc:
        shown = line if line is not None else exc.line
        raise Refused(exc, exc.caret(shown) if shown is not None else "", as_json) from None


def parse_options(pairs: list[str] | None) -> dict[str, int]:
    options: dict[str, int] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not re.fullmatch(r"-?[0-9]+", value.strip()):
            raise CatalogError("cli.error.option_form", code="bad_option", option=quote(pair))
        if len(value.strip()) > MAX_NUMBER_CHARACTERS:  # int() refuses 4,300 digits; the range is far below
            raise CatalogError(
                "cli.error.option_too_large",
                code="bad_option",
                option=quote(name.strip()),
                most=MAX_OPTION_VALUE,
                got=quote(value.strip()),
            )
        options[name.strip()] = int(value)
    return options


def rule_set_names(incomplete: str) -> list[str]:
    """Completion of a rule set's name (`-r lu` → the names that begin so)."""
    return [name for name in REGISTRY if name.startswith(incomplete)]


# the arguments and options several commands share, declared once
RulesOption = Annotated[
    str, typer.Option("--rules", "-r", metavar="RULES", help="rule set", autocompletion=rule_set_names)
]
HouseOption = Annotated[
    list[str] | None, typer.Option("--option", "-o", metavar="NAME=VALUE", help="house option NAME=VALUE (repeatable)")
]
TableArgument = Annotated[str, typer.Argument(metavar="TABLE.json", help="the table as JSON; - reads stdin")]


def json_option(help: str) -> Any:
    return typer.Option("--json", help=help)


def console() -> "Console":
    """The terminal, through rich: imported on the first table printed (`--json` never needs it)."""
    from taihu.cli.draw import console as made

    return made()


SHORT_VALUE = 10  # characters: `×2 per tai`; a longer value goes on the detail line in the compact layout
NARROW = 60  # below this many columns (a phone's terminal) tables give way to the compact layout


def narrow(out: "Console") -> bool:
    return out.width < NARROW


def names(chinese: str, english: str, lang: Lang) -> str:
    """An item's name in the languages asked for, one line (the compact layout's name cell)."""
    return {Lang.zh: chinese, Lang.en: english}.get(lang, f"{chinese} {english}".strip())


def name_columns(lang: Lang) -> tuple[str, ...]:
    return {Lang.zh: ("中文",), Lang.en: ("English",)}.get(lang, ("中文", "English"))


def name_cells(chinese: str, english: str, lang: Lang) -> tuple[str, ...]:
    return {Lang.zh: (chinese,), Lang.en: (english,)}.get(lang, (chinese, english))


def unit_name(unit: str, lang: Lang) -> str:
    """A unit as the reader says it (`tai`, 台); a unit the catalog does not know (a test's rule set) as itself."""
    return lang.say(f"unit.{unit}") if known(f"unit.{unit}") else unit


def rules_name(name: str, lang: Lang) -> str:
    """A rule set as the reader names it: its key (as `--rules` takes it), or with `zh` its first Chinese name."""
    chinese = REGISTRY[name].chinese if name in REGISTRY else ()
    return chinese[0] if lang is Lang.zh and chinese else name


def compact_table(title: str, rows: Iterable[tuple[str, str, str]], lang: Lang = Lang.both) -> "Table":
    """Name and value only, each row's detail on its own line below: readable at 40 columns.

    Names wrap at word boundaries (never an ellipsis); only a word wider than the
    whole column would be folded.
    """
    from rich import box
    from rich.padding import Padding
    from rich.text import Text

    from taihu.cli.draw import safe
    from taihu.cli.draw import table as made

    table = made(title, box=box.SIMPLE, show_header=False, pad_edge=False, expand=True)
    table.add_column("name", overflow="fold", ratio=1)
    table.add_column("value", justify="right", no_wrap=True)
    for name, value, detail in rows:
        if name == "":
            table.add_section()
            continue
        if len(value) > SHORT_VALUE:  # a long value (`dealer 2, others 1`) would squeeze the name: it goes below
            value, detail = "", f"{value}{lang.separator}{detail}" if detail else value
        table.add_row(name, value)
        if detail:
            table.add_row(Padding(Text(safe(detail), style="dim"), (0, 0, 0, 2)), "")
    return table


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def hand_table(result: HandScore, lang: Lang = Lang.both, compact: bool = False) -> "Table":
    from taihu.cli.draw import table as made

    say = lang.say
    rules = rules_name(result.rules, lang)
    title = say("cli.score.winning" if result.winner else "cli.score.not_winning", rules=rules)
    # Lingxi doubles once; Luoshan the hu once per tai
    doubled = "×2" if result.unit == "tai" else say("cli.score.doubled_per_tai")
    # each item's value in its own unit (`×9` for a multiplier); the rule set's arithmetic under the table
    shown = {
        id(i): f"×{i.value}" if i.unit == "multiplier" else f"{i.value} {unit_name(i.unit, lang)}" for i in result.items
    }
    illegal = "" if result.legal else say("cli.score.not_legal")
    if compact:
        rows = [(names(i.name, i.name_en, lang), shown[id(i)], lang.said(i.detail)) for i in result.items]
        counted = get(result.rules).subtotal_unit or result.unit  # a subtotal in han, where the unit is points
        rows += [("", "", ""), (say("cli.score.subtotal_in", unit=unit_name(counted, lang)), str(result.subtotal), "")]
        if result.doubled:
            rows.append((names("翻", "doubled", lang), doubled, ""))
        rows.append((say("cli.score.total_in", unit=unit_name(result.unit, lang)), str(result.total), illegal))
        table = compact_table(title, rows, lang)
    else:
        table = made(title)
        table.add_column(say("cli.column.key"))
        for column in name_columns(lang):
            table.add_column(column)
        table.add_column(say("cli.column.value"), justify="right")
        table.add_column(say("cli.column.detail"))
        blank = ("",) * len(name_columns(lang))
        for item in result.items:
            table.add_row(item.key, *name_cells(item.name, item.name_en, lang), shown[id(item)], lang.said(item.detail))
        table.add_section()
        table.add_row(say("cli.score.subtotal"), *blank, str(result.subtotal), "")
        if result.doubled:
            table.add_row(say("cli.score.doubled"), *name_cells("翻", "", lang), doubled, "")
        table.add_row(say("cli.score.total"), *blank, f"{result.total} {unit_name(result.unit, lang)}", illegal)
    from taihu.scorer.arithmetic_lines import arithmetic

    table.caption, table.caption_justify = "\n".join(map(lang.said, arithmetic(result))), "left"
    return table


def summary(result: HandScore, lang: Lang) -> str:
    """One hand on one line: what batch mode prints per hand."""
    line = "cli.batch.legal" if result.legal else "cli.batch.not_legal"
    return lang.say(line, hand=printable(result.hand), total=result.total, unit=unit_name(result.unit, lang))


def with_progress(lines: Iterable[str], as_json: bool, description: str) -> Iterator[str]:
    """The lines, with a rich progress bar on stderr while they are scored, where stderr is a terminal.

    Never with `--json` or in a pipe: a program reading the answers gets only them.
    """
    if as_json or not sys.stderr.isatty():
        yield from lines
        return
    from taihu.cli.draw import progress

    with progress() as bar:
        task = bar.add_task(description, total=None)
        for line in lines:
            yield line
            bar.advance(task)


@contextmanager
def working(description: str, as_json: bool) -> Iterator[None]:
    """A bar that moves on stderr while a long call runs, where stderr is a terminal and not with `--json`."""
    if as_json or not sys.stderr.isatty():
        yield
        return
    from taihu.cli.draw import progress

    with progress() as bar:
        bar.add_task(description, total=None)
        yield


def score_lines(lines: Iterable[str], rules: str, options: dict[str, int], as_json: bool, lang: Lang) -> int:
    """Batch mode: one result per hand line (blank lines and `#` comments skipped); 2 if any line was bad."""
    status = 0
    for number, line in enumerate(with_progress(lines, as_json, lang.say("cli.progress.scoring")), start=1):
        text = line.partition("#")[0].strip()  # `#` starts a comment: the notation never holds one
        if not text:
            continue
        try:
            result = score_hand(text, rules=rules, options=options)
        except HandError as exc:
            status = 2
            shown = (
                json.dumps(hand_error_shape(exc, lang.say.lang), ensure_ascii=False)
                if as_json
                else lang.say("cli.batch.error", line=number, message=exc.message_in(lang.say.lang))
            )
        else:
            shown = json.dumps(result.to_dict(lang.language), ensure_ascii=False) if as_json else summary(result, lang)
        sys.stdout.write((shown if as_json else printable(shown)) + "\n")
        sys.stdout.flush()  # a program feeding hands one at a time reads each answer as it comes
    return status


R = TypeVar("R", bound="HandScore | Waits | Discards")


def answer_for_hand(
    hand: str, option: list[str] | None, as_json: bool, call: Callable[[dict[str, int]], R], lang: Lang
) -> "tuple[R, Console] | None":
    """What `score` and `waits` share: the options read, the core called on the hand (bad input is exit 2
    with the caret under its place), then the JSON printed (None: nothing more to show), or the hand line
    printed and the answer with the terminal for the rest."""
    options = answer(lambda: parse_options(option), as_json)
    result = answer(lambda: call(options), as_json, hand)
    if as_json:
        print_json(result.to_dict(lang.language))
        return None
    out = console()
    out.print(lang.say("cli.hand", hand=result.hand), soft_wrap=True)
    return result, out


@app.command(cls=SpokenCommand)
def score(
    hand: Annotated[
        str,
        typer.Argument(metavar="HAND", help="the hand in taihu notation, quoted; - reads one hand per line from stdin"),
    ],
    rules: RulesOption = DEFAULT_RULES,
    option: HouseOption = None,
    as_json: Annotated[bool, json_option("print the HandScore JSON (JSON lines with -)")] = False,
    lang: LangOption = None,
) -> None:
    """Score one hand: the items, the doubling, the total and the arrangement.

    With `-` as the hand, score each line of stdin: one line out per hand.
    """
    lang = option_lang(lang)
    if hand == "-":
        answer(lambda: get(rules), as_json)  # an unknown rule set is one error, not one per line
        options = answer(lambda: parse_options(option), as_json)
        raise typer.Exit(score_lines(sys.stdin, rules, options, as_json, lang))
    shown = answer_for_hand(hand, option, as_json, lambda options: score_hand(hand, rules=rules, options=options), lang)
    if shown is None:
        return
    result, out = shown
    say = lang.say
    out.print(hand_table(result, lang, compact=narrow(out)))
    if result.arrangement:
        out.print(say("cli.score.arrangement", arrangement="  ".join(map(lang.said, result.arrangement))))
    elif not result.winner:
        out.print(say("cli.score.base_only"))
    for note in result.notes:
        out.print(say("cli.note", note=lang.said(note)))


def win_text(win: "WinValue | None", lang: Lang) -> str:
    if win is None:
        return "—"
    say = lang.say
    han, reason = getattr(win, "han", None), getattr(win, "reason", None)  # han, fu and why not legal, where counted
    value = (
        str(win.total) if han is None else say("cli.waits.han_fu", total=win.total, han=han, fu=getattr(win, "fu", 0))
    )
    if win.legal:
        return value
    return value + (
        say("cli.waits.not_legal_for", reason=reason.split(":")[0]) if reason else say("cli.waits.not_legal")
    )


def waits_table(title: str, found: "tuple[Wait, ...]", lang: Lang = Lang.both, compact: bool = False) -> "Table":
    from taihu.cli.draw import table as made

    say = lang.say
    if compact:  # the tile, its copies unseen and best total; the two totals and the arrangement below
        rows = []
        for wait in found:
            best = wait.discard or wait.self_drawn
            tile = f"{wait.tile}{' *' if wait.covered_by_wildcard else ''}"
            name = say("cli.waits.tile_unseen", tile=tile, unseen=wait.unseen)
            totals = say(
                "cli.waits.totals", discard=win_text(wait.discard, lang), self_drawn=win_text(wait.self_drawn, lang)
            )
            shape = "  ".join(map(lang.said, best.arrangement)) if best else ""
            rows.append((name, str(best.total) if best else "—", lang.separator.join(filter(None, (totals, shape)))))
        return compact_table(title, rows, lang)
    table = made(title)
    table.add_column(say("cli.waits.column.tile"))
    table.add_column(say("cli.waits.column.unseen"), justify="right")
    table.add_column(say("cli.waits.column.discard"), justify="right")
    table.add_column(say("cli.waits.column.self_drawn"), justify="right")
    table.add_column(say("cli.waits.column.legal"))
    table.add_column(say("cli.waits.column.arrangement"))
    for wait in found:
        best = wait.discard or wait.self_drawn
        table.add_row(
            wait.tile + (" *" if wait.covered_by_wildcard else ""),
            str(wait.unseen),
            win_text(wait.discard, lang),
            win_text(wait.self_drawn, lang),
            say("cli.yes") if wait.legal else say("cli.no"),
            "  ".join(map(lang.said, best.arrangement)) if best else "",
        )
    return table


@app.command(name="waits", cls=SpokenCommand)
def waits_command(
    hand: Annotated[
        str,
        typer.Argument(
            metavar="HAND", help="the hand without a winning tile, quoted (one tile more: which to discard)"
        ),
    ],
    rules: RulesOption = DEFAULT_RULES,
    option: HouseOption = None,
    as_json: Annotated[bool, json_option("print the waits JSON")] = False,
    lang: LangOption = None,
) -> None:
    """What wins for a waiting hand (听牌): each tile, its copies unseen, its total on a discard and self-drawn."""
    from taihu.scorer.waiting import Discards, waits

    lang = option_lang(lang)

    def search(options: dict[str, int]) -> "Waits | Discards":
        with working(say("cli.progress.waits"), as_json):  # a hand with wildcards can take a while
            return waits(hand, rules=rules, options=options)

    say = lang.say
    shown = answer_for_hand(hand, option, as_json, search, lang)
    if shown is None:
        return
    result, out = shown
    from taihu.cli.draw import table as made

    compact = narrow(out)
    rules_shown = rules_name(result.rules, lang)
    if isinstance(result, Discards) and compact:
        rows = [
            (
                say("cli.waits.discard_waits", tile=c.tile, waits=" ".join(w.tile for w in c.waits) or say("cli.none")),
                str(c.best_total),
                "",
            )
            for c in result.discards
        ]
        out.print(compact_table(say("cli.waits.discards", rules=rules_shown), rows, lang))
    elif isinstance(result, Discards):
        table = made(say("cli.waits.discards", rules=rules_shown))
        table.add_column(say("cli.waits.column.discard_tile"), justify="right")
        table.add_column(say("cli.waits.column.waits"))
        table.add_column(say("cli.waits.column.unseen_wins"), justify="right")
        table.add_column(say("cli.waits.column.best_total"), justify="right")
        for choice in result.discards:
            tiles = " ".join(w.tile for w in choice.waits) or say("cli.waits.not_ready_short")
            table.add_row(choice.tile, tiles, str(choice.unseen_wins), str(choice.best_total))
        out.print(table)
    if isinstance(result, Discards):
        if result.discards and result.discards[0].waits:
            best = result.discards[0]
            out.print(waits_table(say("cli.waits.after_discarding", tile=best.tile), best.waits, lang, compact))
        return
    if not result.ready:
        out.print(say("cli.waits.not_ready", rules=rules_shown))
        return
    out.print(waits_table(say("cli.waits.title", rules=rules_shown), result.waits, lang, compact))
    if any(w.covered_by_wildcard for w in result.waits):
        out.print(say("cli.waits.wildcard_only"))


@app.command(cls=SpokenCommand)
def rules(
    name: Annotated[
        str | None,
        typer.Argument(metavar="[RULES]", help="a rule set; omit to list them all", autocompletion=rule_set_names),
    ] = None,
    as_json: Annotated[bool, json_option("print as JSON")] = False,
    lang: LangOption = None,
) -> None:
    """List the rule sets, or one rule set's items and house options."""
    from taihu.cli.draw import table as made

    lang = option_lang(lang)
    say = lang.say
    if name is None:
        infos = rule_sets()
        if as_json:
            print_json([i.to_dict(lang.language) for i in infos])
            return
        out = console()
        table = made(say("cli.rules.title"), title_justify="center")
        table.add_column(say("cli.rules.column.name"))
        if lang is not Lang.en:
            table.add_column("中文")
        table.add_column(say("cli.rules.column.unit"))
        table.add_column(say("cli.rules.column.items"), justify="right")
        for info in infos:
            chinese = (info.chinese,) if lang is not Lang.en else ()
            table.add_row(info.name, *chinese, unit_name(info.unit, lang), str(len(info.items)))
        out.print(table)
        return
    info = answer(lambda: get(name).info(), as_json)
    if as_json:
        print_json(info.to_dict(lang.language))
        return
    out = console()
    title = say("cli.rules.items", name=info.name, chinese=info.chinese, unit=unit_name(info.unit, lang))
    if narrow(out):
        rows = [(names(i.name, i.name_en, lang), lang.said(i.value), lang.said(i.scope)) for i in info.items]
        out.print(compact_table(title, rows, lang))
    else:
        table = made(title)
        for column in (
            say("cli.column.key"),
            *name_columns(lang),
            say("cli.column.value"),
            say("cli.rules.column.for"),
        ):
            table.add_column(column)
        for item in info.items:
            cells = (lang.said(item.value), lang.said(item.scope))
            table.add_row(item.key, *name_cells(item.name, item.name_en, lang), *cells)
        out.print(table)
    if narrow(out):  # each option and its default, the alternatives and meaning below
        rows = [
            (
                o.name,
                str(o.default),
                say(
                    "cli.rules.option",
                    alternatives=", ".join(map(str, o.alternatives)),
                    meaning=lang.said(o.description),
                ),
            )
            for o in info.options
        ]
        out.print(compact_table(say("cli.rules.options"), rows, lang))
    else:
        options = made(say("cli.rules.options"))
        for code in ("cli.rules.column.option", "cli.rules.column.default", "cli.rules.column.alternatives"):
            options.add_column(say(code))
        options.add_column(say("cli.rules.column.meaning"))
        for opt in info.options:
            alternatives = ", ".join(map(str, opt.alternatives))
            options.add_row(opt.name, str(opt.default), alternatives, lang.said(opt.description))
        out.print(options)
    for line in info.exclusions:
        out.print(say("cli.rules.exclusion", exclusion=lang.said(line)))


def read_table(path: str) -> Any:
    """The table JSON from a file or stdin (`-`); unreadable or malformed is bad input (a HandError)."""
    try:
        found = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise CatalogError("cli.error.cannot_read", path=path, reason=reason) from None
    check_json_text(found, STDIN if path == "-" else json_file(path))
    try:
        return json.loads(found)
    except json.JSONDecodeError as exc:
        where = "stdin" if path == "-" else path
        raise CatalogError(
            "cli.error.not_json", code="invalid_json", where=where, reason=exc.msg, line=exc.lineno, column=exc.colno
        ) from None


def settlement_tables(result: "Settlement", lang: Lang = Lang.both, compact: bool = False) -> "list[Table]":
    from taihu.cli.draw import table as made

    say = lang.say
    counted = next((s.unit for s in result.scores.values() if isinstance(s, HandScore)), None)
    unit = unit_name(counted, lang) if counted is not None else say("cli.settle.total")
    seats = [
        (
            say("cli.settle.dealer", seat=seat) if seat == "E" else seat,
            score.hand if isinstance(score, HandScore) else say("cli.settle.total_only"),
            str(score.total),
            lang.separator.join(map(lang.said, score.notes)) if isinstance(score, HandScore) else "",
        )
        for seat, score in result.scores.items()
    ]
    paid = [(p.from_, p.to, str(p.amount), lang.said(p.reason)) for p in result.payments] or [
        ("—", "—", "0", say("cli.settle.no_payments"))
    ]
    net = made(say("cli.settle.net"))
    for seat in result.net:
        net.add_column(seat, justify="right")
    net.add_row(*(f"{v:+d}" if v else "0" for v in result.net.values()))
    title = say("cli.settle.title", rules=rules_name(result.rules, lang))
    if compact:  # the seat and its total, the hand below; each payment `from → to` and its amount
        seat_rows = [
            (say("cli.settle.seat_in", seat=seat, unit=unit), total, lang.separator.join(filter(None, (hand, note))))
            for seat, hand, total, note in seats
        ]
        pay_rows = [(f"{payer} → {payee}", amount, reason) for payer, payee, amount, reason in paid]
        return [compact_table(title, seat_rows, lang), compact_table(say("cli.settle.payments"), pay_rows, lang), net]
    scores = made(title)
    scores.add_column(say("cli.settle.column.seat"))
    scores.add_column(say("cli.settle.column.hand"))
    scores.add_column(unit, justify="right")
    scores.add_column(say("cli.settle.column.note"))
    for seat, hand, total, note in seats:
        scores.add_row(seat, hand, total, note)
    payments = made(say("cli.settle.payments"))
    payments.add_column(say("cli.settle.column.from"))
    payments.add_column(say("cli.settle.column.to"))
    payments.add_column(say("cli.settle.column.amount"), justify="right")
    payments.add_column(say("cli.settle.column.reason"))
    for row in paid:
        payments.add_row(*row)
    return [scores, payments, net]


def settle_table(table: Any) -> "Settlement":
    """The core's `settle_table`, imported on first use: `taihu score` never loads the settlement modules."""
    from taihu.scorer.settlement import settle_table as settle

    return settle(table)


@app.command(cls=SpokenCommand)
def settle(
    table: TableArgument,
    as_json: Annotated[bool, json_option("print the Settlement JSON")] = False,
    lang: LangOption = None,
) -> None:
    """Settle one deal: each seat's tai, who pays whom and why, and the net per seat."""
    lang = option_lang(lang)
    data = answer(lambda: read_table(table), as_json)
    result = answer(lambda: settle_table(data), as_json)
    if as_json:
        print_json(result.to_dict(lang.language))
        return
    out = console()
    for part in settlement_tables(result, lang, compact=narrow(out)):
        out.print(part)
    out.print(lang.say("cli.settle.next_dealer", dealer=result.next_dealer))


LOOPBACK = ("127.0.0.1", "localhost", "::1")
REFUSED_LOGIN = ("password authentication failed", "no password supplied", 'role "')  # libpq's words for it


def check_database(db: str | None) -> None:
    """Opens the ledger database as the server will: its driver there, the server reached, the user and password
    taken, the migrations applied (the store brings them forward). Each failure is bad input naming `--db`."""
    from taihu.store import DatabaseUnavailable, LedgerStore, database_url, shown

    try:
        url = database_url(db)
        LedgerStore(db).ping()
    except ImportError:
        where = shown(url)
        raise CatalogError("cli.serve.db_no_driver", code="bad_database", where=where) from None
    except DatabaseUnavailable as exc:
        why, where = str(exc.params.get("why", "")), shown(url)
        key = "cli.serve.db_password" if any(w in why for w in REFUSED_LOGIN) else "cli.serve.db_unreachable"
        raise CatalogError(key, code="bad_database", where=where, why=why.strip()) from None
    except HandError as exc:
        if exc.code in ("bad_database", "newer_database"):
            raise CatalogError("cli.serve.db_refused", code=exc.code, problem=exc.text) from None
        raise


@app.command(cls=SpokenCommand)
def serve(
    cors_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--cors-origin",
            metavar="URL",
            help="an origin allowed to call the API from a browser (repeatable); none by default",
        ),
    ] = None,
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-host",
            metavar="NAME",
            help="a Host name the server answers besides the loopback names and the --host address "
            "(repeatable), e.g. the address phones use with --host 0.0.0.0",
        ),
    ] = None,
    port: Annotated[int, typer.Option("--port", help="port to listen on")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            envvar="TAIHU_DB",
            show_envvar=False,  # the help says it, in the reader's language
            metavar="PATH|URL",
            help="the ledger database of /ledgers: a SQLite file, or a postgresql:// URL for several hosts "
            "(default: $TAIHU_DB, else the user data dir)",
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", min=1, max=64, help="server processes (uvicorn's worker mode)")
    ] = 1,
    limit_concurrency: Annotated[
        int,
        typer.Option("--limit-concurrency", min=1, help="open connections per process; beyond, requests get 503"),
    ] = 100,
    cache_mb: Annotated[
        int, typer.Option("--cache-mb", min=1, max=65536, help="memory for the core's caches, per process")
    ] = 64,
    root_path: Annotated[
        str,
        typer.Option(
            "--root-path",
            metavar="PATH",
            help="the path a reverse proxy serves the API under, e.g. /taihu (docs/deploy.md)",
        ),
    ] = "",
    timeout_keep_alive: Annotated[
        int, typer.Option("--timeout-keep-alive", min=1, help="seconds an idle connection is kept after an answer")
    ] = 5,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            metavar="ADDRESSES",
            help="the reverse proxies (comma-separated addresses, or *) whose X-Forwarded-For names the client; "
            "default 127.0.0.1",
        ),
    ] = None,
    no_access_log: Annotated[bool, typer.Option("--no-access-log", help="write no line per request")] = False,
    api_only: Annotated[bool, typer.Option("--api-only", help="the API alone: no page at /, no /docs")] = False,
) -> None:
    """Run the HTTP API and the table page at / (docs at /docs); stateless: run several behind a load balancer."""
    from taihu.api.page import check_origin  # the origins whose pages may call the API (--cors-origin)
    from taihu.api.security import ANY_ADDRESS, trusted_hosts  # the Host names answered (--allowed-host)
    from taihu.api.server import serve as run_server  # only this command needs the server
    from taihu.api.settings import Settings

    settings = Settings(
        db=db,
        allowed_hosts=tuple(trusted_hosts(host, allowed_host or [])),  # a bad name: exit 2, said
        cors_origins=tuple(check_origin(origin) for origin in cors_origin or []),  # a bad origin: exit 2, said
        api_only=api_only,
        cache_mb=cache_mb,
    )
    check_database(settings.db)  # a database that cannot serve: exit 2 now, not a 503 at the first ledger
    say = locale_lang().say
    if host not in LOOPBACK:
        sys.stderr.write(say("cli.serve.no_authentication", host=host, port=port) + "\n")
    if host in ANY_ADDRESS and not allowed_host:
        sys.stderr.write(say("cli.serve.loopback_hosts_only", port=port) + "\n")
    run_server(
        settings,
        host,
        port,
        workers=workers,
        limit_concurrency=limit_concurrency,
        timeout_keep_alive=timeout_keep_alive,
        forwarded_allow_ips=forwarded_allow_ips,
        root_path=root_path,
        access_log=not no_access_log,
    )


if __name__ == "__main__":  # pragma: no cover
    main()
