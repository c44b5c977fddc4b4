"""Riichi's speed tricks against the plain ways they replace (docs/performance.md): same answers, field for field.

- `win_indexes` (where the winning tile sits in a reading) against the engine's `win_places`;
- the yaku tried by the facts of a reading or hand (`reading_candidates`, `hand_candidates`) against
  trying every yaku of the table on every reading;
- the canonical text (`to_text`, whose riichi tail is cached by its parts) round-trips through the parser.
"""

from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from riichi_oracle import Case, riichi_cases

from taihu import score_hand
from taihu.scorer.engine import kinds_readings, win_places
from taihu.scorer.notation import parse, to_text
from taihu.scorer.rulesets import riichi as R
from taihu.scorer.rulesets.riichi.hand import prepare
from taihu.scorer.rulesets.riichi.yaku import PER_HAND, PER_READING

FAST = settings(
    max_examples=120,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def _every_yaku_of(pool: tuple[R.Yaku, ...]) -> object:
    """A stand-in for a candidates table: every yaku of the pool, whatever the facts (the plain way)."""
    return lambda facts: pool


@FAST
@given(case=riichi_cases())
def test_yaku_tried_by_facts_score_as_every_yaku_tried(case: Case) -> None:
    fast = score_hand(case.line, "riichi", case.options).to_dict()
    with (
        mock.patch.object(R, "reading_candidates", _every_yaku_of(PER_READING)),
        mock.patch.object(R, "hand_candidates", _every_yaku_of(PER_HAND)),
    ):
        plain = score_hand(case.line, "riichi", case.options).to_dict()
    assert fast == plain, case.line


@FAST
@given(case=riichi_cases())
def test_win_indexes_are_the_engines_win_places(case: Case) -> None:
    parsed = parse(case.line, R.RIICHI.conditions, "Riichi", rules="riichi")
    hand = prepare(parsed, R.RIICHI.resolve_options(case.options))
    held = bytes(sorted([*parsed.tiles, hand.win]))
    for groups in kinds_readings(held, 4 - len(hand.melds), True):
        full = hand.melds + groups
        plain = list(dict.fromkeys(at for at, _ in win_places(full, hand.win, False)))
        assert R.win_indexes(full, len(hand.melds), hand.win) == plain, case.line


@FAST
@given(case=riichi_cases())
def test_canonical_text_round_trips(case: Case) -> None:
    parsed = parse(case.line, R.RIICHI.conditions, "Riichi", rules="riichi")
    text = to_text(parsed)
    again = parse(text, R.RIICHI.conditions, "Riichi", rules="riichi")
    assert again == parsed and to_text(again) == text, case.line


@pytest.mark.parametrize(
    ("tiles", "tail"),
    [
        ("234567m 234p 88p 67s", "+8s seat:S round:E dora:1p ura:7s self riichi honba:2 sticks:1"),
        ("34056m 234p 55p 678s", "+7m seat:S round:E dora:0p,4p self"),
        ("123m 99p 78s (CCCC) [EEE]", "+9s seat:E round:E dora:P,2m kong-draw"),
        ("345m 789p 234s 66s 45p", "seat:N round:S furiten"),
    ],
)
def test_riichi_tail_in_canonical_order(tiles: str, tail: str) -> None:
    """The tail is written in the page's order (seat round dora ura, flags, honba sticks), red fives as 0."""
    parsed = parse(f"{tiles} {tail}", R.RIICHI.conditions, "Riichi", rules="riichi")
    assert to_text(parsed).endswith(" " + tail)
