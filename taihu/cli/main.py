"""The `taihu` command: parse the arguments, call the core, format the answer."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from taihu.scorer import HandError, HandScore, Settlement, rule_sets, score_hand, settle_table
from taihu.scorer.rulesets import get

app = typer.Typer(
    help="Score and settle hands of Zhejiang/Fujian regional mahjong (Lingxi and friends).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console()


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


def answer(call: Callable[[], Any]) -> Any:
    """Runs a core call; bad input becomes exit 2 with the message, no traceback."""
    try:
        return call()
    except HandError as exc:
        fail(str(exc))


def fail(message: str) -> None:
    """Bad input: the message on stderr, unwrapped, and exit 2."""
    sys.stderr.write(f"error: {message}\n")
    raise typer.Exit(2)


def parse_options(pairs: list[str] | None) -> dict[str, int]:
    options: dict[str, int] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not re.fullmatch(r"-?[0-9]+", value.strip()):
            fail(f"option '{pair}' must be NAME=NUMBER, e.g. double_at=10")
        options[name.strip()] = int(value)
    return options


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def hand_table(result: HandScore) -> Table:
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
    options = parse_options(option)
    result: HandScore = answer(lambda: score_hand(hand, rules=rules, options=options))
    if as_json:
        print_json(result.model_dump())
        return
    out.print(f"hand: {result.hand}", markup=False, highlight=False, soft_wrap=True)
    out.print(hand_table(result))
    if result.arrangement:
        out.print("arrangement: " + "  ".join(result.arrangement), markup=False, highlight=False)
    elif not result.winner:
        out.print("non-winning hand: base tai only", highlight=False)
    for note in result.notes:
        out.print(f"note: {note}", markup=False, highlight=False)


@app.command()
def rules(
    name: str | None = typer.Argument(None, help="a rule set; omit to list them all"),
    as_json: bool = typer.Option(False, "--json", help="print as JSON"),
) -> None:
    """List the rule sets, or one rule set's items and house options."""
    if name is None:
        infos = rule_sets()
        if as_json:
            print_json([i.model_dump() for i in infos])
            return
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
        print_json(info.model_dump())
        return
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
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"{'stdin' if path == '-' else path} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")


def settlement_tables(result: Settlement) -> list[Table]:
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


@app.command()
def settle(
    table: str = typer.Argument(..., metavar="TABLE.json", help="the table as JSON; - reads stdin"),
    as_json: bool = typer.Option(False, "--json", help="print the Settlement JSON"),
) -> None:
    """Settle one deal: each seat's tai, who pays whom and why, and the net per seat."""
    data = read_table(table)
    result: Settlement = answer(lambda: settle_table(data))
    if as_json:
        print_json(result.model_dump(mode="json", by_alias=True))
        return
    for part in settlement_tables(result):
        out.print(part)
    out.print(f"next dealer: {result.next_dealer}", highlight=False)


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on"),
    port: int = typer.Option(8000, "--port", help="port to listen on"),
) -> None:
    """Run the HTTP API (FastAPI; docs at /docs)."""
    import uvicorn  # only this command needs the server

    uvicorn.run("taihu.api.app:app", host=host, port=port)


if __name__ == "__main__":  # pragma: no cover
    app()
