"""Exactly once: a retried add stores its deal once, over HTTP, in the CLI and in the store.

A client names the deal it means to create (`"deal": N`, or `If-Match` with the ledger's ETag) and gets a
409 with the current count when another deal got there first; an `Idempotency-Key` sent again within
24 hours gets the first answer back (200) and stores nothing. The store's part runs on SQLite and on
PostgreSQL.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from api_app import app
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from taihu.cli.main import app as taihu_app
from taihu.scorer import HandError
from taihu.store import KEY_HOURS, DealConflict, LedgerStore, idempotency, now

ROOT = Path(__file__).resolve().parent.parent
NORMAL_WIN: dict[str, Any] = json.loads((ROOT / "examples/tables/normal-win.json").read_text(encoding="utf-8"))
DRAWN: dict[str, Any] = json.loads((ROOT / "examples/tables/drawn.json").read_text(encoding="utf-8"))
PLAYERS = ["甲", "乙", "丙", "丁"]


@pytest.fixture(params=["sqlite", "postgresql"])
def store_db(request: pytest.FixtureRequest, ledger_db: Path) -> Path | str:
    return ledger_db if request.param == "sqlite" else request.getfixturevalue("pg_url")


@pytest.fixture
def client() -> TestClient:
    return TestClient(app)


def new_ledger(client: TestClient) -> tuple[str, dict[str, str]]:
    keys = client.post("/ledgers", json={"rules": "lingxi", "players": PLAYERS}).json()
    return keys["id"], {"Authorization": f"Bearer {keys['token']}"}


def test_a_retry_with_the_same_key_answers_the_first_answer_and_stores_nothing(client: TestClient) -> None:
    ledger_id, keeper = new_ledger(client)
    once = {**keeper, "Idempotency-Key": "3f2c-deal-1"}
    first = client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=once)
    again = client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=once)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json() and first.json()["deal"]["number"] == 1
    shown = client.get(f"/ledgers/{ledger_id}").json()
    assert shown["deal_count"] == 1 and shown["totals"]["乙"] == 224  # not 336: stored once
    other = client.post(f"/ledgers/{ledger_id}/deals", json=DRAWN, headers=once)  # the same key, another deal
    assert other.status_code == 422 and "was used for another deal" in other.json()["detail"]
    assert client.get(f"/ledgers/{ledger_id}").json()["deal_count"] == 1


@pytest.mark.parametrize("how", ["number", "etag"])
def test_naming_the_expected_deal_refuses_the_second_of_two(client: TestClient, how: str) -> None:
    ledger_id, keeper = new_ledger(client)
    etag = client.get(f"/ledgers/{ledger_id}").headers["ETag"]
    body, headers = (
        ({**NORMAL_WIN, "deal": 1}, keeper) if how == "number" else (NORMAL_WIN, {**keeper, "If-Match": etag})
    )
    first = client.post(f"/ledgers/{ledger_id}/deals", json=body, headers=headers)
    second = client.post(f"/ledgers/{ledger_id}/deals", json=body, headers=headers)  # the other phone, or a retry
    assert first.status_code == 201 and first.headers["ETag"] != etag
    assert second.status_code == 409 and second.json()["deal"] == 1 and second.json()["code"] == "deal_conflict"
    assert second.headers["ETag"] == first.headers["ETag"] == client.get(f"/ledgers/{ledger_id}").headers["ETag"]
    assert client.get(f"/ledgers/{ledger_id}").json()["deal_count"] == 1
    follow = {**keeper, "If-Match": second.headers["ETag"]}  # the client catches up and adds deal 2
    assert client.post(f"/ledgers/{ledger_id}/deals", json={**NORMAL_WIN, "deal": 2}, headers=follow).status_code == 201


def test_an_undo_changes_the_etag_even_where_the_count_comes_back(client: TestClient) -> None:
    ledger_id, keeper = new_ledger(client)
    client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=keeper)
    before = client.get(f"/ledgers/{ledger_id}").headers["ETag"]
    assert client.delete(f"/ledgers/{ledger_id}/deals/last?deal=1", headers=keeper).status_code == 200
    client.post(f"/ledgers/{ledger_id}/deals", json=DRAWN, headers=keeper)
    stale = client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers={**keeper, "If-Match": before})
    assert stale.status_code == 409
    long_tag = {**keeper, "If-Match": '"' + "x" * 15000 + '"'}
    echoed = client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=long_tag)
    assert echoed.status_code == 409 and len(echoed.json()["detail"]) < 300  # a message echoes a short part


@pytest.mark.parametrize(
    "body, headers, status",
    [
        ({"deal": 0}, {}, 422),
        ({"deal": "1"}, {}, 422),
        ({"deal": True}, {}, 422),
        ({}, {"Idempotency-Key": "k" * 201}, 422),
        ({}, {"If-Match": "*"}, 201),
        ({}, {"If-Match": 'W/"0.0", "9.9"'}, 201),
    ],
)
def test_what_a_retry_may_send(client: TestClient, body: dict[str, Any], headers: dict[str, str], status: int) -> None:
    ledger_id, keeper = new_ledger(client)
    reply = client.post(f"/ledgers/{ledger_id}/deals", json={**NORMAL_WIN, **body}, headers={**keeper, **headers})
    assert reply.status_code == status, reply.text


# an undo with two deals in the ledger: what it sends → its status, the deals left
UNDOS: list[tuple[str, dict[str, str], int, int]] = [
    ("", {}, 428, 2),  # names no deal: a retry of it would remove a second
    ("", {"Idempotency-Key": "u-1"}, 428, 2),  # a key alone names no deal either
    ("", {"If-Match": "*"}, 428, 2),  # any state matches `*`
    ("", {"If-Match": " * "}, 428, 2),
    ("&deal=2", {}, 200, 1),
    ("&deal=1", {}, 409, 2),
    ("", {"If-Match": '"2.2"'}, 200, 1),
    ("", {"If-Match": '"2.1"'}, 412, 2),
    ("&deal=2", {"If-Match": '"2.2"', "Idempotency-Key": "u-2"}, 200, 1),
]


@pytest.mark.parametrize(("query", "headers", "status", "left"), UNDOS)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_undo_names_the_deal_it_removes(
    client: TestClient, query: str, headers: dict[str, str], status: int, left: int, lang: str
) -> None:
    ledger_id, keeper = new_ledger(client)
    for _ in range(2):
        assert client.post(f"/v1/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=keeper).status_code == 201
    undo = client.delete(f"/v1/ledgers/{ledger_id}/deals/last?lang={lang}{query}", headers=keeper | headers)
    assert undo.status_code == status, undo.text
    assert client.get(f"/v1/ledgers/{ledger_id}?deals=none").json()["deal_count"] == left
    if status == 428:
        answer = undo.json()
        assert answer["code"] == "precondition_required" and undo.headers["content-language"] == lang
        assert "?deal=N" in answer["hint"] and "If-Match" in answer["hint"]
        assert ("nothing was removed" in answer["message"]) == (lang == "en")
        assert ("什么也没有删除" in answer["message"]) == (lang == "zh")


def test_concurrent_retries_with_one_key_store_one_deal(store_db: Path | str) -> None:
    """Eight copies of one request at once (a phone retrying on a bad network): one deal, eight equal answers."""
    with LedgerStore(store_db) as store:
        ledger = store.create("retries", "lingxi", PLAYERS)
    start, answers = threading.Barrier(8), []

    def retry() -> None:
        start.wait()
        with LedgerStore(store_db) as mine:
            answers.append(mine.add_once(ledger, NORMAL_WIN, key="one"))

    workers = [threading.Thread(target=retry) for _ in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert len(answers) == 8 and sorted(a.replayed for a in answers) == [False] + [True] * 7
    assert all(a.answer == answers[0].answer for a in answers)
    with LedgerStore(store_db) as store:
        assert store.standing(ledger).deal_count == 1


def test_a_key_is_kept_24_hours(store_db: Path | str) -> None:
    with LedgerStore(store_db) as store:
        ledger = store.create("keys", "lingxi", PLAYERS)
        assert not store.add_once(ledger, NORMAL_WIN, key="k").replayed
        with store.transaction() as db:  # the key's first answer, a day and a minute old
            db.execute(idempotency.update().values(created=now(hours_ago=KEY_HOURS + 1 / 60)))
        assert not store.add_once(ledger, NORMAL_WIN, key="k").replayed  # a new deal: the key had lapsed
        assert store.standing(ledger).deal_count == 2
        with store.reading() as db:
            assert db.execute(sa.select(sa.func.count()).select_from(idempotency)).scalar() == 1


def test_the_conflict_names_the_current_count(store_db: Path | str) -> None:
    with LedgerStore(store_db) as store:
        ledger = store.create("conflict", "lingxi", PLAYERS)
        store.add_once(ledger, NORMAL_WIN, expect=1)
        with pytest.raises(DealConflict, match="holds 1 deals, so the next is deal 2") as info:
            store.add_once(ledger, NORMAL_WIN, expect=1)
        assert info.value.current == 1 and isinstance(info.value, HandError)


def test_the_cli_add_is_safe_to_retry(tmp_path: Path) -> None:
    runner, db, table = CliRunner(), str(tmp_path / "cli.db"), str(ROOT / "examples/tables/normal-win.json")
    assert runner.invoke(taihu_app, ["ledger", "new", "friday", "--players", "甲,乙,丙,丁", "--db", db]).exit_code == 0
    keyed = ["ledger", "add", "friday", table, "--idempotency-key", "k1", "--db", db]
    first, again = runner.invoke(taihu_app, keyed), runner.invoke(taihu_app, keyed)
    assert first.exit_code == again.exit_code == 0, again.output
    assert "deal 1 was recorded before with key 'k1': nothing stored now" in again.output
    assert "deal 1: 乙 won on 丙's discard" in again.output and "totals: 甲 -120  乙 +224" in again.output
    stale = runner.invoke(taihu_app, ["ledger", "add", "friday", table, "--deal", "1", "--db", db])
    assert stale.exit_code == 2 and "holds 1 deals, so the next is deal 2" in stale.output
    assert runner.invoke(taihu_app, ["ledger", "add", "friday", table, "--deal", "2", "--db", db]).exit_code == 0
