"""The scoring loop's fast path against the plain one.

`RuleSet.best_reading` values every reading without describing it (no
detail text, no ScoreItem), reuses the items found once per hand and skips
the items whose gate is shut, then describes the one reading it keeps.
`RuleSet.plain_best_reading` finds, values and describes every item of every
reading and then ranks them (legal, total, subtotal: the ruling of
2026-11-30). The fast loop also values Lingxi's readings before their
wildcards are placed (`RuleSet.as_shown` places them on the one kept), the
plain one only readings as shown. Scored either way, a hand must come out
the same to the letter.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

from hypothesis import given
from hypothesis import strategies as st
from test_reading_classes import EXAMPLES, HONOR_HEAVY, LINGXI_HANDS, LINGXI_KINDS, outcome
from test_wildcard_brute_force import ALL_KINDS, example_hands, wild_hands

from taihu.scorer.rulesets.base import RuleSet
from taihu.scorer.rulesets.interface import Outcome, rank


@contextmanager
def plain_loop() -> Iterator[None]:
    """Every rule set scoring with the plain loop: everything built for every reading."""
    with mock.patch.object(RuleSet, "best_reading", RuleSet.plain_best_reading):
        yield


def assert_fast_loop_chooses_as_the_plain_one(hand: str, rules: str) -> None:
    fast = outcome(hand, rules)
    with plain_loop():
        plain = outcome(hand, rules)
    assert fast == plain, hand


# Luoshan: a pair wait against a pung or an edge wait; 平和 or not by the winning tile's place; a wildcard wins
LUOSHAN_HANDS = (
    "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 1p 2p +2p wild:C",
    "2p 3p 4p 5s 6s 7s 7s 8s 9s 9s E E E +9s self wild:1m",
    "1m 2m 3m 4m 5m 6m 7m 8m 9m 9m C 2p 3p +4p wild:C seat:S",
    "1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m +C wild:C seat:E self",
)


@EXAMPLES
@given(wild_hands("luoshan", 4, ALL_KINDS, 1, 4, 3))
@example_hands(LUOSHAN_HANDS)
def test_luoshan_fast_loop_chooses_as_the_plain_one(hand: str) -> None:
    assert_fast_loop_chooses_as_the_plain_one(hand, "luoshan")


@EXAMPLES
@given(st.one_of(wild_hands("lingxi", 5, LINGXI_KINDS, 2, 3, 6), wild_hands("lingxi", 5, HONOR_HEAVY, 2, 3, 6)))
@example_hands(LINGXI_HANDS)
def test_lingxi_fast_loop_chooses_as_the_plain_one(hand: str) -> None:
    assert_fast_loop_chooses_as_the_plain_one(hand, "lingxi")


@EXAMPLES
@given(wild_hands("jinhua", 4, LINGXI_KINDS, 1, 3, 3))
def test_jinhua_fast_loop_chooses_as_the_plain_one(hand: str) -> None:
    assert_fast_loop_chooses_as_the_plain_one(hand, "jinhua")


@EXAMPLES
@given(wild_hands("putian", 5, tuple(range(27)), 1, 3, 3))
def test_putian_fast_loop_chooses_as_the_plain_one(hand: str) -> None:
    assert_fast_loop_chooses_as_the_plain_one(hand, "putian")


def _without_wildcards(hand: str) -> str:
    return " ".join(token for token in hand.split() if not token.startswith("wild:"))


@EXAMPLES
@given(wild_hands("guannan", 4, ALL_KINDS, 1, 1, 0).map(_without_wildcards))
def test_guannan_fast_loop_chooses_as_the_plain_one(hand: str) -> None:
    assert_fast_loop_chooses_as_the_plain_one(hand, "guannan")


def test_readings_rank_legal_then_total_then_subtotal() -> None:
    """The ruling of 2026-11-30: a legal win beats any total; then the total; then the subtotal."""
    legal_small, illegal_big = Outcome(10, False, 10), Outcome(900, False, 900, legal=False)
    assert rank(legal_small) > rank(illegal_big)
    assert rank(Outcome(20, True, 40)) > rank(Outcome(30, False, 30))
    assert rank(Outcome(30, False, 40)) > rank(Outcome(20, True, 40))
