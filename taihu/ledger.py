"""The ledger (记账) of an evening: the deals of four players, stored in SQLite.

Outside the pure core: this module does the I/O. Each deal is settled by
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
- Riichi: each deal starts with the honba (本场) and the riichi sticks in
  the pot that the previous deal left (its `next_honba`, `pot_after`); a
  table may repeat them, not contradict them (docs/ledger.md).
- Totals are never stored: they are summed from the deals' nets each time.
- Each change is one transaction (WAL mode, `BEGIN IMMEDIATE`), so two
  clients adding at once both land, in order. A refused table changes nothing.
- The schema carries a version (`schema_version`) and migrates forward.
- Names are text, checked once here (`check_text`) for the CLI and the API
  alike; a ledger is bounded (`MAX_DEALS`, `MAX_LEDGERS`) and the rate of
  changes per client is named here (`CREATE_RATE`, `ADD_RATE`) for the
  shells to apply (docs/limits.md).
- The file is made readable by its owner only (0600); SQLite gives its
  -wal and -shm files the same mode.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import json
import os
import secrets
import sqlite3
import sys
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taihu.ratelimit import Rate
from taihu.scorer import HandError, Settlement, settle_table
from taihu.scorer.errors import quote
from taihu.scorer.rulesets import get

WINDS = ("E", "S", "W", "N")
DB_ENV = "TAIHU_DB"
BUSY_TIMEOUT_S = 30.0  # how long a writer waits for another writer's transaction
MAX_NAME = 100  # characters of a ledger's name and of a player's name
MAX_DEALS = 1000  # deals in one ledger (an evening is 16 to 60; a long night of riichi, a few hundred)
MAX_LEDGERS = 100_000  # ledgers in one database file, the CLI's and those made over HTTP together
# per client (its address) over HTTP; the shells apply them with taihu.ratelimit.RateLimiter
CREATE_RATE = Rate(burst=20, every_s=10.0)  # new ledgers: 20 at once, then 6 a minute
ADD_RATE = Rate(burst=60, every_s=1.0)  # deals added: 60 at once, then one a second
# shown inside a name, these make a terminal print the text around them reversed or reordered
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def canonical_rules(db: sqlite3.Connection) -> None:
    """3: each ledger's rule set by its canonical name (`riichi`, not `RIICHI` or `立直`), as the registry names it."""
    for key, rules in db.execute("SELECT id, rules FROM ledgers").fetchall():
        try:
            name = get(rules).name
        except HandError:
            continue  # not a rule set this taihu knows: left as it is, refused when a deal is added
        if name != rules:
            db.execute("UPDATE ledgers SET rules = ? WHERE id = ?", (name, key))


# Each entry moves a file from the version before it to its own version (SQL, or a
# function given the connection); a new file runs them all. Never edit one that
# has shipped: add the next.
MIGRATIONS: tuple[str | Callable[[sqlite3.Connection], None], ...] = (
    # 1: ledgers and their deals
    """
    CREATE TABLE ledgers (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        rules TEXT NOT NULL,
        players TEXT NOT NULL,
        options TEXT NOT NULL,
        created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
    );
    CREATE TABLE deals (
        ledger_id INTEGER NOT NULL REFERENCES ledgers (id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        seats TEXT NOT NULL,
        deal_table TEXT NOT NULL,
        settlement TEXT NOT NULL,
        added TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
        PRIMARY KEY (ledger_id, number)
    );
    """,
    # 2: keepers over HTTP (an unguessable public id, the edit token's hash) and
    # the taihu version that settled each deal
    """
    ALTER TABLE ledgers ADD COLUMN public_id TEXT;
    ALTER TABLE ledgers ADD COLUMN token_sha256 TEXT;
    CREATE UNIQUE INDEX ledgers_public_id ON ledgers (public_id);
    ALTER TABLE deals ADD COLUMN taihu_version TEXT;
    """,
    # 3: rule-set names canonical (they were stored as typed)
    canonical_rules,
)
SCHEMA_VERSION = len(MIGRATIONS)
CSV_HEADER = ("deal", "player", "seat", "dealer", "net", "total", "next_dealer", "taihu")


def settlement_json(settlement: Settlement) -> dict[str, Any]:
    """The Settlement as stored and shown: its docs/api.md JSON (the one place that knows the model's API)."""
    return settlement.to_dict()


def default_path() -> Path:
    """`$TAIHU_DB`, else ledger.db in the user data dir of this platform (no dependency needed)."""
    env = os.environ.get(DB_ENV)
    if env:
        return Path(env)
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

    @property
    def carries_counters(self) -> bool:
        """Riichi: honba and the pot carry from deal to deal."""
        return self.rules == "riichi"


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

    def net(self) -> dict[str, int]:
        """Each player's net this deal."""
        return {self.seats[wind]: amount for wind, amount in self.settlement["net"].items()}

    def to_json(self) -> dict[str, Any]:
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
    for riichi also the honba and the sticks in the pot the next deal starts with (None elsewhere)."""

    players: list[str]
    totals: dict[str, int]
    next_dealer: str
    next_honba: int | None = None
    next_pot: int | None = None
    deal_count: int = 0

    @property
    def next_seats(self) -> dict[str, str]:
        return seats_from(self.players, self.next_dealer)

    def to_json(self) -> dict[str, Any]:
        """The standings (docs/api.md): `{"totals", "next_dealer", "deal_count"}`, riichi also `next_honba`, `next_pot`.

        The same keys as in the ledger's JSON, so a client merges an add's answer into the ledger it holds.
        """
        shown: dict[str, Any] = {"totals": dict(self.totals), "next_dealer": self.next_dealer}
        if self.next_honba is not None:
            shown |= {"next_honba": self.next_honba, "next_pot": self.next_pot}
        return shown | {"deal_count": self.deal_count}


def standing_of(players: list[str], deals: Iterable[Deal], counters: bool = False) -> Standing:
    """`counters` (riichi): the honba and pot the last deal leaves, 0 and 0 before the first."""
    totals, last, count = dict.fromkeys(players, 0), None, 0
    for last in deals:
        count += 1
        for player, amount in last.net().items():
            totals[player] += amount
    dealer = last.next_dealer if last else players[0]
    if not counters:
        return Standing(list(players), totals, dealer, deal_count=count)
    left = carried(last)
    return Standing(list(players), totals, dealer, left.get("honba", 0), left.get("pot", 0), count)


@dataclass(frozen=True)
class Change:
    """An add or an undo: the deal added (or removed) and the standings right after it, read in its transaction."""

    deal: Deal
    standing: Standing

    def to_json(self) -> dict[str, Any]:
        """The answer to an add or an undo (docs/api.md): `{"deal", "standings"}`, not the ledger."""
        return {"deal": self.deal.to_json(), "standings": self.standing.to_json()}


COUNTERS = (("honba", "next_honba"), ("pot", "pot_after"))  # a riichi Table's field, and the Settlement's


def carried(deal: Deal | None) -> dict[str, int]:
    """What a riichi deal leaves on the table for the next: honba counters and the sticks in the pot."""
    if deal is None:
        return {}
    return {field: deal.settlement[key] for field, key in COUNTERS if deal.settlement.get(key) is not None}


def with_counters(table: dict[str, Any], ledger: Ledger, last: Deal | None) -> dict[str, Any]:
    """A riichi deal with the honba and pot the previous deal left; the first deal keeps its own (0 if none).

    A table may repeat them, not contradict them: the ledger has seen every deal since, so a
    different number is a mistake in the table (an old file, a deal missing from the ledger).
    """
    out = dict(table)
    left = carried(last)
    for field, _ in COUNTERS:
        given, value = out.get(field), left.get(field)
        if given is None:
            out[field] = value or 0  # stored as played, so every deal of the ledger shows its counters
        elif value is not None and given != value:
            assert last is not None
            raise HandError(
                f"{field}: the table says {given!r} but ledger '{ledger.name}' carries {field} {value} "
                f"from deal {last.number}; drop {field} from the table or make it match "
                f"(`taihu ledger undo` if a deal went wrong)"
            )
    return out


@dataclass(frozen=True)
class LedgerView:
    """A ledger with its deals, the totals summed from them, and who deals next."""

    ledger: Ledger
    deals: list[Deal]

    @property
    def standing(self) -> Standing:
        return standing_of(self.ledger.players, self.deals, counters=self.ledger.carries_counters)

    @property
    def totals(self) -> dict[str, int]:
        return self.standing.totals

    @property
    def next_dealer(self) -> str:
        return self.standing.next_dealer

    def to_json(self) -> dict[str, Any]:
        """docs/api.md's ledger JSON: `{"name", "rules", "players", "deals"}` and the standings' keys."""
        return {
            "name": self.ledger.name,
            "rules": self.ledger.rules,
            "players": list(self.ledger.players),
            "deals": [d.to_json() for d in self.deals],
        } | self.standing.to_json()

    def to_csv(self) -> str:
        """One row per deal and player, in seat order, with the running total; a header row first.

        Safe to open in a spreadsheet: a UTF-8 byte order mark first (so Excel reads 甲乙丙丁 as
        UTF-8, not the system's code page), and every text cell that a spreadsheet would read as
        a formula written as text (`spreadsheet_text`). The numbers stay numbers: a net of -52 is
        written `-52`, since a cell taihu writes from an int cannot hold a formula.
        """
        out = io.StringIO()
        out.write(BOM)
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_HEADER)
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
                    )
                )
        return out.getvalue()


BOM = "\ufeff"  # the CSV's first character: UTF-8's byte order mark, EF BB BF
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what makes a spreadsheet read a cell as a formula (OWASP)


def spreadsheet_text(text: str) -> str:
    """A CSV text cell a spreadsheet shows as text: a leading `'` where it would start a formula (OWASP).

    `=HYPERLINK(…)`, `+cmd|…`, `-2+3`, `@SUM(…)` become `'=HYPERLINK(…)` and so on: Excel,
    LibreOffice and Google Sheets show the cell as the text after the quote and run nothing.
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


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

    The rule set is stored by the registry's name for it (`RIICHI`, `立直` → `riichi`), so every
    later comparison with it (the riichi counters, a table's own `rules`) sees one spelling.
    """
    check_name(name)
    rule_set = get(rules)
    if len(players) != len(WINDS):
        raise HandError(f"players: a ledger needs 4 players in table order, got {len(players)}; e.g. 甲,乙,丙,丁")
    for i, player in enumerate(players):
        check_text(player, f"players[{i}]", "a player's name")
        if player in WINDS:
            raise HandError(f"players[{i}]: '{player}' is a wind; name players so a deal can tell them from seats")
    repeated = sorted({p for p in players if players.count(p) > 1})
    if repeated:
        raise HandError(f"players: {', '.join(repeated)} named twice; each player once, in table order")
    try:
        rule_set.resolve_options(options)
    except HandError as exc:
        raise HandError(f"options: {exc}") from None
    return NewLedger(name, rule_set.name, list(players), dict(options))


def check_name(name: object) -> None:
    """A ledger's name, checked as every name is (`check_text`): before it is stored or looked up."""
    check_text(name, "ledger name", "a ledger's name")


def check_text(text: object, where: str, what: str) -> None:
    """A name is text: 1 to MAX_NAME printable characters, no outer spaces; else a HandError naming `where`.

    Refused: a lone surrogate (`"\\udc80"` in JSON, or bytes that were not UTF-8 on the
    command line: Python keeps them as surrogates), a control character (C0, DEL, C1: ESC
    would reach the terminal that shows the name), and the bidirectional overrides and
    isolates U+202A–U+202E, U+2066–U+2069 (they make a terminal or a page show the text
    around them reordered). The one check for the CLI and the API.
    """
    rule = f"{what} is 1 to {MAX_NAME} printable characters without leading or trailing spaces"
    if not isinstance(text, str):
        raise HandError(f"{where}: {quote(text)} is not text; {rule}", code="bad_name")
    if not text.strip():
        raise HandError(f"{where}: an empty name; {rule}", code="bad_name")
    if len(text) > MAX_NAME:
        raise HandError(f"{where}: a name of {len(text)} characters; {rule}", code="bad_name")
    for at, char in enumerate(text, 1):
        problem = unprintable(char)
        if problem:
            shown = char.encode("unicode_escape").decode("ascii")
            raise HandError(
                f"{where}: '{quote(text)}' holds {problem} ({shown}) at character {at}; {rule}", code="bad_name"
            )
    if text != text.strip():
        raise HandError(f"{where}: '{quote(text)}' has leading or trailing spaces; {rule}", code="bad_name")


def unprintable(char: str) -> str:
    """What a character is if a name may not hold it ("" if it may)."""
    category = unicodedata.category(char)
    if category == "Cs":
        return "a lone surrogate (text that was not valid UTF-8)"
    if category == "Cc":
        return "a control character"
    if char in BIDI_CONTROLS:
        return "a bidirectional override"
    return ""


def in_winds(table: Any, ledger: Ledger, seats: dict[str, str]) -> dict[str, Any]:
    """The deal with player names turned into this deal's winds, and the ledger's rules and options.

    A wind stays the seat it names. Whatever else is wrong with the table is
    left to `settle_table`, so a deal is refused with the same words as
    `taihu settle` would use.
    """
    if not isinstance(table, Mapping):
        raise HandError(f"table: must be a JSON object, got {type(table).__name__}")
    wind_of = {player: wind for wind, player in seats.items()}

    def seat(value: Any, where: str) -> Any:
        if not isinstance(value, str) or value in WINDS:
            return value  # a wind, or not a string: settle_table says what is wrong with it
        if value not in wind_of:
            raise HandError(
                f"{where}: '{value}' is neither a player of ledger '{ledger.name}' ({', '.join(ledger.players)}) "
                "nor a wind (E, S, W, N)"
            )
        return wind_of[value]

    out = dict(table)
    rules = out.setdefault("rules", ledger.rules)
    if not isinstance(rules, str) or get(rules).name != ledger.rules:
        raise HandError(
            f"rules: the table says '{quote(rules)}' but ledger '{ledger.name}' keeps {ledger.rules}; "
            "drop rules from the table or make it match"
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
                raise HandError(
                    f"players: {shown} are the same seat this deal ({wind} is {seats.get(wind)}); give each once"
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
            default = "" if key in ledger.options else " (the default)"
            raise HandError(
                f"options.{key}: the table says {value!r} but ledger '{ledger.name}' plays "
                f"{key}={playing[key]}{default}; drop it from the table or make it match"
            )
    return {**ledger.options, **given}


class LedgerFull(HandError):
    """A ledger at MAX_DEALS, or a database at MAX_LEDGERS: the change is refused (HTTP 409, CLI exit 2)."""


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


class LedgerStore:
    """One open ledger database; make one per thread (sqlite3 connections are not shared)."""

    def __init__(
        self,
        path: str | Path | None = None,
        create: bool = True,
        max_deals: int | None = None,
        max_ledgers: int | None = None,
    ) -> None:
        """Opens (with `create`, makes) the file at `path`, else `default_path()`; migrates it forward.

        `max_deals` and `max_ledgers` default to MAX_DEALS and MAX_LEDGERS (a test gives small ones).
        """
        self.path = Path(path) if path is not None else default_path()
        self.max_deals = MAX_DEALS if max_deals is None else max_deals
        self.max_ledgers = MAX_LEDGERS if max_ledgers is None else max_ledgers
        if not create and not self.path.exists():
            raise HandError(f"{self.path}: no ledger database there; `taihu ledger new NAME --players …` starts one")
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            make_private(self.path)
            self.db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise HandError(f"{self.path}: cannot open it as a ledger database ({exc})") from None
        try:
            self.db.execute("PRAGMA foreign_keys = ON")
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = FULL")  # a committed deal survives a power cut too
            self.migrate()
        except sqlite3.DatabaseError as exc:
            self.db.close()
            raise HandError(f"{self.path}: not a taihu ledger database ({exc})") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> LedgerStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken before the first read so concurrent writers queue in order."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # -- schema --------------------------------------------------------------------------------

    def schema_version(self) -> int:
        found = self.db.execute("SELECT name FROM sqlite_master WHERE name = 'schema_version'").fetchone()
        if found is None:
            return 0
        row = self.db.execute("SELECT version FROM schema_version").fetchone()
        return int(row[0]) if row else 0

    def migrate(self) -> None:
        """Runs the migrations this file has not had yet, in one transaction (a current file is only read)."""
        if self.schema_version() == SCHEMA_VERSION:
            return
        with self.transaction() as db:
            version = self.schema_version()  # again: another client may have migrated meanwhile
            if version > SCHEMA_VERSION:
                raise HandError(
                    f"{self.path}: written by a newer taihu (ledger schema {version}; "
                    f"this taihu knows up to {SCHEMA_VERSION}); upgrade taihu to open it"
                )
            if version == 0:
                db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                db.execute("INSERT INTO schema_version VALUES (0)")
            for step in MIGRATIONS[version:]:
                if callable(step):
                    step(db)
                    continue
                for statement in filter(str.strip, step.split(";")):
                    db.execute(statement)
            db.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION,))

    # -- ledgers -------------------------------------------------------------------------------

    def create(self, name: str, rules: str, players: list[str], options: Mapping[str, Any] | None = None) -> Ledger:
        """A new local ledger (the CLI's); refused if the name is taken."""
        checked = check_new(name, rules, players, options or {})
        with self.transaction() as db:
            if db.execute("SELECT 1 FROM ledgers WHERE name = ?", (name,)).fetchone():
                raise HandError(f"ledger '{name}' already exists in {self.path}; choose another name")
            key = self._insert_ledger(db, checked, None, None)
        return Ledger(key, name, checked.rules, checked.players, checked.options)

    def create_shared(
        self, rules: str, players: list[str], options: Mapping[str, Any] | None = None
    ) -> tuple[str, str]:
        """A ledger kept over HTTP: its public id (≥ 128 random bits) and edit token; only the hash is kept."""
        ledger_id, token = secrets.token_urlsafe(18), secrets.token_urlsafe(32)
        checked = check_new(ledger_id, rules, players, options or {})
        with self.transaction() as db:
            self._insert_ledger(db, checked, ledger_id, hash_token(token))
        return ledger_id, token

    def _insert_ledger(
        self, db: sqlite3.Connection, new: NewLedger, public_id: str | None, token_sha256: str | None
    ) -> int:
        """Inserts a checked ledger, unless the file holds MAX_LEDGERS already (LedgerFull)."""
        (count,) = db.execute("SELECT count(*) FROM ledgers").fetchone()
        if count >= self.max_ledgers:
            raise LedgerFull(
                f"{self.path} holds {count} ledgers, the most one database keeps ({self.max_ledgers}); "
                "export and remove old ones, or start another database (--db)",
                code="too_many_ledgers",
            )
        cursor = db.execute(
            "INSERT INTO ledgers (name, rules, players, options, public_id, token_sha256) VALUES (?, ?, ?, ?, ?, ?)",
            (
                new.name,
                new.rules,
                json.dumps(new.players, ensure_ascii=False),
                json.dumps(new.options),
                public_id,
                token_sha256,
            ),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def names(self) -> list[tuple[Ledger, int]]:
        """Every ledger with its number of deals, oldest first."""
        rows = self.db.execute(
            "SELECT l.id, l.name, l.rules, l.players, l.options, count(d.number) FROM ledgers l "
            "LEFT JOIN deals d ON d.ledger_id = l.id GROUP BY l.id ORDER BY l.id"
        ).fetchall()
        return [(self._ledger(row[:5]), row[5]) for row in rows]

    def ledger(self, name: str) -> Ledger:
        check_name(name)  # a name that could not be stored is not looked up (a lone surrogate cannot even be sent)
        row = self.db.execute("SELECT id, name, rules, players, options FROM ledgers WHERE name = ?", (name,))
        found = row.fetchone()
        if found is None:
            raise HandError(f"no ledger named '{name}' in {self.path}; `taihu ledger list` shows the ledgers there")
        return self._ledger(found)

    def shared(self, public_id: str) -> tuple[Ledger, str | None] | None:
        """The ledger behind a public id and its token hash, or None."""
        found = self.db.execute(
            "SELECT id, name, rules, players, options, token_sha256 FROM ledgers WHERE public_id = ?", (public_id,)
        ).fetchone()
        return (self._ledger(found[:5]), found[5]) if found else None

    @staticmethod
    def _ledger(row: Any) -> Ledger:
        key, name, rules, players, options = row
        return Ledger(key, name, rules, json.loads(players), json.loads(options))

    # -- deals ---------------------------------------------------------------------------------

    def add(self, ledger: Ledger, table: Any) -> Deal:
        """Settles the deal with the seats as they stand and records it; a refused table changes nothing."""
        with self.transaction() as db:
            return self._record(db, ledger, table)

    def add_with_standing(self, ledger: Ledger, table: Any) -> Change:
        """`add`, answering the standings after the deal too, read in its transaction (no other deal between)."""
        with self.transaction() as db:
            return Change(self._record(db, ledger, table), self.standing(ledger))

    def _record(self, db: sqlite3.Connection, ledger: Ledger, table: Any) -> Deal:
        """Settles and inserts the next deal, in the caller's transaction; LedgerFull at `max_deals`."""
        from taihu import __version__

        last = self._last_deal(db, ledger)
        if last is not None and last.number >= self.max_deals:
            raise LedgerFull(
                f"ledger '{ledger.name}' holds {last.number} deals, the most a ledger keeps ({self.max_deals}); "
                "start a new ledger for the rest of the evening",
                code="ledger_full",
            )
        dealer = last.next_dealer if last else ledger.players[0]
        seats = seats_from(ledger.players, dealer)
        stored = in_winds(table, ledger, seats)
        if ledger.carries_counters:
            stored = with_counters(stored, ledger, last)
        settlement = settlement_json(settle_table(stored))
        deal = Deal((last.number if last else 0) + 1, seats, stored, settlement, __version__)
        db.execute(
            "INSERT INTO deals (ledger_id, number, seats, deal_table, settlement, taihu_version) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                ledger.key,
                deal.number,
                json.dumps(seats, ensure_ascii=False),
                json.dumps(stored, ensure_ascii=False),
                json.dumps(settlement, ensure_ascii=False),
                __version__,
            ),
        )
        return deal

    def undo(self, ledger: Ledger) -> Deal:
        """Removes the last deal and answers it."""
        return self.undo_with_standing(ledger).deal

    def undo_with_standing(self, ledger: Ledger) -> Change:
        """`undo`, answering the standings after it too."""
        with self.transaction() as db:
            last = self._last_deal(db, ledger)
            if last is None:
                raise HandError(f"ledger '{ledger.name}' has no deals to undo")
            db.execute("DELETE FROM deals WHERE ledger_id = ? AND number = ?", (ledger.key, last.number))
            standing = self.standing(ledger)
        return Change(last, standing)

    def view(self, ledger: Ledger) -> LedgerView:
        rows = self.db.execute(self._DEALS + " ORDER BY number", (ledger.key,)).fetchall()
        return LedgerView(ledger, [self._deal(row) for row in rows])

    def standing(self, ledger: Ledger) -> Standing:
        """The totals and next dealer from each deal's seats and net alone (cheaper than a whole view)."""
        rows = self.db.execute(
            "SELECT number, seats, json_extract(settlement, '$.net'), json_extract(settlement, '$.next_dealer'), "
            "json_extract(settlement, '$.next_honba'), json_extract(settlement, '$.pot_after') "
            "FROM deals WHERE ledger_id = ? ORDER BY number",
            (ledger.key,),
        )
        deals = (
            Deal(
                number,
                json.loads(seats),
                {},
                {"net": json.loads(net), "next_dealer": next_dealer, "next_honba": honba, "pot_after": pot},
            )
            for number, seats, net, next_dealer, honba, pot in rows
        )
        return standing_of(ledger.players, deals, counters=ledger.carries_counters)

    _DEALS = "SELECT number, seats, deal_table, settlement, taihu_version FROM deals WHERE ledger_id = ?"

    def _last_deal(self, db: sqlite3.Connection, ledger: Ledger) -> Deal | None:
        row = db.execute(self._DEALS + " ORDER BY number DESC LIMIT 1", (ledger.key,)).fetchone()
        return self._deal(row) if row else None

    @staticmethod
    def _deal(row: Any) -> Deal:
        number, seats, table, settlement, version = row
        return Deal(number, json.loads(seats), json.loads(table), json.loads(settlement), version)


def token_matches(given: str, stored_sha256: str | None) -> bool:
    """Constant-time comparison of the hashes; a ledger without a token (a local one) has no keeper online."""
    return stored_sha256 is not None and hmac.compare_digest(hash_token(given), stored_sha256)
