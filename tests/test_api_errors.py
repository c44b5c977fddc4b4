"""The API's side: one error shape on every status, in the language asked for.

Table-driven over every status and code the API answers: each answer validates against the OpenAPI
document's `ErrorAnswer`, has every field of the shape with `detail == message`, is documented for its
operation, and carries `Content-Language` and `Vary: Accept-Language`; the API's own messages come in
Chinese under `Accept-Language: zh-CN` and under `?lang=zh`, the English ones as they always read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import jsonschema_rs
import pytest
from api_app import app
from fastapi.testclient import TestClient

import taihu.api.app as api_module
import taihu.api.waits as waits_module
from taihu.api.guards import MAX_BODY
from taihu.api.language import query_language, scope_language
from taihu.api.ledger import LedgerRates
from taihu.messages import LANGUAGES
from taihu.messages.error_shape import ERROR_FIELDS
from taihu.ratelimit import Rate, RateLimiter

ROOT = Path(__file__).resolve().parent.parent
NORMAL_WIN: dict[str, Any] = json.loads((ROOT / "examples/tables/normal-win.json").read_text(encoding="utf-8"))
PLAYERS = ["甲", "乙", "丙", "丁"]
CHINESE = re.compile(r"[\u4e00-\u9fff]")
WAITING = "123m 456m 789p 23s 55p flip:9p"


class Ledger:
    """A ledger made for one case: its id and the header that changes it."""

    def __init__(self, client: TestClient) -> None:
        keys = client.post("/v1/ledgers", json={"rules": "lingxi", "players": PLAYERS}).json()
        self.id, self.keeper = keys["id"], {"Authorization": f"Bearer {keys['token']}"}


@dataclass(frozen=True)
class Request:
    """One request of a case: `{id}` in the path is the case's ledger; `keeper` sends its edit token."""

    method: str
    path: str
    body: bytes | None = None
    media: str | None = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    keeper: bool = False

    def send(self, client: TestClient, ledger: Ledger, lang: str | None = None, **headers: str) -> httpx.Response:
        path = self.path.format(id=ledger.id)
        if lang is not None:
            path += ("&" if "?" in path else "?") + f"lang={lang}"
        sent = ({"content-type": self.media} if self.media and self.body is not None else {}) | self.headers
        sent |= (ledger.keeper if self.keeper else {}) | {k.replace("_", "-"): v for k, v in headers.items()}
        return client.request(self.method, path, content=self.body, headers=sent)


def post(path: str, data: Any, keeper: bool = False) -> Request:
    return Request("POST", path, json.dumps(data).encode(), keeper=keeper)


def get(path: str) -> Request:
    return Request("GET", path)


@dataclass(frozen=True)
class Case:
    status: int
    code: str
    request: Request
    operation: tuple[str, str] | None  # (path template, method) of the operation that documents it
    own: bool = True  # the API's own message (the catalog's `api.…`), not the core's
    headers: dict[str, str] = field(default_factory=dict)  # what the answer must carry besides


SCORE = ("/v1/score", "post")
DEALS = ("/v1/ledgers/{ledger_id}/deals", "post")
LEDGER = ("/v1/ledgers/{ledger_id}", "get")
WRONG_TOKEN = {"Authorization": "Bearer x"}

CASES = {
    "bad_host": Case(400, "bad_host", Request("GET", "/v1/health", headers={"host": "rebound.example"}), None),
    "token_missing": Case(
        401, "token_missing", post("/v1/ledgers/{id}/deals", NORMAL_WIN), DEALS, headers={"www-authenticate": "Bearer"}
    ),
    "token_wrong": Case(
        403,
        "token_wrong",
        Request("DELETE", "/v1/ledgers/{id}/deals/last", headers=WRONG_TOKEN),
        ("/v1/ledgers/{ledger_id}/deals/last", "delete"),
    ),
    "ledger_not_found": Case(404, "ledger_not_found", get("/v1/ledgers/nosuchledger"), LEDGER),
    "not_found": Case(404, "not_found", get("/v1/nothing/here"), None),
    "method_not_allowed": Case(405, "method_not_allowed", Request("PUT", "/v1/score", b"{}"), None),
    "deal_conflict": Case(
        409, "deal_conflict", post("/v1/ledgers/{id}/deals", NORMAL_WIN | {"deal": 2}, keeper=True), DEALS, own=False
    ),
    "body_too_large": Case(413, "body_too_large", Request("POST", "/v1/score", b" " * (MAX_BODY + 1)), SCORE),
    "unsupported_media_type": Case(
        415, "unsupported_media_type", Request("POST", "/v1/score", b"hand=1m", "text/plain"), SCORE
    ),
    "invalid_json": Case(422, "invalid_json", Request("POST", "/v1/score", b'{"hand": '), SCORE),
    "missing_field": Case(422, "missing_field", post("/v1/score", {"rules": "lingxi"}), SCORE),
    "extra_field": Case(422, "extra_field", post("/v1/score", {"hand": WAITING, "extra": 1}), SCORE),
    "wrong_type": Case(422, "wrong_type", post("/v1/score", {"hand": 5}), SCORE),
    "too_long": Case(422, "too_long", post("/v1/score", {"hand": "1m" * 129}), SCORE),
    "out_of_range": Case(
        422, "out_of_range", get("/v1/ledgers/{id}/deals?limit=0"), ("/v1/ledgers/{ledger_id}/deals", "get")
    ),
    "not_allowed": Case(422, "not_allowed", post("/v1/settle", NORMAL_WIN | {"winner": "X"}), ("/v1/settle", "post")),
    "bad_format": Case(422, "bad_format", get("/v1/ledgers/{id}?deals=some"), LEDGER),
    "over_budget": Case(
        422, "over_budget", post("/v1/waits", {"rules": "luoshan", "hand": WAITING}), ("/v1/waits", "post")
    ),
    "unknown_tile": Case(422, "unknown_tile", post("/v1/score", {"hand": "123m x"}), SCORE, own=False),
    "rate_limited": Case(
        429,
        "rate_limited",
        post("/v1/ledgers", {"players": PLAYERS}),
        ("/v1/ledgers", "post"),
        headers={"retry-after": "3600"},
    ),
    "internal_error": Case(500, "internal_error", post("/v1/score", {"hand": WAITING}), SCORE),
}


def broken(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("surprise")


@pytest.fixture
def client() -> TestClient:
    return TestClient(app, raise_server_exceptions=False)  # a bug is the 500 case's answer, not the test's error


@pytest.fixture
def arranged(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], Ledger]:
    """A case's ledger, and what its case needs: a rate of new ledgers spent after one, a bug in scoring,
    a waits search with no budget (the other cases do not reach those places)."""

    def arrange(name: str) -> Ledger:
        ledger = Ledger(client)
        if name == "rate_limited":
            limiter = RateLimiter(Rate(burst=1, every_s=3600.0))
            monkeypatch.setattr(app.state, "ledger_rates", LedgerRates(creates=limiter), raising=False)
            client.post("/v1/ledgers", json={"players": PLAYERS})  # the one the burst allows
        if name == "internal_error":
            monkeypatch.setattr(api_module, "score_hand", broken)
        if name == "over_budget":
            monkeypatch.setattr(waits_module, "WAITS_BUDGET", 0.0)
        return ledger

    return arrange


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return TestClient(app).get("/openapi.json").json()


def error_validator(document: dict[str, Any]) -> Any:
    schema = {"$ref": "#/components/schemas/ErrorAnswer", "components": document["components"]}
    return jsonschema_rs.Draft202012Validator(schema)


@pytest.mark.parametrize("name", list(CASES))
def test_every_error_is_the_one_shape_and_documented(
    name: str, client: TestClient, arranged: Callable[[str], Ledger], document: dict[str, Any]
) -> None:
    case = CASES[name]
    reply = case.request.send(client, arranged(name))
    assert reply.status_code == case.status, reply.text
    answer = reply.json()
    error_validator(document).validate(answer)
    assert list(answer)[: len(ERROR_FIELDS)] == list(ERROR_FIELDS), answer
    assert answer["code"] == case.code and answer["detail"] == answer["message"] and answer["message"]
    assert reply.headers["content-language"] == "en"
    assert "Accept-Language" in reply.headers["vary"]
    for header, value in case.headers.items():
        assert reply.headers[header] == value
    if case.operation is not None:
        path, method = case.operation
        assert str(case.status) in document["paths"][path][method]["responses"], (path, method)
    if case.status == 500:
        assert re.fullmatch(r"[0-9a-f]{8}", answer["error_id"])


@pytest.mark.parametrize("name", [name for name, case in CASES.items() if case.own])
@pytest.mark.parametrize("ask", ["header", "parameter"])
def test_the_api_s_own_messages_are_chinese_when_asked(
    name: str, ask: str, client: TestClient, arranged: Callable[[str], Ledger]
) -> None:
    case = CASES[name]
    ledger = arranged(name)
    english = case.request.send(client, ledger).json()
    if ask == "header":
        reply = case.request.send(client, ledger, accept_language="zh-CN,zh;q=0.9,en;q=0.8")
    else:
        reply = case.request.send(client, ledger, lang="zh")
    assert reply.status_code == case.status, reply.text
    answer = reply.json()
    assert answer["code"] == english["code"]  # codes never change with the language
    assert CHINESE.search(answer["message"]) and answer["message"] != english["message"], answer["message"]
    assert answer["detail"] == answer["message"]
    assert reply.headers["content-language"] == "zh" and "Accept-Language" in reply.headers["vary"]


def test_a_batch_item_s_error_is_the_one_shape_in_the_language_asked(document: dict[str, Any]) -> None:
    client = TestClient(app)
    hands = {"hands": [{"hand": WAITING}, {"hand": "1m", "rules": "nowhere"}]}
    for lang in ("en", "zh"):
        reply = client.post(f"/v1/score/batch?lang={lang}", json=hands)
        assert reply.status_code == 200 and reply.headers["content-language"] == lang
        error = reply.json()["results"][1]["error"]
        error_validator(document).validate(error)
        assert list(error) == list(ERROR_FIELDS) and error["detail"] == error["message"]


def resolved(document: dict[str, Any], node: Any) -> Any:
    """`node`, or what its `$ref` points at in the document."""
    if isinstance(node, dict) and "$ref" in node:
        found: Any = document
        for part in node["$ref"].removeprefix("#/").split("/"):
            found = found[part]
        return found
    return node


def language_types(node: Any) -> list[Any]:
    """Every schema in `node` whose values are the languages: the types of `lang` a generated client would make."""
    if isinstance(node, list):
        return [found for item in node for found in language_types(item)]
    if not isinstance(node, dict):
        return []
    own = [node] if sorted(node.get("enum", [])) == sorted(LANGUAGES) else []
    return own + [found for value in node.values() for found in language_types(value)]


def test_lang_is_one_component_that_every_operation_references(document: dict[str, Any]) -> None:
    """One type of `lang` in a generated client: one schema, one parameter, each operation a `$ref` to it."""
    [lang_type] = language_types(document)
    parameter = document["components"]["parameters"]["lang"]
    assert (parameter["name"], parameter["in"]) == ("lang", "query")
    assert resolved(document, parameter["schema"]) is lang_type
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            listed = operation.get("parameters", [])
            assert {"$ref": "#/components/parameters/lang"} in listed, (path, method)
            assert [resolved(document, p)["name"] for p in listed].count("lang") == 1, (path, method)


def test_every_operation_documents_the_error_shape(document: dict[str, Any]) -> None:
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            answered = operation["responses"]
            for status in ("400", "413", "422", "500"):
                schema = answered[status]["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/ErrorAnswer"}, (path, method, status)
            if "requestBody" in operation:
                assert "415" in answered, (path, method)


def test_answers_say_their_language_and_vary_by_it() -> None:
    client = TestClient(app)
    for headers, query, lang in [
        ({}, "", "en"),
        ({"accept-language": "zh-CN"}, "", "zh"),
        ({"accept-language": "zh-CN"}, "?lang=en", "en"),  # the parameter before the header
        ({}, "?lang=zh", "zh"),
        ({}, "?lang=zh-TW", "zh"),
        ({"accept-language": "fr, zh;q=0.5"}, "", "zh"),
        ({}, "?lang=fr", "en"),  # a language taihu does not have: ignored
    ]:
        reply = client.get(f"/v1/rules{query}", headers=headers)
        assert reply.status_code == 200
        assert reply.headers["content-language"] == lang, (headers, query)
        assert "Accept-Language" in reply.headers["vary"]
    assert "content-language" not in client.get("/openapi.json").headers  # the same in every language


@pytest.mark.parametrize(
    ("query", "header", "lang"),
    [(b"", None, "en"), (b"lang=zh", None, "zh"), (b"a=1&lang=en", b"zh", "en"), (b"", b"zh-Hant;q=1", "zh")],
)
def test_the_request_language_is_the_parameter_then_the_header(query: bytes, header: bytes | None, lang: str) -> None:
    scope: dict[str, Any] = {"query_string": query, "headers": [(b"accept-language", header)] if header else []}
    assert scope_language(scope) == lang
    assert scope["taihu.lang"] == lang  # kept: asked again, the answer is the same without a parse
    assert query_language(b"language=zh") is None


@pytest.mark.parametrize(
    ("accept", "message"),
    [(None, "Disallowed CORS origin, headers"), ("zh-CN", "不允许的跨源请求（CORS）：来源、请求头")],
)
def test_a_refused_cors_preflight_is_the_one_shape(accept: str | None, message: str, document: dict[str, Any]) -> None:
    """starlette answers a refused preflight in plain text; the page's CORS check answers the error shape."""
    from fastapi import FastAPI

    from taihu.api.page import allow_origins

    made = FastAPI()
    made.add_api_route("/health", lambda: {"status": "ok"})
    allow_origins(made, ["http://phone.local:8080"])
    asked = {"origin": "http://evil.example", "access-control-request-method": "POST"}
    asked |= {"access-control-request-headers": "x-other"} | ({"accept-language": accept} if accept else {})
    reply = TestClient(made).options("/health", headers=asked)
    assert reply.status_code == 400
    answer = reply.json()
    error_validator(document).validate(answer)
    assert (answer["code"], answer["message"], answer["detail"]) == ("cors_refused", message, message)
    assert TestClient(made).options("/health", headers=asked | {"origin": "http://phone.local:8080"}).status_code == 400
