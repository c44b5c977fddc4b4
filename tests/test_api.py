"""The HTTP API: four endpoints, one-string 422s for every bad input, a 500 only for a bug."""

from __future__ import annotations

import copy
import http.client
import json
import logging
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from api_app import app
from fastapi.testclient import TestClient

import taihu.api.app as api_module
from taihu.api.guards import MAX_BODY
from taihu.messages.error_shape import ERROR_FIELDS, error_shape, hand_error_shape
from taihu.scorer import HandError, score_hand, settle_table
from taihu.scorer.arithmetic_lines import arithmetic
from taihu.scorer.rulesets import RULESETS

ROOT = Path(__file__).resolve().parent.parent
# the docs/api.md example
EXAMPLE: dict[str, Any] = json.loads((ROOT / "examples/tables/normal-win.json").read_text(encoding="utf-8"))
EXAMPLE_NET = {"E": -120, "S": 224, "W": -52, "N": -52}
EXAMPLE_PAYMENTS = [
    {"from": "E", "to": "S", "amount": 112, "reason": "winner; dealer x2"},
    {"from": "W", "to": "S", "amount": 56, "reason": "winner"},
    {"from": "N", "to": "S", "amount": 56, "reason": "winner"},
    {"from": "E", "to": "W", "amount": 4, "reason": "difference 2; dealer x2"},
    {"from": "E", "to": "N", "amount": 4, "reason": "difference 2; dealer x2"},
]
HAND_56 = "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S"


@pytest.fixture
def client() -> TestClient:
    # Raising server exceptions: an exception that leaves the app (instead of becoming an answer) fails the test.
    return TestClient(app)


def library_message(call: Any) -> str:
    return library_error(call)["detail"]


def library_error(call: Any) -> dict[str, Any]:
    """The 422 body the library's HandError makes: the one error shape, in English."""
    with pytest.raises(HandError) as info:
        call()
    return hand_error_shape(info.value)


# -- the four endpoints ------------------------------------------------------------


def test_health(client: TestClient) -> None:
    reply = client.get("/health")
    assert reply.status_code == 200
    assert reply.json() == {"status": "ok"}


def test_rules(client: TestClient) -> None:
    reply = client.get("/rules")
    assert reply.status_code == 200
    lingxi = next(r for r in reply.json() if r["name"] == "lingxi")
    assert {"feng_ke", "cai_shen", "sha_zhu"} <= {i["key"] for i in lingxi["items"]}
    assert {o["name"] for o in lingxi["options"]} == {"double_at", "sha_zhu_hu", "hua_hu"}


def test_score_matches_the_library(client: TestClient) -> None:
    reply = client.post("/score", json={"rules": "lingxi", "hand": HAND_56, "options": {}})
    assert reply.status_code == 200
    assert reply.json() == score_hand(HAND_56).to_dict()
    assert reply.json()["total"] == 56


# the first hand of each rule set's examples/hands/ file
FIRST_HANDS = [
    pytest.param(
        path.stem,
        next(filter(None, (line.split("#")[0].strip() for line in path.read_text(encoding="utf-8").splitlines()))),
        id=path.stem,
    )
    for path in sorted((ROOT / "examples/hands").glob("*.txt"))
]


@pytest.mark.parametrize(("rules", "hand"), FIRST_HANDS)
def test_score_adds_the_core_s_arithmetic_only_when_asked(client: TestClient, rules: str, hand: str) -> None:
    """`?arithmetic=true` adds the lines of `taihu.scorer.arithmetic`; without it, or false, the HandScore as ever."""
    body = {"rules": rules, "hand": hand}
    expected = score_hand(hand, rules=rules)
    for query in ("", "?arithmetic=false"):
        assert client.post(f"/score{query}", json=body).json() == expected.to_dict()
    asked = client.post("/score?arithmetic=true", json=body).json()
    assert asked == {**expected.to_dict(), "arithmetic": arithmetic(expected)}
    assert asked["arithmetic"] and all(isinstance(line, str) for line in asked["arithmetic"])


def test_score_s_arithmetic_flag_must_be_true_or_false(client: TestClient) -> None:
    reply = client.post("/score?arithmetic=maybe", json={"hand": HAND_56})
    assert reply.status_code == 422 and reply.json()["detail"].startswith("query.arithmetic: ")


@pytest.mark.parametrize("path", ["/score", "/settle", "/waits"])
def test_docs_show_the_422_that_is_sent(client: TestClient, path: str) -> None:
    """Every hand endpoint documents one error model, the real one shape: every field of it always there."""
    schema = client.get("/openapi.json").json()
    answers = schema["paths"]["/v1" + path]["post"]["responses"]
    reference = answers["422"]["content"]["application/json"]["schema"]["$ref"]
    model = schema["components"]["schemas"][reference.rsplit("/", 1)[-1]]
    assert set(ERROR_FIELDS) <= set(model["properties"]) and model["required"] == list(ERROR_FIELDS)


def test_score_rules_and_options_default(client: TestClient) -> None:
    assert client.post("/score", json={"hand": HAND_56}).json()["total"] == 56
    reply = client.post(
        "/score", json={"hand": "123m 456m 789p 234s 678s 5p +5p wild:9s,N", "options": {"double_at": 14}}
    )
    assert reply.json()["total"] == 13


def test_settle(client: TestClient) -> None:
    reply = client.post("/settle", json=EXAMPLE)
    assert reply.status_code == 200
    body = reply.json()
    assert body["payments"] == EXAMPLE_PAYMENTS
    assert body["net"] == EXAMPLE_NET
    assert body["next_dealer"] == "S"
    assert body["scores"]["W"] == {"total": 4}
    assert body["scores"]["S"]["total"] == 56
    assert body == settle_table(EXAMPLE).to_dict()


def test_docs_show_the_core_models(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    assert {"Table", "Settlement", "Payment", "HandScore", "ScoreRequest", "RuleSetInfo"} <= set(schemas)
    assert "from" in schemas["Payment"]["properties"]


# -- 422 with the library's message -----------------------------------------------------


def test_bad_hand_is_422_with_the_library_message(client: TestClient) -> None:
    reply = client.post("/score", json={"hand": "123m x"})
    assert reply.status_code == 422
    assert reply.json() == library_error(lambda: score_hand("123m x"))
    assert {**reply.json(), "detail": "", "message": ""} == error_shape("unknown_tile", "", column=6)
    assert reply.json()["detail"].startswith("unknown tile 'x' at column 6; tiles are 1–9 then m, p or s")


def test_unknown_rules_is_422(client: TestClient) -> None:
    reply = client.post("/score", json={"rules": "mars", "hand": HAND_56})
    assert reply.status_code == 422
    assert reply.json()["detail"].startswith("unknown rule set 'mars'; known: lingxi")
    reply = client.post("/settle", json={**EXAMPLE, "rules": "mars"})
    assert reply.status_code == 422
    assert "unknown rule set 'mars'" in reply.json()["detail"]


def test_unknown_option_is_422(client: TestClient) -> None:
    reply = client.post("/score", json={"hand": HAND_56, "options": {"nope": 1}})
    assert reply.status_code == 422
    assert "unknown option 'nope'" in reply.json()["detail"]


@pytest.mark.parametrize(
    "change",
    [
        {"winner": "N"},  # the + hand is S's
        {"discarder": "S"},
        {"players": {**EXAMPLE["players"], "E": "[CCC] 123p"}},
        {"events": [{"type": "foul", "seat": "S"}]},
        {"wild": ["5m"]},
    ],
)
def test_bad_table_is_422_with_the_library_message(client: TestClient, change: dict[str, Any]) -> None:
    data = {**copy.deepcopy(EXAMPLE), **change}
    reply = client.post("/settle", json=data)
    assert reply.status_code == 422
    assert reply.json() == library_error(lambda: settle_table(data))


@pytest.mark.parametrize(
    "change",
    [
        {"winner": "X"},
        {"players": {"E": "1m"}},
        {"players": {**EXAMPLE["players"], "W": {"total": -3}}},
        {"events": [{"type": "foul"}]},
        {"extra": True},
    ],
)
def test_schema_errors_read_the_same_as_the_library(client: TestClient, change: dict[str, Any]) -> None:
    data = {**copy.deepcopy(EXAMPLE), **change}
    reply = client.post("/settle", json=data)
    assert reply.status_code == 422
    detail = reply.json()["detail"]
    assert isinstance(detail, str)
    assert detail == library_message(lambda: settle_table(data))


def test_long_hand_is_refused(client: TestClient) -> None:
    reply = client.post("/score", json={"hand": "1m" * 129})
    assert reply.status_code == 422
    assert reply.json() == error_shape("too_long", "hand: String should have at most 256 characters", field="hand")
    data = copy.deepcopy(EXAMPLE)
    data["players"]["E"] = "1m " * 100
    reply = client.post("/settle", json=data)
    assert reply.status_code == 422
    assert "at most 256" in reply.json()["detail"]


def test_huge_body_is_refused_by_content_length(client: TestClient) -> None:
    body = json.dumps({"hand": HAND_56, "padding": "x" * MAX_BODY})
    reply = client.post("/score", content=body, headers={"content-type": "application/json"})
    assert reply.status_code == 413
    assert "at most 65536 bytes" in reply.json()["detail"]


def test_huge_body_is_refused_while_streaming(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"hand": "'
        for _ in range(100):
            yield b"1" * 1024
        yield b'"}'

    reply = client.post("/score", content=chunks(), headers={"content-type": "application/json"})
    assert reply.status_code == 413
    assert "at most 65536 bytes" in reply.json()["detail"]


def test_body_just_under_the_limit_is_read(client: TestClient) -> None:
    body = json.dumps({"hand": HAND_56, "rules": "lingxi"})
    body = body[:-1] + " " * (MAX_BODY - len(body)) + "}"
    assert len(body) == MAX_BODY
    assert client.post("/score", content=body, headers={"content-type": "application/json"}).status_code == 200


def test_malformed_json_is_422(client: TestClient) -> None:
    reply = client.post("/settle", content=b'{"rules": ', headers={"content-type": "application/json"})
    assert reply.status_code == 422
    assert reply.json()["detail"].startswith("the request body is not valid JSON")


@pytest.mark.parametrize(
    "path, body",
    [
        ("/score", b""),
        ("/score", b"null"),
        ("/score", b"[]"),
        ("/score", b'{"hand": 5}'),
        ("/score", b'{"hand": "\\u0000"}'),
        ("/score", b'{"hand": "+"}'),
        ("/score", b'{"hand": "[[[[(((("}'),
        ("/score", b'{"hand": "wild:,,,,"}'),
        ("/score", b'{"hand": "123m", "options": {"double_at": -1}}'),
        ("/settle", b"{}"),
        ("/settle", b'"table"'),
        ("/settle", b'{"players": {"E": {}, "S": [], "W": null, "N": 1.5}}'),
        ("/settle", b'{"players": {"E": "", "S": " ", "W": "+", "N": "f9"}}'),
        ("/settle", b'{"wild": [""], "players": {"E": "1m", "S": "1m", "W": "1m", "N": "1m"}}'),
        ("/settle", b'{"flip": "1m", "players": {"E": "1m", "S": "1m", "W": "1m", "N": "1m"}}'),
        ("/settle", b'{"events": "foul", "players": {}}'),
        ("/settle", b"\xff\xfe"),
    ],
)
def test_never_500(client: TestClient, path: str, body: bytes) -> None:
    reply = client.post(path, content=body, headers={"content-type": "application/json"})
    assert reply.status_code == 422, reply.text
    assert isinstance(reply.json()["detail"], str)


def test_unknown_condition_has_its_code_and_column(client: TestClient) -> None:
    reply = client.post("/score", json={"hand": "123m bogus"})
    assert reply.status_code == 422
    assert {**reply.json(), "detail": "", "message": ""} == error_shape("unknown_condition", "", column=6)
    assert reply.json()["detail"].startswith("unknown condition 'bogus' at column 6; Lingxi conditions: seat:X, wild:T")


# -- a bug is not bad input: 500 with an id, the traceback in the log ------------------------

ERROR_ID = re.compile(r"[0-9a-f]{8}")


def broken(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("surprise")


@pytest.mark.parametrize(
    ("core_call", "path", "body"),
    [("score_hand", "/score", {"hand": HAND_56}), ("settle_table", "/settle", EXAMPLE)],
)
def test_bug_is_500_with_an_error_id_and_the_traceback_in_the_log(
    client: TestClient,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    core_call: str,
    path: str,
    body: dict[str, Any],
) -> None:
    monkeypatch.setattr(api_module, core_call, broken)
    with caplog.at_level(logging.ERROR, logger="taihu.api"):
        reply = client.post(path, json=body)
    assert reply.status_code == 500
    answer = reply.json()
    assert answer == error_shape("internal_error", "internal error", error_id=answer["error_id"])
    assert ERROR_ID.fullmatch(answer["error_id"])
    assert "surprise" not in reply.text and "Traceback" not in reply.text  # the body tells nothing of the code
    [record] = [r for r in caplog.records if answer["error_id"] in r.getMessage()]
    assert record.exc_info is not None and record.exc_info[0] is RuntimeError
    assert "surprise" in caplog.text and "Traceback" in caplog.text


def test_each_bug_gets_its_own_error_id(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api_module, "score_hand", broken)
    ids = {client.post("/score", json={"hand": HAND_56}).json()["error_id"] for _ in range(3)}
    assert len(ids) == 3


def test_hand_error_is_still_422_next_to_the_bug_handler(client: TestClient) -> None:
    assert client.post("/score", json={"hand": "123m x"}).status_code == 422


def test_bug_keeps_the_keep_alive_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    """A real server: the 500 is an ordinary answer, and the same connection serves the next request."""
    monkeypatch.setattr(api_module, "score_hand", broken)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="critical", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            assert time.monotonic() < deadline, "the server did not start within 10 s"
            time.sleep(0.05)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        body = json.dumps({"hand": HAND_56})
        connection.request("POST", "/score", body=body, headers={"content-type": "application/json"})
        first = connection.getresponse()
        assert first.status == 500 and json.loads(first.read())["detail"] == "internal error"
        assert first.getheader("connection", "").lower() != "close"
        socket_before = connection.sock
        connection.request("GET", "/health")
        second = connection.getresponse()
        assert second.status == 200 and json.loads(second.read()) == {"status": "ok"}
        assert connection.sock is socket_before  # not reconnected: the first connection survived
        connection.close()
    finally:
        server.should_exit = True
        thread.join(timeout=10)


# -- a real server -----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def taihu_command() -> list[str]:
    found = shutil.which("taihu", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "taihu.cli.main"]


SERVE_START_TIMEOUT = 60  # seconds; it once took over 10 on a loaded machine


@contextmanager
def taihu_serve(*args: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """A real `taihu serve` process on a free loopback port, once it answers /health; yields its base URL."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [*taihu_command(), "serve", "--host", "127.0.0.1", "--port", str(port), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=env,
    )
    try:
        # a loaded machine may take long to start a Python server: wait for readiness, with a wide bound
        deadline = time.monotonic() + SERVE_START_TIMEOUT
        while True:
            assert server.poll() is None, server.stderr.read().decode() if server.stderr else "server exited"
            try:
                if httpx.get(f"{base}/health", timeout=5).json() == {"status": "ok"}:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, f"taihu serve did not answer /health within {SERVE_START_TIMEOUT} s"
            time.sleep(0.2)
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def test_taihu_serve_answers_over_http() -> None:
    with taihu_serve() as base:
        reply = httpx.post(f"{base}/settle", json=EXAMPLE, timeout=10)
    assert reply.status_code == 200
    assert reply.json()["net"] == EXAMPLE_NET


@pytest.mark.parametrize("schema, path", [("ScoreRequest", "/score"), ("WaitsRequest", "/waits"), ("Table", "/settle")])
def test_every_openapi_example_is_answered(schema: str, path: str) -> None:
    """The OpenAPI document's examples are the rule sets' own (`RuleSet.examples`, `example_table`): each is
    answered 200, and each rule set that gives examples is among them."""
    client = TestClient(app)
    examples = client.get("/openapi.json").json()["components"]["schemas"][schema]["examples"]
    assert examples
    assert all(client.post(path, json=example).status_code == 200 for example in examples)
    if schema == "Table":
        giving = {name for name in RULESETS if RULESETS[name].example_table is not None}
    else:
        giving = {name for name in RULESETS if RULESETS[name].examples}
    assert {example["rules"] for example in examples} == giving
