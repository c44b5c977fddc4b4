"""Owner actions: a title, an expiry, a new edit token, delete; the CSV's winner and results.

Only the token's keeper acts (401 without it, 403 with another, and nothing changes). An expired ledger is
gone: 404, its rows removed when it is touched or when a ledger is made over HTTP. The store's part runs on
SQLite and on a real PostgreSQL.
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from api_app import app
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from taihu.cli.main import app as taihu_app
from taihu.messages import Language
from taihu.store import LedgerStore, deals, ledgers

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "examples/tables"
NORMAL_WIN: dict[str, Any] = json.loads((TABLES / "normal-win.json").read_text(encoding="utf-8"))
DRAWN: dict[str, Any] = json.loads((TABLES / "drawn.json").read_text(encoding="utf-8"))
FALSE_WIN: dict[str, Any] = json.loads((TABLES / "false-win.json").read_text(encoding="utf-8"))
PLAYERS = ["甲", "乙", "丙", "丁"]


@pytest.fixture
def client(store_db: Path | str) -> TestClient:
    return TestClient(app)  # on $TAIHU_DB: the test's SQLite file, or its PostgreSQL schema


def new_ledger(client: TestClient, deals_first: int = 1) -> tuple[str, dict[str, str]]:
    keys = client.post("/ledgers", json={"rules": "lingxi", "players": PLAYERS}).json()
    keeper = {"Authorization": f"Bearer {keys['token']}"}
    for _ in range(deals_first):
        assert client.post(f"/ledgers/{keys['id']}/deals", json=NORMAL_WIN, headers=keeper).status_code == 201
    return keys["id"], keeper


def rows_of(ledger_id: str) -> tuple[int, int]:
    """The ledger's rows in the database: (ledgers with this id, their deals)."""
    with LedgerStore(os.environ["TAIHU_DB"]) as store, store.reading() as db:
        keys = list(db.execute(sa.select(ledgers.c.id).where(ledgers.c.public_id == ledger_id)).scalars())
        count = db.execute(sa.select(sa.func.count()).select_from(deals).where(deals.c.ledger_id.in_(keys))).scalar()
    return len(keys), int(count or 0)


def test_a_title_is_a_display_name_apart_from_the_id(client: TestClient) -> None:
    ledger_id, keeper = new_ledger(client)
    before = client.get(f"/ledgers/{ledger_id}")
    assert (before.json()["title"], before.json()["expires"]) == (None, None)
    renamed = client.patch(f"/ledgers/{ledger_id}", json={"title": "周五 晚上"}, headers=keeper)
    assert renamed.status_code == 200, renamed.text
    assert renamed.json()["name"] == ledger_id and renamed.json()["title"] == "周五 晚上"
    assert "deals" not in renamed.json() and renamed.json()["deal_count"] == 1
    shown = client.get(f"/ledgers/{ledger_id}")
    assert shown.json()["title"] == "周五 晚上" and shown.headers["ETag"] != before.headers["ETag"]
    assert shown.headers["ETag"] == renamed.headers["ETag"]
    cleared = client.patch(f"/ledgers/{ledger_id}", json={"title": None}, headers=keeper)
    assert cleared.json()["title"] is None


@pytest.mark.parametrize(
    "body, code",
    [
        ({"title": "a\x1b[2J"}, "bad_name"),  # the name check of every name: a control character
        ({"title": " padded "}, "bad_name"),
        ({"title": "x" * 101}, "bad_name"),
        ({"expires_in_hours": 0}, None),
        ({"colour": "red"}, None),
    ],
)
def test_a_bad_edit_is_refused_and_changes_nothing(client: TestClient, body: dict[str, Any], code: str | None) -> None:
    ledger_id, keeper = new_ledger(client)
    tag = client.get(f"/ledgers/{ledger_id}").headers["ETag"]
    reply = client.patch(f"/ledgers/{ledger_id}", json=body, headers=keeper)
    assert reply.status_code == 422, reply.text
    assert code is None or reply.json()["code"] == code
    assert client.get(f"/ledgers/{ledger_id}").headers["ETag"] == tag


@pytest.mark.parametrize(
    "method, path, body",
    [
        ("PATCH", "/ledgers/{id}", {"title": "mine"}),
        ("DELETE", "/ledgers/{id}", None),
        ("POST", "/ledgers/{id}/token", None),
    ],
)
def test_only_the_keeper_acts(client: TestClient, method: str, path: str, body: Any) -> None:
    ledger_id, _ = new_ledger(client)
    before = client.get(f"/ledgers/{ledger_id}").json()
    url = path.format(id=ledger_id)
    assert client.request(method, url, json=body).status_code == 401
    assert client.request(method, url, json=body, headers={"Authorization": "Bearer wrong"}).status_code == 403
    assert client.get(f"/ledgers/{ledger_id}").json() == before


def test_the_old_token_stays_good_until_the_new_one_is_first_used(client: TestClient) -> None:
    """A rotation whose answer is lost cannot lock the owner out: the old token works on, until the new one works."""
    ledger_id, old = new_ledger(client)
    rotated = client.post(f"/ledgers/{ledger_id}/token", headers=old)
    assert rotated.status_code == 200 and rotated.json()["id"] == ledger_id
    new = {"Authorization": f"Bearer {rotated.json()['token']}"}
    assert new != old
    assert client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=old).status_code == 201
    assert client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=new).status_code == 201
    assert client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=old).status_code == 403


def test_the_old_token_stops_after_the_grace_period(client: TestClient) -> None:
    ledger_id, old = new_ledger(client)
    assert client.post(f"/ledgers/{ledger_id}/token", headers=old).status_code == 200
    with LedgerStore(os.environ["TAIHU_DB"]) as store, store.transaction() as db:  # the grace spent
        db.execute(ledgers.update().values(old_token_until="2000-01-01T00:00:00Z"))
    assert client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=old).status_code == 403


def test_a_rotation_sent_again_with_its_key_answers_the_same_token(client: TestClient) -> None:
    ledger_id, old = new_ledger(client)
    key = {"Idempotency-Key": "rotate-0123456789abcdef"}
    first = client.post(f"/ledgers/{ledger_id}/token", headers=old | key)
    again = client.post(f"/ledgers/{ledger_id}/token", headers=old | key)
    assert (first.status_code, again.status_code) == (200, 200) and first.json() == again.json()
    new = {"Authorization": f"Bearer {first.json()['token']}"}
    assert client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=new).status_code == 201


def test_a_deleted_ledger_is_gone_with_its_deals(client: TestClient) -> None:
    ledger_id, keeper = new_ledger(client, deals_first=3)
    other_id, _ = new_ledger(client)
    assert rows_of(ledger_id) == (1, 3)
    deleted = client.delete(f"/ledgers/{ledger_id}", headers=keeper)
    assert (deleted.status_code, deleted.content) == (204, b"")
    assert rows_of(ledger_id) == (0, 0)
    for path in ("/ledgers/{id}", "/ledgers/{id}.csv", "/ledgers/{id}/deals"):
        assert client.get(path.format(id=ledger_id)).status_code == 404
    assert client.delete(f"/ledgers/{ledger_id}", headers=keeper).status_code == 404
    assert rows_of(other_id) == (1, 1)  # the other ledger stays


def expire_now(ledger_id: str) -> None:
    """Moves the ledger's expiry into the past, as time would."""
    with LedgerStore(os.environ["TAIHU_DB"]) as store, store.transaction() as db:
        db.execute(ledgers.update().where(ledgers.c.public_id == ledger_id).values(expires="2000-01-01T00:00:00Z"))


def test_an_expired_ledger_is_a_404_and_removed_when_touched(client: TestClient) -> None:
    ledger_id, keeper = new_ledger(client, deals_first=2)
    set_ = client.patch(f"/ledgers/{ledger_id}", json={"expires_in_hours": 24}, headers=keeper)
    assert set_.status_code == 200 and set_.json()["expires"] > "2026"
    assert client.get(f"/ledgers/{ledger_id}").json()["expires"] == set_.json()["expires"]
    expire_now(ledger_id)
    assert rows_of(ledger_id) == (1, 2)
    assert client.get(f"/ledgers/{ledger_id}").status_code == 404
    assert rows_of(ledger_id) == (0, 0)
    assert client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=keeper).status_code == 404


def test_an_expiry_can_be_lifted_and_untouched_expired_ledgers_go_when_a_ledger_is_made(client: TestClient) -> None:
    kept_id, keeper = new_ledger(client)
    client.patch(f"/ledgers/{kept_id}", json={"expires_in_hours": 1}, headers=keeper)
    lifted = client.patch(f"/ledgers/{kept_id}", json={"expires_in_hours": None}, headers=keeper)
    assert lifted.json()["expires"] is None
    gone_id, gone_keeper = new_ledger(client)
    client.patch(f"/ledgers/{gone_id}", json={"expires_in_hours": 1}, headers=gone_keeper)
    expire_now(gone_id)
    assert rows_of(gone_id) == (1, 1)
    new_ledger(client, deals_first=0)
    assert rows_of(gone_id) == (0, 0) and rows_of(kept_id) == (1, 1)


# what the `result` column reads in each language; the header is the same in every language
RESULTS = {
    "en": {"won": "won", "discarded": "discarded", "false win": "false win", "drawn": "drawn"},
    "zh": {"won": "和牌", "discarded": "点炮", "false win": "诈和", "drawn": "流局"},
}


def csv_of_the_library(client: TestClient, ledger_id: str, lang: Language) -> str:
    with LedgerStore(os.environ["TAIHU_DB"]) as store:
        found = store.shared(ledger_id)
        assert found is not None
        return store.view(found[0]).to_csv(lang)


def csv_of_the_cli(client: TestClient, ledger_id: str, lang: str) -> str:
    exported = CliRunner().invoke(taihu_app, ["ledger", "export", ledger_id, "--csv", "--lang", lang])
    assert exported.exit_code == 0, exported.output
    return exported.output


def csv_of_the_api_query(client: TestClient, ledger_id: str, lang: str) -> str:
    reply = client.get(f"/ledgers/{ledger_id}.csv?lang={lang}")
    assert reply.headers["content-language"] == lang and "Accept-Language" in reply.headers["vary"]
    return reply.text


def csv_of_the_api_header(client: TestClient, ledger_id: str, lang: str) -> str:
    reply = client.get(
        f"/ledgers/{ledger_id}.csv", headers={"Accept-Language": {"zh": "zh-CN,zh;q=0.9", "en": "en"}[lang]}
    )
    assert reply.headers["content-language"] == lang and "Accept-Language" in reply.headers["vary"]
    return reply.text


@pytest.mark.parametrize("lang", sorted(RESULTS))
@pytest.mark.parametrize(
    "read_csv",
    [csv_of_the_library, csv_of_the_cli, csv_of_the_api_query, csv_of_the_api_header],
    ids=lambda f: f.__name__,
)
def test_the_csv_names_the_winner_the_discarder_and_each_seats_result_in_the_readers_language(
    client: TestClient, lang: str, read_csv: Any
) -> None:
    ledger_id, keeper = new_ledger(client, deals_first=0)
    for table in (NORMAL_WIN, DRAWN, FALSE_WIN):
        assert client.post(f"/ledgers/{ledger_id}/deals", json=table, headers=keeper).status_code == 201
    said = RESULTS[lang]
    text = read_csv(client, ledger_id, lang).removeprefix("\ufeff")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0])[-3:] == ["winner", "discarder", "result"]  # the keys: the same in every language
    by_deal = {
        n: {r["player"]: (r["winner"], r["discarder"], r["result"]) for r in rows if r["deal"] == n} for n in "123"
    }
    # deal 1: S (乙) wins on W's (丙) discard
    assert by_deal["1"] == {
        "甲": ("乙", "丙", ""),
        "乙": ("乙", "丙", said["won"]),
        "丙": ("乙", "丙", said["discarded"]),
        "丁": ("乙", "丙", ""),
    }
    assert {result for *_, result in by_deal["2"].values()} == {said["drawn"]}
    offender = [p for p, (*_, result) in by_deal["3"].items() if result == said["false win"]]
    assert len(offender) == 1 and {result for *_, result in by_deal["3"].values()} == {said["false win"], ""}


def test_the_csv_is_in_english_when_no_language_is_asked_for(client: TestClient) -> None:
    ledger_id, keeper = new_ledger(client)
    reply = client.get(f"/ledgers/{ledger_id}.csv")
    assert reply.headers["content-language"] == "en"
    assert {r["result"] for r in csv.DictReader(io.StringIO(reply.text.removeprefix("\ufeff")))} == {
        "",
        "won",
        "discarded",
    }
    with LedgerStore(os.environ["TAIHU_DB"]) as store:
        found = store.shared(ledger_id)
        assert found is not None and store.view(found[0]).to_csv() == reply.text


runner = CliRunner()


def test_the_cli_renames_and_deletes(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    assert runner.invoke(taihu_app, ["ledger", "new", "fri", "--players", "甲,乙,丙,丁", "--db", db]).exit_code == 0
    assert runner.invoke(taihu_app, ["ledger", "new", "sat", "--players", "甲,乙,丙,丁", "--db", db]).exit_code == 0
    added = runner.invoke(taihu_app, ["ledger", "add", "fri", str(TABLES / "normal-win.json"), "--db", db])
    assert added.exit_code == 0, added.output
    taken = runner.invoke(taihu_app, ["ledger", "rename", "fri", "sat", "--db", db])
    assert taken.exit_code == 2 and "already exists" in taken.output
    bad = runner.invoke(taihu_app, ["ledger", "rename", "fri", "a\x1bb", "--db", db])
    assert bad.exit_code == 2 and "control character" in bad.output
    renamed = runner.invoke(taihu_app, ["ledger", "rename", "fri", "friday", "--db", db])
    assert renamed.exit_code == 0 and "ledger 'fri' is now 'friday'" in renamed.output
    shown = runner.invoke(taihu_app, ["ledger", "show", "friday", "--json", "--db", db])
    assert json.loads(shown.output)["deal_count"] == 1
    deleted = runner.invoke(taihu_app, ["ledger", "delete", "friday", "--db", db])
    assert deleted.exit_code == 0 and "removed ledger 'friday' and its 1 deal" in deleted.output
    listed = runner.invoke(taihu_app, ["ledger", "list", "--db", db])
    assert "sat" in listed.output and "friday" not in listed.output
