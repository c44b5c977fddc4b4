"""Luoshan's fast paths against the plain versions they stand for.

`Luoshan.arrangement` lays a reading out from what a Luoshan reading is
(the melds on the table lead it, its facts hold its pairs);
`RuleSet.arrangement` looks at every group. Scored either way, a hand must
come out the same to the letter. Luoshan's memo of condition checks is keyed
by slices of the parsed hand, which must hold the condition fields.
"""

from __future__ import annotations

from unittest import mock

from hypothesis import given
from test_reading_classes import EXAMPLES, LUOSHAN_HANDS, LUOSHAN_WILD_WINS, outcome
from test_wildcard_brute_force import ALL_KINDS, example_hands, wild_hands

from taihu.scorer.notation import ParsedHand
from taihu.scorer.rulesets import luoshan
from taihu.scorer.rulesets.base import RuleSet
from taihu.scorer.rulesets.luoshan import Luoshan

# melds on the table (a 花碰, kongs open and concealed) before the concealed sets, pairs of honors and suits
ARRANGED_HANDS = (
    "[CC2m] (5555p) 7s 8s 9s 1m 1m 1m S +S seat:S wild:2m",
    "[5555s] 3m 4m 5m 9p 9p 9p 1m 2m 3m 7m +7m wild:E self",
    "9s 9s 9s 1m 1m 1m 5p 6p 7p 2m 3m 4m E +E wild:C",
    "2p 3p 4p 2p 3p 4p 2p 3p 4p 6s 6s 6s 8p +8p wild:N self",
    *LUOSHAN_HANDS,
    *LUOSHAN_WILD_WINS,
)


def plain_arrangement(rules: Luoshan, hand: object, reading: object) -> list[str]:
    return RuleSet.arrangement(rules, hand, reading.groups)  # type: ignore[attr-defined]


@EXAMPLES
@given(wild_hands("luoshan", 4, ALL_KINDS, 1, 4, 3))
@example_hands(ARRANGED_HANDS)
def test_luoshan_arrangement_as_the_plain_one(hand: str) -> None:
    fast = outcome(hand, "luoshan")
    with mock.patch.object(Luoshan, "arrangement", plain_arrangement):
        plain = outcome(hand, "luoshan")
    assert fast == plain, hand


def test_the_conditions_memo_is_keyed_by_every_condition_field() -> None:
    """`_conditions` keys its memo by two slices of the ParsedHand: they must be these fields, whatever the
    field order, or a hand would get another hand's checks (the error of a condition, the wildcard)."""
    fields = ParsedHand._fields
    assert fields[luoshan.hand._CONDITION_FIELDS] == ("seat", "wild", "flip", "flags", "declare")
    assert fields[luoshan.hand._VALUES_FIELD] == ("values",)
