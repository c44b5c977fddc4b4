"""The table's room over HTTP: who may do what (the owner, a scorer device, the id alone), every change safe to
retry (create, add, undo, rotate), CORS for the API's own headers, and the database's faults (docs/ledger.md
"Who may do what", "Exactly once"; docs/api.md).

Each test runs on SQLite and on PostgreSQL (`store_db`) where it touches the store.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_app import app
from fastapi.testclient import TestClient
from pg_cluster import Cluster
from test_api import taihu_serve

from taihu.api.app import create_app
from taihu.api.settings import Settings
from taihu.store import dispose_engines

ROOT = Path(__file__).resolve().parent.parent
NORMAL_WIN: dict[str, Any] = json.loads((ROOT / "examples/tables/normal-win.json").read_text(encoding="utf-8"))
NEW = {"rules": "lingxi", "players": ["甲", "乙", "丙", "丁"]}


@pytest.fixture
def client(store_db: Path | str) -> TestClient:
    return TestClient(app)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_ledger(client: TestClient) -> tuple[str, dict[str, str]]:
    keys = client.post("/v1/ledgers", json=NEW).json()
    return keys["id"], bearer(keys["token"])


def scorer_of(client: TestClient, ledger: str, owner: dict[str, str], name: str = "乙的手机") -> dict[str, Any]:
    invite = client.post(f"/v1/ledgers/{ledger}/invites", json={"name": "乙"}, headers=owner)
    assert invite.status_code == 201, invite.text
    joined = client.post(f"/v1/ledgers/{ledger}/devices", json={"invite": invite.json()["code"], "name": name})
    assert joined.status_code == 201, joined.text
    assert joined.headers["Location"] == f"/v1/ledgers/{ledger}/devices/{joined.json()['device']['id']}"
    return {"invite": invite.json(), **joined.json()}


# -- who may do what -------------------------------------------------------------------------------------


def test_a_phone_joins_by_an_invite_and_scores_but_does_not_manage(client: TestClient) -> None:
    ledger, owner = new_ledger(client)
    joined = scorer_of(client, ledger, owner)
    scorer = bearer(joined["token"])
    assert joined["device"]["name"] == "乙的手机" and joined["device"]["role"] == "scorer"
    assert client.post(f"/v1/ledgers/{ledger}/deals", json=NORMAL_WIN, headers=scorer).status_code == 201
    assert client.delete(f"/v1/ledgers/{ledger}/deals/last?deal=1", headers=scorer).status_code == 200
    for method, path, body in [
        ("PATCH", f"/v1/ledgers/{ledger}", {"title": "x"}),
        ("DELETE", f"/v1/ledgers/{ledger}", None),
        ("POST", f"/v1/ledgers/{ledger}/token", None),
        ("POST", f"/v1/ledgers/{ledger}/invites", {}),
        ("GET", f"/v1/ledgers/{ledger}/devices", None),
        ("DELETE", f"/v1/ledgers/{ledger}/devices/{joined['device']['id']}", None),
    ]:
        refused = client.request(method, path, json=body, headers=scorer)
        assert (refused.status_code, refused.json()["code"]) == (403, "owner_only"), (method, path)
    assert client.get(f"/v1/ledgers/{ledger}").json()["title"] is None  # nothing changed
    listed = client.get(f"/v1/ledgers/{ledger}/devices", headers=owner).json()["devices"]
    assert [d["name"] for d in listed] == ["乙的手机"] and "token" not in listed[0]


def test_a_revoked_device_and_a_revoked_invite_stop_at_once(client: TestClient) -> None:
    ledger, owner = new_ledger(client)
    joined = scorer_of(client, ledger, owner)
    device, invite = joined["device"]["id"], joined["invite"]
    assert client.delete(f"/v1/ledgers/{ledger}/devices/{device}", headers=owner).status_code == 204
    refused = client.post(f"/v1/ledgers/{ledger}/deals", json=NORMAL_WIN, headers=bearer(joined["token"]))
    assert (refused.status_code, refused.json()["code"]) == (403, "token_wrong")
    assert client.delete(f"/v1/ledgers/{ledger}/devices/{device}", headers=owner).json()["code"] == "device_not_found"
    assert client.get(f"/v1/ledgers/{ledger}/invites", headers=owner).json()["invites"][0]["id"] == invite["id"]
    assert client.delete(f"/v1/ledgers/{ledger}/invites/{invite['id']}", headers=owner).status_code == 204
    again = client.post(f"/v1/ledgers/{ledger}/devices", json={"invite": invite["code"], "name": "丙"})
    assert (again.status_code, again.json()["code"]) == (403, "invite_wrong")
    assert client.get(f"/v1/ledgers/{ledger}/invites", headers=owner).json() == {"invites": []}


def test_a_ledger_at_its_most_invites_is_a_409(client: TestClient) -> None:
    ledger, owner = new_ledger(client)
    for _ in range(16):
        assert client.post(f"/v1/ledgers/{ledger}/invites", json={}, headers=owner).status_code == 201
    full = client.post(f"/v1/ledgers/{ledger}/invites", json={}, headers=owner)
    assert (full.status_code, full.json()["code"]) == (409, "too_many_invites")


def test_an_invite_is_one_ledgers_and_a_device_token_is_one_ledgers(client: TestClient) -> None:
    first, first_owner = new_ledger(client)
    second, _ = new_ledger(client)
    joined = scorer_of(client, first, first_owner)
    wrong = client.post(f"/v1/ledgers/{second}/devices", json={"invite": joined["invite"]["code"], "name": "x"})
    assert wrong.status_code == 403
    refused = client.post(f"/v1/ledgers/{second}/deals", json=NORMAL_WIN, headers=bearer(joined["token"]))
    assert (refused.status_code, refused.json()["code"]) == (403, "token_wrong")


# -- every change safe to retry ----------------------------------------------------------------------------


def test_an_undo_naming_a_stale_deal_removes_nothing(client: TestClient) -> None:
    ledger, owner = new_ledger(client)
    for _ in range(2):
        client.post(f"/v1/ledgers/{ledger}/deals", json=NORMAL_WIN, headers=owner)
    stale = client.delete(f"/v1/ledgers/{ledger}/deals/last?deal=1", headers=owner)
    assert (stale.status_code, stale.json()["code"], stale.json()["deal"]) == (409, "deal_conflict", 2)
    assert client.get(f"/v1/ledgers/{ledger}?deals=none").json()["deal_count"] == 2
    undone = client.delete(f"/v1/ledgers/{ledger}/deals/last?deal=2", headers=owner)
    assert undone.status_code == 200 and undone.json()["deal"]["number"] == 2
    assert client.delete(f"/v1/ledgers/{ledger}/deals/last?deal=2", headers=owner).status_code == 409  # a retry


def test_an_undo_with_a_stale_if_match_is_412_and_removes_nothing(client: TestClient) -> None:
    ledger, owner = new_ledger(client)
    client.post(f"/v1/ledgers/{ledger}/deals", json=NORMAL_WIN, headers=owner)
    tag = client.get(f"/v1/ledgers/{ledger}").headers["ETag"]
    client.post(f"/v1/ledgers/{ledger}/deals", json=NORMAL_WIN, headers=owner)
    stale = client.delete(f"/v1/ledgers/{ledger}/deals/last", headers=owner | {"If-Match": tag})
    assert (stale.status_code, stale.json()["code"], stale.json()["deal"]) == (412, "deal_conflict", 2)
    assert client.get(f"/v1/ledgers/{ledger}?deals=none").json()["deal_count"] == 2
    current = client.get(f"/v1/ledgers/{ledger}?lang=zh").headers["ETag"]  # either language's tag names the state
    assert client.delete(f"/v1/ledgers/{ledger}/deals/last", headers=owner | {"If-Match": current}).status_code == 200


def test_an_undo_sent_again_with_its_key_removes_one_deal(client: TestClient) -> None:
    ledger, owner = new_ledger(client)
    for _ in range(3):
        client.post(f"/v1/ledgers/{ledger}/deals", json=NORMAL_WIN, headers=owner)
    key = owner | {"Idempotency-Key": "undo-3"}
    first = client.delete(f"/v1/ledgers/{ledger}/deals/last?deal=3", headers=key)
    again = client.delete(f"/v1/ledgers/{ledger}/deals/last?deal=3", headers=key)
    assert (first.status_code, again.status_code) == (200, 200) and first.json() == again.json()
    assert client.get(f"/v1/ledgers/{ledger}?deals=none").json()["deal_count"] == 2
    reused = client.post(f"/v1/ledgers/{ledger}/deals", json=NORMAL_WIN, headers=key)  # the key of another request
    assert (reused.status_code, reused.json()["code"]) == (422, "key_reused")


def test_a_ledger_created_again_with_its_key_is_the_first(client: TestClient) -> None:
    key = {"Idempotency-Key": "new-ledger-5b3d0e9c"}
    first = client.post("/v1/ledgers", json=NEW, headers=key)
    again = client.post("/v1/ledgers", json=NEW, headers=key)
    assert (first.status_code, again.status_code) == (201, 200) and first.json() == again.json()
    assert first.headers["Location"] == f"/v1/ledgers/{first.json()['id']}"
    other = client.post("/v1/ledgers", json=NEW | {"players": ["a", "b", "c", "d"]}, headers=key)
    assert (other.status_code, other.json()["code"]) == (422, "key_reused")
    assert client.post("/v1/ledgers", json=NEW).json()["id"] != first.json()["id"]


# -- the contract -----------------------------------------------------------------------------------------


def test_the_document_answers_under_v1_with_the_replays_and_the_headers() -> None:
    plain = TestClient(app)
    document = plain.get("/v1/openapi.json").json()
    assert document == plain.get("/openapi.json").json()
    paths = document["paths"]
    assert "200" in paths["/v1/ledgers/{ledger_id}/deals"]["post"]["responses"]  # the replay of a key
    assert "ETag" in paths["/v1/ledgers/{ledger_id}/deals"]["post"]["responses"]["201"]["headers"]
    assert "Location" in paths["/v1/ledgers"]["post"]["responses"]["201"]["headers"]
    assert "Retry-After" in paths["/v1/ledgers"]["post"]["responses"]["429"]["headers"]
    assert "ETag" in paths["/v1/ledgers/{ledger_id}"]["get"]["responses"]["200"]["headers"]
    undo = {p.get("name") for p in paths["/v1/ledgers/{ledger_id}/deals/last"]["delete"]["parameters"]}
    assert {"deal", "If-Match", "Idempotency-Key"} <= undo
    assert "428" in paths["/v1/ledgers/{ledger_id}/deals/last"]["delete"]["responses"]  # an undo naming no deal
    code = document["components"]["schemas"]["ErrorAnswer"]["properties"]["code"]
    assert {"database_unavailable", "owner_only", "deal_conflict", "unknown_tile"} <= set(code["enum"])


CORS_ORIGIN = "https://table.example"


@pytest.mark.parametrize(
    "method, headers",
    [
        ("PATCH", "authorization, content-type"),
        ("DELETE", "authorization, idempotency-key, if-match"),
        ("GET", "if-none-match, last-event-id"),
        ("POST", "idempotency-key, content-type, authorization"),
    ],
)
def test_a_cross_origin_page_may_send_the_apis_headers(method: str, headers: str) -> None:
    client = TestClient(create_app(Settings(allowed_hosts=("testserver",), cors_origins=(CORS_ORIGIN,))))
    asked = {"Origin": CORS_ORIGIN, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers}
    preflight = client.options("/v1/ledgers/x/deals/last", headers=asked)
    assert preflight.status_code == 200, preflight.text
    assert method in preflight.headers["access-control-allow-methods"]
    refused = client.options("/v1/ledgers", headers=asked | {"Access-Control-Request-Headers": "x-other"})
    assert (refused.status_code, refused.json()["code"]) == (400, "cors_refused")


def test_a_cross_origin_page_may_read_the_apis_response_headers() -> None:
    client = TestClient(create_app(Settings(allowed_hosts=("testserver",), cors_origins=(CORS_ORIGIN,))))
    answer = client.get("/v1/health", headers={"Origin": CORS_ORIGIN})
    exposed = {h.strip().lower() for h in answer.headers["access-control-expose-headers"].split(",")}
    assert {"etag", "retry-after", "location", "content-language"} <= exposed


# -- the database's faults ---------------------------------------------------------------------------------


def test_ready_answers_with_the_database(client: TestClient) -> None:
    answer = client.get("/v1/ready")
    assert (answer.status_code, answer.json()) == (200, {"status": "ready", "database": "ok"})
    assert client.get("/v1/health").json() == {"status": "ok"}


def test_a_stopped_postgresql_is_a_503_to_retry_naming_no_host() -> None:
    """A cluster of its own (the run's is shared): a ledger made, then the server stopped under the app."""
    cluster = Cluster()
    try:
        url = cluster.url()
        client = TestClient(create_app(Settings(db=url, allowed_hosts=("testserver",))))
        ledger = client.post("/v1/ledgers", json=NEW).json()["id"]
        assert client.get("/v1/ready").status_code == 200
        cluster.stop()
        for answer in (client.get(f"/v1/ledgers/{ledger}"), client.get("/v1/ready"), client.get("/ready?lang=zh")):
            assert answer.status_code == 503, answer.text
            assert answer.json()["code"] == "database_unavailable" and int(answer.headers["Retry-After"]) > 0
            for secret in (str(cluster.dir), "taihu@", "5432", "user"):
                assert secret not in answer.text
        assert client.get("/v1/ready").json()["database"] == "unavailable"
        assert client.get("/v1/health").status_code == 200  # alive, not ready
    finally:
        cluster.stop()
        dispose_engines()


@pytest.mark.server  # runs `taihu serve`, which refuses to start
def test_taihu_serve_refuses_a_wrong_password_naming_the_setting(postgres: Cluster) -> None:
    role = "room_pw"
    postgres.sql("taihu", f"DROP ROLE IF EXISTS {role}", f"CREATE ROLE {role} LOGIN PASSWORD 'right'")
    hba = postgres.data / "pg_hba.conf"
    before = hba.read_text()
    hba.write_text(f"local all {role} scram-sha-256\n{before}")
    try:
        postgres.sql("taihu", "SELECT pg_reload_conf()")
        url = f"postgresql://{role}:wrong@/taihu?host={postgres.dir}&port=5432"
        command = [sys.executable, "-m", "taihu.cli.main", "serve", "--db", url, "--port", "1"]
        env = os.environ | {"LANG": "en_US.UTF-8"}
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)
        assert done.returncode == 2, done.stderr
        assert "--db / TAIHU_DB" in done.stderr and "password" in done.stderr and "wrong" not in done.stderr
        assert "Traceback" not in done.stderr
        zh = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env | {"LANG": "zh_CN.UTF-8"})
        assert zh.returncode == 2 and "密码" in zh.stderr
    finally:
        hba.write_text(before)
        postgres.sql("taihu", "SELECT pg_reload_conf()")


@pytest.mark.server  # runs `taihu serve`, which refuses to start
def test_taihu_serve_refuses_an_unreachable_database(tmp_path: Path) -> None:
    url = f"postgresql://nobody@/taihu?host={tmp_path}&port=5432"  # no server listens there
    done = subprocess.run(
        [sys.executable, "-m", "taihu.cli.main", "serve", "--db", url, "--port", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        env=os.environ | {"LANG": "en_US.UTF-8"},
    )
    assert done.returncode == 2 and "--db / TAIHU_DB: cannot reach" in done.stderr, done.stderr


@pytest.mark.server
def test_taihu_serve_starts_on_a_good_database(tmp_path: Path) -> None:
    with taihu_serve("--db", str(tmp_path / "ledgers.db")) as base:
        assert httpx.get(f"{base}/v1/ready", timeout=10).json() == {"status": "ready", "database": "ok"}
