"""The ledger (记账) of an evening: the deals of four players, and what they add up to.

Outside the pure core, but no queries here: `taihu.store` keeps the ledgers
(SQLite or PostgreSQL) and calls the rules of this module. Each deal is settled by
`settle_table`, exactly as `taihu settle` and `POST /settle` do; the ledger
adds what a single Table cannot know — who the players are and who deals.

- Players are kept in table order; the first named deals the first deal.
  In a Table E is always the dealer, so for each deal the ledger seats the
  players from the previous deal's `next_dealer`: the dealer is E, then S,
  W, N follow in table order.
- A deal may name players instead of winds (`"players": {"甲": ...}`,
  `"winner": "甲"`, `"discarder": "丙"`, an event's `"seat": "乙"`); a wind
  means the seat as it stands. The table is stored in winds, beside the
  seats it was played in and its settlement.
- A rule set whose table fields a deal leaves for the next (`TableField.leaves` in its
  words.toml: its counters): each deal starts with what the previous deal's settlement
  left; a table may repeat them, not contradict them (docs/ledger.md).
- Each deal row keeps the standings after it (`Standing.after`: the running totals, the next
  dealer, and where counters carry what the next deal starts with), so an add or an undo reads one
  row however long the ledger;
  `standing_of` sums the deals plainly, the reference the tests hold the kept totals to.
- The store makes each change one transaction, so two clients adding at
  once both land, in order. A refused table changes nothing.
- Names are text, checked once here (`check_text`) for the CLI and the API
  alike; a ledger is bounded (`MAX_DEALS`, `MAX_LEDGERS`) and the rate of
  changes per client is named here (`CREATE_RATE`, `ADD_RATE`) for the
  shells to apply (docs/limits.md).
- A SQLite file is made readable by its owner only (0600, `make_private`);
  SQLite gives its -wal and -shm files the same mode.
"""

from __future__ import annotations

import copy
import csv
import hashlib
import io
import os
import re
import sys
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taihu.messages import Language, Messages
from taihu.ratelimit import Rate
from taihu.scorer import HandError, Settlement, settle_table
from taihu.scorer.errors import Field, Text, quote, type_word
from taihu.scorer.rulesets import get, table_fields_of
from taihu.scorer.said import code_in_lang, is_code
from taihu.scorer.settlement.common import within

WINDS = ("E", "S", "W", "N")
DB_ENV = "TAIHU_DB"
MAX_NAME = 100  # characters of a ledger's name and of a player's name
MAX_DEALS = 1000  # deals in one ledger (an evening is 16 to 60; a long night, a few hundred)
MAX_LEDGERS = 100_000  # ledgers in one database, the CLI's and those made over HTTP together
# per client (its address) over HTTP; the shells apply them with taihu.ratelimit.RateLimiter
CREATE_RATE = Rate(burst=20, every_s=10.0)  # new ledgers: 20 at once, then 6 a minute
ADD_RATE = Rate(burst=60, every_s=1.0)  # deals added: 60 at once, then one a second
# shown inside a name, these make a terminal print the text around them reversed or reordered
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


MAX_EXPIRY_HOURS = 366 * 24  # the furthest expiry a keeper sets: a year
PAGE_LIMIT = 100  # deals in one page of GET /ledgers/{id}/deals when `limit` is not given
MAX_PAGE = 500  # the most deals one page holds (half the most a ledger keeps: two pages read a whole one)


CSV_HEADER = (
    *("deal", "player", "seat", "dealer", "net", "total", "next_dealer", "taihu"),
    *("winner", "discarder", "result"),  # after the older columns, so a sheet reading them by place still does
)


def settlement_json(settlement: Settlement) -> dict[str, Any]:
    """The Settlement as stored: its docs/api.md JSON with each text's code beside it (`to_dict(codes=True)`:
    `reason` and `reason_code`, `notes` and `notes_code`, …), so it is shown in the reader's language on
    every read (`shown_settlement`) without settling again (the one place that knows the model's API)."""
    return settlement.to_dict(codes=True)


CODE_SUFFIX = "_code"  # a stored text field X keeps its code as X_code (`Record.to_dict(codes=True)`)


def shown_settlement(stored: dict[str, Any], lang: Language = "en") -> dict[str, Any]:
    """A stored settlement as `POST /settle` answers it in `lang`: each text rendered from its code, the
    `X_code` keys left out. A text stored without a code (a detail of tiles only; every text of a deal
    stored before the codes were, that revision 0006 could not give them) is shown as stored."""
    return _shown(stored, lang)


def _shown(value: dict[str, Any], lang: Language) -> dict[str, Any]:
    out = {key: _walked(item, lang) for key, item in value.items()}
    for key in value:
        if key.endswith(CODE_SUFFIX) and (text := key[: -len(CODE_SUFFIX)]) in value:
            out[text] = _text(value[text], out.pop(key), lang)
    return out


def _walked(value: Any, lang: Language) -> Any:
    if type(value) is dict:
        return _shown(value, lang)
    if type(value) is list:
        return [_walked(v, lang) if type(v) is dict or type(v) is list else v for v in value]
    return value


def _text(stored: Any, code: Any, lang: Language) -> Any:
    """A text field as stored (a text, or a list of them) in `lang`, from its code; where there is none, or it
    no longer renders (a code the catalog does not know, or whose parameters it changed since), as stored."""
    if isinstance(stored, list) and isinstance(code, list) and len(stored) == len(code):
        return [_text(s, c, lang) for s, c in zip(stored, code, strict=True)]
    if not is_code(code):
        return stored
    try:
        return code_in_lang(code, lang)
    except (KeyError, ValueError, IndexError, AttributeError, TypeError):
        return stored


def default_path() -> Path:
    """ledger.db in the user data dir of this platform (no dependency needed)."""
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        xdg = os.environ.get("XDG_DATA_HOME", "")
        base = Path(xdg) if os.path.isabs(xdg) else home / ".local" / "share"  # XDG: a relative value is ignored
    return base / "taihu" / "ledger.db"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def seats_from(players: list[str], dealer: str) -> dict[str, str]:
    """Wind → player for a deal: the dealer is E, then S, W, N in table order."""
    at = players.index(dealer)
    return {wind: players[(at + i) % len(players)] for i, wind in enumerate(WINDS)}


@dataclass(frozen=True)
class Ledger:
    key: int
    name: str
    rules: str
    players: list[str]
    options: dict[str, int]
    title: str | None = None  # a display name apart from the name (over HTTP the name is the ledger's id)
    expires: str | None = None  # when the store removes it (ISO 8601, UTC); None: kept until deleted
    private: bool = False  # over HTTP: the id alone does not read it, only its tokens and read links

    def heading(self) -> dict[str, Any]:
        """The keys of the ledger's JSON before its deals and standings."""
        return {
            "name": self.name,
            "title": self.title,
            "expires": self.expires,
            "rules": self.rules,
            "players": list(self.players),
        }

    @property
    def counters(self) -> dict[str, str]:
        """The table fields a deal leaves for the next (its rule set's `TableField.leaves`): each field and the
        settlement's key holding the value the next deal starts with; none where nothing carries."""
        return {one.name: one.leaves for one in table_fields_of(get(self.rules).name) if one.leaves}

    @property
    def carries_counters(self) -> bool:
        return bool(self.counters)


@dataclass(frozen=True)
class Deal:
    number: int
    seats: dict[str, str]
    table: dict[str, Any]
    settlement: dict[str, Any]
    taihu_version: str | None = None

    @property
    def dealer(self) -> str:
        return self.seats["E"]

    @property
    def next_dealer(self) -> str:
        """The player who deals next: the settlement's wind, read in this deal's seats."""
        return self.seats[self.settlement["next_dealer"]]

    @property
    def winner(self) -> str | None:
        """The player who won, or None (drawn, a false win)."""
        wind = self.table.get("winner")
        return self.seats[wind] if wind is not None else None

    @property
    def discarder(self) -> str | None:
        """The player whose discard was won on (None: self-drawn, or no win)."""
        wind = self.table.get("discarder") if self.winner is not None else None
        return self.seats[wind] if wind is not None else None

    @property
    def false_winners(self) -> list[str]:
        """The players who declared a false win (诈胡, or a chombo where the rule set calls it so)."""
        return [self.seats[e["seat"]] for e in self.table.get("events", []) if e.get("type") == "false-win"]

    def result(self, player: str) -> str | None:
        """The code of what the deal was for one player (won, discarded the winning tile, a false win, drawn),
        or None where the player had no part in it; the CSV shows it in its reader's language."""
        if player == self.winner:
            return "result.won"
        if player == self.discarder:
            return "result.discarded"
        if player in self.false_winners:
            return "result.false_win"
        return "result.drawn" if self.winner is None and not self.false_winners else None

    def net(self) -> dict[str, int]:
        """Each player's net this deal."""
        return {self.seats[wind]: amount for wind, amount in self.settlement["net"].items()}

    def to_json(self, lang: Language = "en") -> dict[str, Any]:
        """The deal's JSON (docs/api.md), its settlement's texts in `lang` (`shown_settlement`)."""
        return self.stored_json() | {"settlement": shown_settlement(self.settlement, lang)}

    def stored_json(self) -> dict[str, Any]:
        """The deal's JSON with its settlement as stored (the texts' codes beside them): what a kept answer holds."""
        return {
            "number": self.number,
            "dealer": self.dealer,
            "seats": dict(self.seats),
            "table": self.table,
            "settlement": self.settlement,
        }


@dataclass(frozen=True)
class Standing:
    """Where an evening stands: each player's total (summed from the deals) and who deals next;
    where counters carry, also what the next deal starts with, by table field (`Ledger.counters`; None elsewhere)."""

    players: list[str]
    totals: dict[str, int]
    next_dealer: str
    carried: dict[str, int] | None = None
    deal_count: int = 0

    @classmethod
    def from_json(cls, players: list[str], data: Mapping[str, Any], counters: Iterable[str]) -> Standing:
        """The standings of `to_json` (`counters`: the ledger's, whose values it shows as `next_<field>`)."""
        carried = {field: data[f"next_{field}"] for field in counters if f"next_{field}" in data}
        plain = {key: data[key] for key in ("totals", "next_dealer", "deal_count") if key in data}
        return cls(list(players), **plain, carried=carried or None)

    @property
    def next_seats(self) -> dict[str, str]:
        return seats_from(self.players, self.next_dealer)

    def to_json(self) -> dict[str, Any]:
        """The standings (docs/api.md): `{"totals", "next_dealer", "deal_count"}` (+ `next_<field>` of each counter
        carried: `next_honba`, `next_pot`).

        The same keys as in the ledger's JSON, so a client merges an add's answer into the ledger it holds.
        """
        shown: dict[str, Any] = {"totals": dict(self.totals), "next_dealer": self.next_dealer}
        if self.carried is not None:
            shown |= {f"next_{field}": value for field, value in self.carried.items()}
        return shown | {"deal_count": self.deal_count}

    def after(self, deal: Deal, counters: Mapping[str, str] | None = None) -> Standing:
        """The standings one deal later: this deal's nets added, its next dealer, and what it leaves where
        `counters` (`Ledger.counters`) carry."""
        net = deal.net()
        totals = {player: total + net[player] for player, total in self.totals.items()}
        if not counters:
            return Standing(self.players, totals, deal.next_dealer, deal_count=deal.number)
        return Standing(self.players, totals, deal.next_dealer, carried(deal, counters), deal.number)


def opening(players: list[str], counters: Mapping[str, str] | None = None) -> Standing:
    """The standings before the first deal: all at 0, the first player deals; where `counters` carry, each 0."""
    return Standing(list(players), dict.fromkeys(players, 0), players[0], carried(None, counters))


def standing_of(players: list[str], deals: Iterable[Deal], counters: Mapping[str, str] | None = None) -> Standing:
    """The standings summed plainly from every deal (the reference for the kept ones, and a whole view's).

    `counters` (`Ledger.counters`): what the last deal leaves of each, 0 before the first."""
    totals, last, count = dict.fromkeys(players, 0), None, 0
    for last in deals:
        count += 1
        for player, amount in last.net().items():
            totals[player] += amount
    dealer = last.next_dealer if last else players[0]
    if not counters:
        return Standing(list(players), totals, dealer, deal_count=count)
    return Standing(list(players), totals, dealer, carried(last, counters), count)


@dataclass(frozen=True)
class Change:
    """An add or an undo: the deal added (or removed) and the standings right after it, read in its transaction."""

    deal: Deal
    standing: Standing

    def to_json(self, lang: Language = "en") -> dict[str, Any]:
        """The answer to an add or an undo (docs/api.md): `{"deal", "standings"}`, not the ledger; texts in `lang`."""
        return shown_change(self.stored_json(), lang)

    def stored_json(self) -> dict[str, Any]:
        """The answer as an Idempotency-Key keeps it: the deal's settlement as stored, shown later by `shown_change`."""
        return {"deal": self.deal.stored_json(), "standings": self.standing.to_json()}


def shown_change(answer: dict[str, Any], lang: Language = "en") -> dict[str, Any]:
    """An add's or an undo's answer as kept (`Change.stored_json`) with its deal's texts in `lang`."""
    deal = answer["deal"]
    return answer | {"deal": deal | {"settlement": shown_settlement(deal["settlement"], lang)}}


def carried(deal: Deal | None, counters: Mapping[str, str] | None) -> dict[str, int] | None:
    """What a deal leaves on the table for the next of each of `counters` (table field: the settlement's key of
    its next value), 0 where it leaves none or before the first deal; None where no counters carry."""
    if not counters:
        return None
    settlement = deal.settlement if deal is not None else {}
    return {field: settlement.get(key) or 0 for field, key in counters.items()}


def with_counters(table: dict[str, Any], ledger: Ledger, standing: Standing) -> dict[str, Any]:
    """A deal with counters: what the previous deal left of each; the first deal keeps its own (0 if none).

    A table may repeat them, not contradict them: the ledger has seen every deal since, so a
    different number is a mistake in the table (an old file, a deal missing from the ledger).
    """
    out = dict(table)
    left = (standing.carried or {}) if standing.deal_count else {}
    for field in ledger.counters:
        given, value = out.get(field), left.get(field)
        if given is None:
            out[field] = value or 0  # stored as played, so every deal of the ledger shows its counters
        elif value is not None and given != value:
            raise HandError.of(
                "error.ledger.carried",
                code="ledger_disagrees",
                field=field,
                name=field,
                given=repr(given),
                ledger=ledger.name,
                value=value,
                deal=standing.deal_count,
            )
    return out


@dataclass(frozen=True)
class LedgerView:
    """A ledger with its deals, the totals summed from them, and who deals next."""

    ledger: Ledger
    deals: list[Deal]

    @property
    def standing(self) -> Standing:
        return standing_of(self.ledger.players, self.deals, counters=self.ledger.counters)

    @property
    def totals(self) -> dict[str, int]:
        return self.standing.totals

    @property
    def next_dealer(self) -> str:
        return self.standing.next_dealer

    def to_json(self, lang: Language = "en") -> dict[str, Any]:
        """docs/api.md's ledger JSON: `{"name", "title", "expires", "rules", "players", "deals"}` and the
        standings' keys; the deals' texts in `lang`."""
        deals = [d.to_json(lang) for d in self.deals]
        return self.ledger.heading() | {"deals": deals} | self.standing.to_json()

    def to_csv(self, lang: Language = "en") -> str:
        """One row per deal and player, in seat order, with the running total; a header row first.

        The header is the same in every language (the keys a sheet reads the columns by); the `result`
        cells are texts a person reads, in `lang`.

        Safe to open in a spreadsheet: a UTF-8 byte order mark first (so Excel reads 甲乙丙丁 as
        UTF-8, not the system's code page), and every text cell that a spreadsheet would read as
        a formula written as text (`spreadsheet_text`). The numbers stay numbers: a net of -52 is
        written `-52`, since a cell taihu writes from an int cannot hold a formula.
        """
        out = io.StringIO()
        out.write(BOM)
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_HEADER)
        say = Messages(lang)
        totals = {p: 0 for p in self.ledger.players}
        for deal in self.deals:
            net = deal.net()
            for wind, player in deal.seats.items():
                totals[player] += net[player]
                writer.writerow(
                    (
                        deal.number,
                        spreadsheet_text(player),
                        spreadsheet_text(wind),
                        spreadsheet_text(deal.dealer),
                        net[player],
                        totals[player],
                        spreadsheet_text(deal.next_dealer),
                        spreadsheet_text(deal.taihu_version or ""),
                        spreadsheet_text(deal.winner or ""),
                        spreadsheet_text(deal.discarder or ""),
                        say(code) if (code := deal.result(player)) else "",
                    )
                )
        return out.getvalue()


BARS = "▁▂▃▄▅▆▇█"  # a sparkline's eight heights
TREND_WIDTH = 40  # the most characters of one trend line: a long evening is sampled down to it


def running_totals(players: list[str], deals: Iterable[Deal]) -> dict[str, list[int]]:
    """Each player's running total: 0 before the first deal, then after each deal."""
    running = {player: [0] for player in players}
    for deal in deals:
        net = deal.net()
        for player in players:
            running[player].append(running[player][-1] + net[player])
    return running


def sparkline(values: list[int], low: int, high: int, width: int = TREND_WIDTH) -> str:
    """The values as bars between `low` and `high` (one scale for every player, so rows compare),
    at most `width` of them: a longer series is sampled evenly, its first and last value kept."""
    if len(values) > width:
        values = [values[round(i * (len(values) - 1) / (width - 1))] for i in range(width)]
    span = high - low
    top = len(BARS) - 1
    return "".join(BARS[round((v - low) * top / span) if span else top // 2] for v in values)


def trend_lines(players: list[str], deals: Iterable[Deal], width: int = TREND_WIDTH) -> dict[str, str]:
    """Each player's running total across the deals as a sparkline (the terminal's picture of the evening)."""
    running = running_totals(players, deals)
    every = [v for values in running.values() for v in values]
    low, high = min(every), max(every)
    return {player: sparkline(values, low, high, width) for player, values in running.items()}


BOM = "\ufeff"  # the CSV's first character: UTF-8's byte order mark, EF BB BF
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what makes a spreadsheet read a cell as a formula (OWASP)
# where a spreadsheet may start a cell: a comma, a semicolon where that is the list separator, a line's end
SEPARATORS = ",;\n\r"
# a cell's start, or a separator in it, followed (past spaces and double quotes) by what starts a formula
_FORMULA_AFTER = re.compile(rf"(^|[{SEPARATORS}])(?=[ \"]*[{re.escape(''.join(FORMULA_STARTS))}])")


def spreadsheet_text(text: str) -> str:
    """A CSV text cell a spreadsheet shows as text: a `'` where a formula would start (OWASP).

    `=HYPERLINK(…)`, `+cmd|…`, `-2+3`, `@SUM(…)` become `'=HYPERLINK(…)` and so on: Excel,
    LibreOffice and Google Sheets show the cell as the text after the quote and run nothing.
    A spreadsheet that splits on `;` (the list separator of many locales), or one that splits on
    `,` and ignores the quotes, starts a cell after each separator: `a;=1+1` would be the cells
    `a` and `=1+1`, so the `'` goes after the separator as well (`a;'=1+1`), as OWASP warns; and
    after a line break, where one that ignores the quotes starts a row.
    """
    return _FORMULA_AFTER.sub(r"\1'", text)


def export_filename(name: str) -> str:
    """The file name of a ledger's CSV: `taihu-<name>.csv`, the name as it is (the HTTP shell adds an ASCII form)."""
    return f"taihu-{name}.csv"


@dataclass(frozen=True)
class NewLedger:
    """A new ledger's fields, checked: the rule set by its canonical name, the options as given."""

    name: str
    rules: str
    players: list[str]
    options: dict[str, int]


def check_new(name: str, rules: str, players: list[str], options: Mapping[str, Any]) -> NewLedger:
    """A new ledger's name, rules, players and options, checked.

    The rule set is stored by the registry's name for it (any case, or its Chinese name → the registry's), so every
    later comparison with it (the counters, a table's own `rules`) sees one spelling.
    """
    check_name(name)
    rule_set = get(rules)
    if len(players) != len(WINDS):
        raise HandError.of("error.ledger.four_players", code="bad_players", field="players", count=len(players))
    for i, player in enumerate(players):
        check_text(player, f"players[{i}]", Text("error.name.player"))
        if player in WINDS:
            raise HandError.of(
                "error.ledger.player_is_wind",
                code="bad_players",
                field=f"players[{i}]",
                name=player,
                where=Field(f"players[{i}]"),
            )
    repeated = sorted({p for p in players if players.count(p) > 1})
    if repeated:
        raise HandError.of("error.ledger.player_twice", code="bad_players", field="players", names=", ".join(repeated))
    try:
        rule_set.resolve_options(options)
    except HandError as exc:
        raise within(exc, "options") from None
    return NewLedger(name, rule_set.name, list(players), dict(options))


def check_name(name: object) -> None:
    """A ledger's name, checked as every name is (`check_text`): before it is stored or looked up."""
    check_text(name, "ledger name", Text("error.name.ledger"), label=Text("error.name.ledger_field"))


def check_text(text: object, where: str, what: Text, label: Text | None = None) -> None:
    """A name is text: 1 to MAX_NAME printable characters, no outer spaces; else a HandError naming `where`.

    Refused: a lone surrogate (`"\\udc80"` in JSON, or bytes that were not UTF-8 on the
    command line: Python keeps them as surrogates), a control character (C0, DEL, C1: ESC
    would reach the terminal that shows the name), and the bidirectional overrides and
    isolates U+202A–U+202E, U+2066–U+2069 (they make a terminal or a page show the text
    around them reordered). The one check for the CLI and the API. `label`: how a message names `where`
    when it is no field a client wrote (a ledger's name on the command line), in the message's language.
    """
    rule = Text("error.name.rule", what=what, most=MAX_NAME)

    def refused(key: str, **params: Any) -> HandError:
        return HandError.of(key, code="bad_name", hint=rule, field=where, where=label or Field(where), **params)

    if not isinstance(text, str):
        raise refused("error.name.not_text", given=quote(text))
    if not text.strip():
        raise refused("error.name.empty")
    if len(text) > MAX_NAME:
        raise refused("error.name.too_long", length=len(text))
    for at, char in enumerate(text, 1):
        problem = unprintable(char)
        if problem:
            shown = char.encode("unicode_escape").decode("ascii")
            raise refused("error.name.unprintable", given=quote(text), problem=problem, shown=shown, at=at)
    if text != text.strip():
        raise refused("error.name.spaces", given=quote(text))


def unprintable(char: str) -> Text | None:
    """What a character is if a name may not hold it (None if it may)."""
    category = unicodedata.category(char)
    if category == "Cs":
        return Text("error.name.surrogate")
    if category == "Cc":
        return Text("error.name.control")
    if char in BIDI_CONTROLS:
        return Text("error.name.bidi")
    return None


def in_winds(table: Any, ledger: Ledger, seats: dict[str, str]) -> dict[str, Any]:
    """The deal with player names turned into this deal's winds, and the ledger's rules and options.

    A wind stays the seat it names. Whatever else is wrong with the table is
    left to `settle_table`, so a deal is refused with the same words as
    `taihu settle` would use.
    """
    if not isinstance(table, Mapping):
        raise HandError.of("error.ledger.table_not_object", code="bad_table", field="table", type=type_word(table))
    wind_of = {player: wind for wind, player in seats.items()}

    def seat(value: Any, where: str) -> Any:
        if not isinstance(value, str) or value in WINDS:
            return value  # a wind, or not a string: settle_table says what is wrong with it
        if value not in wind_of:
            raise HandError.of(
                "error.ledger.unknown_player",
                code="unknown_player",
                player=value,
                field=where,
                where=Field(where),
                name=value,
                ledger=ledger.name,
                players=", ".join(ledger.players),
            )
        return wind_of[value]

    out = dict(table)
    if out.get("rules") is None:  # null is left out, as every other field's (the API's schema allows it)
        out["rules"] = ledger.rules
    rules = out["rules"]
    if not isinstance(rules, str) or get(rules).name != ledger.rules:
        raise HandError.of(
            "error.ledger.rules",
            code="ledger_disagrees",
            field="rules",
            given=quote(rules),
            ledger=ledger.name,
            rules=ledger.rules,
        )
    out["rules"] = ledger.rules  # stored by the canonical name, however the table spelled it
    out["options"] = agreed_options(out.get("options"), ledger)
    players = out.get("players")
    if isinstance(players, Mapping):
        named: dict[Any, Any] = {}
        for key, player in players.items():
            wind = seat(key, "players")
            if wind in named:
                shown = " and ".join(str(k) for k in players if seat(k, "players") == wind)
                raise HandError.of(
                    "error.ledger.same_seat",
                    code="bad_players",
                    field="players",
                    shown=shown,
                    wind=wind,
                    seated=seats.get(wind),
                )
            named[wind] = player
        out["players"] = named
    for field in ("winner", "discarder"):
        if field in out:
            out[field] = seat(out[field], field)
    events = out.get("events")
    if isinstance(events, list):
        out["events"] = [
            {**e, "seat": seat(e["seat"], f"events[{i}].seat")} if isinstance(e, Mapping) and "seat" in e else e
            for i, e in enumerate(events)
        ]
    return out


def agreed_options(given: Any, ledger: Ledger) -> Any:
    """The ledger's house options (the rule set's defaults where it sets none) apply to every deal.

    A table may repeat them, not contradict them: the house does not change
    its rules between two deals of one evening.
    """
    if given is None:
        return dict(ledger.options)
    if not isinstance(given, Mapping):
        return given  # settle_table names what is wrong with it
    playing = get(ledger.rules).resolve_options(ledger.options)
    for key, value in given.items():
        if key in playing and playing[key] != value:
            default = "" if key in ledger.options else Text("error.ledger.the_default")
            raise HandError.of(
                "error.ledger.option",
                code="ledger_disagrees",
                field=f"options.{key}",
                option=key,
                given=repr(value),
                ledger=ledger.name,
                plays=playing[key],
                default=default,
            )
    return {**ledger.options, **given}


class LedgerFull(HandError):
    """A ledger at MAX_DEALS, or a database at MAX_LEDGERS: the change is refused (HTTP 409, CLI exit 2)."""


def make_private_folder(folder: Path) -> None:
    """Creates `folder` and the folders above it that are missing, each for its owner only (0700) whatever the
    umask (`mkdir`'s mode is masked by it, and gives the parents it makes the umask's mode); a folder already
    there keeps its mode. A folder is never more open than 0700, not even between its mkdir and its chmod."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for made in reversed(missing):
        try:
            made.mkdir(mode=0o700)
        except FileExistsError:
            continue  # made at once by another process: its maker's mode
        os.chmod(made, 0o700)


def make_private(path: Path) -> None:
    """Creates the file at `path` readable and writable by its owner only (0600), if it is not there.

    SQLite then makes the -wal and -shm files with the database file's mode, so they are 0600
    too; a file that exists keeps the mode its owner gave it. No umask is touched: it is the
    whole process's, and the server opens stores in several threads at once.
    """
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass


def next_deal(ledger: Ledger, standing: Standing, table: Any, taihu_version: str | None, max_deals: int) -> Deal:
    """The deal after the ledger's last (`standing`: where it stands), settled with the seats as they stand
    (the store records it in the same transaction).

    A ledger holding `max_deals` takes no more (LedgerFull).
    """
    if standing.deal_count >= max_deals:
        raise LedgerFull.of(
            "error.ledger.full", code="ledger_full", ledger=ledger.name, count=standing.deal_count, most=max_deals
        )
    seats = standing.next_seats
    stored = in_winds(table, ledger, seats)
    if ledger.carries_counters:
        stored = with_counters(stored, ledger, standing)
    prevalent = get(ledger.rules).ledger_round(standing.deal_count + 1)
    if prevalent is not None and isinstance(stored, dict) and stored.get("round") is None:
        stored = {**stored, "round": prevalent}  # stored as played: each deal shows its prevalent wind
    try:
        settlement = settlement_json(settle_table(stored))
    except HandError as exc:
        raise as_written(exc, table, seats) from None
    return Deal(standing.deal_count + 1, seats, stored, settlement, taihu_version)


def as_written(exc: HandError, table: Any, seats: dict[str, str]) -> HandError:
    """A seat's error as the deal was written: its `player` is the name at that wind, and where the deal keyed
    its players by name, its `field` is that name's (`players.乙`, not `players.S`), and so is its message's in
    every language (`players.乙: 乙 is the winner, …`, where the core's says `players.S: S is the winner, …`)."""
    player = seats.get(exc.seat) if exc.seat is not None else None
    if player is None:
        return exc
    players = table.get("players") if isinstance(table, Mapping) else None
    wind_field, player_field = f"players.{exc.seat}", f"players.{player}"
    named = copy.copy(exc)
    if isinstance(players, Mapping) and player in players and exc.field == wind_field:
        if exc.text is not None:
            params = exc.text.params
            renamed = {name: player for name in exc.seat_params if params.get(name) == exc.seat}
            if params.get("path") == wind_field:  # `players.S: …`, a hand's error at its seat (`within`)
                renamed["path"] = Field(player_field)
            if renamed:
                named = exc.replaced(**renamed)
        named.field = player_field
    named.player = player
    return named
