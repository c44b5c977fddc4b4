"""`/ledgers` over HTTP: only the token's keeper changes a ledger; the id reads it."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from api_app import app
from fastapi.testclient import TestClient

from taihu.ledger import hash_token
from taihu.scorer import settle_table

ROOT = Path(__file__).resolve().parent.parent
NORMAL_WIN: dict[str, Any] = json.loads((ROOT / "examples/tables/normal-win.json").read_text(encoding="utf-8"))
PLAYERS = ["甲", "乙", "丙", "丁"]


@pytest.fixture
def client() -> TestClient:
    return TestClient(app)


def new_ledger(client: TestClient, **body: Any) -> tuple[str, dict[str, str]]:
    reply = client.post("/ledgers", json={"rules": "lingxi", "players": PLAYERS, **body})
    assert reply.status_code == 201, reply.text
    keys = reply.json()
    return keys["id"], {"Authorization": f"Bearer {keys['token']}"}


def test_a_keeper_adds_and_undoes_and_anyone_with_the_id_reads(client: TestClient) -> None:
    ledger_id, keeper = new_ledger(client)
    added = client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=keeper)
    assert added.status_code == 201, added.text
    shown = client.get(f"/ledgers/{ledger_id}").json()  # no token needed to read
    assert added.json() == {  # the deal and the standings, not the ledger
        "deal": shown["deals"][0],
        "standings": {k: shown[k] for k in ("totals", "next_dealer", "deal_count")},
    }
    assert shown["deals"][0]["number"] == 1 and shown["deal_count"] == 1
    assert shown["deals"][0]["settlement"] == settle_table(NORMAL_WIN).to_dict()
    assert shown["totals"] == {"甲": -120, "乙": 224, "丙": -52, "丁": -52} and shown["next_dealer"] == "乙"
    assert shown["name"] == ledger_id and shown["players"] == PLAYERS
    rows = list(csv.DictReader(io.StringIO(client.get(f"/ledgers/{ledger_id}.csv").text.removeprefix("\ufeff"))))
    assert [(r["player"], r["seat"], int(r["net"])) for r in rows] == [
        ("甲", "E", -120),
        ("乙", "S", 224),
        ("丙", "W", -52),
        ("丁", "N", -52),
    ]
    undone = client.delete(f"/ledgers/{ledger_id}/deals/last?deal=1", headers=keeper)
    assert undone.status_code == 200 and undone.json()["deal"] == shown["deals"][0]
    assert undone.json()["standings"] == {"totals": dict.fromkeys(PLAYERS, 0), "next_dealer": "甲", "deal_count": 0}


def test_the_id_has_at_least_128_random_bits_and_the_token_is_stored_hashed(
    client: TestClient, ledger_db: Path
) -> None:
    ledger_id, keeper = new_ledger(client)
    token = keeper["Authorization"].removeprefix("Bearer ")
    assert len(ledger_id) * 6 >= 128  # url-safe base64: 6 bits a character
    stored = sqlite3.connect(ledger_db).execute("SELECT public_id, token_sha256 FROM ledgers").fetchall()
    assert stored == [(ledger_id, hash_token(token))]
    files = [p for p in ledger_db.parent.iterdir() if p.name.startswith(ledger_db.name)]  # the WAL too
    assert files and not any(token.encode() in p.read_bytes() for p in files)
    assert any(ledger_id.encode() in p.read_bytes() for p in files)  # the search would find what is there
    assert new_ledger(client)[0] != ledger_id


WRONG = {"Authorization": "Bearer not-the-token"}
NOT_BEARER = {"Authorization": "Basic dXNlcjpwYXNz"}


@pytest.mark.parametrize(
    "headers, status",
    [({}, 401), (NOT_BEARER, 401), ({"Authorization": "Bearer "}, 401), (WRONG, 403), ("other ledger's", 403)],
)
def test_wrong_or_missing_tokens_change_nothing(client: TestClient, headers: Any, status: int) -> None:
    ledger_id, keeper = new_ledger(client)
    assert client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=keeper).status_code == 201
    if headers == "other ledger's":
        headers = new_ledger(client)[1]
    before = client.get(f"/ledgers/{ledger_id}").json()
    added = client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=headers)
    undone = client.delete(f"/ledgers/{ledger_id}/deals/last", headers=headers)
    assert (added.status_code, undone.status_code) == (status, status)
    assert isinstance(added.json()["detail"], str)
    if status == 401:
        assert added.headers["www-authenticate"] == "Bearer"
    assert client.get(f"/ledgers/{ledger_id}").json() == before


def test_an_unknown_id_is_404(client: TestClient) -> None:
    _, keeper = new_ledger(client)
    for reply in (
        client.get("/ledgers/nope"),
        client.get("/ledgers/nope.csv"),
        client.post("/ledgers/nope/deals", json=NORMAL_WIN, headers=keeper),
        client.delete("/ledgers/nope/deals/last", headers=keeper),
    ):
        assert reply.status_code == 404 and "no ledger with id 'nope'" in reply.json()["detail"]


def test_a_local_ledger_is_not_reachable_by_its_name(client: TestClient, ledger_db: Path) -> None:
    from taihu.store import LedgerStore

    with LedgerStore(ledger_db) as store:
        store.create("friday", "lingxi", PLAYERS)
    assert client.get("/ledgers/friday").status_code == 404


def test_each_deal_is_validated_exactly_as_settle(client: TestClient) -> None:
    ledger_id, keeper = new_ledger(client)
    bad = {**NORMAL_WIN, "winner": "W"}
    refused = client.post(f"/ledgers/{ledger_id}/deals", json=bad, headers=keeper)
    assert refused.status_code == 422
    assert refused.json()["detail"] == client.post("/settle", json=bad).json()["detail"]
    assert client.get(f"/ledgers/{ledger_id}").json()["deals"] == []


def test_players_names_are_accepted_over_http(client: TestClient) -> None:
    ledger_id, keeper = new_ledger(client)
    by_name = {
        **NORMAL_WIN,
        "winner": "乙",
        "discarder": "丙",
        "players": dict(zip(PLAYERS, NORMAL_WIN["players"].values(), strict=True)),
    }
    added = client.post(f"/ledgers/{ledger_id}/deals", json=by_name, headers=keeper)
    assert added.status_code == 201, added.text
    assert added.json()["deal"]["table"]["winner"] == "S"


@pytest.mark.parametrize(
    "body, message",
    [
        ({"players": ["甲", "乙", "丙"]}, "a ledger needs 4 players"),
        ({"players": PLAYERS, "rules": "mars"}, "unknown rule set 'mars'"),
        ({"players": PLAYERS, "options": {"nope": 1}}, "unknown option 'nope'"),
    ],
)
def test_a_bad_new_ledger_is_422(client: TestClient, body: dict[str, Any], message: str) -> None:
    reply = client.post("/ledgers", json=body)
    assert reply.status_code == 422 and message in reply.json()["detail"]


def test_undo_of_an_empty_ledger_is_422(client: TestClient) -> None:
    ledger_id, keeper = new_ledger(client)
    tag = client.get(f"/ledgers/{ledger_id}").headers["ETag"]
    reply = client.delete(f"/ledgers/{ledger_id}/deals/last", headers=keeper | {"If-Match": tag})
    assert reply.status_code == 422 and "has no deals to undo" in reply.json()["detail"]


def test_without_a_token_the_answer_is_401_whatever_the_body(client: TestClient) -> None:
    ledger_id, _ = new_ledger(client)
    for body in ({"players": "junk"}, [1, 2]):
        assert client.post(f"/ledgers/{ledger_id}/deals", json=body).status_code == 401
    assert client.post(f"/ledgers/{ledger_id}/deals", content=b"not json").status_code == 401
