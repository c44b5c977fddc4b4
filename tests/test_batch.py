"""Batch scoring and settling: the library's score_batch/settle_batch and POST /v1/score/batch, /v1/settle/batch."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from api_app import app
from fastapi.testclient import TestClient

from taihu.messages.error_shape import ERROR_FIELDS
from taihu.scorer import HandError, score_batch, score_hand, settle_batch, settle_table
from taihu.scorer.batch import MAX_BATCH_HANDS, MAX_BATCH_TABLES

ROOT = Path(__file__).resolve().parent.parent
GOOD = [
    {"rules": "lingxi", "hand": "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S"},
    {"rules": "luoshan", "hand": "[EEE] (CCCC) [999m] 11p FF +1p self flip:5s seat:E"},
    {"rules": "riichi", "hand": "123m 456m 789p 11s 34p +5p"},
    {"rules": "Lingxi", "hand": "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W", "options": {"double_at": 10}},
]
# each bad item and the code of its error
BAD: list[tuple[Any, str]] = [
    ({"hand": "123m x"}, "unknown_tile"),
    ({"rules": "mars", "hand": "123m"}, "unknown_rules"),
    ({"hand": 5}, "bad_field"),
    ({"hand": "123m", "colour": "red"}, "bad_field"),
    ({"hand": "1m" * 200}, "bad_field"),
    ("123m", "bad_batch"),
    ({"hand": "123m 456m 789p 234s 678s 5p +5p", "options": {"nope": 1}}, "unknown_option"),
]
TABLES = sorted((ROOT / "examples/tables").glob("*.json"))


def mixed(count: int) -> list[Any]:
    """`count` items, good and bad in turns."""
    pool = [*GOOD, *(item for item, _ in BAD)]
    return [pool[i % len(pool)] for i in range(count)]


def expected(item: Any) -> dict[str, Any]:
    """What one item answers, from the library's own score_hand."""
    try:
        if not isinstance(item, dict) or set(item) - {"rules", "hand", "options"} or not isinstance(item["hand"], str):
            raise HandError("shape")
        if len(item["hand"]) > 256:
            raise HandError("long")
        return score_hand(item["hand"], rules=item.get("rules", "lingxi"), options=item.get("options")).to_dict()
    except HandError:
        return {"error": ...}


@pytest.mark.parametrize("item, code", BAD)
def test_a_bad_item_is_its_own_error(item: Any, code: str) -> None:
    first, bad, last = score_batch([GOOD[0], item, GOOD[1]])
    assert isinstance(bad, HandError) and bad.code == code
    assert first == score_hand(GOOD[0]["hand"], rules="lingxi")
    assert last == score_hand(GOOD[1]["hand"], rules="luoshan")


def test_a_bad_item_reads_as_the_score_body_does() -> None:
    [bad] = score_batch([{"hand": 5, "x": 1}])
    assert str(bad) == "hand: Input should be a valid string; x: Extra inputs are not permitted"


@pytest.mark.parametrize("items", ["123m", {"hands": []}, None, [GOOD[0]] * (MAX_BATCH_HANDS + 1)])
def test_a_list_that_is_not_one_or_too_long_is_one_error(items: Any) -> None:
    with pytest.raises(HandError):
        score_batch(items)


def test_past_the_check_every_item_answers_its_error() -> None:
    calls = []

    def check() -> None:
        calls.append(1)
        if len(calls) > 2:
            raise HandError("over", code="over_budget")

    results = score_batch(GOOD, check=check)
    assert [isinstance(r, HandError) for r in results] == [False, False, True, True]
    assert len(calls) == 3  # no check after the budget is spent


def test_settle_batch_answers_each_table() -> None:
    tables = [json.loads(p.read_text(encoding="utf-8")) for p in TABLES[:3]]
    results = settle_batch([tables[0], {"rules": "lingxi"}, *tables[1:]])
    assert results[0] == settle_table(tables[0]) and results[2] == settle_table(tables[1])
    assert isinstance(results[1], HandError)
    with pytest.raises(HandError):
        settle_batch([tables[0]] * (MAX_BATCH_TABLES + 1))


# -- over HTTP ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(app)


@pytest.mark.parametrize("path", ["/v1/score/batch", "/score/batch"])
def test_100_mixed_hands_answer_100_results_in_order(client: TestClient, path: str) -> None:
    items = mixed(MAX_BATCH_HANDS)
    reply = client.post(path, json={"hands": items})
    assert reply.status_code == 200, reply.text
    results = reply.json()["results"]
    assert len(results) == MAX_BATCH_HANDS
    for item, result in zip(items, results, strict=True):
        want = expected(item)
        if "error" in want:
            assert set(result) == {"error"} and {"detail", "code", "column"} <= set(result["error"]), result
        else:
            assert result == want


@pytest.mark.parametrize(
    "body",
    [{"hands": mixed(MAX_BATCH_HANDS + 1)}, {"hand": []}, [], {"hands": "123m"}, {"hands": [], "more": 1}],
    ids=["too-long", "wrong-key", "a-list", "not-a-list", "extra-key"],
)
def test_a_body_that_is_not_a_batch_is_one_422(client: TestClient, body: Any) -> None:
    reply = client.post("/v1/score/batch", json=body)
    assert reply.status_code == 422, reply.text
    assert set(reply.json()) == set(ERROR_FIELDS)


def test_hands_past_the_cpu_budget_answer_over_budget(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("taihu.api.batch.CPU_BUDGET", 0.0)
    reply = client.post("/v1/score/batch", json={"hands": GOOD * 5})
    results = reply.json()["results"]
    assert reply.status_code == 200 and len(results) == 20
    assert results[-1]["error"]["code"] == "over_budget"


def test_settle_batch_over_http(client: TestClient) -> None:
    tables = [json.loads(p.read_text(encoding="utf-8")) for p in TABLES]
    reply = client.post("/v1/settle/batch", json={"tables": [*tables[:2], {"players": {}}]})
    assert reply.status_code == 200, reply.text
    first, second, bad = reply.json()["results"]
    assert first == settle_table(tables[0]).to_dict() and second == settle_table(tables[1]).to_dict()
    assert bad["error"]["code"] == "bad_table"


# -- a batch item's error is the single route's ------------------------------------------------

NORMAL_WIN: dict[str, Any] = json.loads((ROOT / "examples/tables/normal-win.json").read_text(encoding="utf-8"))
# hands that `POST /score` refuses, each kind of problem once: the body's shape, its fields' types and bounds, and
# the core's own
BAD_HANDS: list[Any] = [
    {},
    {"rules": "lingxi"},
    {"hand": 5},
    {"hand": None},
    {"hand": "123m", "rules": 5},
    {"hand": "123m", "rules": None},
    {"hand": "123m", "rules": "mars"},
    {"hand": "123m", "colour": "red"},
    {"hand": "1m" * 200},
    {"hand": "123m x"},
    {"hand": "123m"},
    {"hand": "123m 456m 789p 234s 678s 5p +5p", "options": {"nope": 1}},
    {"hand": "123m 456m 789p 234s 678s 5p +5p", "options": {"double_at": True}},
    {"hand": "123m 456m 789p 234s 678s 5p +5p", "options": {"double_at": 1.5}},
    {"hand": "123m 456m 789p 234s 678s 5p +5p", "options": []},
    {"hand": "123m 456m 789p 234s 678s 5p +5p", "options": None},
    "123m",
    None,
    [],
    5,
]
# tables that `POST /settle` refuses
BAD_TABLES: list[Any] = [
    {},
    {"rules": "lingxi"},
    NORMAL_WIN | {"rules": "mars"},
    NORMAL_WIN | {"players": {"E": "123m"}},
    NORMAL_WIN | {"players": []},
    NORMAL_WIN | {"players": {**NORMAL_WIN["players"], "E": "123m x"}},
    NORMAL_WIN | {"players": {**NORMAL_WIN["players"], "E": 5}},
    NORMAL_WIN | {"players": {**NORMAL_WIN["players"], "E": {"total": -1}}},
    NORMAL_WIN | {"winner": "X"},
    NORMAL_WIN | {"winner": None},
    NORMAL_WIN | {"discarder": 5},
    NORMAL_WIN | {"honba": 1},
    NORMAL_WIN | {"honba": -1},
    NORMAL_WIN | {"round": "Q"},
    NORMAL_WIN | {"events": [{"type": "foul"}]},
    NORMAL_WIN | {"events": "foul"},
    NORMAL_WIN | {"wild": "5m"},
    NORMAL_WIN | {"options": {"nope": 1}},
    NORMAL_WIN | {"colour": "red"},
    "table",
    None,
    [],
]
ROUTES = [pytest.param("/v1/score", "hands", item, id=f"score-{i}") for i, item in enumerate(BAD_HANDS)] + [
    pytest.param("/v1/settle", "tables", item, id=f"settle-{i}") for i, item in enumerate(BAD_TABLES)
]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("single", "key", "item"), ROUTES)
def test_a_batch_item_answers_the_error_of_its_single_route(
    client: TestClient, single: str, key: str, item: Any, lang: str
) -> None:
    """The same code, place, message and hint as the single route answers for the same body, item by item."""
    alone = client.post(single, json=item, params={"lang": lang})
    assert alone.status_code == 422, alone.text  # each case is bad input
    batch = client.post(f"{single}/batch", json={key: [item, item]}, params={"lang": lang})
    assert batch.status_code == 200, batch.text
    assert batch.json()["results"] == [{"error": alone.json()}] * 2


@pytest.mark.parametrize(
    ("single", "key", "item"), [("/v1/score", "hands", GOOD[3]), ("/v1/settle", "tables", NORMAL_WIN)]
)
def test_a_good_item_answers_what_its_single_route_does(client: TestClient, single: str, key: str, item: Any) -> None:
    results = client.post(f"{single}/batch", json={key: [BAD_HANDS[0], item]}).json()["results"]
    assert results[1] == client.post(single, json=item).json()
