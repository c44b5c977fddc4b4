"""The `taihu` command: parse the arguments, call the core, format the answer.

Exit 0 on success, 2 on bad input (the library's message on stderr), 1 on a
bug: one line `internal error (id …)` on stderr, the traceback only in the
`taihu.cli` log (at DEBUG, so it stays off the terminal unless asked for).
"""

from __future__ import annotations

import functools
import json
import os
import re
import sys
from collections.abc import Callable, Iterable
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import typer
from typer.exceptions import TyperException

from taihu.cli.ledger import ledger_app
from taihu.scorer import HandError, HandScore, rule_sets, score_hand
from taihu.scorer.errors import quote
from taihu.scorer.limits import MAX_NUMBER_CHARACTERS, MAX_OPTION_VALUE, check_json_text
from taihu.scorer.rulesets import get
from taihu.scorer.waits import Discards, Wait, WinValue, waits

if TYPE_CHECKING:  # rich is imported where a table is printed, the settlement where a table is settled
    from rich.console import Console
    from rich.table import Table

    from taihu.scorer import Settlement

app = typer.Typer(
    help="Score and settle hands of Zhejiang/Fujian regional mahjong (Lingxi and friends).",
    no_args_is_help=True,
    add_completion=True,  # `taihu --install-completion`; typer reads the shell only when asked
    pretty_exceptions_enable=False,
)
app.add_typer(ledger_app, name="ledger")
F = TypeVar("F", bound=Callable[..., Any])
# How typer ends a command on purpose (exit codes, Ctrl-C, usage errors): not bugs. Typer 0.29 carries
# its own click (`typer._click`, whose ClickException is a TyperException); importing click cost 10 ms.
DELIBERATE = (typer.Exit, typer.Abort, TyperException)


def guarded(command: F) -> F:
    """A command whose unexpected exception is a bug: exit 1 with `internal error (id …)`, no traceback."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except DELIBERATE:
            raise
        except HandError as exc:  # bad input that reached no `answer` (e.g. from parse_options) is still exit 2
            fail(str(exc))
        except Exception as exc:
            import logging  # a bug's path only: start-up does without logging and secrets
            import secrets

            error_id = secrets.token_hex(4)
            logging.getLogger("taihu.cli").debug(
                "internal error %s in taihu %s", error_id, command.__name__, exc_info=exc
            )
            sys.stderr.write(f"internal error (id {error_id}): a bug in taihu, not a problem with the input\n")
            raise typer.Exit(1) from None

    return run  # type: ignore[return-value]


def show_version(value: bool) -> None:
    if value:
        from taihu import __version__

        sys.stdout.write(f"taihu {__version__}\n")
        raise typer.Exit()


@app.callback()
def main(
    version: bool = typer.Option(
        False, "--version", callback=show_version, is_eager=True, help="print taihu's version and exit"
    ),
) -> None:
    """Score and settle hands of Zhejiang/Fujian regional mahjong (Lingxi and friends)."""


def answer(call: Callable[[], Any], as_json: bool = False, line: str | None = None) -> Any:
    """Runs a core call; bad input becomes exit 2 with the message, no traceback.

    With `as_json` the error's `{"detail", "code", "column"}` is also printed
    on stdout, so a program reading the JSON gets an answer either way. With
    `line` (the hand as typed) an error that has a column also shows the line
    with a caret under the place.
    """
    try:
        return call()
    except HandError as exc:
        if as_json:
            print_json(exc.as_dict())
        fail(str(exc), exc.caret(line) if line is not None else "")


def fail(message: str, pointer: str = "") -> None:
    """Bad input: the message on stderr, unwrapped, then the `pointer` lines (hand and caret), and exit 2."""
    sys.stderr.write(f"error: {message}\n" + (f"{pointer}\n" if pointer else ""))
    raise typer.Exit(2)


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


def console() -> Console:
    """The terminal, through rich: imported on the first table printed (`--json` never needs it).

    One per terminal size seen in `COLUMNS`/`LINES`, so a test (or the docs) running
    several widths in one process gets each its own width.
    """
    return sized_console(os.environ.get("COLUMNS"), os.environ.get("LINES"))


@cache
def sized_console(columns: str | None, lines: str | None) -> Console:
    from rich.console import Console

    return Console()


SHORT_VALUE = 10  # characters: `×2 per tai`; a longer value goes on the detail line in the compact layout
NARROW = 60  # below this many columns (a phone's terminal) tables give way to the compact layout


def narrow(out: Console) -> bool:
    return out.width < NARROW


class Lang(StrEnum):
    """Which name columns a table shows: 中文, English or both."""

    zh = "zh"
    en = "en"
    both = "both"


LANG_OPTION = typer.Option(Lang.both, "--lang", help="names shown: zh (中文), en (English) or both")


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


def compact_table(title: str, rows: Iterable[tuple[str, str, str]]) -> Table:
    """Name and value only, each row's detail on its own line below: readable at 40 columns.

    Names wrap at word boundaries (never an ellipsis); only a word wider than the
    whole column would be folded.
    """
    from rich import box
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, title_justify="left", box=box.SIMPLE, show_header=False, pad_edge=False, expand=True)
    table.add_column("name", overflow="fold", ratio=1)
    table.add_column("value", justify="right", no_wrap=True)
    for name, value, detail in rows:
        if name == "":
            table.add_section()
            continue
        if len(value) > SHORT_VALUE:  # a long value (`dealer 2, others 1`) would squeeze the name: it goes below
            value, detail = "", f"{value}; {detail}" if detail else value
        table.add_row(Text(name), Text(value))
        if detail:
            table.add_row(Padding(Text(detail, style="dim"), (0, 0, 0, 2)), "")
    return table


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def hand_table(result: HandScore, lang: Lang = Lang.both, compact: bool = False) -> Table:
    from rich.table import Table

    title = f"{result.rules}: {'winning hand' if result.winner else 'non-winning hand'}"
    doubled = "×2" if result.unit == "tai" else "×2 per tai"  # Lingxi doubles once; Luoshan the hu once per tai
    if compact:
        rows = [(names(i.name, i.name_en, lang), str(i.value), i.detail) for i in result.items]
        rows += [("", "", ""), (f"subtotal ({result.unit})", str(result.subtotal), "")]
        if result.doubled:
            rows.append((names("翻", "doubled", lang), doubled, ""))
        rows.append(("total", str(result.total), "" if result.legal else "not a legal win"))
        return compact_table(title, rows)
    table = Table(title=title, title_justify="left")
    table.add_column("key")
    for column in name_columns(lang):
        table.add_column(column)
    table.add_column(result.unit, justify="right")
    table.add_column("detail")
    blank = ("",) * len(name_columns(lang))
    for item in result.items:
        table.add_row(item.key, *name_cells(item.name, item.name_en, lang), str(item.value), item.detail)
    table.add_section()
    table.add_row("subtotal", *blank, str(result.subtotal), "")
    if result.doubled:
        table.add_row("doubled", *name_cells("翻", "", lang), doubled, "")
    table.add_row("total", *blank, str(result.total), "" if result.legal else "not a legal win")
    return table


def summary(result: HandScore) -> str:
    """One hand on one line: what batch mode prints per hand."""
    return f"{result.hand} → {result.total} {result.unit} ({'legal' if result.legal else 'not legal'})"


def score_lines(lines: Iterable[str], rules: str, options: dict[str, int], as_json: bool) -> int:
    """Batch mode: one result per hand line (blank lines and `#` comments skipped); 2 if any line was bad."""
    status = 0
    for number, line in enumerate(lines, start=1):
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
        sys.stdout.write(shown + "\n")
        sys.stdout.flush()  # a program feeding hands one at a time reads each answer as it comes
    return status


@app.command()
def score(
    hand: str = typer.Argument(..., help="the hand in taihu notation, quoted; - reads one hand per line from stdin"),
    rules: str = typer.Option("lingxi", "--rules", "-r", help="rule set"),
    option: list[str] | None = typer.Option(None, "--option", "-o", help="house option NAME=VALUE"),
    as_json: bool = typer.Option(False, "--json", help="print the HandScore JSON (JSON lines with -)"),
    lang: Lang = LANG_OPTION,
) -> None:
    """Score one hand: the items, the doubling, the total and the arrangement.

    With `-` as the hand, score each line of stdin: one line out per hand.
    """
    if hand == "-":
        answer(lambda: get(rules), as_json)  # an unknown rule set is one error, not one per line
        raise typer.Exit(score_lines(sys.stdin, rules, parse_options(option), as_json))
    result: HandScore = answer(lambda: score_hand(hand, rules=rules, options=parse_options(option)), as_json, hand)
    if as_json:
        print_json(result.to_dict())
        return
    out = console()
    out.print(f"hand: {result.hand}", markup=False, highlight=False, soft_wrap=True)
    out.print(hand_table(result, lang, compact=narrow(out)))
    if result.arrangement:
        out.print("arrangement: " + "  ".join(result.arrangement), markup=False, highlight=False)
    elif not result.winner:
        out.print("non-winning hand: base tai only", highlight=False)
    for note in result.notes:
        out.print(f"note: {note}", markup=False, highlight=False)


def win_text(win: WinValue | None) -> str:
    if win is None:
        return "—"
    han, reason = getattr(win, "han", None), getattr(win, "reason", None)  # riichi's han, fu and why not legal
    value = str(win.total) if han is None else f"{win.total} ({han} han {getattr(win, 'fu', 0)} fu)"
    return value + ("" if win.legal else f" (not legal: {reason.split(':')[0]})" if reason else " (not legal)")


WAITS_HEADINGS = {"tile": "牌", "unseen": "未见", "on a discard": "点炮", "self-drawn": "自摸", "legal": "合法"}
WAITS_HEADINGS |= {"arrangement": "牌型", "discard": "打", "waits": "听", "unseen winning tiles": "未见和张"}
WAITS_HEADINGS |= {"best total": "最高"}


def waits_table(title: str, found: tuple[Wait, ...], lang: Lang = Lang.both, compact: bool = False) -> Table:
    from rich.table import Table
    from rich.text import Text

    if compact:  # the tile, its copies unseen and best total; the two totals and the arrangement below
        rows = []
        for wait in found:
            best = wait.discard or wait.self_drawn
            name = f"{wait.tile}{' *' if wait.covered_by_wildcard else ''}: {wait.unseen} unseen"
            totals = f"on a discard {win_text(wait.discard)}, self-drawn {win_text(wait.self_drawn)}"
            shape = "  ".join(best.arrangement) if best else ""
            rows.append((name, str(best.total) if best else "—", "; ".join(filter(None, (totals, shape)))))
        return compact_table(title, rows)
    table = Table(title=title, title_justify="left")
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
            Text("  ".join(best.arrangement) if best else ""),
        )
    return table


@app.command(name="waits")
def waits_command(
    hand: str = typer.Argument(..., help="the hand without a winning tile, quoted (one tile more: which to discard)"),
    rules: str = typer.Option("lingxi", "--rules", "-r", help="rule set"),
    option: list[str] | None = typer.Option(None, "--option", "-o", help="house option NAME=VALUE"),
    as_json: bool = typer.Option(False, "--json", help="print the waits JSON"),
    lang: Lang = LANG_OPTION,
) -> None:
    """What wins for a waiting hand (听牌): each tile, its copies unseen, its total on a discard and self-drawn."""
    options = parse_options(option)
    result = answer(lambda: waits(hand, rules=rules, options=options), as_json, hand)
    if as_json:
        print_json(result.to_dict())
        return
    from rich.table import Table

    out = console()
    out.print(f"hand: {result.hand}", markup=False, highlight=False, soft_wrap=True)
    compact = narrow(out)
    if isinstance(result, Discards) and compact:
        rows = [
            (f"discard {c.tile}: waits {' '.join(w.tile for w in c.waits) or 'none'}", str(c.best_total), "")
            for c in result.discards
        ]
        out.print(compact_table(f"{result.rules}: a tile too many — discards, best first", rows))
    elif isinstance(result, Discards):
        table = Table(title=f"{result.rules}: a tile too many — discards, best first", title_justify="left")
        for col in ("discard", "waits", "unseen winning tiles", "best total"):
            table.add_column(heading(col, WAITS_HEADINGS[col], lang), justify="right" if col != "waits" else "left")
        for choice in result.discards:
            shown = " ".join(w.tile for w in choice.waits) or "not ready"
            table.add_row(choice.tile, shown, str(choice.unseen_wins), str(choice.best_total))
        out.print(table)
    if isinstance(result, Discards):
        if result.discards and result.discards[0].waits:
            best = result.discards[0]
            out.print(waits_table(f"after discarding {best.tile}", best.waits, lang, compact))
        return
    if not result.ready:
        out.print(f"{result.rules}: not ready — no tile completes this hand", highlight=False)
        return
    out.print(waits_table(f"{result.rules}: waits", result.waits, lang, compact))
    if any(w.covered_by_wildcard for w in result.waits):
        out.print("*: wins only through a held wildcard standing for another tile", highlight=False)


@app.command()
def rules(
    name: str | None = typer.Argument(None, help="a rule set; omit to list them all"),
    as_json: bool = typer.Option(False, "--json", help="print as JSON"),
    lang: Lang = LANG_OPTION,
) -> None:
    """List the rule sets, or one rule set's items and house options."""
    if name is None:
        infos = rule_sets()
        if as_json:
            print_json([i.to_dict() for i in infos])
            return
        from rich.table import Table

        out = console()
        table = Table(title="rule sets")
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
    info = answer(lambda: get(name).info())
    if as_json:
        print_json(info.to_dict())
        return
    from rich.table import Table

    out = console()
    title = f"{info.name} {info.chinese} — items ({info.unit})"
    if narrow(out):
        out.print(compact_table(title, [(names(i.name, i.name_en, lang), i.value, i.scope) for i in info.items]))
    else:
        table = Table(title=title, title_justify="left")
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
        options = Table(title="house options", title_justify="left")
        for col in ("option", "default", "alternatives", "meaning"):
            options.add_column(col)
        for opt in info.options:
            options.add_row(opt.name, str(opt.default), ", ".join(map(str, opt.alternatives)), opt.description)
        out.print(options)
    for line in info.exclusions:
        out.print(f"exclusion: {line}", markup=False, highlight=False)


def read_table(path: str) -> Any:
    """The table JSON from a file or stdin (`-`); unreadable or malformed is bad input."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}")
    answer(lambda: check_json_text(text, "stdin" if path == "-" else path))
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"{'stdin' if path == '-' else path} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")


SETTLE_HEADINGS = {"seat": "座位", "hand": "牌", "note": "备注", "from": "付", "to": "收", "amount": "数"}
SETTLE_HEADINGS |= {"reason": "原因", "settlement": "结算", "payments": "支付", "net": "净额"}


def settlement_tables(result: Settlement, lang: Lang = Lang.both, compact: bool = False) -> list[Table]:
    from rich.table import Table
    from rich.text import Text

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
    net = Table(title=say("net"), title_justify="left")
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
    scores = Table(title=f"{result.rules} — {say('settlement')}", title_justify="left")
    scores.add_column(say("seat"))
    scores.add_column(say("hand"), overflow="fold")
    scores.add_column(unit, justify="right")
    scores.add_column(say("note"), overflow="fold")
    for seat, hand, total, note in seats:
        scores.add_row(seat, Text(hand), total, Text(note))
    payments = Table(title=say("payments"), title_justify="left")
    for col in ("from", "to", "amount", "reason"):
        payments.add_column(say(col), justify="right" if col == "amount" else "left")
    for row in paid:
        payments.add_row(*row)
    return [scores, payments, net]


def settle_table(table: Any) -> Settlement:
    """The core's `settle_table`, imported on first use: `taihu score` never loads the settlement modules."""
    from taihu.scorer.settlement import settle_table as settle

    return settle(table)


@app.command()
def settle(
    table: str = typer.Argument(..., metavar="TABLE.json", help="the table as JSON; - reads stdin"),
    as_json: bool = typer.Option(False, "--json", help="print the Settlement JSON"),
    lang: Lang = LANG_OPTION,
) -> None:
    """Settle one deal: each seat's tai, who pays whom and why, and the net per seat."""
    data = read_table(table)
    result: Settlement = answer(lambda: settle_table(data))
    if as_json:
        print_json(result.to_dict())
        return
    out = console()
    for part in settlement_tables(result, lang, compact=narrow(out)):
        out.print(part)
    out.print(f"next dealer: {result.next_dealer}", highlight=False)


LOOPBACK = ("127.0.0.1", "localhost", "::1")


@app.command()
def serve(
    cors_origin: list[str] | None = typer.Option(
        None,
        "--cors-origin",
        metavar="URL",
        help="an origin allowed to call the API from a browser (repeatable); none by default",
    ),
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on"),
    port: int = typer.Option(8000, "--port", help="port to listen on"),
    db: str | None = typer.Option(None, "--db", metavar="PATH", help="the ledger database of /ledgers"),
    workers: int = typer.Option(1, "--workers", min=1, max=64, help="server processes (uvicorn's worker mode)"),
    limit_concurrency: int = typer.Option(
        100, "--limit-concurrency", min=1, help="open connections per process; beyond, requests get 503"
    ),
    cache_mb: int = typer.Option(64, "--cache-mb", min=1, max=65536, help="memory for the core's caches, per process"),
) -> None:
    """Run the HTTP API and the table page at / (docs at /docs); stateless: run several behind a load balancer."""
    from taihu.api.page import allow_origins_in_every_worker, check_origin  # the page at / and its CORS

    try:
        allow_origins_in_every_worker([check_origin(o) for o in cors_origin or []])
    except ValueError as exc:
        fail(f"--cors-origin {exc}")
    if host not in LOOPBACK:
        sys.stderr.write(f"warning: taihu serve has no authentication; anyone who can reach {host}:{port} can use it\n")
    if db is not None:
        os.environ["TAIHU_DB"] = db  # read by taihu.ledger.default_path, in every worker
    from taihu.api.server import serve as run_server  # only this command needs the server

    run_server(host, port, workers=workers, limit_concurrency=limit_concurrency, cache_mb=cache_mb)


def guard_every_command(typer_app: typer.Typer) -> None:
    """Every command, those of sub-apps included, exits 1 on a bug (see `guarded`).

    Done once here rather than per command, so a command or sub-app added later is covered too.
    """
    for info in typer_app.registered_commands:
        if info.callback is not None and not hasattr(info.callback, "__wrapped__"):
            info.callback = guarded(info.callback)
    for group in typer_app.registered_groups:
        if group.typer_instance is not None:
            guard_every_command(group.typer_instance)


guard_every_command(app)

if __name__ == "__main__":  # pragma: no cover
    app()
