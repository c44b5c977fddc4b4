"""Read links and private ledgers over HTTP (docs/ledger.md "Who may do what"): a read link reads until the owner
revokes it; a private ledger is not read by its id alone, only by its tokens and its live read links; every read
(the ledger, its CSV, its pages of deals, its stream) answers alike.

Each test runs on SQLite and on PostgreSQL (`store_db`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_app import app
from fastapi.testclient import TestClient
from live_server import live_server
from test_ledger_events import Stream

ROOT = Path(__file__).resolve().parent.parent
NORMAL_WIN: dict[str, Any] = json.loads((ROOT / "examples/tables/normal-win.json").read_text(encoding="utf-8"))
NEW = {"rules": "lingxi", "players": ["甲", "乙", "丙", "丁"]}
READS = ("", ".csv", "/deals", "/events")  # after /v1/ledgers/{id}: each way of reading a ledger


@pytest.fixture
def client(store_db: Path | str) -> TestClient:
    return TestClient(app)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Table:
    """A ledger with one deal, its owner, a scorer device, and a live and a revoked read link."""

    def __init__(self, client: TestClient, private: bool) -> None:
        keys = client.post("/v1/ledgers", json=NEW).json()
        self.id, self.owner = keys["id"], bearer(keys["token"])
        assert client.post(f"/v1/ledgers/{self.id}/deals", json=NORMAL_WIN, headers=self.owner).status_code == 201
        code = client.post(f"/v1/ledgers/{self.id}/invites", json={}, headers=self.owner).json()["code"]
        joined = client.post(f"/v1/ledgers/{self.id}/devices", json={"invite": code, "name": "乙的手机"})
        self.scorer = bearer(joined.json()["token"])
        self.live = self.read_link(client, "the club's screen")["code"]
        revoked = self.read_link(client, "乙")
        gone = client.delete(f"/v1/ledgers/{self.id}/read-links/{revoked['id']}", headers=self.owner)
        assert gone.status_code == 204
        self.revoked = revoked["code"]
        if private:
            made = client.patch(f"/v1/ledgers/{self.id}", json={"private": True}, headers=self.owner)
            assert made.status_code == 200, made.text

    def read_link(self, client: TestClient, name: str) -> dict[str, Any]:
        made = client.post(f"/v1/ledgers/{self.id}/read-links", json={"name": name}, headers=self.owner)
        assert made.status_code == 201, made.text
        answer: dict[str, Any] = made.json()
        assert set(answer) == {"id", "name", "created", "code"} and answer["name"] == name
        assert made.headers["Location"] == f"/v1/ledgers/{self.id}/read-links/{answer['id']}"
        return answer

    def ask(self, who: str) -> tuple[str, dict[str, str]]:
        """The query and headers a reader sends."""
        return {
            "the id alone": ("", {}),
            "a live read link": (f"?read={self.live}", {}),
            "a revoked read link": (f"?read={self.revoked}", {}),
            "a mistyped read link": ("?read=not-a-code", {}),
            "the owner token": ("", self.owner),
            "a scorer token": ("", self.scorer),
            "another ledger's token": ("", bearer("x" * 43)),
        }[who]


# who reads, on a ledger open to its id and on a private one: the status, and the code of a refusal
WHO_READS = [
    ("the id alone", (200, None), (403, "ledger_private")),
    ("a live read link", (200, None), (200, None)),
    ("a revoked read link", (403, "read_link_wrong"), (403, "read_link_wrong")),
    ("a mistyped read link", (403, "read_link_wrong"), (403, "read_link_wrong")),
    ("the owner token", (200, None), (200, None)),
    ("a scorer token", (200, None), (200, None)),
    ("another ledger's token", (200, None), (403, "token_wrong")),  # open: a token is not looked at
]


@pytest.mark.parametrize("read", [r for r in READS if r != "/events"])
@pytest.mark.parametrize(("who", "open_answer", "private_answer"), WHO_READS)
def test_who_reads_an_open_and_a_private_ledger(
    client: TestClient, read: str, who: str, open_answer: tuple[int, str | None], private_answer: tuple[int, str | None]
) -> None:
    for private, (status, code) in ((False, open_answer), (True, private_answer)):
        table = Table(client, private)
        query, headers = table.ask(who)
        answer = client.get(f"/v1/ledgers/{table.id}{read}{query}", headers=headers)
        assert answer.status_code == status, (private, answer.text)
        if code is not None:
            assert answer.json()["code"] == code and answer.json()["message"]
        elif read == "":
            assert answer.json()["deal_count"] == 1


@pytest.mark.parametrize(("who", "open_answer", "private_answer"), WHO_READS)
def test_the_stream_is_refused_as_reading_is(
    client: TestClient, who: str, open_answer: tuple[int, str | None], private_answer: tuple[int, str | None]
) -> None:
    """A refusal is an answer before the stream begins (what it streams, test_a_read_link_streams_a_private_ledger)."""
    for private, (status, code) in ((False, open_answer), (True, private_answer)):
        if code is None:
            continue
        table = Table(client, private)
        query, headers = table.ask(who)
        answer = client.get(f"/v1/ledgers/{table.id}/events{query}", headers=headers)
        assert (answer.status_code, answer.json()["code"]) == (status, code)


def test_a_read_link_streams_a_private_ledger(store_db: Path | str) -> None:
    with live_server() as (host, port):
        base = f"http://{host}:{port}/v1"
        keys = httpx.post(f"{base}/ledgers", json=NEW).json()
        ledger, owner = keys["id"], bearer(keys["token"])
        code = httpx.post(f"{base}/ledgers/{ledger}/read-links", json={}, headers=owner).json()["code"]
        assert httpx.patch(f"{base}/ledgers/{ledger}", json={"private": True}, headers=owner).status_code == 200
        stream = Stream(f"{base}/ledgers/{ledger}/events?read={code}")
        try:
            assert stream.status == 200
            assert stream.next()["event"] == "ledger-edited"
            assert httpx.post(f"{base}/ledgers/{ledger}/deals", json=NORMAL_WIN, headers=owner).status_code == 201
            assert stream.next()["event"] == "deal-added"
        finally:
            stream.close()


def test_the_owner_lists_read_links_without_codes_and_opens_the_ledger_again(client: TestClient) -> None:
    table = Table(client, private=True)
    listed = client.get(f"/v1/ledgers/{table.id}/read-links", headers=table.owner)
    assert listed.status_code == 200
    assert listed.json()["private"] is True
    assert [(link["name"], sorted(link)) for link in listed.json()["read_links"]] == [
        ("the club's screen", ["created", "id", "name"])
    ]
    assert client.patch(f"/v1/ledgers/{table.id}", json={"private": False}, headers=table.owner).status_code == 200
    assert client.get(f"/v1/ledgers/{table.id}").status_code == 200
    assert client.get(f"/v1/ledgers/{table.id}/read-links", headers=table.owner).json()["private"] is False


@pytest.mark.parametrize(
    ("method", "path", "body", "who", "status", "code"),
    [
        ("POST", "/read-links", {}, "scorer", 403, "owner_only"),
        ("GET", "/read-links", None, "scorer", 403, "owner_only"),
        ("DELETE", "/read-links/x", None, "scorer", 403, "owner_only"),
        ("PATCH", "", {"private": True}, "scorer", 403, "owner_only"),
        ("POST", "/read-links", {}, None, 401, "token_missing"),
        ("GET", "/read-links", None, None, 401, "token_missing"),
        ("DELETE", "/read-links/x", None, "owner", 404, "read_link_not_found"),
        ("PATCH", "", {"private": "yes"}, "owner", 422, None),
        ("POST", "/read-links", {"name": ""}, "owner", 422, None),
    ],
)
def test_only_the_owner_manages_read_links(
    client: TestClient, method: str, path: str, body: Any, who: str | None, status: int, code: str | None
) -> None:
    table = Table(client, private=False)
    headers = {"owner": table.owner, "scorer": table.scorer, None: {}}[who]
    answer = client.request(method, f"/v1/ledgers/{table.id}{path}", json=body, headers=headers)
    assert answer.status_code == status, answer.text
    if code is not None:
        assert answer.json()["code"] == code
    assert client.get(f"/v1/ledgers/{table.id}").status_code == 200  # still open to its id


def test_a_ledger_keeps_at_most_16_read_links_and_deleting_it_ends_them(client: TestClient) -> None:
    table = Table(client, private=True)  # one live already
    for _ in range(15):
        assert client.post(f"/v1/ledgers/{table.id}/read-links", json={}, headers=table.owner).status_code == 201
    full = client.post(f"/v1/ledgers/{table.id}/read-links", json={}, headers=table.owner)
    assert (full.status_code, full.json()["code"]) == (409, "too_many_read_links")
    assert client.delete(f"/v1/ledgers/{table.id}", headers=table.owner).status_code == 204
    gone = client.get(f"/v1/ledgers/{table.id}?read={table.live}")
    assert (gone.status_code, gone.json()["code"]) == (404, "ledger_not_found")


def test_a_read_link_is_one_ledgers(client: TestClient) -> None:
    one, other = Table(client, private=True), Table(client, private=True)
    refused = client.get(f"/v1/ledgers/{other.id}?read={one.live}")
    assert (refused.status_code, refused.json()["code"]) == (403, "read_link_wrong")
