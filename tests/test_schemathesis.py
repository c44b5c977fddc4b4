"""The HTTP API against its own OpenAPI schema (schemathesis 4.x), in-process over ASGI.

Every operation gets a bounded, derandomized run of positive and negative
examples. The contract (docs/api.md "HTTP",): never a 500
(a 500 is a bug: the core raised something other than a HandError), every answer
matches the documented response schema, and every 422 is the one error shape
(`{"code": "<snake_case>", "message": "<one string>", "detail": the same,
"column": N | null, …}`), in whichever language the `lang` drawn asks for.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from api_app import app
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rule_set_examples import example_lines
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from taihu.messages.error_shape import ERROR_FIELDS
from taihu.scorer.rulesets import RULESETS

schema = schemathesis.openapi.from_asgi("/openapi.json", app)

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
CODE = re.compile(r"[a-z]+(?:_[a-z]+)*")


def check_answer(case: schemathesis.Case, response: Any) -> int:
    """The schema checks, then ours: no 500 (a bug), and a 422 is the library's error object."""
    case.validate_response(response, checks=CHECKS)
    assert response.status_code != 500, (case.body, response.text)
    if response.status_code == 422:
        body = response.json()
        assert list(body) == list(ERROR_FIELDS), body
        assert isinstance(body["detail"], str) and body["detail"] and body["message"] == body["detail"], body
        assert CODE.fullmatch(body["code"]), body
        assert body["column"] is None or (isinstance(body["column"], int) and body["column"] >= 1), body
    return int(response.status_code)


def test_every_operation_is_covered() -> None:
    operations = {(op.ok().method.upper(), op.ok().path) for op in schema.get_all_operations()}
    assert operations == {
        ("POST", "/v1/score"),
        ("POST", "/v1/settle"),
        ("GET", "/v1/rules"),
        ("GET", "/v1/health"),
        ("POST", "/v1/ledgers"),
        ("GET", "/v1/ledgers/{ledger_id}"),
        ("GET", "/v1/ledgers/{ledger_id}.csv"),
        ("GET", "/v1/ledgers/{ledger_id}/deals"),
        ("PATCH", "/v1/ledgers/{ledger_id}"),
        ("DELETE", "/v1/ledgers/{ledger_id}"),
        ("POST", "/v1/ledgers/{ledger_id}/token"),
        ("POST", "/v1/ledgers/{ledger_id}/deals"),
        ("DELETE", "/v1/ledgers/{ledger_id}/deals/last"),
        ("POST", "/v1/waits"),
        ("POST", "/v1/score/batch"),
        ("POST", "/v1/settle/batch"),
        ("GET", "/v1/ready"),
        ("POST", "/v1/ledgers/{ledger_id}/invites"),
        ("GET", "/v1/ledgers/{ledger_id}/invites"),
        ("DELETE", "/v1/ledgers/{ledger_id}/invites/{invite_id}"),
        ("POST", "/v1/ledgers/{ledger_id}/devices"),
        ("GET", "/v1/ledgers/{ledger_id}/devices"),
        ("DELETE", "/v1/ledgers/{ledger_id}/devices/{device_id}"),
        ("GET", "/v1/ledgers/{ledger_id}/events"),
        ("POST", "/v1/ledgers/{ledger_id}/read-links"),
        ("GET", "/v1/ledgers/{ledger_id}/read-links"),
        ("DELETE", "/v1/ledgers/{ledger_id}/read-links/{link_id}"),
    }


@pytest.mark.slow  # 30 drawn requests for each of the 27 operations
@schema.parametrize()
@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_conforms_to_its_schema(case: schemathesis.Case) -> None:
    check_answer(case, case.call())


# -- valid input: the 200 answers match HandScore / Settlement --------------------------------
# Schema-driven data almost never forms a winning hand, so the 200 response schemas get their
# checks from the repository's own example hands and tables, sent through the same operations.

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_HANDS = [(rules, line) for rules in RULESETS for line in example_lines(rules)]
SEATS = ("E", "S", "W", "N")
EXAMPLE_TABLES = sorted((ROOT / "examples/tables").glob("*.json"))


def test_examples_were_found() -> None:
    assert {rules for rules, _ in EXAMPLE_HANDS} == set(RULESETS)
    assert len(EXAMPLE_TABLES) >= 10


@pytest.mark.parametrize("rules, hand", EXAMPLE_HANDS)
def test_example_hands_conform(rules: str, hand: str) -> None:
    case = schema["/v1/score"]["POST"].Case(body={"rules": rules, "hand": hand}, media_type="application/json")
    response = case.call()
    case.validate_response(response, checks=CHECKS)
    assert response.status_code == 200, response.text
    assert response.json()["rules"] == rules


@pytest.mark.parametrize("path", EXAMPLE_TABLES, ids=lambda p: p.stem)
def test_example_tables_conform(path: Path) -> None:
    table = json.loads(path.read_text(encoding="utf-8"))
    case = schema["/v1/settle"]["POST"].Case(body=table, media_type="application/json")
    response = case.call()
    case.validate_response(response, checks=CHECKS)
    assert response.status_code == 200, response.text
    settled = response.json()
    pot_change = 1000 * (settled["pot_before"] - settled["pot_after"]) if settled["pot_before"] is not None else 0
    assert sum(settled["net"].values()) == pot_change  # riichi: sticks into and out of the pot; else 0


# -- near-valid input: the API on hands and tables one edit away from the examples ----------------

NEAR_SETTINGS = settings(max_examples=40, deadline=None, derandomize=True, database=None)
TOKENS = sorted({token for _, hand in EXAMPLE_HANDS for token in hand.split()} | {"[", ")", "+", "wild:", "x"})


@st.composite
def near_misses(draw: st.DrawFn) -> tuple[str, str]:
    rules, hand = draw(st.sampled_from(EXAMPLE_HANDS))
    tokens = draw(st.permutations(hand.split()))
    at = draw(st.integers(0, len(tokens) - 1))
    edit = draw(st.sampled_from(("keep", "drop", "double", "replace")))
    if edit == "drop":
        tokens = tokens[:at] + tokens[at + 1 :]
    elif edit == "double":
        tokens = tokens[: at + 1] + tokens[at:]
    elif edit == "replace":
        tokens = [*tokens[:at], draw(st.sampled_from(TOKENS)), *tokens[at + 1 :]]
    return draw(st.sampled_from([rules, rules, *RULESETS])), " ".join(tokens)


def call_and_check(case: schemathesis.Case) -> int:
    return check_answer(case, case.call())


@NEAR_SETTINGS
@given(near_misses(), st.sampled_from([{}, {"double_at": 10}, {"unit": 5}, {"nope": 1}]))
def test_near_miss_scores_conform(hand: tuple[str, str], options: dict[str, int]) -> None:
    rules, text = hand
    body = {"rules": rules, "hand": text, "options": options}
    call_and_check(schema["/v1/score"]["POST"].Case(body=body, media_type="application/json"))


@NEAR_SETTINGS
@given(st.sampled_from(EXAMPLE_TABLES), near_misses(), st.sampled_from(SEATS), st.data())
def test_near_miss_tables_conform(path: Path, hand: tuple[str, str], seat: str, data: st.DataObject) -> None:
    table = json.loads(path.read_text(encoding="utf-8"))
    table["players"][seat] = hand[1]
    if data.draw(st.booleans()):
        table["winner"] = data.draw(st.sampled_from([None, *SEATS]))
        table["discarder"] = data.draw(st.sampled_from([None, *SEATS]))
    status = call_and_check(schema["/v1/settle"]["POST"].Case(body=table, media_type="application/json"))
    assert status in (200, 422)


# -- what schemathesis found (regressions) ----------------------------------------------------


def test_documented_422_is_one_string() -> None:
    """The OpenAPI document used to show FastAPI's default 422 (`detail`: a list of errors)."""
    document = app.openapi()
    for path in ("/score", "/settle"):
        reply = document["paths"]["/v1" + path]["post"]["responses"]["422"]["content"]["application/json"]["schema"]
        problem = document["components"]["schemas"][reply["$ref"].rsplit("/", 1)[-1]]
        assert problem["properties"]["detail"]["type"] == "string"
        assert {"code", "column"} <= set(problem["properties"])
        assert "500" in document["paths"]["/v1" + path]["post"]["responses"]  # documented, so a bug's answer is known


@pytest.mark.parametrize("path", ["/score", "/settle"])
def test_body_that_is_not_utf8_is_422(path: str) -> None:
    """FastAPI answered a body it cannot decode with a 400; bad input is a 422 (docs/api.md "HTTP")."""
    case = schema["/v1" + path]["POST"].Case(body=b'{"hand": "\xff5m"}', media_type="application/json")
    response = case.call()
    case.validate_response(response, checks=CHECKS)
    assert response.status_code == 422
    assert response.json()["detail"] == "the request body is not valid JSON: it is not UTF-8 text"
