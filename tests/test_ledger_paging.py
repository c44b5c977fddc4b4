"""Answers an app can poll: the deals in pages, ETag and 304, the standings alone, gzip.

The pages put together are the ledger's deals; an answer the client holds (`If-None-Match`) is a 304 without
a body until the ledger changes; `?deals=none` is the standings and the deal count; a large answer is
gzipped for a client that accepts it, with the same headers and, unpacked, the same bytes.
"""

from __future__ import annotations

import gzip
import os
from typing import Any

import pytest
from api_app import app
from fastapi.testclient import TestClient
from test_ledger_api import NORMAL_WIN, PLAYERS

from taihu.api.app import GZIP_FROM
from taihu.ledger import MAX_PAGE, PAGE_LIMIT
from taihu.store import LedgerStore


@pytest.fixture
def client() -> TestClient:
    return TestClient(app)


def ledger_of(client: TestClient, deals: int) -> tuple[str, dict[str, str]]:
    keys = client.post("/ledgers", json={"rules": "lingxi", "players": PLAYERS}).json()
    with LedgerStore(os.environ["TAIHU_DB"]) as store:
        ledger, _ = store.shared(keys["id"]) or pytest.fail("no ledger")
        for _ in range(deals):
            store.add(ledger, NORMAL_WIN)
    return keys["id"], {"Authorization": f"Bearer {keys['token']}"}


@pytest.mark.parametrize("limit", [1, 3, 7, 50])
def test_the_pages_put_together_are_the_ledgers_deals(client: TestClient, limit: int) -> None:
    ledger_id, _ = ledger_of(client, 7)
    whole = client.get(f"/ledgers/{ledger_id}").json()
    held: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = client.get(f"/ledgers/{ledger_id}/deals", params={"after": after, "limit": limit})
        assert page.status_code == 200, page.text
        body = page.json()
        assert len(body["deals"]) <= limit and body["deal_count"] == 7
        held += body["deals"]
        after = body["next_after"]
    assert held == whole["deals"]
    assert [d["number"] for d in held] == list(range(1, 8))


def test_a_page_by_default_and_past_the_end(client: TestClient) -> None:
    ledger_id, _ = ledger_of(client, PAGE_LIMIT + 1)
    first = client.get(f"/ledgers/{ledger_id}/deals").json()
    assert len(first["deals"]) == PAGE_LIMIT and first["next_after"] == PAGE_LIMIT
    past = client.get(f"/ledgers/{ledger_id}/deals", params={"after": PAGE_LIMIT + 5}).json()
    assert past == {"deals": [], "deal_count": PAGE_LIMIT + 1, "next_after": None}


@pytest.mark.parametrize("query", [{"limit": 0}, {"limit": MAX_PAGE + 1}, {"after": -1}, {"after": "x"}])
def test_a_page_out_of_bounds_is_bad_input(client: TestClient, query: dict[str, Any]) -> None:
    ledger_id, _ = ledger_of(client, 1)
    reply = client.get(f"/ledgers/{ledger_id}/deals", params=query)
    assert reply.status_code == 422, reply.text


def test_an_unknown_ledger_has_no_pages(client: TestClient) -> None:
    assert client.get("/ledgers/nope/deals").status_code == 404


def test_the_standings_alone(client: TestClient) -> None:
    ledger_id, _ = ledger_of(client, 3)
    whole = client.get(f"/ledgers/{ledger_id}")
    alone = client.get(f"/ledgers/{ledger_id}", params={"deals": "none"})
    assert alone.status_code == 200 and alone.headers["ETag"] == whole.headers["ETag"]
    assert alone.json() == {k: v for k, v in whole.json().items() if k != "deals"}
    assert list(alone.json()) == ["name", "title", "expires", "rules", "players", "totals", "next_dealer", "deal_count"]
    assert client.get(f"/ledgers/{ledger_id}", params={"deals": "some"}).status_code == 422


@pytest.mark.parametrize(
    "path, query",
    [("/ledgers/{id}", {}), ("/ledgers/{id}", {"deals": "none"}), ("/ledgers/{id}/deals", {"after": 1})],
)
def test_an_answer_held_is_a_304_until_the_ledger_changes(client: TestClient, path: str, query: dict[str, Any]) -> None:
    ledger_id, keeper = ledger_of(client, 2)
    url = path.format(id=ledger_id)
    first = client.get(url, params=query)
    tag = first.headers["ETag"]
    for held in (tag, f"W/{tag}", f'"other", {tag}', "*"):
        again = client.get(url, params=query, headers={"If-None-Match": held})
        assert (again.status_code, again.content, again.headers["ETag"]) == (304, b"", tag), held
        assert again.headers["X-Content-Type-Options"] == "nosniff"  # the security headers on a 304 too
    assert client.get(url, params=query, headers={"If-None-Match": '"other"'}).status_code == 200
    added = client.post(f"/ledgers/{ledger_id}/deals", json=NORMAL_WIN, headers=keeper)
    changed = client.get(url, params=query, headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] == added.headers["ETag"] != tag


@pytest.mark.parametrize("path", ["/ledgers/{id}", "/ledgers/{id}.csv", "/ledgers/{id}/deals"])
def test_a_large_answer_is_gzipped_with_the_same_headers_and_bytes(client: TestClient, path: str) -> None:
    ledger_id, _ = ledger_of(client, 20)
    url = path.format(id=ledger_id)
    with client.stream("GET", url, headers={"Accept-Encoding": "gzip"}) as packed:
        sent = b"".join(packed.iter_raw())
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and len(plain.content) >= GZIP_FROM
    assert packed.headers["content-encoding"] == "gzip" and len(sent) < len(plain.content) / 3
    assert gzip.decompress(sent) == plain.content  # the CSV's byte order mark and all
    for name in ("content-type", "content-disposition", "etag", "content-security-policy", "x-frame-options"):
        assert packed.headers.get(name) == plain.headers.get(name), name
    assert "accept-encoding" in packed.headers["vary"].lower()


def test_a_small_answer_is_sent_as_it_is_and_the_page_keeps_its_headers(client: TestClient) -> None:
    health = client.get("/health", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in health.headers  # under GZIP_FROM
    for path in ("/", "/docs"):  # the page (gzipped) and the docs page (its policy is made from its scripts)
        packed = client.get(path, headers={"Accept-Encoding": "gzip"})
        plain = client.get(path, headers={"Accept-Encoding": "identity"})
        assert packed.headers.get("content-encoding") == ("gzip" if len(plain.content) >= GZIP_FROM else None)
        assert packed.text == plain.text
        for name in ("content-security-policy", "x-frame-options", "x-content-type-options", "referrer-policy"):
            assert packed.headers.get(name) == plain.headers.get(name) is not None, (path, name)
