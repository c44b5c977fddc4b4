"""Guannan 灌南: the four hand types, the house values and the tile set of
rules/guannan.md, each as one row of a table."""

from __future__ import annotations

import pytest

from taihu.scorer import HandError, score_hand
from taihu.scorer.engine import PAIR, StandIns, seven_pairs_readings, to_counts


def guannan(hand: str, **options: int):
    return score_hand(hand, rules="guannan", options=options)


def items(result) -> list[tuple[str, int]]:
    return [(i.key, i.value) for i in result.items]


# (why, hand, options, items, total)
CASES = [
    ("qi_dui: seven pairs", "1133557799m 11p 2s +2s", {}, [("qi_dui", 2)], 2),
    ("qi_dui: four alike are two pairs", "1111m 3355m 77p 99s 2s +2s", {}, [("qi_dui", 2)], 2),
    ("peng_peng_he: pungs + a pair", "111m 222p 333s 444m 5s +5s", {}, [("peng_peng_he", 2)], 2),
    ("peng_peng_he with a meld and a kong", "[111m] (2222p) 333s 444m 5s +5s self", {}, [("peng_peng_he", 2)], 2),
    ("yi_tiao_long: 123 456 789 of one suit", "123456789m 111p 5s +5s", {}, [("yi_tiao_long", 2)], 2),
    ("yi_tiao_long with an exposed chow", "[123m] 456789m 234p 5s +5s", {}, [("yi_tiao_long", 2)], 2),
    ("ping_pai: any other hand", "123m 456p 789s 234m 5s +5s", {}, [("ping_pai", 1)], 1),
    ("ping_pai: a straight across suits is no yi_tiao_long", "123m 456p 789m 234m 5s +5s", {}, [("ping_pai", 1)], 1),
    # Decision: exactly one applies; the highest value wins
    ("seven pairs beat the ping_pai reading of the same tiles", "1122334455667m +7m", {}, [("qi_dui", 2)], 2),
    ("a house ping_pai of 3 beats qi_dui 2 there", "1122334455667m +7m", {"ping_pai": 3}, [("ping_pai", 3)], 3),
    ("house values: qi_dui 5", "1133557799m 11p 2s +2s", {"qi_dui": 5}, [("qi_dui", 5)], 5),
    ("house values: peng_peng_he 4", "111m 222p 333s 444m 5s +5s", {"peng_peng_he": 4}, [("peng_peng_he", 4)], 4),
    ("house values: yi_tiao_long 4", "123456789m 111p 5s +5s", {"yi_tiao_long": 4}, [("yi_tiao_long", 4)], 4),
    ("house values: ping_pai 2", "123m 456p 789s 234m 5s +5s", {"ping_pai": 2}, [("ping_pai", 2)], 2),
]


@pytest.mark.parametrize("why, hand, options, expected, total", CASES, ids=[c[0] for c in CASES])
def test_scores(why: str, hand: str, options: dict[str, int], expected: list[tuple[str, int]], total: int) -> None:
    result = guannan(hand, **options)
    assert items(result) == expected
    assert (result.total, result.subtotal, result.doubled, result.legal) == (total, total, False, True)
    assert result.unit == "points" and result.winner


def test_output_names_the_values_used() -> None:
    result = guannan("123m 456p 789s 234m 5s +5s", ping_pai=2)
    assert result.notes == ["house values used: ping_pai 2, qi_dui 2, peng_peng_he 2, yi_tiao_long 2"]
    assert result.items[0].detail == "house value 2"


def test_seven_pairs_arrangement_shows_four_alike_as_two_pairs() -> None:
    result = guannan("1111m 3355m 77p 99s 2s +2s")
    assert result.arrangement == ["11m", "11m", "33m", "55m", "77p", "22s", "99s"]


def test_non_winner_scores_zero() -> None:
    result = guannan("123m 456p 789s 234m E")
    assert (result.winner, result.items, result.total) == (False, [], 0)


def test_seven_pairs_readings_with_wildcards() -> None:
    """The engine helper Jinhua will reuse: a single takes a wildcard, spares pair up."""
    counts = to_counts([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6])
    (reading,) = seven_pairs_readings(counts, (20,), StandIns((), ()))
    assert all(g.shape == PAIR for g in reading) and reading[-1].wilds == ((20, 6),)
    two_spare = list(
        seven_pairs_readings(to_counts([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]), (20, 20), StandIns((27, 31), ()))
    )
    paired = [r for r in two_spare if len(r[-1].slots) == 2]  # the two spares as one pair
    assert sorted(r[-1].kind for r in paired) == [27, 31]
    split = [r for r in two_spare if len(r[-1].slots) < 2]  # or each beside a tile of a natural pair
    assert sorted(r[-1].kind for r in split) == [0, 1, 2, 3, 4, 5]
    assert all([g.slots for g in r].count((r[-1].kind,)) == 2 for r in split)
    assert list(seven_pairs_readings(counts, (), StandIns((), ()))) == []  # 13 tiles


ERRORS = [
    ("a second copy of a wind", "EE 123m 456p 789s 234m +5s", {}, "E appears 2 times; Guannan has one of each wind"),
    ("a dragon", "123m 456p 789s 234m C +C", {}, "dragon C is not a Guannan tile"),
    ("a flower", "123m 456p 789s 234m 5s f1 +5s", {}, "flower f1 is not a Guannan tile"),
    ("a winning hand holding a wind", "123m 456p 789s 234m E +5s", {}, "holds E, and a wind can never pair or pung"),
    ("no winning shape", "123m 456p 789s 235m 5s +6s", {}, "no winning shape"),
    (
        "wild:",
        "123m 456p 789s 234m 5s +5s wild:1m",
        {},
        "'wild' at column 28 is not used in Guannan: Guannan has no wildcards",
    ),
    ("flip:", "123m 456p 789s 234m 5s +5s flip:1m", {}, "'flip' at column 28 is not used in Guannan"),
    ("declare", "123m 456p 789s 234m 5s +5s declare:sha-zhu", {}, "'declare' at column 28 is not used in Guannan"),
    ("heaven", "123m 456p 789s 234m 5s +5s heaven", {}, "'heaven' at column 28 is not used in Guannan"),
    ("15 tiles", "123m 456p 789s 234m 55s +5s", {}, "hand has 15 tiles, a winning Guannan hand needs 14"),
    ("14 tiles without a winning tile", "123m 456p 789s 234m 55s", {}, "a non-winning Guannan hand holds 13"),
    ("a fifth copy", "11111m 456p 789s 23m +5s", {}, "1m appears 5 times"),
    ("a stand-in pung", "[CC2m] 456p 789s 234m 5s +5s", {}, "[CC2m] at column 1 is not a meld"),
    ("self without a winning tile", "123m 456p 789s 234m 5s self", {}, "needs a winning tile"),
    ("kong-draw with no kong", "123m 456p 789s 234m 5s +5s kong-draw", {}, "needs a kong"),
    ("an unknown house option", "123m 456p 789s 234m 5s +5s", {"hua_hu": 3}, "unknown option 'hua_hu' for guannan"),
]


@pytest.mark.parametrize("why, hand, options, message", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(why: str, hand: str, options: dict[str, int], message: str) -> None:
    with pytest.raises(HandError) as err:
        guannan(hand, **options)
    assert message in str(err.value)


# -- checked by hand against the rules page (the review of the four regional rule sets) --


@pytest.mark.parametrize(
    "hand, expected",
    [
        ("111222333m 11p 55s +5s", [("peng_peng_he", 2)]),  # pungs beat three chows (ping_pai 1)
        ("123456789m 11p 55s +5s", [("yi_tiao_long", 2)]),
        ("[123m] [456m] [789m] 111p 5s +5s", [("yi_tiao_long", 2)]),  # exposed chows count
        ("1111m 22m 33m 44m 55m 6p +6p", [("qi_dui", 2)]),  # four alike are two pairs
    ],
)
def test_guannan_hand_types(hand: str, expected: list[tuple[str, int]]) -> None:
    assert items(score_hand(hand, rules="guannan")) == expected
