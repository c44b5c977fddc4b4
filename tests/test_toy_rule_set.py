"""A rule set added as docs/architecture.md "Adding a rule set" says, touching no module of taihu.

The toy rule set (tests/toy_rule_set.py: a hand of 13 tiles wins as 4 sets + a pair, 平胡 scores 1 and
清一色 one suit 4 more) is registered with its one registry line, which names its module as the six's name
their folders, and then the shared machinery — `score_hand`, `rule_sets`, `waits`, `arithmetic` and
`settle_table` — takes it by name like any other. `pytest --toy-rule-set` registers it for the whole run,
so the suites that iterate the registry test it too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest
import toy_rule_set
from toy_rule_set import LINE, MIXED, ONE_SUIT

from taihu.scorer import arithmetic, rule_sets, score_hand, settle_table, waits
from taihu.scorer.errors import HandError
from taihu.scorer.rulesets import REGISTRY, RULESETS, register, unregister


@pytest.fixture(autouse=True)
def toy_registered() -> Iterable[None]:
    """The toy's registry line, for these tests; left as it is where the whole run has it (`--toy-rule-set`)."""
    if "toy" in REGISTRY:
        yield
        return
    register(LINE)
    yield
    unregister("toy")


@pytest.mark.parametrize(
    ("line", "items", "total"),
    [(ONE_SUIT, ["ping_hu", "qing_yi_se"], 5), (MIXED, ["ping_hu"], 1)],
)
def test_the_toy_rule_set_scores_by_its_name_and_its_chinese_name(line: str, items: list[str], total: int) -> None:
    for name in ("toy", "玩具", "TOY"):
        score = score_hand(line, name)
        assert score.rules == "toy"
        assert [i.key for i in score.items] == items and score.total == total


def test_its_errors_and_conditions_are_its_own() -> None:
    with pytest.raises(HandError, match="a toy hand holds 13"):
        score_hand("123m +5m", "toy")
    with pytest.raises(HandError, match="condition 'wild' at column .* is not used in toy"):
        score_hand(MIXED + " wild:5m", "toy")


def test_it_is_listed_with_its_items() -> None:
    listed = {info.name: info for info in rule_sets()}
    assert [item.key for item in listed["toy"].items] == ["ping_hu", "qing_yi_se"]
    assert "toy" in RULESETS


def test_waits_search_it_with_the_defaults() -> None:
    found = waits("1112345678999m", "toy").to_dict()
    assert [w["tile"] for w in found["waits"]] == [f"{rank}m" for rank in range(1, 10)]  # 九莲宝灯
    assert {w["discard"]["total"] for w in found["waits"]} == {5}


def test_arithmetic_and_settlement_ask_the_rule_set() -> None:
    assert arithmetic(score_hand(ONE_SUIT, "toy")) == ["1 + 4 = 5 points"]
    table: Mapping[str, object] = {
        "rules": "toy",
        "winner": "S",
        "discarder": None,
        "players": {"E": {"total": 0}, "S": ONE_SUIT + " self", "W": {"total": 0}, "N": {"total": 0}},
    }
    settled = settle_table(table)
    assert settled.net == {"E": -5, "S": 15, "W": -5, "N": -5}


def test_unregistered_it_is_unknown() -> None:
    unregister("toy")
    try:
        with pytest.raises(HandError, match="unknown rule set 'toy'"):
            score_hand(MIXED, "toy")
    finally:
        register(LINE)


def test_it_loads_through_its_registry_line_as_the_rule_sets_of_the_package_do() -> None:
    assert RULESETS["toy"] is toy_rule_set.RULE_SET
    assert LINE.module == toy_rule_set.__name__ and LINE.rule_set() is toy_rule_set.RULE_SET
