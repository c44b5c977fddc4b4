"""`taihu ledger …`: the evening's ledger in a local SQLite file or a PostgreSQL database (no token needed)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING

from taihu.scorer import HandError

if TYPE_CHECKING:  # imported by the commands that use them: `taihu score` loads neither sqlite3 nor the ledger
    from taihu.cli.table import Console
    from taihu.ledger import Deal, LedgerView, Standing
    from taihu.store import LedgerStore


def cli() -> ModuleType:
    """The main command's helpers, imported late because main.py imports this module to register it."""
    from taihu.cli import main

    return main


def console() -> Console:
    """Lines left whole (the terminal breaks them), so that a path or a player's name copies back."""
    from taihu.cli.table import Console

    return Console(soft_wrap=True)


@contextmanager
def opened(db: str | None, create: bool = False) -> Iterator[LedgerStore]:
    """The store (only `new` makes the file); any bad input inside becomes exit 2 with one line."""
    from taihu.store import LedgerStore

    try:
        with LedgerStore(db, create=create) as store:
            yield store
    except HandError as exc:
        cli().fail(str(exc))


def seats_line(seats: dict[str, str]) -> str:
    return "  ".join(f"{wind} {player}" for wind, player in seats.items())


def outcome(deal: Deal) -> str:
    """What happened, in players' names."""
    if deal.winner is not None:
        how = f"on {deal.discarder}'s discard" if deal.discarder is not None else "self-drawn"
        return f"{deal.winner} won {how}"
    if deal.false_winners:
        return "false win by " + ", ".join(deal.false_winners)
    return "drawn"


def counters(deal: Deal) -> str:
    """Riichi: the honba the deal was played with and its pot of riichi sticks, before → after ("" elsewhere)."""
    before, after = deal.settlement.get("pot_before"), deal.settlement.get("pot_after")
    if before is None or after is None:
        return ""
    return f"honba {deal.table.get('honba', 0)}, pot {before} → {after}"


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def print_deal(deal: Deal, standing: Standing) -> None:
    net = deal.net()
    played = f"; {counters(deal)}" if counters(deal) else ""
    console().print(f"deal {deal.number}: {outcome(deal)}{played}; seats {seats_line(deal.seats)}")
    console().print("net:    " + "  ".join(f"{p} {signed(net[p])}" for p in standing.players))
    print_next(standing)


def print_next(standing: Standing) -> None:
    totals = standing.totals
    console().print("totals: " + "  ".join(f"{p} {signed(totals[p])}" for p in standing.players))
    console().print(f"next dealer: {standing.next_dealer}  (seats {seats_line(standing.next_seats)})")
    if standing.next_honba is not None:
        sticks = f"{standing.next_pot} riichi stick{'s' if standing.next_pot != 1 else ''}"
        console().print(f"next deal: honba {standing.next_honba}, pot {sticks}")


def new(name: str, rules: str, players: str, option: list[str] | None, db: str | None) -> None:
    """Start a ledger: its rule set, house options and the four players in table order."""
    options = cli().parse_options(option)
    names = [p.strip() for p in players.split(",")]
    with opened(db, create=True) as store:
        ledger = store.create(name, rules, names, options)
        console().print(f"ledger '{ledger.name}' ({ledger.rules}) in {store.where}")
        print_next(store.standing(ledger))


def add(name: str, table: str, expect: int | None, key: str | None, db: str | None) -> None:
    """Settle a deal with the seats as they stand and record it (safe to retry with --deal or --idempotency-key)."""
    from taihu.ledger import Deal, Standing

    data = cli().read_table(table)
    with opened(db) as store:
        ledger = store.ledger(name)
        added = store.add_once(ledger, data, expect=expect, key=key)
    shown, standings = added.answer["deal"], added.answer["standings"]
    deal = Deal(shown["number"], shown["seats"], shown["table"], shown["settlement"])
    if added.replayed:
        console().print(f"deal {deal.number} was recorded before with key '{key}': nothing stored now")
    fields = ("totals", "next_dealer", "next_honba", "next_pot", "deal_count")
    print_deal(deal, Standing(list(ledger.players), **{f: standings[f] for f in fields if f in standings}))


def show(name: str, as_json: bool, db: str | None) -> None:
    """The deals, who sat where, each player's running total, and who deals next."""
    with opened(db) as store:
        view = store.view(store.ledger(name))
    if as_json:
        cli().print_json(view.to_json())
        return
    players = view.ledger.players
    from taihu.cli.table import Table

    grid = Table(title=f"{view.ledger.name} — {view.ledger.rules}", title_justify="left")
    grid.add_column("deal", justify="right")
    grid.add_column("result")
    for player in players:
        grid.add_column(player, justify="right", no_wrap=True)
    running = {p: 0 for p in players}
    for deal in view.deals:
        net, wind_of = deal.net(), {player: wind for wind, player in deal.seats.items()}
        for player in players:
            running[player] += net[player]
        cells = [f"{wind_of[p]} {signed(net[p])}\n{running[p]}" for p in players]
        result = "\n".join(filter(None, (outcome(deal), counters(deal))))
        grid.add_row(str(deal.number), result, *cells, end_section=True)
    if not view.deals:
        grid.add_row("—", "no deals yet", *("0" for _ in players))
    console().print(grid)
    console().print("each cell: the seat (E deals) and the deal's net; below, the running total")
    if view.deals:
        print_trend(view)
    print_next(view.standing)


def print_trend(view: LedgerView) -> None:
    """Each player's running total from deal 0 to the last, one scale for all (taihu.ledger.trend_lines)."""
    from taihu.cli.table import cell_len, justify
    from taihu.ledger import trend_lines

    players = view.ledger.players
    width = max(map(cell_len, players))  # in terminal cells: a Chinese character takes two
    console().print(f"running totals, deal 0 → {len(view.deals)}:")
    for player, line in trend_lines(players, view.deals).items():
        console().print(f"  {justify(player, width, 'left')} {line} {signed(view.totals[player])}")


def undo(name: str, db: str | None) -> None:
    """Remove the last deal (a mistake); the seats go back to where they were."""
    with opened(db) as store:
        ledger = store.ledger(name)
        deal = store.undo(ledger)
        console().print(f"removed deal {deal.number}: {outcome(deal)}")
        print_next(store.standing(ledger))


def export(name: str, as_csv: bool, db: str | None) -> None:
    """Export the ledger to stdout: CSV with --csv, else the ledger JSON."""
    with opened(db) as store:
        view = store.view(store.ledger(name))
    if as_csv:
        sys.stdout.write(view.to_csv())
    else:
        cli().print_json(view.to_json())


def list_ledgers(db: str | None) -> None:
    """The ledgers in the database, with their players and number of deals."""
    from taihu.cli.table import Table
    from taihu.store import database_url, exists, shown

    try:
        where = shown(database_url(db))
    except HandError as exc:
        cli().fail(str(exc))
    found = []
    if exists(db):  # listing makes no file
        with opened(db) as store:
            found = store.names()
    if not found:
        console().print(f"no ledgers in {where}; start one with `taihu ledger new NAME --players …`")
        return
    grid = Table(title=f"ledgers in {where}", title_justify="left")
    for column in ("name", "rules", "players", "deals"):
        grid.add_column(column, justify="right" if column == "deals" else "left")
    for ledger, deals in found:
        grid.add_row(ledger.name, ledger.rules, ",".join(ledger.players), str(deals))
    console().print(grid)


def rename(name: str, new_name: str, db: str | None) -> None:
    """Rename a ledger (its deals stay as they are)."""
    with opened(db) as store:
        renamed = store.rename(store.ledger(name), new_name)
    console().print(f"ledger '{name}' is now '{renamed.name}'")


def delete(name: str, db: str | None) -> None:
    """Remove a ledger and its deals (`export` first to keep them)."""
    with opened(db) as store:
        ledger = store.ledger(name)
        count = store.standing(ledger).deal_count
        store.delete(ledger)
    console().print(f"removed ledger '{name}' and its {count} deal{'s' if count != 1 else ''}")
