"""The API in Chinese: under `Accept-Language: zh-CN` every message is Chinese, and every error
answer of every status is the one shape, with `column` on every hand error that has a place.

- a sweep of every endpoint and status (tests/test_api_errors.py's cases, the core's errors of each hand code,
  the JSON parsers' reasons, pydantic's kinds, the ledger's error paths, batch items) in Chinese: each answer
  has exactly the shape's keys, and its `message` and `hint` hold no English word but what the request
  wrote (tile codes, keys, option names, the notation's words, the input quoted back) and the names of
  the protocol (JSON, Host, …) listed in PROTOCOL;
- every pydantic error type the request models can raise, found by trying every field with every kind of
  JSON value, has a catalog text (`taihu.api.errors.KINDS`);
- every code the notation and the rule sets raise is in PLACED (an example line, and where its column must
  point) or in NO_PLACE (why it has none);
- success answers' texts under zh (notes, details, reasons, limits) are Chinese too.

The English-word check is tests/test_cli_chinese.py's (`words`, `ENGLISH`).
"""

from __future__ import annotations

import ast
import json
import math
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_app import app
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, TypeAdapter, ValidationError
from test_api_errors import CASES, NORMAL_WIN, PLAYERS, Ledger, Request, arranged, client, get, post
from test_cli_chinese import HANDS, TABLES, words  # the example hands and tables

from taihu.api.errors import JSON_REASONS, KINDS
from taihu.api.ledger import LedgerEdit, LedgerTable, NewLedger
from taihu.api.schemas import ScoreRequest, Table
from taihu.api.waits import WaitsRequest
from taihu.messages.error_shape import ERROR_FIELDS
from taihu.scorer import HandError, score_hand
from taihu.scorer.rulesets import RULESETS, declared_values
from taihu.scorer.waiting import waits

__all__ = ["arranged", "client"]  # test_api_errors' fixtures, used here by name

ROOT = Path(__file__).resolve().parent.parent
ZH = {"accept-language": "zh-CN,zh;q=0.9"}
# names of the protocol and of the program a Chinese message keeps as they are read elsewhere: JSON and its
# encoding, the headers a client sends (Host, Authorization: Bearer, If-Match, Idempotency-Key, ETag,
# Retry-After, Content-Type), CORS, the command line that sets a server's hosts and origins, KB
MORE = {"error_id", "deal"}
# the input quoted back (`quote`: a name, a ledger's id, a tile as typed), a `command`, honour tiles written
# together (NNN, PPPP): what tests/test_error_catalog.py's check lets through too
QUOTED = re.compile(
    r"'[^']*'|`[^`]*`|(?<![A-Za-z])[ESWNCFP]+(?![A-Za-z])"
)  # a 500's id, a 409's count: the shape's two additions


def protocol_words() -> set[str]:
    found = {"JSON", "UTF", "Host", "CORS", "Bearer", "Authorization", "If-Match", "Idempotency-Key", "ETag"}
    found |= {"Retry-After", "Content-Type", "application", "json", "taihu", "serve", "allowed-host", "KB"}
    found |= {"cors-origin", "waits", "Table", "null", "true", "false", "GET", "POST", "PUT", "PATCH", "DELETE"}
    for rule_set in RULESETS.values():  # the words a player writes (conditions, declared wins), keys, options
        found |= {rule_set.name, *rule_set.conditions, *rule_set.declared_wins}
        found |= {option.name for option in rule_set.options} | {item.key for item in rule_set.items}
    found |= {"NAME", "false-win", "foul", "liable", "seat", "wild", "flip", "declare", "total", "tenpai"}
    found |= {"error_id", "str"}  # a 500's field; pydantic's tag of a union's text member in a path
    found.add("zh")  # the language tag of a Chinese answer's ETag ("3.5.zh"), which a 409 quotes
    for model in (ScoreRequest, WaitsRequest, Table, NewLedger, LedgerTable, LedgerEdit):  # the fields a path names
        found |= set(model.model_fields) | {model.__name__}
    found |= {
        "Event",
        "LedgerEvent",
        "PlayerTotal",
        "PlayerTenpai",
    }  # the schemas a message names for the object it wanted
    return found


PROTOCOL = protocol_words()


def request_words(request: Request | None, body: object = None) -> set[str]:
    """What the client wrote: the path, the query, the body's keys and values, the headers' values."""
    written = [] if request is None else [request.path, *request.headers.values()]
    if request is not None and request.body is not None:
        written.append(request.body.decode("utf-8", "replace"))
    if body is not None:
        written.append(json.dumps(body, ensure_ascii=False))
    return words(written)


def english_in(answer: dict[str, Any], written: set[str]) -> set[str]:
    """The English words of an answer's texts a person reads, what the client wrote and PROTOCOL aside."""
    shown = [QUOTED.sub(" ", answer.get("message") or ""), QUOTED.sub(" ", answer.get("hint") or "")]
    return words(shown) - written - PROTOCOL - words([answer.get("field") or ""])


FIELD_OPENING = re.compile(r"^[a-z_][A-Za-z_.\[\]0-9]*：")  # a key's name opening a message (`discarder：`)


def field_names_in(message: str, field: str | None = None) -> list[str]:
    """The field names a Chinese message shows: a seat's path (`players.`), an event's (`events[`), a key's name
    opening the message, or the error's own field as its path reads (`players.S`, `discarder`)."""
    found = [name for name in ("players.", "players[", "events[") if name in message]
    found += [opening.group(0) for opening in [FIELD_OPENING.match(message.strip())] if opening]
    found += [field] if field and re.search(rf"(?<![A-Za-z_:\"']){re.escape(field)}(?![A-Za-z_:\"'])", message) else []
    return found


def assert_the_shape_in_chinese(reply: httpx.Response, written: set[str]) -> dict[str, Any]:
    answer = reply.json()
    assert set(answer) - MORE == set(ERROR_FIELDS), answer
    assert list(answer)[: len(ERROR_FIELDS)] == list(ERROR_FIELDS), answer
    assert answer["message"] and answer["detail"] == answer["message"], answer
    assert english_in(answer, written) == set(), answer
    assert field_names_in(answer["message"], answer["field"]) == [], answer
    assert reply.headers["content-language"] == "zh"
    return answer


# -- the sweep: every case of tests/test_api_errors.py, in Chinese -------------------------------------------


@pytest.mark.parametrize("name", list(CASES))
def test_every_error_status_answers_the_shape_in_chinese(
    name: str, client: TestClient, arranged: Callable[[str], Ledger]
) -> None:
    case = CASES[name]
    reply = case.request.send(client, arranged(name), accept_language="zh-CN")
    assert reply.status_code == case.status, reply.text
    assert reply.json()["code"] == case.code
    assert_the_shape_in_chinese(reply, request_words(case.request))


TILES = {"hand": "123m 456m 789p 23s 55p flip:9p", "rules": "luoshan"}
# more error paths, by endpoint: (status, code, request)
SWEEP: dict[str, tuple[int, str, Request]] = {
    "score-unversioned": (422, "unknown_tile", post("/score", {"hand": "123m x"})),
    "score-get": (405, "method_not_allowed", get("/v1/score")),
    "settle-bad-seat": (422, "not_allowed", post("/settle", NORMAL_WIN | {"discarder": "Q"})),
    "settle-a-seat-s-hand": (
        422,
        "unknown_tile",
        post("/v1/settle", NORMAL_WIN | {"players": NORMAL_WIN["players"] | {"E": "123m x"}}),
    ),
    "settle-json": (422, "invalid_json", Request("POST", "/v1/settle", b'{"players": {"E": "1m",}}')),
    "settle-415": (415, "unsupported_media_type", Request("POST", "/v1/settle", b"{}", "text/plain")),
    "score-batch-not-a-list": (422, "wrong_type", post("/v1/score/batch", {"hands": {}})),
    "score-batch-too-long": (422, "too_long", post("/v1/score/batch", {"hands": [TILES] * 101})),
    "score-batch-json": (422, "invalid_json", Request("POST", "/v1/score/batch", b'{"hands": [1,]}')),
    "settle-batch-not-a-list": (422, "wrong_type", post("/v1/settle/batch", {"tables": 1})),
    "settle-batch-json": (422, "invalid_json", Request("POST", "/v1/settle/batch", b'{"tables": [1,]}')),
    "waits-plus": (422, "not_for_waits", post("/v1/waits", {"rules": "luoshan", "hand": "123m 456m 789m 123p +5s"})),
    "waits-copies": (422, "tile_copies", post("/v1/waits", {"rules": "luoshan", "hand": "11111m 456m 789m 12p"})),
    "waits-extra": (422, "extra_field", post("/v1/waits", {"hand": "1m", "self": True})),
    "rules-post": (405, "method_not_allowed", post("/v1/rules", {})),
    "rules-bad-query": (404, "not_found", get("/v1/rules/nowhere")),
    "health-post": (405, "method_not_allowed", post("/v1/health", {})),
    "health-unversioned-delete": (405, "method_not_allowed", Request("DELETE", "/health")),
    "unknown-path": (404, "not_found", get("/nothing")),
    "unknown-version": (404, "not_found", get("/v2/score")),
    "ledger-bad-players": (422, "bad_players", post("/v1/ledgers", {"players": ["甲", "乙"]})),
    "ledger-unknown-rules": (422, "unknown_rules", post("/v1/ledgers", {"players": PLAYERS, "rules": "nowhere"})),
    "ledger-bad-name": (422, "bad_name", post("/v1/ledgers", {"players": ["甲", "乙", "丙", "a\u202eb"]})),
    "ledger-csv-404": (404, "ledger_not_found", get("/v1/ledgers/nosuchledger.csv")),
    "ledger-page-404": (404, "ledger_not_found", get("/v1/ledgers/nosuchledger/deals")),
    "ledger-page-after": (422, "wrong_type", get("/v1/ledgers/{id}/deals?after=x")),
    "ledger-page-huge": (422, "out_of_range", get("/v1/ledgers/{id}/deals?after=" + "9" * 30)),
    "ledger-patch-no-token": (401, "token_missing", Request("PATCH", "/v1/ledgers/{id}", b'{"title": "x"}')),
    "ledger-patch-bad": (
        422,
        "out_of_range",
        Request("PATCH", "/v1/ledgers/{id}", b'{"expires_in_hours": 0}', keeper=True),
    ),
    "ledger-delete-wrong-token": (
        403,
        "token_wrong",
        Request("DELETE", "/v1/ledgers/{id}", headers={"Authorization": "Bearer x"}),
    ),
    "ledger-undo-empty": (  # a new ledger's ETag: no deals, no changes
        422,
        "no_deals",
        Request("DELETE", "/v1/ledgers/{id}/deals/last", headers={"If-Match": '"0.0"'}, keeper=True),
    ),
    "ledger-undo-unnamed": (
        428,
        "precondition_required",
        Request("DELETE", "/v1/ledgers/{id}/deals/last", keeper=True),
    ),
    "ledger-token-no-token": (401, "token_missing", Request("POST", "/v1/ledgers/{id}/token")),
    "ledger-deal-unknown-player": (
        422,
        "unknown_player",
        post("/v1/ledgers/{id}/deals", NORMAL_WIN | {"winner": "戊"}, keeper=True),
    ),
    "ledger-deal-json": (422, "invalid_json", Request("POST", "/v1/ledgers/{id}/deals", b'{"a" 1}', keeper=True)),
    "ledger-deal-if-match": (
        409,
        "deal_conflict",
        Request(
            "POST",
            "/v1/ledgers/{id}/deals",
            json.dumps(NORMAL_WIN).encode(),
            headers={"If-Match": '"9.9"'},
            keeper=True,
        ),
    ),
    "not-utf8": (422, "invalid_json", Request("POST", "/v1/score", b'{"hand": "\xff"}')),
    "lone-surrogate": (422, "bad_value", Request("POST", "/v1/score", b'{"hand": "\\ud800"}')),
    "nan-option": (422, "bad_value", Request("POST", "/v1/score", b'{"hand": "1m", "options": {"double_at": NaN}}')),
    "too-deep": (422, "too_deep", Request("POST", "/v1/settle", b"[" * 40)),
    "too-deep-large": (422, "too_deep", Request("POST", "/v1/settle", b" " * 5000 + b"[" * 40)),  # checked off the loop
    "long-number": (
        422,
        "number_too_long",
        Request("POST", "/v1/score", b'{"hand": "1m", "options": {"x": ' + b"9" * 30 + b"}}"),
    ),
}


@pytest.mark.parametrize("name", list(SWEEP))
def test_every_endpoint_s_errors_answer_the_shape_in_chinese(name: str, client: TestClient) -> None:
    status, code, request = SWEEP[name]
    reply = request.send(client, Ledger(client), accept_language="zh-CN")
    assert (reply.status_code, reply.json().get("code")) == (status, code), reply.text
    assert_the_shape_in_chinese(reply, request_words(request))


def test_a_refused_preflight_and_a_bad_host_answer_in_chinese() -> None:
    from fastapi import FastAPI

    from taihu.api.page import allow_origins

    made = FastAPI()
    made.add_api_route("/health", lambda: {"status": "ok"})
    allow_origins(made, ["http://phone.local:8080"])
    asked = {"origin": "http://evil.example", "access-control-request-method": "PUT"} | ZH
    reply = TestClient(made).options("/health", headers=asked)
    assert reply.status_code == 400 and reply.json()["code"] == "cors_refused"
    answer = reply.json()
    assert set(answer) == set(ERROR_FIELDS) and english_in(answer, {"PUT"}) == set(), answer
    host = TestClient(app).get("/v1/health", headers={"host": "rebound.example"} | ZH)
    assert (host.status_code, host.json()["code"]) == (400, "bad_host")
    assert_the_shape_in_chinese(host, {"rebound", "example"})


# -- every hand code the core raises: its Chinese over HTTP, and its column ------------------------------------

# (rules, a line that raises the code, the piece of the line the column points at (its first character), or the
# column where the piece is written twice)
PLACED: dict[str, tuple[str, str, str | int]] = {
    "unknown_tile": ("lingxi", "123m x", "x"),
    "suit_letter_missing": ("lingxi", "123 456m", "123 "),
    "no_red_fives": ("lingxi", "123m 0m", "0m"),
    "not_one_tile": ("lingxi", "123m 456m 789m 123p 456p 9s +9s wild:5m,E flip:12m", "12m"),
    "group_not_closed": ("lingxi", "123m [456m 789m", "["),
    "group_not_opened": ("lingxi", "123m 456m] 789m", "]"),
    "unexpected_in_group": ("lingxi", "123m [45m+6m] 789m", "+"),
    "flowers_melded": ("lingxi", "123m [f5f6f7f8] 789m", "[f5"),
    "bad_flower_group": ("lingxi", "123m (f1f2) 789m", "(f1f2)"),
    "bad_concealed_group": ("lingxi", "123m (123m) 789m", "(123m)"),
    "not_a_meld": ("lingxi", "123m [1234m] 789m", "[1234m]"),
    "wildcard_word_as_tile": ("lingxi", "财神财神财神 123m 456m 789m 123p 5s +5s wild:9s,N", "财神"),
    "two_winning_tiles": ("lingxi", "123m +5p +6p", "+6p"),
    "bad_winning_tile": ("lingxi", "123m +[5p]", "+"),
    "repeated_condition": ("lingxi", "123m 456m self self", 16),  # the second
    "condition_takes_no_value": ("lingxi", "123m 456m self:1", "self"),
    "condition_needs_value": ("lingxi", "123m 456m wild:", "wild:"),
    "second_red_five": ("riichi", "123m 0m 0m 456p", "0m 456p"),
    "bad_seat": ("lingxi", "123m seat:X", "X"),
    "unknown_declared_win": ("putian", "123m declare:nope", "nope"),
    "bad_round": ("riichi", "123m round:X", "X"),
    "bad_number": ("riichi", "123m honba:x", "x"),
    "number_too_large": ("riichi", "123m honba:99999999999", "99"),
    "unknown_condition": ("lingxi", "123m 456m zimo", "zimo"),
    "other_rule_sets_word": ("lingxi", "123m 456m 789m 123p 5s +5s 金:9s", "金"),
    "stray_tile": ("lingxi", "5559m 222777p 333888s 1p PP f1f2 +9m wild:5m,E seat:S", "1p"),  # the tile too many
    "tile_copies": ("lingxi", "11111m 456m 789m 123p 456p 9s +9s wild:5m,E", "1m 456m"),  # the fifth 1m
    "tile_not_played": ("luoshan", "123m 456m 789m 123p 5s +5s f1", "f1"),
    "red_five": ("riichi", "123m 456m 789m 123p 0s +5s", "0s"),
    "bad_wild": ("lingxi", "123m 456m 789m 123p 456p 78p 9s +9s wild:5m", "wild:"),
    "wild_in_meld": ("lingxi", "123m [5m5m5m] 789m 123p 456p 9s +9s wild:5m,E", "[5m5m5m]"),
    "bad_meld": ("lingxi", "[PPP] 456m 789m 123p 456p 789p 1s +1s wild:5m,E", "[PPP]"),
    "unmarked_kong": ("lingxi", "1111m 456m 789m 123p 456p 1s +1s wild:5m,E", "1111m"),  # the first of the four
    "winning_tile_twice": ("lingxi", "5559m 222777p 333888s 9m PP f1f2 +9m wild:5m,E", "+9m"),
    "needs_winning_tile": ("luoshan", "123m 456m 789m 123p 5s self", "self"),
    "conditions_contradict": ("guannan", "123m 456m 789m 123p 5s +5s rob-kong self", "self"),
    "condition_not_met": ("lingxi", "123m 456m 789m 123p 456p 9s +9s wild:C,5s heaven seat:S", "heaven"),
    "unknown_declare": ("putian", "123m 456m 789m 123p 456p 11s 5s +5s declare:sha-zhu", "declare:"),
    "declare_not_met": ("putian", "123m 456m 789m 123p 456p 11s 5s +5s declare:you-jin", "+5s"),  # the lone 金 won
    "bad_indicator": ("riichi", "123m 456m 789m 123p 5s +5s ura:1m", "ura:"),
    "wildcard_won_on_discard": ("lingxi", "123m 456m 789m 123p 456p 9s +C wild:C,5s seat:S", "+C"),
    "not_for_waits": ("waits luoshan", "123m 456m 789m 123p +5s", "+5s"),
}
# the codes whose problem is at no one place of a line, and why
NO_PLACE: dict[str, str] = {
    "empty_hand": "nothing is written",
    "bad_input": "the notation given something that is not a string (a library call's type)",
    "tile_count": "the count of the whole hand is wrong; the hint names the tile to add where one completes it",
    "no_winning_tile": "the `+` that is missing is nowhere in the line; the hint names a tile of the hand to mark",
    "no_winning_shape": "the hand as a whole makes no win",
    "bad_argument": "a library call given the wrong type: the argument is named, no line",
    "bad_option": "an option's value (`field` options)",
    "unknown_option": "an option's name (`field` options)",
    "unknown_rules": "the rule set's name, not a line",
    "no_settlement": "a rule set, not a line",
    "bad_batch": "a batch body (`field` hands / tables)",
    "batch_too_long": "a batch body's length",
    "bad_tile": "a table's `wild` / `flip` entry (`field` wild[0])",
    "bad_discarder": "a table's `discarder` (`field`)",
    "bad_winner": "a table's `winner` against its hands (`field`, `seat`)",
    "bad_event": "a table's event (`field` events[i])",
    "unknown_event": "a table's event type (`field` events[i])",
    "bad_total": "a seat's {total: N} (`seat`, `field`)",
    "field_not_used": "a table field of another rule set (`field`)",
    "table_disagrees": "a seat's hand against the table or another hand (`seat`, `field`): two texts, no one place",
    "not_legal": "a seat's whole hand is no legal win (`seat`)",
    "too_large": "the JSON text's size",
    "too_deep": "a place in the JSON text, not in a hand line: its `column` is the body's character",
    "number_too_long": "a place in the JSON text, not in a hand line: its `column` is the body's character",
}


def codes_the_core_raises() -> set[str]:
    """Every `code="…"` the notation, the rule sets, the settlement and the core's checks give a HandError."""
    found = set()
    for path in sorted((ROOT / "taihu" / "scorer").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg == "code" and isinstance(node.value, ast.Constant):
                found.add(str(node.value.value))
    return found | {value.error for value in declared_values().values() if value.error}  # words.toml's


def test_every_code_the_core_raises_has_a_place_or_a_reason_for_none() -> None:
    raised = codes_the_core_raises()
    assert len(raised) > 50, "the scan finds the core's codes"
    assert raised - set(PLACED) - set(NO_PLACE) == set(), "a code with neither an example line nor a reason"
    assert (set(PLACED) | set(NO_PLACE)) - raised == set(), "a code listed here the core no longer raises"
    assert set(PLACED) & set(NO_PLACE) == set()


def raised(rules: str, line: str) -> HandError:
    try:
        if rules.startswith("waits "):
            waits(line, rules=rules.removeprefix("waits "))
        else:
            score_hand(line, rules=rules)
    except HandError as exc:
        return exc
    raise AssertionError(f"no HandError: {line}")


@pytest.mark.parametrize("code", list(PLACED))
def test_a_hand_error_with_a_place_has_its_column(code: str) -> None:
    rules, line, piece = PLACED[code]
    error = raised(rules, line)
    assert error.code == code, str(error)
    assert error.column == (piece if isinstance(piece, int) else line.index(piece) + 1), (error.column, str(error))


@pytest.mark.parametrize("code", list(PLACED))
def test_a_hand_error_over_http_is_chinese_with_its_column(code: str, client: TestClient) -> None:
    rules, line, _ = PLACED[code]
    waits_too = rules.startswith("waits ")
    body = {"rules": rules.removeprefix("waits "), "hand": line}
    reply = client.post("/v1/waits" if waits_too else "/v1/score", json=body, headers=ZH)
    assert reply.status_code == 422
    answer = assert_the_shape_in_chinese(reply, request_words(None, body))
    assert (answer["code"], answer["column"]) == (code, raised(rules, line).column)


def test_every_line_of_the_tables_reads_its_column_in_the_line_as_typed() -> None:
    """The hand the column counts in is the one sent: a `tile_copies` in a players' form (full-width) still has
    its place, or none, never a wrong one."""
    for line in ("１１１１１ｍ 456m 789m 123p 456p 9s +9s wild:5m,E", "11111m 456m 789m 123p 456p 9s +9s wild:5m,E"):
        error = raised("lingxi", line)
        assert error.code == "tile_copies"
        assert error.column is None or line[error.column - 1] in "1１", (line, error.column)


# -- pydantic's kinds -----------------------------------------------------------------------------------------

VALUES: list[object] = [None, True, 0, -1, 10**10, 1.5, math.nan, math.inf, "x", "1", "\ud800", "", "x" * 300]
VALUES += [[], {}, [1], ["x"], {"a": 1}, {"a": "x"}, {"total": "x"}, {"tenpai": "x"}, {"total": 1.5}]
SEATS = {"E": "1m", "S": "1m", "W": "1m", "N": "1m"}
MODELS: dict[type[BaseModel], dict[str, Any]] = {
    ScoreRequest: {"hand": "1m"},
    WaitsRequest: {"hand": "1m"},
    Table: {"players": SEATS},
    NewLedger: {"players": PLAYERS},
    LedgerTable: {"players": SEATS},
    LedgerEdit: {},
}


def bodies(model: type[BaseModel], base: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The model's body with each field, and each field's first level (`options.x`, `players.E.total`,
    `events[0].type`), given each kind of JSON value."""
    for name in model.model_fields:
        for value in VALUES:
            yield base | {name: value}
            yield base | {name: [value]}
            yield base | {name: {"x": value, "E": value}}
            yield base | {name: {**SEATS, "E": {"total": value}}}
            yield base | {name: {**SEATS, "E": {"tenpai": value}}}
            yield base | {name: [{"type": value, "seat": value}]}


def test_every_kind_of_problem_the_models_raise_has_a_catalog_text() -> None:
    kinds: dict[str, str] = {}
    for model, base in MODELS.items():
        adapter = TypeAdapter(model)
        for body in bodies(model, base):
            try:
                adapter.validate_python(body)
            except ValidationError as exc:
                for error in exc.errors(include_url=False):
                    kinds.setdefault(error["type"], f"{model.__name__} {body}")
    assert len(kinds) > 15, kinds
    cause_is_ours = {"value_error"}  # the players' check: the core's HandError, with its own texts
    assert {kind: where for kind, where in kinds.items() if kind not in KINDS and kind not in cause_is_ours} == {}


@pytest.mark.parametrize("model", list(MODELS), ids=lambda m: m.__name__)
def test_every_kind_reads_chinese(model: type[BaseModel]) -> None:
    from taihu.api.errors import validation_shape

    adapter = TypeAdapter(model)
    for body in bodies(model, MODELS[model]):
        try:
            adapter.validate_python(body)
        except ValidationError as exc:
            shape = validation_shape(exc.errors(include_url=False), "zh")
            assert english_in(shape, request_words(None, body) | words(str(body).split())) == set(), (body, shape)


# -- the JSON parsers' reasons ---------------------------------------------------------------------------------

# (a body that is not JSON, the 1-based character the parser stops at): /v1/score reads it with the standard
# parser (orjson first, the standard one deciding), /v1/score/batch with orjson alone
NOT_JSON = [
    (b"", None),  # no body: "missing"
    (b'{"hand": ', 10),
    (b'{"hand": "abc', 10),
    (b'{"hand" "abc"}', 9),
    (b'{"hand": "abc",}', 16),
    (b'{"hand": "abc"} x', 17),
    (b'{"hand": "a\\qbc"}', 12),
    (b'{"hand": "a\x01bc"}', 12),
    (b'{"hand": "\\u12"}', None),
    (b'{"hand": [1 2]}', 13),
    (b'{"hand": tru}', 10),
    (b'{"hand": 01}', None),
    (b'{"hand": -}', None),
    (b'{"hands": [1,]}', None),
    (b"{a: 1}", 2),
]


@pytest.mark.parametrize(("body", "at"), NOT_JSON)
@pytest.mark.parametrize("path", ["/v1/score", "/v1/score/batch", "/v1/ledgers"])
def test_a_body_that_is_not_json_says_why_in_chinese_with_its_place(
    body: bytes, at: int | None, path: str, client: TestClient
) -> None:
    headers = {"content-type": "application/json"}
    reply = client.post(path, content=body, headers=headers | ZH)
    assert reply.status_code == 422, reply.text
    answer = assert_the_shape_in_chinese(reply, words([body.decode("utf-8", "replace")]))
    english = client.post(path, content=body, headers=headers).json()
    assert answer["code"] == english["code"]
    if answer["code"] == "invalid_json" and english["column"] is not None:
        assert f"at character {english['column']}:" in english["message"]
        assert f"第 {answer['column']} 个字符处" in answer["message"]
    if path == "/v1/score" and at is not None:  # the standard parser's place, as its own `colno` counts
        assert english["column"] == at, english


def test_every_json_reason_has_a_body_that_reaches_it() -> None:
    from taihu.api.errors import json_reason

    reasons = {json_reason(r).key for r, _ in REASON_SAMPLES}  # type: ignore[union-attr]
    assert reasons == {key for _, key in JSON_REASONS}


REASON_SAMPLES = [  # each parser's words, as their versions today say them
    ("Expecting value", 0),
    ("Expecting property name enclosed in double quotes", 0),
    ("Expecting ':' delimiter", 0),
    ("Expecting ',' delimiter", 0),
    ("Illegal trailing comma before end of object", 0),
    ("Unterminated string starting at", 0),
    ("unexpected end of data", 0),
    ("Invalid \\escape", 0),
    ("Invalid control character at", 0),
    ("Extra data", 0),
    ("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0),
    ("str is not valid UTF-8: surrogates not allowed", 0),
    ("number with leading zero is not allowed", 0),
    ("depth limit exceeded", 0),
]


def test_a_reason_of_no_kind_is_english_as_given_and_chinese_as_the_catalog_s() -> None:
    from taihu.api.errors import json_reason

    reason = json_reason("something new")
    assert reason.in_lang("en") == "something new" and not words([reason.in_lang("zh")])


# -- batch items and success answers ----------------------------------------------------------------------------


def test_a_batch_item_s_errors_are_chinese(client: TestClient) -> None:
    hands = [{"hand": line, "rules": rules} for rules, line, _ in PLACED.values() if not rules.startswith("waits")]
    hands += [{"hand": 5}, {"hand": "1m", "options": {"double_at": "x"}}, 1, {"hand": "1m", "rules": "nowhere"}]
    reply = client.post("/v1/score/batch", json={"hands": hands[:100]}, headers=ZH)
    assert reply.status_code == 200
    tables = [NORMAL_WIN | {"winner": "N"}, NORMAL_WIN | {"events": [{"type": "foul", "seat": "E"}] * 2}, 1]
    settled = client.post("/v1/settle/batch", json={"tables": tables}, headers=ZH)
    assert settled.status_code == 200
    for sent, result in [
        *zip(hands[:100], reply.json()["results"], strict=True),
        *zip(tables, settled.json()["results"], strict=True),
    ]:
        if "error" in result:
            error = result["error"]
            assert list(error) == list(ERROR_FIELDS)
            assert english_in(error, request_words(None, sent)) == set(), (sent, error)


def texts_of(answer: object, skip: frozenset[str] = frozenset()) -> Iterator[str]:
    """The texts a person reads in a success answer: every string but keys, codes, the notation and names."""
    if isinstance(answer, dict):
        for key, value in answer.items():
            if key not in skip:
                yield from texts_of(value, skip)
    elif isinstance(answer, list):
        for value in answer:
            yield from texts_of(value, skip)
    elif isinstance(answer, str):
        yield answer


AS_WRITTEN = frozenset({"key", "hand", "arrangement", "rules", "unit", "name_en", "from", "to", "tile", "discard"})
AS_WRITTEN |= {"kind", "name", "seat", "winner", "discarder", "next_dealer", "dealer", "default", "values"}
AS_WRITTEN |= {"exclusion_rules"}  # the rules' own sentences, quoted as their source words them (riichi's in English)


@pytest.mark.parametrize(("rules", "hand"), HANDS, ids=[f"{r}:{h}" for r, h in HANDS])
def test_a_score_s_texts_are_chinese(rules: str, hand: str, client: TestClient) -> None:
    reply = client.post("/v1/score?arithmetic=true", json={"rules": rules, "hand": hand}, headers=ZH)
    answer = reply.json()
    shown = (
        list(texts_of(answer, AS_WRITTEN)) if reply.status_code == 200 else [answer["message"], answer["hint"] or ""]
    )
    assert words(shown) - PROTOCOL - words([hand]) == set(), shown


@pytest.mark.parametrize("path", TABLES, ids=[p.stem for p in TABLES])
def test_a_settlement_s_texts_are_chinese(path: Path, client: TestClient) -> None:
    table = json.loads(path.read_text(encoding="utf-8"))
    reply = client.post("/v1/settle", json=table, headers=ZH)
    assert reply.status_code == 200, reply.text
    hands = [hand for hand in table["players"].values() if isinstance(hand, str)]
    shown = list(texts_of(reply.json(), AS_WRITTEN))
    assert words(shown) - PROTOCOL - words(hands) == set(), shown


@pytest.mark.parametrize(
    ("rules", "hand"),
    [
        ("guannan", "123m 456m 789p 234s 5s"),
        ("guannan", "123m 456m 789p 234s 5s 9s"),
        ("riichi", "234567m 234p 88p 67s"),
    ],
)
def test_waits_and_rules_texts_are_chinese(rules: str, hand: str, client: TestClient) -> None:
    found = client.post("/v1/waits", json={"rules": rules, "hand": hand}, headers=ZH)
    assert found.status_code == 200, found.text
    assert words(texts_of(found.json(), AS_WRITTEN)) - PROTOCOL - words([hand]) == set()
    listed = client.get("/v1/rules", headers=ZH).json()
    keys = {item["key"] for rule_set in listed for item in rule_set["items"]}  # an exclusion names two keys
    assert words(texts_of(listed, AS_WRITTEN)) - PROTOCOL - keys == set()


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=6) | st.sampled_from(["1m", "E", "+5p", "wild:"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["E", "S", "total", "x"]), inner, max_size=3)
    ),
    max_leaves=6,
)
FIELDS = st.sampled_from(["rules", "hand", "options", "players", "winner", "discarder", "events", "wild", "honba"])


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=st.dictionaries(FIELDS, JSON_VALUES, max_size=4),
    path=st.sampled_from(["/v1/score", "/v1/settle", "/v1/waits"]),
)
def test_any_body_s_error_is_the_shape_in_chinese(body: dict[str, Any], path: str, client: TestClient) -> None:
    reply = client.post(path, json=body, headers=ZH)
    assert reply.status_code != 500, reply.text
    if reply.status_code >= 400:
        assert_the_shape_in_chinese(reply, request_words(None, body) | words([json.dumps(body)]))


def test_the_english_check_sees_english(client: TestClient) -> None:
    reply = client.post("/v1/score", json={"hand": "123m x"})  # English, asked for nothing
    with pytest.raises(AssertionError):
        assert_the_shape_in_chinese(reply, set())


# the codes whose message implies its fix: the fix is its `hint` too, in both languages (an app shows it apart)
HINTED = [
    "suit_letter_missing",
    "no_red_fives",
    "not_one_tile",
    "group_not_closed",
    "group_not_opened",
    "unexpected_in_group",
    "two_winning_tiles",
    "bad_winning_tile",
    "repeated_condition",
    "condition_takes_no_value",
    "condition_needs_value",
    "bad_seat",
    "tile_copies",
    "tile_not_played",
    "red_five",
    "bad_meld",
    "unmarked_kong",
    "winning_tile_twice",
    "not_for_waits",
]


@pytest.mark.parametrize("code", HINTED)
def test_an_error_whose_fix_is_known_has_it_as_its_hint_in_both_languages(code: str, client: TestClient) -> None:
    rules, line, _ = PLACED[code]
    error = raised(rules, line)
    english, chinese = error.hint_in("en"), error.hint_in("zh")
    assert english and chinese and english != chinese, (english, chinese)
    assert not words([QUOTED.sub(" ", chinese)]) - PROTOCOL - words([line]), chinese
    body = {"rules": rules.removeprefix("waits "), "hand": line}
    answer = client.post("/v1/waits" if rules.startswith("waits ") else "/v1/score", json=body, headers=ZH).json()
    assert answer["hint"] == chinese


# -- the OpenAPI document: the one shape for every status, where it can happen -------------------------------

TOKEN = {("patch", "/v1/ledgers/{ledger_id}"), ("delete", "/v1/ledgers/{ledger_id}")}
TOKEN |= {("post", "/v1/ledgers/{ledger_id}/deals"), ("delete", "/v1/ledgers/{ledger_id}/deals/last")}
TOKEN |= {("post", "/v1/ledgers/{ledger_id}/token")}
UNDO = "/v1/ledgers/{ledger_id}/deals/last"
# status → the operations that can answer it (None: every operation)
WHERE: dict[int, set[tuple[str, str]] | None] = {
    400: None,  # a Host refused (and a refused preflight)
    413: None,
    422: None,
    500: None,
    503: None,
    401: TOKEN,
    403: TOKEN,
    409: {("post", "/v1/ledgers"), ("post", "/v1/ledgers/{ledger_id}/deals"), ("delete", UNDO)},
    412: {("delete", UNDO)},  # an undo's stale If-Match
    428: {("delete", UNDO)},  # an undo that names no deal
    429: {("post", "/v1/ledgers"), ("post", "/v1/ledgers/{ledger_id}/deals")},
}


def test_the_document_models_the_one_shape_for_every_status_where_it_can_happen(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    shape = {"$ref": "#/components/schemas/ErrorAnswer"}
    operations = {(m, p): op for p, ops in document["paths"].items() for m, op in ops.items()}
    for status, where in WHERE.items():
        listed = {key for key, op in operations.items() if str(status) in op["responses"]}
        assert listed >= (set(operations) if where is None else where), status
        for key in listed:
            assert operations[key]["responses"][str(status)]["content"]["application/json"]["schema"] == shape
    for key, operation in operations.items():
        if "{ledger_id}" in key[1]:
            assert "404" in operation["responses"], key  # no ledger with that id
        if "requestBody" in operation:
            assert "415" in operation["responses"], key
    statuses = {int(s) for op in operations.values() for s in op["responses"] if s.startswith(("4", "5"))}
    assert statuses | {404, 405} == {400, 401, 403, 404, 405, 409, 412, 413, 415, 422, 428, 429, 500, 503}


# -- the sweep of every Chinese text a player reads: the catalog, the rules' options, the page ------------------

# what a player reads of the catalog, by its codes' beginnings: notes, items' details and values, payments' reasons,
# the arithmetic, the options' descriptions, the arrangement's words, the notation's errors and every hint
PLAYERS_TEXTS = ("note.", "detail.", "value.", "reason.", "scope.", "arith.", "option.")
PLAYERS_TEXTS += ("error.notation.", "error.hint.", "error.tile_count.", "error.tiles.", "error.shape.")
# where a text counts what the options set, not how they are typed: no option's name there either
COUNTED = ("note.", "arith.", "detail.putian.held.", "reason.", "value.")


def catalog_texts(lang: str) -> dict[str, str]:
    from babel.messages.pofile import read_po

    with (ROOT / "taihu" / "messages" / "locale" / lang / "LC_MESSAGES" / "taihu.po").open("rb") as file:
        found = {}
        for message in read_po(file):
            if message.id:
                code = message.id if isinstance(message.id, str) else message.id[0]
                texts = [message.string] if isinstance(message.string, str) else list(message.string)
                found[code] = re.sub(r"\{[^{}]*\}", " ", " ".join(texts))
    return found


def notation_and_keys(options: bool = True) -> set[str]:
    """The words a Chinese text may hold as typed: the notation's (conditions, declared wins, rule sets' names,
    `--rules`), item keys, a table's keys and, unless `options` is False, the options' names as `-o` takes them."""
    found = {"rules", "taihu", "NAME", "null", *Table.model_fields}  # and a table's keys, as a request writes them
    for rule_set in RULESETS.values():
        found |= {rule_set.name, *rule_set.conditions, *rule_set.declared_wins, *(i.key for i in rule_set.items)}
        found |= {o.name for o in rule_set.options} if options else set()
    return words(found) | found


def test_every_chinese_text_a_player_reads_in_the_catalog_is_chinese() -> None:
    english = {}
    for code, text in catalog_texts("zh").items():
        if code.startswith(PLAYERS_TEXTS):
            found = words([QUOTED.sub(" ", text)]) - notation_and_keys(options=not code.startswith(COUNTED))
            if found:
                english[code] = found
    assert english == {}


def test_no_chinese_error_opens_with_a_field_s_name() -> None:
    """A field is the error's `field`, not a prefix of its message (`discarder：…`)."""
    opening = re.compile(r"^[a-z_][A-Za-z_.\[\]0-9]*：")  # a key's name (a format's, CSV, is a word)
    assert [code for code, text in catalog_texts("zh").items() if opening.match(text.strip())] == []


def test_the_field_sweep_sees_a_field_s_name() -> None:
    assert field_names_in("players.乙：第 6 列的 '5Q' 不是牌", "players.乙") == ["players.", "players.乙"]
    assert field_names_in("第 1 个事件：没有这种事件", "events[0]") == []
    assert field_names_in("discarder：没有人和牌", "discarder") == ["discarder：", "discarder"]
    assert field_names_in("放炮的人：E 是和牌的人；wild:5m 写在手牌里", "discarder") == []


def test_the_sweep_sees_english() -> None:
    assert words([QUOTED.sub(" ", "翻倍（≥ double_at）")]) - notation_and_keys(options=False) == {"double_at"}
    assert re.match(r"^[a-z_][A-Za-z_.\[\]0-9]*：", "discarder：没有人和牌")


def test_every_option_reads_chinese_under_lang_zh_with_its_chinese_name(client: TestClient) -> None:
    listed = {rule_set["name"]: rule_set for rule_set in client.get("/v1/rules?lang=zh").json()}
    for name, rule_set in RULESETS.items():
        for option, shown in zip(rule_set.options, listed[name]["options"], strict=True):
            assert shown["name"] == option.name  # the key stays
            assert option.chinese and shown["description"].startswith(option.chinese + "："), shown
            assert words([shown["description"]]) - {option.name} == set(), shown


def page_words() -> dict[str, tuple[str, str]]:
    """The page's own words (page.js's WORDS): each key's English and Chinese."""
    page = (ROOT / "taihu" / "api" / "static" / "page.js").read_text(encoding="utf-8")
    block = page[page.index("const WORDS = {") : page.index("const UNITS")]
    pairs = re.findall(r'(\w+): \[\s*"((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"\s*\]', block, re.S)
    return {key: (en, zh) for key, en, zh in pairs}


def test_the_page_s_chinese_words_are_chinese() -> None:
    """A main control's Chinese label ends with its English name, so the control has one accessible name in both
    languages (page.js says so); the rest of a Chinese label is Chinese, but for the notation (`wild:`) and a
    label's placeholders (`{name}`)."""
    found = page_words()
    assert len(found) > 80 and found["modeJin"][1] == "金 wild:"
    english = {}
    for key, (en, zh) in found.items():
        named = re.search(r" ([A-Za-z][A-Za-z0-9 ]*)$", zh)  # the control's English name, or its first words
        chinese = zh.removesuffix(" " + en)
        if chinese == zh and named and en.startswith(named.group(1)):
            chinese = zh[: named.start()]
        rest = re.sub(r"\{\w+\}", " ", chinese)
        if words([rest]) - {"wild", "flip", "taihu", "CSV"}:
            english[key] = zh
    assert english == {}


# -- a place in a list counts from 1, and a rule set's wildcard is called by its own name ----------------------

# one example table of each rule set that has a table's `wild`
WILD_TABLES = {
    table["rules"]: table
    for table in (json.loads(path.read_text(encoding="utf-8")) for path in sorted(ROOT.glob("examples/tables/*.json")))
    if "wild" in table
}


def test_the_wild_tables_were_found() -> None:
    assert {"lingxi", "putian"} <= set(WILD_TABLES) and any(RULESETS[name].wild_name for name in WILD_TABLES)


@pytest.mark.parametrize("name", sorted(WILD_TABLES))
def test_a_wild_tile_s_place_is_called_as_the_rule_set_calls_its_wildcard(name: str) -> None:
    """The core's error (a tile that is none) and the body's (a wrong type), alone and as a batch's item."""
    word = RULESETS[name].wild_name or "财神"
    client = TestClient(app)
    for wild, field, place in ((["x"], "wild[0]", f"第 1 个{word}："), ("5m", "wild", f"{word}：")):
        table = WILD_TABLES[name] | {"wild": wild}
        answer = client.post("/v1/settle?lang=zh", json=table).json()
        assert answer["field"] == field and answer["message"].startswith(place), answer
        [item] = client.post("/v1/settle/batch?lang=zh", json={"tables": [table]}).json()["results"]
        assert item == {"error": answer}


@pytest.mark.parametrize(
    ("events", "field", "place"),
    [
        ([{"type": "nope", "seat": "E"}], "events[0]", "第 1 个事件："),
        ([{"type": "foul", "seat": "N"}, {"type": "nope", "seat": "E"}], "events[1]", "第 2 个事件："),
        ([{"type": "foul", "seat": "N"}, {"type": "liable", "seat": "S"}], "events[1]", "第 2 个事件："),
    ],
)
def test_an_event_s_place_counts_from_1(events: list[dict[str, str]], field: str, place: str) -> None:
    answer = TestClient(app).post("/v1/settle?lang=zh", json=NORMAL_WIN | {"events": events}).json()
    assert answer["field"] == field and answer["message"].startswith(place), answer
    english = TestClient(app).post("/v1/settle", json=NORMAL_WIN | {"events": events}).json()
    assert english["message"].startswith(f"{field}: "), english


def test_no_chinese_text_counts_a_place_from_0() -> None:
    """A place in a list is the Field's words (第 1 个事件), never an index in a Chinese text (`事件 {index}`)."""
    for path in (ROOT / "taihu").rglob("zh/LC_MESSAGES/*.po"):
        assert "{index}" not in path.read_text(encoding="utf-8"), path
