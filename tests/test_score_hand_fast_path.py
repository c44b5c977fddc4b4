"""`score_hand`'s fast path against its checked path.

The common call (a `str` hand, a rule set by its own name, options None or a
dict) skips the argument checks and the name lookup; any other call takes the
checked path. Both must give the same score, the same HandError, and the same
ArgumentError (a TypeError) for a wrong type.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taihu.scorer import ArgumentError, HandError, HandScore, checked_score, score_hand
from taihu.scorer import tiles as T
from taihu.scorer.rulesets import REGISTRY, RULESETS

GUANNAN_SEVEN_PAIRS = "1133557799m 11p 2s +2s"


def outcome(score: Any, hand: Any, rules: Any, options: Any = None) -> HandScore | str:
    """The score, or the error's type and message: what both paths must agree on."""
    try:
        return score(hand, rules, options)  # type: ignore[no-any-return]
    except HandError as error:
        return f"{type(error).__name__}: {error}"


def random_line(rng: random.Random, rules: str) -> str:
    """A closed hand of the rule set's size drawn from one set of tiles, self-drawn, with a wildcard kind."""
    tiles = [index // 4 for index in rng.sample(range(136), REGISTRY[rules].hand_size + 1)]
    win = tiles.pop()
    return f"{' '.join(T.name(k) for k in tiles)} +{T.name(win)} self wild:{T.name(rng.randrange(34))}"


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), rules=st.sampled_from(sorted(RULESETS)))
def test_the_fast_path_scores_random_hands_as_the_checked_path(seed: int, rules: str) -> None:
    line = random_line(random.Random(seed), rules)
    if rules == "riichi":
        line = line.split(" wild:")[0] + " seat:S round:E"
    assert outcome(score_hand, line, rules) == outcome(checked_score, line, rules)


@pytest.mark.parametrize("options", [{"qi_dui": 4}, {"qi_dui": 0}, {"no_such_option": 1}])
def test_the_fast_path_passes_an_options_dict_on(options: dict[str, int]) -> None:
    fast = outcome(score_hand, GUANNAN_SEVEN_PAIRS, "guannan", options)
    assert fast == outcome(checked_score, GUANNAN_SEVEN_PAIRS, "guannan", options)
    assert fast != outcome(score_hand, GUANNAN_SEVEN_PAIRS, "guannan")


class Text(str):
    """A str subclass: not the exact type, so the checked path scores it."""


@pytest.mark.parametrize(
    ("hand", "rules", "options"),
    [
        (Text(GUANNAN_SEVEN_PAIRS), "guannan", None),
        (GUANNAN_SEVEN_PAIRS, "GUANNAN", None),
        (GUANNAN_SEVEN_PAIRS, " 灌南 ", None),
        (GUANNAN_SEVEN_PAIRS, "guannan", MappingProxyType({"qi_dui": 4})),
    ],
    ids=["str subclass", "upper-case name", "Chinese name", "read-only mapping"],
)
def test_calls_off_the_fast_path_score_as_the_plain_call(hand: str, rules: str, options: Mapping[str, int]) -> None:
    plain = score_hand(GUANNAN_SEVEN_PAIRS, "guannan", dict(options) if options else None)
    assert score_hand(hand, rules, options) == plain


@pytest.mark.parametrize(
    ("hand", "rules", "options", "message"),
    [
        (b"123m", "luoshan", None, "hand: must be a string of notation, got bytes"),
        (None, "luoshan", None, "hand: must be a string of notation, got NoneType"),
        ("123m", ["luoshan"], None, "rules: must be a rule set name (a string), got list"),
        ("123m", "luoshan", [1], "options: must be a mapping of option names to numbers (or None), got list"),
    ],
    ids=["bytes hand", "None hand", "list rules", "list options"],
)
def test_a_wrong_type_is_the_same_type_error_on_both_paths(hand: Any, rules: Any, options: Any, message: str) -> None:
    for score in (score_hand, checked_score):
        with pytest.raises(ArgumentError) as raised:
            score(hand, rules, options)
        assert isinstance(raised.value, TypeError)
        assert str(raised.value) == message


def test_an_unknown_rule_set_is_the_checked_paths_error() -> None:
    assert outcome(score_hand, "123m", "nowhere") == outcome(checked_score, "123m", "nowhere")
    assert "unknown rule set 'nowhere'" in str(outcome(score_hand, "123m", "nowhere"))


@pytest.mark.parametrize("condition", ["wild:9s", "flip:9s", "riichi", "declare", "selff"])
@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_the_fast_path_names_a_foreign_condition_as_the_checked_path(rules: str, condition: str) -> None:
    line = f"{GUANNAN_SEVEN_PAIRS} {condition}"
    assert outcome(score_hand, line, rules) == outcome(checked_score, line, rules)
