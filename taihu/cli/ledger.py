"""`taihu ledger …`: the evening's ledger in a local SQLite file or a PostgreSQL database (no token needed).

Players' and ledgers' names are the users' text: each is escaped (`printable`) where it is put into a
line, so a control character in a name reaches the terminal as text (taihu/cli/draw.py escapes the rest).
"""

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING, Annotated

import typer

from taihu.cli.language import Lang, LangOption, option_lang
from taihu.cli.usage import SpokenCommand, SpokenGroup
from taihu.scorer import HandError
from taihu.scorer.errors import printable
from taihu.scorer.rulesets import DEFAULT_RULES

if TYPE_CHECKING:  # imported by the commands that use them: `taihu score` loads neither sqlite3 nor the ledger
    from taihu.cli.draw import Terminal
    from taihu.ledger import Deal, LedgerView, Standing
    from taihu.store import LedgerStore

ledger_app = typer.Typer(
    cls=SpokenGroup,
    help="Keep the ledger (记账) of an evening: the deals, who sat where, the running totals.",
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def cli() -> ModuleType:
    """The main command's helpers, imported late because main.py imports this module to register it."""
    from taihu.cli import main

    return main


def console() -> "Terminal":
    """Lines as taihu breaks them (`print_wrapped`: at spaces, never inside a path or a player's name), not
    folded again by rich, so that a path or a name copies back whole."""
    from taihu.cli.draw import Terminal

    return Terminal(soft_wrap=True)


def ledger_names(ctx: typer.Context, incomplete: str) -> list[str]:
    """Completion of a ledger's name: the ledgers of the database `--db` names (else the default one)."""
    from taihu.store import LedgerStore, exists

    db = ctx.params.get("db")
    try:
        if not exists(db):  # completing makes no file
            return []
        with LedgerStore(db, create=False) as store:
            return [ledger.name for ledger, _ in store.names() if ledger.name.startswith(incomplete)]
    except Exception:  # a Tab that finds no database offers nothing, and prints no error into the command line
        return []


def rule_set_names(incomplete: str) -> list[str]:
    return cli().rule_set_names(incomplete)


def rules_name(name: str, lang: Lang) -> str:
    shown: str = cli().rules_name(name, lang)
    return shown


Db = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar="TAIHU_DB",
        show_envvar=False,  # the help says it, in the reader's language
        metavar="PATH|URL",
        help="the ledger database: a SQLite file or a postgresql:// URL (default: $TAIHU_DB, else the user data dir)",
    ),
]
Name = Annotated[str, typer.Argument(metavar="NAME", help="the ledger", autocompletion=ledger_names)]


@contextmanager
def opened(db: str | None, create: bool = False) -> "Iterator[LedgerStore]":
    """The store (only `new` makes the file); any bad input inside becomes exit 2 with one line."""
    from taihu.store import LedgerStore

    try:
        with LedgerStore(db, create=create) as store:
            yield store
    except HandError as exc:
        raise cli().Refused(exc) from None


def seats_line(seats: dict[str, str]) -> str:
    return entries(f"{wind} {printable(player)}" for wind, player in seats.items())


def entries(shown: Iterable[str]) -> str:
    """Entries two spaces apart, each kept whole on one line where a line is broken (`print_wrapped`)."""
    from taihu.cli.draw import together

    return "  ".join(map(together, shown))


def print_wrapped(text: str, hang: int = 2) -> None:
    """A line of the ledger's, broken at its spaces to fit the terminal (a phone's 40 columns)."""
    from taihu.cli.draw import wrapped

    out = console()
    for line in wrapped(text, out.width, hang):
        out.print(line)


def print_listed(lang: Lang, code: str, field: str, listed: str, indent: str = "") -> None:
    """A message ending in entries (`net: 甲 -120  乙 +224 …`): a line broken between the entries goes on
    under the first of them."""
    from rich.cells import cell_len

    heading = indent + lang.say(code, **{field: ""})
    print_wrapped(indent + lang.say(code, **{field: listed}), cell_len(heading))


def print_whole_or_split(whole: str, first: str, lang: Lang, seats: str) -> None:
    """`whole` where it fits the terminal; else `first`, and the seats on a line of their own below it."""
    from rich.cells import cell_len

    from taihu.cli.draw import KEEP

    if cell_len(whole.replace(KEEP, " ")) <= console().width:
        print_wrapped(whole)
        return
    print_wrapped(first)
    print_listed(lang, "cli.ledger.seats", "seats", seats, indent="  ")


def outcome(deal: "Deal", lang: Lang) -> str:
    """What happened, in players' names."""
    winner, discarder = deal.winner, deal.discarder
    if winner is not None and discarder is not None:
        return lang.say("cli.ledger.won_on_discard", winner=printable(winner), discarder=printable(discarder))
    if winner is not None:
        return lang.say("cli.ledger.won_self_drawn", winner=printable(winner))
    if deal.false_winners:
        return lang.say("cli.ledger.false_win", players=", ".join(map(printable, deal.false_winners)))
    return lang.say("cli.ledger.drawn")


def counters(deal: "Deal", lang: Lang) -> str:
    """Where the counters carry: the honba the deal was played with and its pot of sticks, before → after
    ("" elsewhere)."""
    before, after = deal.settlement.get("pot_before"), deal.settlement.get("pot_after")
    if before is None or after is None:
        return ""
    return lang.say("cli.ledger.counters", honba=deal.table.get("honba", 0), before=before, after=after)


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def print_deal(deal: "Deal", standing: "Standing", lang: Lang) -> None:
    from taihu.cli.draw import together

    say, net = lang.say, deal.net()
    carried = counters(deal, lang)
    played = f"{lang.separator}{together(carried)}" if carried else ""
    seats, happened = seats_line(deal.seats), outcome(deal, lang) + played
    whole = say("cli.ledger.deal", number=deal.number, outcome=happened, seats=seats)
    print_whole_or_split(whole, say("cli.ledger.deal_outcome", number=deal.number, outcome=happened), lang, seats)
    print_listed(lang, "cli.ledger.net", "net", entries(f"{printable(p)} {signed(net[p])}" for p in standing.players))
    print_next(standing, lang)


def print_next(standing: "Standing", lang: Lang) -> None:
    say, totals = lang.say, standing.totals
    print_listed(
        lang, "cli.ledger.totals", "totals", entries(f"{printable(p)} {signed(totals[p])}" for p in standing.players)
    )
    dealer, seats = printable(standing.next_dealer), seats_line(standing.next_seats)
    whole = say("cli.ledger.next_dealer", dealer=dealer, seats=seats)
    print_whole_or_split(whole, say("cli.ledger.next_dealer_only", dealer=dealer), lang, seats)
    if standing.carried is not None:  # the counters this text names: honba and pot (a words.toml's `leaves`)
        sticks = say.plural("cli.ledger.sticks", standing.carried.get("pot", 0))
        print_wrapped(say("cli.ledger.next_deal", honba=standing.carried.get("honba", 0), sticks=sticks))


@ledger_app.command(cls=SpokenCommand)
def new(
    name: Annotated[str, typer.Argument(metavar="NAME", help="a name for the ledger, e.g. friday")],
    players: Annotated[
        str,
        typer.Option(
            "--players", metavar="A,B,C,D", help="four names in table order, comma-separated; the first deals"
        ),
    ],
    rules: Annotated[
        str,
        typer.Option("--rules", "-r", metavar="RULES", help="rule set of every deal", autocompletion=rule_set_names),
    ] = DEFAULT_RULES,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", metavar="NAME=VALUE", help="house option NAME=VALUE (repeatable)"),
    ] = None,
    db: Db = None,
    lang: LangOption = None,
) -> None:
    """Start a ledger: its rule set, house options and the four players in table order."""
    lang = option_lang(lang)
    options = cli().parse_options(option)
    names = [p.strip() for p in players.split(",")]
    with opened(db, create=True) as store:
        ledger = store.create(name, rules, names, options)
        name, rules, where = printable(ledger.name), rules_name(ledger.rules, lang), printable(store.where)
        print_wrapped(lang.say("cli.ledger.created", name=name, rules=rules, where=where))
        print_next(store.standing(ledger), lang)


@ledger_app.command(cls=SpokenCommand)
def add(
    name: Name,
    table: Annotated[
        str, typer.Argument(metavar="TABLE.json", help="the deal as JSON (players or winds); - reads stdin")
    ],
    expect: Annotated[
        int | None,
        typer.Option(
            "--deal",
            metavar="N",
            min=1,
            help="the number this deal is to get: refused (exit 2, nothing stored) if the ledger is elsewhere",
        ),
    ] = None,
    key: Annotated[
        str | None,
        typer.Option(
            "--idempotency-key",
            metavar="KEY",
            help="a key of your own for this deal: run again with it, nothing is stored twice",
        ),
    ] = None,
    db: Db = None,
    lang: LangOption = None,
) -> None:
    """Settle a deal with the seats as they stand and record it (safe to retry with --deal or --idempotency-key)."""
    from taihu.ledger import Deal, Standing

    lang = option_lang(lang)
    data = cli().read_table(table)
    with opened(db) as store:
        ledger = store.ledger(name)
        added = store.add_once(ledger, data, expect=expect, key=key)
    shown, standings = added.answer["deal"], added.answer["standings"]
    deal = Deal(shown["number"], shown["seats"], shown["table"], shown["settlement"])
    if added.replayed:
        print_wrapped(lang.say("cli.ledger.replayed", number=deal.number, key=key))
    print_deal(deal, Standing.from_json(list(ledger.players), standings, ledger.counters), lang)


NARROW_LEDGER = 60  # below this many columns the grid (a column per player) gives way to a list per deal


@ledger_app.command(cls=SpokenCommand)
def show(
    name: Name,
    as_json: Annotated[bool, typer.Option("--json", help="print the ledger JSON")] = False,
    db: Db = None,
    lang: LangOption = None,
) -> None:
    """The deals, who sat where, each player's running total, and who deals next."""
    lang = option_lang(lang)
    with opened(db) as store:
        view = store.view(store.ledger(name))
    if as_json:
        cli().print_json(view.to_json(lang.language))
        return
    from taihu.cli.draw import table

    say, out = lang.say, console()
    players = view.ledger.players
    title = f"{printable(view.ledger.name)} — {rules_name(view.ledger.rules, lang)}"
    running = {p: 0 for p in players}
    if out.width < NARROW_LEDGER:  # a phone: each deal's outcome, then a line per player (seat, net, total)
        from rich import box

        listed = table(title, box=box.SIMPLE, pad_edge=False, expand=True)
        listed.add_column(say("cli.ledger.column.player_seat"), ratio=1)
        listed.add_column(say("cli.ledger.column.deal"), justify="right", no_wrap=True)
        listed.add_column(say("cli.ledger.column.total"), justify="right", no_wrap=True)
        for deal in view.deals:
            net, wind_of = deal.net(), {player: wind for wind, player in deal.seats.items()}
            listed.add_row(
                f"{deal.number}. {lang.separator.join(filter(None, (outcome(deal, lang), counters(deal, lang))))}"
            )
            for player in players:
                running[player] += net[player]
                listed.add_row(f"  {printable(player)} ({wind_of[player]})", signed(net[player]), str(running[player]))
            listed.add_section()
        if not view.deals:
            listed.add_row(say("cli.ledger.no_deals"))
        out.print(listed)
    else:
        grid = table(title)
        grid.add_column(say("cli.ledger.column.deal"), justify="right")
        grid.add_column(say("cli.ledger.column.result"))
        for player in players:
            grid.add_column(printable(player), justify="right", no_wrap=True)
        for deal in view.deals:
            net, wind_of = deal.net(), {player: wind for wind, player in deal.seats.items()}
            for player in players:
                running[player] += net[player]
            cells = [f"{wind_of[p]} {signed(net[p])}\n{running[p]}" for p in players]
            result = "\n".join(filter(None, (outcome(deal, lang), counters(deal, lang))))
            grid.add_row(str(deal.number), result, *cells, end_section=True)
        if not view.deals:
            grid.add_row("—", say("cli.ledger.no_deals"), *("0" for _ in players))
        out.print(grid)
        out.print(say("cli.ledger.each_cell"))
    if view.deals:
        print_trend(view, lang)
    print_next(view.standing, lang)


MIN_TREND = 8  # the fewest bars a trend line is drawn with, however long the players' names


def print_trend(view: "LedgerView", lang: Lang) -> None:
    """Each player's running total from deal 0 to the last, one scale for all (taihu.ledger.trend_lines)."""
    from rich.cells import cell_len

    from taihu.ledger import TREND_WIDTH, trend_lines

    names = {player: printable(player) for player in view.ledger.players}
    width = max(map(cell_len, names.values()))  # in terminal cells: a Chinese character takes two
    ends = max(len(signed(total)) for total in view.totals.values())
    # the bars take what the terminal leaves of its width: `  name bars total`
    bars = min(TREND_WIDTH, max(MIN_TREND, console().width - (2 + width + 1 + 1 + ends)))
    print_wrapped(lang.say("cli.ledger.trend", deals=len(view.deals)))
    for player, line in trend_lines(view.ledger.players, view.deals, bars).items():
        padding = " " * (width - cell_len(names[player]))
        console().print(f"  {names[player]}{padding} {line} {signed(view.totals[player])}")


@ledger_app.command(cls=SpokenCommand)
def undo(name: Name, db: Db = None, lang: LangOption = None) -> None:
    """Remove the last deal (a mistake); the seats go back to where they were."""
    lang = option_lang(lang)
    with opened(db) as store:
        ledger = store.ledger(name)
        deal = store.undo(ledger)
        print_wrapped(lang.say("cli.ledger.removed", number=deal.number, outcome=outcome(deal, lang)))
        print_next(store.standing(ledger), lang)


@ledger_app.command(cls=SpokenCommand)
def export(
    name: Name,
    as_csv: Annotated[bool, typer.Option("--csv", help="CSV: one row per deal and player, a header row first")] = False,
    db: Db = None,
    lang: LangOption = None,
) -> None:
    """Export the ledger to stdout: CSV with --csv, else the ledger JSON (its texts in --lang's language either way)."""
    lang = option_lang(lang)
    with opened(db) as store:
        view = store.view(store.ledger(name))
    if as_csv:
        sys.stdout.write(view.to_csv(lang.language))  # its header the same in every language, `result` in --lang's
    else:
        cli().print_json(view.to_json(lang.language))


@ledger_app.command("list", cls=SpokenCommand)
def list_ledgers(db: Db = None, lang: LangOption = None) -> None:
    """The ledgers in the database, with their players and number of deals."""
    from taihu.cli.draw import table
    from taihu.store import database_url, exists, shown

    lang = option_lang(lang)
    try:
        where = shown(database_url(db))
    except HandError as exc:
        raise cli().Refused(exc) from None
    found = []
    if exists(db):  # listing makes no file
        with opened(db) as store:
            found = store.names()
    say = lang.say
    if not found:
        print_wrapped(say("cli.ledger.none", where=where))
        return
    out = console()
    if out.width < NARROW_LEDGER:  # a phone: each ledger's name and deals, its rules and players below
        rows = [
            (
                printable(ledger.name),
                say("cli.ledger.deal_count", count=deals),
                f"{rules_name(ledger.rules, lang)}: {', '.join(map(printable, ledger.players))}",
            )
            for ledger, deals in found
        ]
        out.print(cli().compact_table(say("cli.ledger.list", where=where), rows, lang))
        return
    grid = table(say("cli.ledger.list", where=where))
    grid.add_column(say("cli.ledger.column.name"))
    grid.add_column(say("cli.ledger.column.rules"))
    grid.add_column(say("cli.ledger.column.players"))
    grid.add_column(say("cli.ledger.column.deals"), justify="right")
    for ledger, deals in found:
        rules = rules_name(ledger.rules, lang)
        grid.add_row(printable(ledger.name), rules, ", ".join(map(printable, ledger.players)), str(deals))
    out.print(grid)


@ledger_app.command(cls=SpokenCommand)
def rename(
    name: Name,
    new_name: Annotated[str, typer.Argument(metavar="NEW", help="its new name")],
    db: Db = None,
    lang: LangOption = None,
) -> None:
    """Rename a ledger (its deals stay as they are)."""
    lang = option_lang(lang)
    with opened(db) as store:
        renamed = store.rename(store.ledger(name), new_name)
    print_wrapped(lang.say("cli.ledger.renamed", name=printable(name), new=printable(renamed.name)))


@ledger_app.command(cls=SpokenCommand)
def delete(name: Name, db: Db = None, lang: LangOption = None) -> None:
    """Remove a ledger and its deals (`export` first to keep them)."""
    lang = option_lang(lang)
    with opened(db) as store:
        ledger = store.ledger(name)
        count = store.standing(ledger).deal_count
        store.delete(ledger)
    print_wrapped(lang.say.plural("cli.ledger.deleted", count, name=printable(name)))
