"""The `taihu` command: a typer application that parses the arguments, calls the core and formats the answer.

Exit 0 on success, 2 on bad input (the library's message on stderr) and on a usage error (typer's),
1 on a bug: one line `internal error (id …)` on stderr, the traceback only in the `taihu.cli` log
(at DEBUG, so it stays off the terminal unless asked for). Typer's pretty tracebacks are off.

Start-up is most of a `taihu score`'s time, so this imports only what every command needs (typer,
the core's scoring path); rich (taihu/cli/draw.py), the waits search, the settlement, the ledger and
the server are imported by the commands that use them (docs/performance.md has the figures).
"""

import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from typer.core import TyperGroup
from typer.exceptions import TyperException

from taihu.cli.ledger import ledger_app
from taihu.scorer import HandError, HandScore, rule_sets, score_hand
from taihu.scorer.errors import printable, quote
from taihu.scorer.limits import MAX_NUMBER_CHARACTERS, MAX_OPTION_VALUE, check_json_text
from taihu.scorer.rulesets import REGISTRY, get

if TYPE_CHECKING:  # imported where a table is printed, a table settled, a hand's waits searched
    from rich.console import Console
    from rich.table import Table

    from taihu.scorer import Settlement
    from taihu.scorer.waits import Discards, Wait, Waits, WinValue


class Lang(StrEnum):
    """Which name columns a table shows: 中文, English or both."""

    zh = "zh"
    en = "en"
    both = "both"


class Taihu(TyperGroup):
    """The command group that ends every command, those of `taihu ledger` included, as the docstring above says.

    Typer's own ends (`typer.Exit`, usage errors, Ctrl-C's `Abort`) pass through; a `HandError` that reached
    no `answer` is bad input all the same; anything else is a bug.
    """

    def invoke(self, ctx: typer.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, TyperException):  # typer's ClickException is a TyperException
            raise
        except HandError as exc:
            fail(str(exc))
        except KeyboardInterrupt:
            raise typer.Exit(130) from None
        except (
            BrokenPipeError
        ):  # the reader went away (`taihu rules | head`): no message, as the docs of `signal` advise
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(1) from None
        except Exception as exc:
            import logging  # a bug's path only: start-up does without logging and secrets
            import secrets

            error_id = secrets.token_hex(4)
            command = ctx.invoked_subcommand or ""
            logging.getLogger("taihu.cli").debug("internal error %s in taihu %s", error_id, command, exc_info=exc)
            sys.stderr.write(f"internal error (id {error_id}): a bug in taihu, not a problem with the input\n")
            raise typer.Exit(1) from None


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
    the process ends there, without the interpreter's teardown of every module (7 ms, a seventh of
    a `taihu score`). `serve` ends the usual way: its server and workers have their own clean-up.
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
        status = status or 1
    os._exit(status)


def error_status(message: str, pointer: str = "") -> int:
    """Bad input: the message on stderr, unwrapped, then the `pointer` lines (hand and caret); status 2.

    Each line is escaped (`printable`): what the input held reaches the terminal as text, never as a control.
    """
    lines = [f"error: {message}", *(pointer.split("\n") if pointer else ())]
    sys.stderr.write("".join(printable(line) + "\n" for line in lines))
    return 2


def answer(call: Callable[[], Any], as_json: bool = False, line: str | None = None) -> Any:
    """Runs a core call; bad input becomes exit 2 with the message, no traceback.

    With `as_json` the error's `{"detail", "code", "column"}` is also printed
    on stdout, so a program reading the JSON gets an answer either way. With
    `line` (the hand as typed), or the hand of a table's seat the error names
    (`HandError.line`), an error that has a column also shows the line with a
    caret under the place.
    """
    try:
        return call()
    except HandError as exc:
        if as_json:
            print_json(exc.as_dict())
        shown = line if line is not None else exc.line
        fail(str(exc), exc.caret(shown) if shown is not None else "")


def fail(message: str, pointer: str = "") -> None:
    """Bad input: the message on stderr, unwrapped, then the `pointer` lines (hand and caret), and exit 2."""
    raise typer.Exit(error_status(message, pointer))


def parse_options(pairs: list[str] | None) -> dict[str, int]:
    options: dict[str, int] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not re.fullmatch(r"-?[0-9]+", value.strip()):
            raise HandError(f"option '{quote(pair)}' must be NAME=NUMBER, e.g. double_at=10")
        if len(value.strip()) > MAX_NUMBER_CHARACTERS:  # int() refuses 4,300 digits; the range is far below
            raise HandError(
                f"option '{quote(name.strip())}' must be at most {MAX_OPTION_VALUE}, got {quote(value.strip())}"
            )
        options[name.strip()] = int(value)
    return options


def rule_set_names(incomplete: str) -> list[str]:
    """Completion of a rule set's name (`-r lu` → luoshan)."""
    return [name for name in REGISTRY if name.startswith(incomplete)]


# the arguments and options several commands share, declared once
RulesOption = Annotated[
    str, typer.Option("--rules", "-r", metavar="RULES", help="rule set", autocompletion=rule_set_names)
]
HouseOption = Annotated[
    list[str] | None, typer.Option("--option", "-o", metavar="NAME=VALUE", help="house option NAME=VALUE (repeatable)")
]
LangOption = Annotated[Lang, typer.Option("--lang", help="names shown: zh (中文), en (English) or both")]
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


def heading(english: str, chinese: str, lang: Lang) -> str:
    """A heading of settle's and waits' tables, which have no name columns: Chinese with `zh`, else English.

    `both` keeps the English headings, so the default output stays as it was (and as narrow).
    """
    return chinese if lang is Lang.zh else english


def compact_table(title: str, rows: Iterable[tuple[str, str, str]]) -> "Table":
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
            value, detail = "", f"{value}; {detail}" if detail else value
        table.add_row(name, value)
        if detail:
            table.add_row(Padding(Text(safe(detail), style="dim"), (0, 0, 0, 2)), "")
    return table


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def hand_table(result: HandScore, lang: Lang = Lang.both, compact: bool = False) -> "Table":
    from taihu.cli.draw import table as made

    title = f"{result.rules}: {'winning hand' if result.winner else 'non-winning hand'}"
    doubled = "×2" if result.unit == "tai" else "×2 per tai"  # Lingxi doubles once; Luoshan the hu once per tai
    # each item's value in its own unit (`×9` for a multiplier); the rule set's arithmetic under the table
    shown = {id(i): f"×{i.value}" if i.unit == "multiplier" else f"{i.value} {i.unit}" for i in result.items}
    if compact:
        rows = [(names(i.name, i.name_en, lang), shown[id(i)], i.detail) for i in result.items]
        counted = "han" if result.rules == "riichi" else result.unit  # riichi's subtotal is the han
        rows += [("", "", ""), (f"subtotal ({counted})", str(result.subtotal), "")]
        if result.doubled:
            rows.append((names("翻", "doubled", lang), doubled, ""))
        rows.append((f"total ({result.unit})", str(result.total), "" if result.legal else "not a legal win"))
        table = compact_table(title, rows)
    else:
        table = made(title)
        table.add_column("key")
        for column in name_columns(lang):
            table.add_column(column)
        table.add_column("value", justify="right")
        table.add_column("detail")
        blank = ("",) * len(name_columns(lang))
        for item in result.items:
            table.add_row(item.key, *name_cells(item.name, item.name_en, lang), shown[id(item)], item.detail)
        table.add_section()
        table.add_row("subtotal", *blank, str(result.subtotal), "")
        if result.doubled:
            table.add_row("doubled", *name_cells("翻", "", lang), doubled, "")
        table.add_row("total", *blank, f"{result.total} {result.unit}", "" if result.legal else "not a legal win")
    from taihu.scorer.arithmetic import arithmetic

    table.caption, table.caption_justify = "\n".join(arithmetic(result)), "left"
    return table


def summary(result: HandScore) -> str:
    """One hand on one line: what batch mode prints per hand."""
    return f"{printable(result.hand)} → {result.total} {result.unit} ({'legal' if result.legal else 'not legal'})"


def with_progress(lines: Iterable[str], as_json: bool) -> Iterator[str]:
    """The lines, with a rich progress bar on stderr while they are scored, where stderr is a terminal.

    Never with `--json` or in a pipe: a program reading the answers gets only them.
    """
    if as_json or not sys.stderr.isatty():
        yield from lines
        return
    from taihu.cli.draw import progress

    with progress() as bar:
        task = bar.add_task("scoring hands", total=None)
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


def score_lines(lines: Iterable[str], rules: str, options: dict[str, int], as_json: bool) -> int:
    """Batch mode: one result per hand line (blank lines and `#` comments skipped); 2 if any line was bad."""
    status = 0
    for number, line in enumerate(with_progress(lines, as_json), start=1):
        text = line.partition("#")[0].strip()  # `#` starts a comment: the notation never holds one
        if not text:
            continue
        try:
            result = score_hand(text, rules=rules, options=options)
        except HandError as exc:
            status = 2
            shown = json.dumps(exc.as_dict(), ensure_ascii=False) if as_json else f"error: line {number}: {exc}"
        else:
            shown = json.dumps(result.to_dict(), ensure_ascii=False) if as_json else summary(result)
        sys.stdout.write((shown if as_json else printable(shown)) + "\n")
        sys.stdout.flush()  # a program feeding hands one at a time reads each answer as it comes
    return status


R = TypeVar("R", bound="HandScore | Waits | Discards")


def answer_for_hand(
    hand: str, option: list[str] | None, as_json: bool, call: Callable[[dict[str, int]], R]
) -> "tuple[R, Console] | None":
    """What `score` and `waits` share: the options read, the core called on the hand (bad input is exit 2
    with the caret under its place), then the JSON printed (None: nothing more to show), or the hand line
    printed and the answer with the terminal for the rest."""
    options = answer(lambda: parse_options(option), as_json)
    result = answer(lambda: call(options), as_json, hand)
    if as_json:
        print_json(result.to_dict())
        return None
    out = console()
    out.print(f"hand: {result.hand}", soft_wrap=True)
    return result, out


@app.command()
def score(
    hand: Annotated[
        str,
        typer.Argument(metavar="HAND", help="the hand in taihu notation, quoted; - reads one hand per line from stdin"),
    ],
    rules: RulesOption = "lingxi",
    option: HouseOption = None,
    as_json: Annotated[bool, json_option("print the HandScore JSON (JSON lines with -)")] = False,
    lang: LangOption = Lang.both,
) -> None:
    """Score one hand: the items, the doubling, the total and the arrangement.

    With `-` as the hand, score each line of stdin: one line out per hand.
    """
    if hand == "-":
        answer(lambda: get(rules), as_json)  # an unknown rule set is one error, not one per line
        raise typer.Exit(score_lines(sys.stdin, rules, answer(lambda: parse_options(option), as_json), as_json))
    shown = answer_for_hand(hand, option, as_json, lambda options: score_hand(hand, rules=rules, options=options))
    if shown is None:
        return
    result, out = shown
    out.print(hand_table(result, lang, compact=narrow(out)))
    if result.arrangement:
        out.print("arrangement: " + "  ".join(result.arrangement))
    elif not result.winner:
        out.print("non-winning hand: base tai only")
    for note in result.notes:
        out.print(f"note: {note}")


def win_text(win: "WinValue | None") -> str:
    if win is None:
        return "—"
    han, reason = getattr(win, "han", None), getattr(win, "reason", None)  # riichi's han, fu and why not legal
    value = str(win.total) if han is None else f"{win.total} ({han} han {getattr(win, 'fu', 0)} fu)"
    return value + ("" if win.legal else f" (not legal: {reason.split(':')[0]})" if reason else " (not legal)")


WAITS_HEADINGS = {"tile": "牌", "unseen": "未见", "on a discard": "点炮", "self-drawn": "自摸", "legal": "合法"}
WAITS_HEADINGS |= {"arrangement": "牌型", "discard": "打", "waits": "听", "unseen winning tiles": "未见和张"}
WAITS_HEADINGS |= {"best total": "最高"}


def waits_table(title: str, found: "tuple[Wait, ...]", lang: Lang = Lang.both, compact: bool = False) -> "Table":
    from taihu.cli.draw import table as made

    if compact:  # the tile, its copies unseen and best total; the two totals and the arrangement below
        rows = []
        for wait in found:
            best = wait.discard or wait.self_drawn
            name = f"{wait.tile}{' *' if wait.covered_by_wildcard else ''}: {wait.unseen} unseen"
            totals = f"on a discard {win_text(wait.discard)}, self-drawn {win_text(wait.self_drawn)}"
            shape = "  ".join(best.arrangement) if best else ""
            rows.append((name, str(best.total) if best else "—", "; ".join(filter(None, (totals, shape)))))
        return compact_table(title, rows)
    table = made(title)
    for col in ("tile", "unseen", "on a discard", "self-drawn", "legal", "arrangement"):
        justify = "right" if col in ("unseen", "on a discard", "self-drawn") else "left"
        table.add_column(heading(col, WAITS_HEADINGS[col], lang), justify=justify)
    for wait in found:
        best = wait.discard or wait.self_drawn
        table.add_row(
            wait.tile + (" *" if wait.covered_by_wildcard else ""),
            str(wait.unseen),
            win_text(wait.discard),
            win_text(wait.self_drawn),
            "yes" if wait.legal else "no",
            "  ".join(best.arrangement) if best else "",
        )
    return table


@app.command(name="waits")
def waits_command(
    hand: Annotated[
        str,
        typer.Argument(
            metavar="HAND", help="the hand without a winning tile, quoted (one tile more: which to discard)"
        ),
    ],
    rules: RulesOption = "lingxi",
    option: HouseOption = None,
    as_json: Annotated[bool, json_option("print the waits JSON")] = False,
    lang: LangOption = Lang.both,
) -> None:
    """What wins for a waiting hand (听牌): each tile, its copies unseen, its total on a discard and self-drawn."""
    from taihu.scorer.waits import Discards, waits

    def search(options: dict[str, int]) -> "Waits | Discards":
        with working("searching the waits", as_json):  # a hand with wildcards can take a while
            return waits(hand, rules=rules, options=options)

    shown = answer_for_hand(hand, option, as_json, search)
    if shown is None:
        return
    result, out = shown
    from taihu.cli.draw import table as made

    compact = narrow(out)
    if isinstance(result, Discards) and compact:
        rows = [
            (f"discard {c.tile}: waits {' '.join(w.tile for w in c.waits) or 'none'}", str(c.best_total), "")
            for c in result.discards
        ]
        out.print(compact_table(f"{result.rules}: a tile too many — discards, best first", rows))
    elif isinstance(result, Discards):
        table = made(f"{result.rules}: a tile too many — discards, best first")
        for col in ("discard", "waits", "unseen winning tiles", "best total"):
            table.add_column(heading(col, WAITS_HEADINGS[col], lang), justify="right" if col != "waits" else "left")
        for choice in result.discards:
            tiles = " ".join(w.tile for w in choice.waits) or "not ready"
            table.add_row(choice.tile, tiles, str(choice.unseen_wins), str(choice.best_total))
        out.print(table)
    if isinstance(result, Discards):
        if result.discards and result.discards[0].waits:
            best = result.discards[0]
            out.print(waits_table(f"after discarding {best.tile}", best.waits, lang, compact))
        return
    if not result.ready:
        out.print(f"{result.rules}: not ready — no tile completes this hand")
        return
    out.print(waits_table(f"{result.rules}: waits", result.waits, lang, compact))
    if any(w.covered_by_wildcard for w in result.waits):
        out.print("*: wins only through a held wildcard standing for another tile")


@app.command()
def rules(
    name: Annotated[
        str | None,
        typer.Argument(metavar="[RULES]", help="a rule set; omit to list them all", autocompletion=rule_set_names),
    ] = None,
    as_json: Annotated[bool, json_option("print as JSON")] = False,
    lang: LangOption = Lang.both,
) -> None:
    """List the rule sets, or one rule set's items and house options."""
    from taihu.cli.draw import table as made

    if name is None:
        infos = rule_sets()
        if as_json:
            print_json([i.to_dict() for i in infos])
            return
        out = console()
        table = made("rule sets", title_justify="center")
        table.add_column("name")
        if lang is not Lang.en:
            table.add_column("中文")
        table.add_column("unit")
        table.add_column("items", justify="right")
        for info in infos:
            chinese = (info.chinese,) if lang is not Lang.en else ()
            table.add_row(info.name, *chinese, info.unit, str(len(info.items)))
        out.print(table)
        return
    info = answer(lambda: get(name).info(), as_json)
    if as_json:
        print_json(info.to_dict())
        return
    out = console()
    title = f"{info.name} {info.chinese} — items ({info.unit})"
    if narrow(out):
        out.print(compact_table(title, [(names(i.name, i.name_en, lang), i.value, i.scope) for i in info.items]))
    else:
        table = made(title)
        for col in ("key", *name_columns(lang), "value", "for"):
            table.add_column(col)
        for item in info.items:
            table.add_row(item.key, *name_cells(item.name, item.name_en, lang), item.value, item.scope)
        out.print(table)
    if narrow(out):  # each option and its default, the alternatives and meaning below
        rows = [
            (o.name, str(o.default), f"or {', '.join(map(str, o.alternatives))}: {o.description}") for o in info.options
        ]
        out.print(compact_table("house options", rows))
    else:
        options = made("house options")
        for col in ("option", "default", "alternatives", "meaning"):
            options.add_column(col)
        for opt in info.options:
            options.add_row(opt.name, str(opt.default), ", ".join(map(str, opt.alternatives)), opt.description)
        out.print(options)
    for line in info.exclusions:
        out.print(f"exclusion: {line}")


def read_table(path: str) -> Any:
    """The table JSON from a file or stdin (`-`); unreadable or malformed is bad input (a HandError)."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise HandError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    check_json_text(text, "stdin" if path == "-" else path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = "stdin" if path == "-" else path
        raise HandError(f"{where} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None


SETTLE_HEADINGS = {"seat": "座位", "hand": "牌", "note": "备注", "from": "付", "to": "收", "amount": "数"}
SETTLE_HEADINGS |= {"reason": "原因", "settlement": "结算", "payments": "支付", "net": "净额"}


def settlement_tables(result: "Settlement", lang: Lang = Lang.both, compact: bool = False) -> "list[Table]":
    from taihu.cli.draw import table as made

    def say(english: str) -> str:
        return heading(english, SETTLE_HEADINGS[english], lang)

    unit = next((s.unit for s in result.scores.values() if isinstance(s, HandScore)), "total")
    seats = [
        (
            seat + (" (dealer)" if seat == "E" else ""),
            score.hand if isinstance(score, HandScore) else "(total only)",
            str(score.total),
            "; ".join(score.notes) if isinstance(score, HandScore) else "",
        )
        for seat, score in result.scores.items()
    ]
    paid = [(p.from_, p.to, str(p.amount), p.reason) for p in result.payments] or [("—", "—", "0", "no payments")]
    net = made(say("net"))
    for seat in result.net:
        net.add_column(seat, justify="right")
    net.add_row(*(f"{v:+d}" if v else "0" for v in result.net.values()))
    if compact:  # the seat and its total, the hand below; each payment `from → to` and its amount
        seat_rows = [
            (f"{seat} ({unit})", total, "; ".join(filter(None, (hand, note)))) for seat, hand, total, note in seats
        ]
        pay_rows = [(f"{payer} → {payee}", amount, reason) for payer, payee, amount, reason in paid]
        return [
            compact_table(f"{result.rules} — {say('settlement')}", seat_rows),
            compact_table(say("payments"), pay_rows),
            net,
        ]
    scores = made(f"{result.rules} — {say('settlement')}")
    scores.add_column(say("seat"))
    scores.add_column(say("hand"))
    scores.add_column(unit, justify="right")
    scores.add_column(say("note"))
    for seat, hand, total, note in seats:
        scores.add_row(seat, hand, total, note)
    payments = made(say("payments"))
    for col in ("from", "to", "amount", "reason"):
        payments.add_column(say(col), justify="right" if col == "amount" else "left")
    for row in paid:
        payments.add_row(*row)
    return [scores, payments, net]


def settle_table(table: Any) -> "Settlement":
    """The core's `settle_table`, imported on first use: `taihu score` never loads the settlement modules."""
    from taihu.scorer.settlement import settle_table as settle

    return settle(table)


@app.command()
def settle(
    table: TableArgument,
    as_json: Annotated[bool, json_option("print the Settlement JSON")] = False,
    lang: LangOption = Lang.both,
) -> None:
    """Settle one deal: each seat's tai, who pays whom and why, and the net per seat."""
    data = answer(lambda: read_table(table), as_json)
    result = answer(lambda: settle_table(data), as_json)
    if as_json:
        print_json(result.to_dict())
        return
    out = console()
    for part in settlement_tables(result, lang, compact=narrow(out)):
        out.print(part)
    out.print(f"next dealer: {result.next_dealer}")


LOOPBACK = ("127.0.0.1", "localhost", "::1")


@app.command()
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
            metavar="PATH|URL",
            help="the ledger database of /ledgers: a SQLite file, or a postgresql:// URL for several hosts",
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
    no_access_log: Annotated[bool, typer.Option("--no-access-log", help="write no line per request")] = False,
    api_only: Annotated[bool, typer.Option("--api-only", help="the API alone: no page at /, no /docs")] = False,
) -> None:
    """Run the HTTP API and the table page at / (docs at /docs); stateless: run several behind a load balancer."""
    from taihu.api.page import allow_origins_in_every_worker, check_origin  # the page at / and its CORS

    try:
        allow_origins_in_every_worker([check_origin(o) for o in cors_origin or []])
    except ValueError as exc:
        fail(f"--cors-origin {exc}")
    from taihu.api.security import check_host  # the Host names answered (--allowed-host)

    try:
        allowed_hosts = [check_host(name) for name in allowed_host or []]
    except ValueError as exc:
        fail(f"--allowed-host {exc}")
    if host not in LOOPBACK:
        sys.stderr.write(f"warning: taihu serve has no authentication; anyone who can reach {host}:{port} can use it\n")
    if db is not None:
        os.environ["TAIHU_DB"] = db  # read by taihu.ledger.default_path, in every worker
    from taihu.api.server import serve as run_server  # only this command needs the server

    run_server(
        host,
        port,
        workers=workers,
        limit_concurrency=limit_concurrency,
        cache_mb=cache_mb,
        allowed_hosts=allowed_hosts,
        root_path=root_path,
        access_log=not no_access_log,
        api_only=api_only,
    )


if __name__ == "__main__":  # pragma: no cover
    main()
