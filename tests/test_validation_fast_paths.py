"""`validation.check_known_conditions` against the plain rule it stands for: a hand line is refused exactly
where a condition it wrote (`ParsedHand.conditions`) is none the rule set knows. Its fast path answers "all
known" without listing the conditions, reading the declared values (`round:E`) straight off the hand.

Every example hand of every registered rule set is checked against every rule set's conditions, so lines with
declared values, flags and wildcards meet rule sets that know them and rule sets that do not.
"""

from __future__ import annotations

import pytest
from registry_examples import example_hands

from taihu.scorer import HandError, parse
from taihu.scorer.rulesets import REGISTRY, RULESETS
from taihu.scorer.rulesets.validation import check_known_conditions

CASES = [(rules, hand, other) for rules, hand in example_hands() for other in REGISTRY]


def refused(hand: str, rules: str, other: str) -> bool:
    try:
        check_known_conditions(parse(hand, rules=rules), other, RULESETS[other].conditions)
    except HandError as error:
        assert error.code == "unknown_condition"
        return True
    return False


@pytest.mark.parametrize(("rules", "hand", "other"), CASES)
def test_refused_exactly_where_a_condition_is_unknown(rules: str, hand: str, other: str) -> None:
    parsed = parse(hand, rules=rules)
    unknown = [c for c in parsed.conditions if c not in RULESETS[other].conditions]
    assert refused(hand, rules, other) == bool(unknown)


def test_the_cases_hold_both_answers_and_declared_values() -> None:
    """The table meets refused lines and accepted ones, and declared values each way."""
    answers = {(refused(hand, rules, other), parse(hand, rules=rules).declared_values) for rules, hand, other in CASES}
    assert answers == {(True, True), (True, False), (False, True), (False, False)}
