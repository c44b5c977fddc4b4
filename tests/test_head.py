"""HEAD answers as GET does, without the body: the same status and headers,
`content-length` included, on every path, through the app and through a real uvicorn."""

from __future__ import annotations

import http.client
import json
from pathlib import Path

import pytest
from api_app import app
from fastapi.testclient import TestClient
from live_server import live_server

ROOT = Path(__file__).resolve().parent.parent
NORMAL_WIN = json.loads((ROOT / "examples/tables/normal-win.json").read_text(encoding="utf-8"))
PATHS = [
    "/health",
    "/v1/health",
    "/v1/rules",
    "/rules",
    "/",
    "/openapi.json",
    "/docs",
    "/v1/ledgers/{id}",
    "/v1/ledgers/{id}/deals?after=0&limit=1",
    "/ledgers/{id}.csv",
    "/v1/ledgers/no-such-ledger",  # 404
    "/v1/score",  # POST only: 405, as GET
    "/no-such-path",
]


@pytest.fixture
def ledger_id() -> str:
    client = TestClient(app)
    made = client.post("/v1/ledgers", json={"rules": "lingxi", "players": ["甲", "乙", "丙", "丁"]})
    token = {"Authorization": f"Bearer {made.json()['token']}"}
    assert client.post(f"/v1/ledgers/{made.json()['id']}/deals", json=NORMAL_WIN, headers=token).status_code == 201
    return str(made.json()["id"])


def headers(reply: object) -> dict[str, str]:
    return {name: value for name, value in reply.headers.items() if name != "date"}  # type: ignore[attr-defined]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("encoding", ["gzip", "identity"])
def test_head_answers_the_status_and_headers_of_get_without_a_body(path: str, encoding: str, ledger_id: str) -> None:
    client = TestClient(app)
    path = path.format(id=ledger_id)
    got = client.get(path, headers={"Accept-Encoding": encoding})
    head = client.head(path, headers={"Accept-Encoding": encoding})
    assert (head.status_code, headers(head)) == (got.status_code, headers(got))
    assert head.content == b"" and got.content


def test_head_over_a_real_server_sends_the_length_of_get_and_no_body(ledger_id: str) -> None:
    with live_server() as (host, port):
        answers = {}
        for method in ("GET", "HEAD"):
            connection = http.client.HTTPConnection(host, port, timeout=10)
            connection.request(method, f"/ledgers/{ledger_id}.csv", headers={"Host": "localhost"})
            reply = connection.getresponse()
            answers[method] = (reply.status, reply.getheader("content-length"), reply.read())
            connection.close()
    assert answers["HEAD"] == (200, answers["GET"][1], b"")
    assert answers["GET"][0] == 200 and int(answers["GET"][1] or 0) == len(answers["GET"][2]) > 0
