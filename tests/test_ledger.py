"""The ledger: seats rotate as `next_dealer` says, totals are the sum of the nets.

Every expectation here is worked out on its own — the test seats the players
and settles each deal with `settle_table` itself — and compared with what the
ledger stored and shows. Each test of the store runs on SQLite and on a real
PostgreSQL (`store_db`); the ones about SQLite files run on SQLite alone.
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from rule_set_examples import example_lines

from taihu.ledger import Ledger, default_path, in_winds
from taihu.scorer import HandError, settle_table
from taihu.scorer.rulesets import RULESETS
from taihu.store import LedgerStore, deals, dispose_engines, newest_revision

Where = Path | str  # a SQLite file, or a PostgreSQL URL

ROOT = Path(__file__).resolve().parent.parent
WINDS = ("E", "S", "W", "N")
PLAYERS = ["甲", "乙", "丙", "丁"]
DEALS_PER_LEDGER = 200
# Non-winners' counts are paid only where the rule set settles between losers.
LOSERS_COUNT = {"lingxi": 20, "putian": 6}
FALSE_WIN = ("lingxi", "putian")


def winning_lines(rules: str) -> list[str]:
    """The rule set's example winning hands, without `seat:`, that settle at every seat."""
    found = []
    for raw in example_lines(rules):
        line = " ".join(t for t in raw.split() if not t.startswith("seat:"))
        if "+" in line and all(_settles(rules, line, w, d) for w, d in _win_seats(line)):
            found.append(line)
    return found


def _own_turn(line: str) -> bool:
    return " self" in f" {line}" or "declare:" in line


def _win_seats(line: str) -> list[tuple[str, str | None]]:
    return [(w, d) for w in WINDS for d in ([None] if _own_turn(line) else [s for s in WINDS if s != w])]


def _settles(rules: str, line: str, winner: str, discarder: str | None) -> bool:
    players: dict[str, Any] = {s: {"total": 0} for s in WINDS}
    players[winner] = line
    try:
        settle_table({"rules": rules, "winner": winner, "discarder": discarder, "players": players})
    except HandError:
        return False
    return True


WINNING = {rules: winning_lines(rules) for rules in sorted(RULESETS)}


@pytest.fixture(params=["sqlite", "postgresql"])
def store_db(request: pytest.FixtureRequest, ledger_db: Path) -> Where:
    """The test's database, as $TAIHU_DB says too: a SQLite file, then a schema in the run's PostgreSQL."""
    return ledger_db if request.param == "sqlite" else request.getfixturevalue("pg_url")


def test_every_rule_set_has_winning_hands_for_the_random_ledgers() -> None:
    assert all(len(lines) >= 2 for lines in WINNING.values()), {r: len(v) for r, v in WINNING.items()}


def random_deal(rng: random.Random, rules: str, seats: dict[str, str]) -> dict[str, Any]:
    """A valid deal at these seats, naming players or winds at random (a wind is the seat as it stands)."""
    by_name = rng.random() < 0.5
    name = (lambda wind: seats[wind]) if by_name else (lambda wind: wind)
    counts = {w: {"total": rng.randrange(LOSERS_COUNT.get(rules, 0) + 1)} for w in WINDS}
    kind = rng.choice(("win", "win", "win", "drawn") + (("false-win",) if rules in FALSE_WIN else ()))
    deal: dict[str, Any] = {"winner": None, "events": []}
    if kind == "win":
        line = rng.choice(WINNING[rules])
        winner, discarder = rng.choice(_win_seats(line))
        counts[winner] = line  # type: ignore[assignment]
        deal.update(winner=name(winner), discarder=name(discarder) if discarder else None)
    elif kind == "false-win":
        deal["events"] = [{"type": "false-win", "seat": name(rng.choice(WINDS))}]
    elif rules == "riichi":  # a drawn riichi deal says who was ready (听牌), not a count
        counts = {w: {"tenpai": rng.random() < 0.5} for w in WINDS}
    deal["players"] = {name(w): counts[w] for w in WINDS}
    if rng.random() < 0.5:
        deal["rules"] = rules  # repeating the ledger's rules is allowed
    return deal


def seats_of(dealer: str) -> dict[str, str]:
    at = PLAYERS.index(dealer)
    return {w: PLAYERS[(at + i) % 4] for i, w in enumerate(WINDS)}


def winds_of(deal: dict[str, Any], seats: dict[str, str], rules: str) -> dict[str, Any]:
    """The test's own translation of names into winds."""
    wind = {p: w for w, p in seats.items()}
    out = {**deal, "rules": rules, "options": {}}
    out["players"] = {wind.get(k, k): v for k, v in deal["players"].items()}
    for field in ("winner", "discarder"):
        if deal.get(field) is not None:
            out[field] = wind.get(deal[field], deal[field])
    out["events"] = [{**e, "seat": wind.get(e["seat"], e["seat"])} for e in deal["events"]]
    return out


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_a_ledger_of_200_random_deals_rotates_and_totals(rules: str, store_db: Where) -> None:
    rng = random.Random(f"ledger-{rules}")
    expected_totals = dict.fromkeys(PLAYERS, 0)
    expected_deals = []
    dealer = PLAYERS[0]  # the first named deals first
    counters: dict[str, int] = {}  # riichi: the honba and pot the last deal left (tests/test_ledger_riichi.py)
    with LedgerStore(store_db) as store:
        ledger = store.create("evening", rules, PLAYERS)
        for number in range(1, DEALS_PER_LEDGER + 1):
            seats = seats_of(dealer)
            deal = random_deal(rng, rules, seats)
            stored = store.add(ledger, deal)
            prevalent = RULESETS[rules].ledger_round(number)  # MCR: the ledger's prevalent wind for the deal
            played = {"round": prevalent} if prevalent is not None else {}
            settlement = settle_table({**winds_of(deal, seats, rules), **counters, **played})
            if rules == "riichi":
                counters = {"honba": settlement.extra["next_honba"] or 0, "pot": settlement.extra["pot_after"] or 0}
            assert stored.seats == seats and stored.dealer == dealer
            assert stored.settlement == settlement.to_dict(codes=True)  # stored with the texts' codes
            assert stored.to_json()["settlement"] == settlement.to_dict()  # shown as settle_table's JSON
            for wind, amount in settlement.net.items():
                expected_totals[seats[wind]] += amount
            expected_deals.append({"dealer": dealer, "seats": seats, "settlement": settlement.to_dict()})
            dealer = seats[settlement.next_dealer]  # the next deal's dealer: the wind read in these seats
        view = store.view(ledger).to_json()
        standing = store.standing(ledger)  # the cheap path that `add` prints: the same numbers
    assert (standing.totals, standing.next_dealer) == (expected_totals, dealer)
    riichi_keys = {"next_honba", "next_pot"} if rules == "riichi" else set()
    assert (
        set(view)
        == {"name", "title", "expires", "rules", "players", "deals", "totals", "next_dealer", "deal_count"}
        | riichi_keys
    )
    assert [{k: d[k] for k in ("dealer", "seats", "settlement")} for d in view["deals"]] == expected_deals
    assert view["totals"] == expected_totals and sum(expected_totals.values()) == 0
    assert view["next_dealer"] == dealer
    # the deals did rotate: more than one player dealt
    assert len({d["dealer"] for d in expected_deals}) > 1
    assert_csv_round_trips(store_csv(store_db, "evening"), view)


def store_csv(path: Where, name: str) -> str:
    with LedgerStore(path) as store:
        return store.view(store.ledger(name)).to_csv()


def csv_rows(text: str) -> list[dict[str, str]]:
    """The CSV's rows as a spreadsheet reads them: after the byte order mark it starts with."""
    assert text.startswith("\ufeff")
    return list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))


def assert_csv_round_trips(text: str, view: dict[str, Any]) -> None:
    """Reading the CSV back gives each deal's seats and nets, and the running totals."""
    rows = csv_rows(text)
    assert len(rows) == 4 * len(view["deals"])
    running = dict.fromkeys(view["players"], 0)
    for number, deal in enumerate(view["deals"], start=1):
        mine = [r for r in rows if r["deal"] == str(number)]
        assert {r["seat"]: r["player"] for r in mine} == deal["seats"]
        assert {r["seat"]: int(r["net"]) for r in mine} == deal["settlement"]["net"]
        assert {r["dealer"] for r in mine} == {deal["dealer"]}
        for r in mine:
            running[r["player"]] += int(r["net"])
            assert int(r["total"]) == running[r["player"]]
    assert running == view["totals"]


NORMAL_WIN: dict[str, Any] = json.loads((ROOT / "examples/tables/normal-win.json").read_text(encoding="utf-8"))


def test_a_deal_may_name_players_and_the_ledger_seats_them(store_db: Where) -> None:
    """Deal 2 is dealt by 乙 (S won deal 1), so 乙 is E: naming players or winds stores the same table."""
    with LedgerStore(store_db) as store:
        ledger = store.create("names", "lingxi", PLAYERS)
        first = store.add(ledger, NORMAL_WIN)
        assert first.next_dealer == "乙"
        by_wind = NORMAL_WIN  # the seats as they stand: S (丙) wins on W's (丁's) discard
        by_name = {
            **NORMAL_WIN,
            "winner": "丙",
            "discarder": "丁",
            "players": dict(zip(["乙", "丙", "丁", "甲"], NORMAL_WIN["players"].values(), strict=True)),
        }
        named = store.add(ledger, by_name)
        store.undo(ledger)
        winds = store.add(ledger, by_wind)
    assert named.table == winds.table and named.settlement == winds.settlement
    assert named.seats == {"E": "乙", "S": "丙", "W": "丁", "N": "甲"}
    assert named.table["winner"] == "S" and named.table["discarder"] == "W"
    assert named.next_dealer == "丙"


def test_events_name_players_too() -> None:
    seats = {"E": "乙", "S": "丙", "W": "丁", "N": "甲"}
    table = in_winds(
        {
            "players": {"甲": {"total": 1}},
            "events": [{"type": "false-win", "seat": "丙"}, {"type": "foul", "seat": "W"}],
        },
        Ledger(1, "x", "lingxi", PLAYERS, {}),
        seats,
    )
    assert table["events"] == [{"type": "false-win", "seat": "S"}, {"type": "foul", "seat": "W"}]
    assert table["players"] == {"N": {"total": 1}}


@pytest.mark.parametrize(
    "change, message",
    [
        ({"rules": "luoshan"}, "rules: the table says 'luoshan' but ledger 'refused' keeps lingxi"),
        (
            {"options": {"double_at": 13}},
            "options.double_at: the table says 13 but ledger 'refused' plays double_at=10;",
        ),
        (
            {"options": {"hua_hu": 100}},
            "options.hua_hu: the table says 100 but ledger 'refused' plays hua_hu=52 (the default)",
        ),
        ({"options": {"nope": 1}}, "options: unknown option 'nope' for lingxi"),
        ({"players": {**NORMAL_WIN["players"], "乙": {"total": 1}}}, "players: E and 乙 are the same seat this deal"),
        ({"winner": "W"}, "players.S: the hand has a winning tile +9m, but the winner is W"),
        ({"winner": "戊"}, "winner: '戊' is neither a player of ledger 'refused' (甲, 乙, 丙, 丁) nor a wind"),
        ({"players": {**NORMAL_WIN["players"], "戊": {"total": 1}}}, "players: '戊' is neither a player"),
        ({"events": [{"type": "foul", "seat": "戊"}]}, "events[0].seat: '戊' is neither a player"),
        ({"events": [{"type": "foul"}]}, "events[0].seat: Field required"),
        ({"players": {"E": {"total": 1}}}, "players: must be exactly the seats E, S, W, N"),
    ],
)
def test_a_refused_table_changes_nothing_and_says_why(change: dict[str, Any], message: str, store_db: Where) -> None:
    with LedgerStore(store_db) as store:
        ledger = store.create("refused", "lingxi", PLAYERS, {"double_at": 10})
        store.add(ledger, NORMAL_WIN)
        before = store.view(ledger).to_json()
        with pytest.raises(HandError) as info:
            store.add(ledger, {**NORMAL_WIN, **change})
        assert message in str(info.value)
        assert store.view(ledger).to_json() == before


def test_settled_exactly_as_settle_table_says_with_the_ledgers_options(store_db: Where) -> None:
    with LedgerStore(store_db) as store:
        ledger = store.create("options", "lingxi", PLAYERS, {"double_at": 10})
        deal = store.add(ledger, NORMAL_WIN)
    assert deal.table["options"] == {"double_at": 10}
    expected = settle_table({**NORMAL_WIN, "options": {"double_at": 10}})
    assert deal.settlement == expected.to_dict(codes=True)
    assert deal.to_json("zh")["settlement"] == expected.to_dict("zh")


@pytest.mark.parametrize(
    "players, options, message",
    [
        (["甲", "乙", "丙"], {}, "a ledger needs 4 players in table order, got 3"),
        (["甲", "乙", "丙", "甲"], {}, "甲 named twice"),
        (["甲", "乙", "E", "丁"], {}, "'E' is a wind"),
        (["甲", "乙", " 丙", "丁"], {}, "without leading or trailing spaces"),
        (PLAYERS, {"nope": 1}, "options: unknown option 'nope' for lingxi"),
    ],
)
def test_a_new_ledger_is_checked(players: list[str], options: dict[str, int], message: str, store_db: Where) -> None:
    with LedgerStore(store_db) as store:
        with pytest.raises(HandError, match=message):
            store.create("bad", "lingxi", players, options)
        assert store.names() == []


def test_names_are_unique_and_unknown_names_are_refused(store_db: Where) -> None:
    with LedgerStore(store_db) as store:
        store.create("once", "lingxi", PLAYERS)
        with pytest.raises(HandError, match="ledger 'once' already exists"):
            store.create("once", "putian", PLAYERS)
        with pytest.raises(HandError, match="no ledger named 'twice'"):
            store.ledger("twice")
        with pytest.raises(HandError, match="has no deals to undo"):
            store.undo(store.ledger("once"))


def test_undo_puts_the_seats_back(store_db: Where) -> None:
    with LedgerStore(store_db) as store:
        ledger = store.create("undo", "lingxi", PLAYERS)
        store.add(ledger, NORMAL_WIN)
        before = store.view(ledger).to_json()
        removed = store.add(ledger, NORMAL_WIN)
        assert store.undo(ledger) == removed
        assert store.view(ledger).to_json() == before
        assert store.add(ledger, NORMAL_WIN) == removed  # the same deal, number and seats again


def test_concurrent_adds_from_threads_all_land_in_order(store_db: Where) -> None:
    """Each thread adds drawn deals marked with (thread, n); none is lost and each saw the one before it."""
    threads, each = 4, 15
    with LedgerStore(store_db) as store:
        ledger = store.create("race", "lingxi", PLAYERS)
    start = threading.Barrier(threads)
    failures: list[BaseException] = []

    def adder(thread: int) -> None:
        try:
            with LedgerStore(store_db) as mine:
                start.wait()
                for n in range(each):
                    marker = {"total": thread * 1000 + n}
                    mine.add(ledger, {"winner": None, "players": {**dict.fromkeys(WINDS, {"total": 0}), "N": marker}})
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)

    workers = [threading.Thread(target=adder, args=(t,)) for t in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert failures == []
    with LedgerStore(store_db) as store:
        deals = store.view(ledger).deals
    assert [d.number for d in deals] == list(range(1, threads * each + 1))
    markers = [d.table["players"]["N"]["total"] for d in deals]
    assert sorted(markers) == sorted(t * 1000 + n for t in range(threads) for n in range(each))
    for thread in range(threads):  # each thread's deals landed in the order it sent them
        mine = [m for m in markers if m // 1000 == thread]
        assert mine == sorted(mine)


V1_SCHEMA = """
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version VALUES (1);
CREATE TABLE ledgers (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, rules TEXT NOT NULL,
    players TEXT NOT NULL, options TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')));
CREATE TABLE deals (ledger_id INTEGER NOT NULL REFERENCES ledgers (id) ON DELETE CASCADE,
    number INTEGER NOT NULL, seats TEXT NOT NULL, deal_table TEXT NOT NULL, settlement TEXT NOT NULL,
    added TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')), PRIMARY KEY (ledger_id, number));
"""
# A deal as an older taihu stored it: a settlement with fewer fields than today's.
OLD_SETTLEMENT = {
    "rules": "lingxi",
    "scores": {"E": {"total": 2}, "S": {"total": 56}, "W": {"total": 4}, "N": {"total": 4}},
    "payments": [],
    "net": {"E": -120, "S": 224, "W": -52, "N": -52},
    "next_dealer": "S",
}


V2_STEP = """
ALTER TABLE ledgers ADD COLUMN public_id TEXT;
ALTER TABLE ledgers ADD COLUMN token_sha256 TEXT;
CREATE UNIQUE INDEX ledgers_public_id ON ledgers (public_id);
ALTER TABLE deals ADD COLUMN taihu_version TEXT;
UPDATE schema_version SET version = 2;
"""


@pytest.mark.parametrize("version", [1, 2])
def test_a_file_of_the_hand_written_schema_migrates_in_place_and_keeps_its_deals(version: int, ledger_db: Path) -> None:
    """Files that taihu made before Alembic (`schema_version` 1 or 2): revision 0001 takes them over."""
    old = sqlite3.connect(ledger_db)
    old.executescript(V1_SCHEMA + (V2_STEP if version == 2 else ""))
    old.execute(
        "INSERT INTO ledgers (name, rules, players, options) VALUES ('old', 'lingxi', ?, '{}')", (json.dumps(PLAYERS),)
    )
    old.execute(
        "INSERT INTO deals (ledger_id, number, seats, deal_table, settlement) VALUES (1, 1, ?, ?, ?)",
        (json.dumps(dict(zip(WINDS, PLAYERS, strict=True))), json.dumps(NORMAL_WIN), json.dumps(OLD_SETTLEMENT)),
    )
    old.commit()
    old.close()
    with LedgerStore(ledger_db) as store:
        assert store.revision() == newest_revision()
        ledger = store.ledger("old")
        assert store.standing(ledger) == store.view(ledger).standing  # revision 0004 filled the old deal's row
        new = store.add(ledger, NORMAL_WIN)  # the old deal's next_dealer seats the new one
        view = store.view(ledger)
        text = view.to_csv()
        assert store.standing(ledger) == view.standing
    tables = {row[0] for row in sqlite3.connect(ledger_db).execute("SELECT name FROM sqlite_master")}
    assert "schema_version" not in tables and {"alembic_version", "ledgers", "deals"} <= tables
    assert new.number == 2 and new.dealer == "乙"
    # deal 2 seats 乙 at E and 丙 at S, who wins it
    assert view.totals == {"甲": -120 - 52, "乙": 224 - 120, "丙": -52 + 224, "丁": -52 - 52}
    rows = csv_rows(text)
    assert {r["taihu"] for r in rows if r["deal"] == "1"} == {""}  # the old deal: no version recorded
    assert {r["taihu"] for r in rows if r["deal"] == "2"} == {new.taihu_version} != {""}
    assert_csv_round_trips(text, view.to_json())


def test_a_hand_written_schema_past_the_last_is_a_newer_taihus(ledger_db: Path) -> None:
    old = sqlite3.connect(ledger_db)
    old.executescript(V1_SCHEMA.replace("VALUES (1)", "VALUES (4)"))
    old.close()
    with pytest.raises(HandError, match="written by a newer taihu \\(ledger schema 4;"):
        LedgerStore(ledger_db)


def test_a_database_from_a_newer_taihu_is_refused(store_db: Where) -> None:
    with LedgerStore(store_db) as store, store.transaction() as db:
        db.execute(sa.text("UPDATE alembic_version SET version_num = 'ffff'"))
    dispose_engines()  # as a new process would: look at the database again
    with pytest.raises(HandError, match="written by a newer taihu \\(ledger revision ffff;"):
        LedgerStore(store_db)


def test_hosts_opening_a_new_database_at_once_migrate_it_once(store_db: Where) -> None:
    """Eight clients open an empty database together: one makes the tables, the others find them made."""
    start, failures = threading.Barrier(8), []

    def opener() -> None:
        try:
            start.wait()
            with LedgerStore(store_db) as store:
                store.names()
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)

    workers = [threading.Thread(target=opener) for _ in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert failures == []
    with LedgerStore(store_db) as store:
        assert store.revision() == newest_revision()


def test_each_deal_number_is_stored_once(store_db: Where) -> None:
    """The primary key (ledger, number): a second deal 1, as a host that skipped the lock would write it, is refused."""
    with LedgerStore(store_db) as store:
        ledger = store.create("once", "lingxi", PLAYERS)
        store.add(ledger, NORMAL_WIN)
        row = {"ledger_id": ledger.key, "number": 1, "seats": "{}", "deal_table": "{}", "settlement": "{}", "added": ""}
        with pytest.raises(sa.exc.IntegrityError), store.transaction() as db:
            db.execute(deals.insert().values(**row))
        assert [d.number for d in store.view(ledger).deals] == [1]


def test_a_file_that_is_not_a_database_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not sqlite, just notes " * 100, encoding="utf-8")
    with pytest.raises(HandError, match="not a taihu ledger database"):
        LedgerStore(path)


@pytest.mark.parametrize(
    "where, message",
    [
        ("mysql://u@h/db", "mysql is not a ledger database"),
        ("postgresql://u@[::1/x", "not a database URL"),
    ],
)
def test_a_url_of_another_database_is_bad_input(where: str, message: str) -> None:
    with pytest.raises(HandError, match=re.escape(message)):
        LedgerStore(where)


def test_the_file_is_in_wal_mode(ledger_db: Path) -> None:
    with LedgerStore(ledger_db) as store, store.reading() as db:
        assert db.exec_driver_sql("PRAGMA journal_mode").first() == ("wal",)


@pytest.mark.parametrize(
    "platform, env, expected",
    [
        ("linux", {"XDG_DATA_HOME": "/data"}, "/data/taihu/ledger.db"),
        ("linux", {"XDG_DATA_HOME": "relative"}, "~/.local/share/taihu/ledger.db"),
        ("linux", {}, "~/.local/share/taihu/ledger.db"),
        ("darwin", {}, "~/Library/Application Support/taihu/ledger.db"),
        ("win32", {"APPDATA": "/appdata"}, "/appdata/taihu/ledger.db"),
        # `$TAIHU_DB` is the command line's and the server settings' to read, never the store's
        ("linux", {"TAIHU_DB": "/elsewhere/x.db", "XDG_DATA_HOME": "/data"}, "/data/taihu/ledger.db"),
    ],
)
def test_the_default_path_is_in_the_user_data_dir(
    platform: str, env: dict[str, str], expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TAIHU_DB")
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr("sys.platform", platform)
    assert default_path() == Path(expected).expanduser()


def test_a_deal_by_names_is_refused_naming_the_player_as_written(store_db: Where) -> None:
    """A seat's error in a deal keyed by player names carries that player and field (it named the wind only)."""
    with LedgerStore(store_db) as store:
        ledger = store.create("names", "lingxi", PLAYERS)
        deal = {
            "players": {
                PLAYERS[0]: {"total": 0},
                PLAYERS[1]: "123m 5Q",
                PLAYERS[2]: {"total": 0},
                PLAYERS[3]: {"total": 0},
            }
        }
        with pytest.raises(HandError) as refused:
            store.add(ledger, deal)
    assert refused.value.player == PLAYERS[1] and refused.value.field == f"players.{PLAYERS[1]}"
    assert refused.value.seat == "S"  # the deal's wind of that player: 甲 deals the first deal
