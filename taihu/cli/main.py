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
from collections.abc import Callable
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
    add_completion=False,
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


@cache
def console() -> Console:
    """The terminal, through rich: imported on the first table printed (`--json` never needs it)."""
    from rich.console import Console

    return Console()


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def hand_table(result: HandScore) -> Table:
    from rich.table import Table

    table = Table(
        title=f"{result.rules}: {'winning hand' if result.winner else 'non-winning hand'}", title_justify="left"
    )
    table.add_column("key")
    table.add_column("中文")
    table.add_column("English")
    table.add_column(result.unit, justify="right")
    table.add_column("detail")
    for item in result.items:
        table.add_row(item.key, item.name, item.name_en, str(item.value), item.detail)
    table.add_section()
    table.add_row("subtotal", "", "", str(result.subtotal), "")
    if result.doubled:
        # Lingxi doubles once; Luoshan doubles the hu once per tai
        table.add_row("doubled", "翻", "", "×2" if result.unit == "tai" else "×2 per tai", "")
    table.add_row("total", "", "", str(result.total), "" if result.legal else "not a legal win")
    return table


@app.command()
def score(
    hand: str = typer.Argument(..., help="the hand in taihu notation, quoted"),
    rules: str = typer.Option("lingxi", "--rules", "-r", help="rule set"),
    option: list[str] | None = typer.Option(None, "--option", "-o", help="house option NAME=VALUE"),
    as_json: bool = typer.Option(False, "--json", help="print the HandScore JSON"),
) -> None:
    """Score one hand: the items, the doubling, the total and the arrangement."""
    result: HandScore = answer(lambda: score_hand(hand, rules=rules, options=parse_options(option)), as_json, hand)
    if as_json:
        print_json(result.to_dict())
        return
    out = console()
    out.print(f"hand: {result.hand}", markup=False, highlight=False, soft_wrap=True)
    out.print(hand_table(result))
    if result.arrangement:
        out.print("arrangement: " + "  ".join(result.arrangement), markup=False, highlight=False)
    elif not result.winner:
        out.print("non-winning hand: base tai only", highlight=False)
    for note in result.notes:
        out.print(f"note: {note}", markup=False, highlight=False)


def win_text(win: WinValue | None) -> str:
    return "—" if win is None else str(win.total) + ("" if win.legal else " (not legal)")


def waits_table(title: str, found: tuple[Wait, ...]) -> Table:
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, title_justify="left")
    for col in ("tile", "unseen", "on a discard", "self-drawn", "legal", "arrangement"):
        table.add_column(col, justify="right" if col in ("unseen", "on a discard", "self-drawn") else "left")
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
    if isinstance(result, Discards):
        table = Table(title=f"{result.rules}: a tile too many — discards, best first", title_justify="left")
        for col in ("discard", "waits", "unseen winning tiles", "best total"):
            table.add_column(col, justify="right" if col != "waits" else "left")
        for choice in result.discards:
            shown = " ".join(w.tile for w in choice.waits) or "not ready"
            table.add_row(choice.tile, shown, str(choice.unseen_wins), str(choice.best_total))
        out.print(table)
        if result.discards and result.discards[0].waits:
            best = result.discards[0]
            out.print(waits_table(f"after discarding {best.tile}", best.waits))
        return
    if not result.ready:
        out.print(f"{result.rules}: not ready — no tile completes this hand", highlight=False)
        return
    out.print(waits_table(f"{result.rules}: waits", result.waits))
    if any(w.covered_by_wildcard for w in result.waits):
        out.print("*: wins only through a held wildcard standing for another tile", highlight=False)


@app.command()
def rules(
    name: str | None = typer.Argument(None, help="a rule set; omit to list them all"),
    as_json: bool = typer.Option(False, "--json", help="print as JSON"),
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
        table.add_column("中文")
        table.add_column("unit")
        table.add_column("items", justify="right")
        for info in infos:
            table.add_row(info.name, info.chinese, info.unit, str(len(info.items)))
        out.print(table)
        return
    info = answer(lambda: get(name).info())
    if as_json:
        print_json(info.to_dict())
        return
    from rich.table import Table

    out = console()
    table = Table(title=f"{info.name} {info.chinese} — items ({info.unit})", title_justify="left")
    for col in ("key", "中文", "English", "value", "for"):
        table.add_column(col)
    for item in info.items:
        table.add_row(item.key, item.name, item.name_en, item.value, item.scope)
    out.print(table)
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


def settlement_tables(result: Settlement) -> list[Table]:
    from rich.table import Table
    from rich.text import Text

    unit = next((s.unit for s in result.scores.values() if isinstance(s, HandScore)), "total")
    scores = Table(title=f"{result.rules} — settlement", title_justify="left")
    scores.add_column("seat")
    scores.add_column("hand", overflow="fold")
    scores.add_column(unit, justify="right")
    scores.add_column("note", overflow="fold")
    for seat, score in result.scores.items():
        hand = score.hand if isinstance(score, HandScore) else "(total only)"
        notes = "; ".join(score.notes) if isinstance(score, HandScore) else ""
        scores.add_row(seat + (" (dealer)" if seat == "E" else ""), Text(hand), str(score.total), Text(notes))
    payments = Table(title="payments", title_justify="left")
    for col in ("from", "to", "amount", "reason"):
        payments.add_column(col, justify="right" if col == "amount" else "left")
    for p in result.payments:
        payments.add_row(p.from_, p.to, str(p.amount), p.reason)
    if not result.payments:
        payments.add_row("—", "—", "0", "no payments")
    net = Table(title="net", title_justify="left")
    for seat in result.net:
        net.add_column(seat, justify="right")
    net.add_row(*(f"{v:+d}" if v else "0" for v in result.net.values()))
    return [scores, payments, net]


def settle_table(table: Any) -> Settlement:
    """The core's `settle_table`, imported on first use: `taihu score` never loads the settlement modules."""
    from taihu.scorer.settlement import settle_table as settle

    return settle(table)


@app.command()
def settle(
    table: str = typer.Argument(..., metavar="TABLE.json", help="the table as JSON; - reads stdin"),
    as_json: bool = typer.Option(False, "--json", help="print the Settlement JSON"),
) -> None:
    """Settle one deal: each seat's tai, who pays whom and why, and the net per seat."""
    data = read_table(table)
    result: Settlement = answer(lambda: settle_table(data))
    if as_json:
        print_json(result.to_dict())
        return
    out = console()
    for part in settlement_tables(result):
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
