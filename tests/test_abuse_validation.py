"""A body that fails validation in tens of thousands of places is answered with a bounded message.

The issue-21 review found one tokenless 64 KB POST (`"events": [1, 1, …]`, 32,000 problems) that took
7-8 s and a 2.7 MB answer, with `/health` waiting: the message listed every problem and de-duplicated
them with a list. Now at most `MAX_PROBLEMS` are named and the rest counted.
"""

from __future__ import annotations

import json

import pytest
from api_app import app
from fastapi.testclient import TestClient

from taihu.api.errors import MAX_PROBLEMS, describe_validation

SEATS = {seat: {"total": 0} for seat in "ESWN"}
MANY_EVENTS = json.dumps({"rules": "lingxi", "players": SEATS, "events": [1] * 32000}, separators=(",", ":"))
MANY_OPTIONS = json.dumps(
    {"rules": "lingxi", "hand": "123m", "options": {f"o{i}": "" for i in range(5000)}}, separators=(",", ":")
)


@pytest.mark.parametrize(("path", "body"), [("/v1/settle", MANY_EVENTS), ("/v1/score", MANY_OPTIONS)])
def test_a_body_with_thousands_of_problems_gets_a_short_answer(path: str, body: str) -> None:
    answer = TestClient(app).post(path, content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 422, answer.text
    detail = answer.json()["detail"]
    assert len(answer.content) < 2000, len(answer.content)
    assert detail.count(";") <= MAX_PROBLEMS and "more problems" in detail, detail


def test_the_problems_named_are_the_first_distinct_ones_and_the_rest_are_counted() -> None:
    errors = [{"loc": ("body", "events", i % 3), "msg": "bad"} for i in range(10)]
    errors += [{"loc": ("body", "x", i), "msg": "bad"} for i in range(MAX_PROBLEMS)]
    named = describe_validation(errors, what="body").split("; ")
    assert named[:3] == ["events[0]: bad", "events[1]: bad", "events[2]: bad"]
    assert len(named) == MAX_PROBLEMS + 1 and named[-1].startswith("and ") and named[-1].endswith(" more problems")
