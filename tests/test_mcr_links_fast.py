"""MCR's reading facts against plain versions of the same thing.

- the fan between chows and between pungs of a reading are read off the
  tables of two sets (`facts.chows_made`, `facts.pungs_made`): compared with
  the combinations tried one by one (`chow_fans`, `pung_fans`) on every two,
  three and four chows (with the pairs four chows read) and every two, three
  and four pungs;
- `McrFacts` finds a reading's pair, pungs, chows, concealed pungs, the
  winning tile's place, the fan between sets and what its fan of sets need in
  one pass over the groups: compared with each found apart (`plain_facts`)
  on random legal hands (tests/mcr_hands.py) and hands chosen for their fan
  between sets.
"""

from __future__ import annotations

import random
from itertools import combinations, combinations_with_replacement

import pytest
from mcr_hands import random_hand

from taihu.scorer import parse
from taihu.scorer import tiles as T
from taihu.scorer.engine import CHOW, PAIR, Group, group_text
from taihu.scorer.rulesets.mcr import RULE_SET as MCR
from taihu.scorer.rulesets.mcr.facts import (
    ALL_CHOWS,
    CONCEALED_HOLDS,
    KNITTED,
    PAIR_HOLDS,
    PUNG_HOLDS,
    SHAPE_HOLDS,
    STANDARD,
    TRIPLETS,
    WAIT_HOLDS,
    McrFacts,
    chow_fans,
    chows_made,
    concealed_pungs,
    pung_fans,
    pungs_made,
    wait_place,
)
from taihu.scorer.rulesets.mcr.hand import McrHand

CHOW_STARTS = [9 * suit + rank for suit in range(3) for rank in range(7)]
# the pairs of four chows: none read, a 5 of each suit (双龙会), an honor whose rank reads as a 5, a 1
FOUR_CHOW_PAIRS = (-1, 4, 13, 22, T.RED, 0)


def plain_chows_made(starts: list[int], pair: int) -> tuple[str, ...]:
    made: list[str] = []
    for fan, chows in chow_fans(starts, pair):
        made += (fan, " ".join(group_text(Group(CHOW, k)) for k in chows))
    return tuple(made)


def plain_pungs_made(kinds: list[int]) -> tuple[str, ...]:
    made: list[str] = []
    for fan, pungs in pung_fans(kinds):
        made += (fan, " ".join(T.name(k) for k in pungs))
    return tuple(made)


@pytest.mark.parametrize("count", [2, 3, 4])
def test_the_fan_between_chows_as_each_combination_tried(count: int) -> None:
    pairs = FOUR_CHOW_PAIRS if count == 4 else (-1,)
    found = 0
    for starts in combinations_with_replacement(CHOW_STARTS, count):
        for pair in pairs:
            made = chows_made(list(starts), pair)
            assert made == plain_chows_made(list(starts), pair), (starts, pair)
            found += bool(made)
    assert found > 50  # the chows make fan, not only none


@pytest.mark.parametrize("count", [2, 3, 4])
def test_the_fan_between_pungs_as_each_combination_tried(count: int) -> None:
    found = 0
    for kinds in combinations(range(T.PLAYABLE), count):  # a reading's pungs are of different kinds
        made = pungs_made(list(kinds))
        assert made == plain_pungs_made(list(kinds)), kinds
        found += bool(made)
    assert found > 20  # and the pungs


def plain_facts(facts: McrFacts, win: int, self_drawn: bool) -> dict[str, object]:
    """A reading's MCR facts, each found apart from its groups, shape and knitted straight."""
    groups, shape, knit = facts.groups, facts.shape, facts.knit
    pairs = [g for g in groups if g.shape == PAIR]
    sets = tuple(g for g in groups if g.shape != PAIR)
    pair = pairs[0].kind if len(pairs) == 1 else -1
    triplets = sorted(g.kind for g in sets if g.shape in TRIPLETS)
    starts = sorted(g.kind for g in sets if g.shape == CHOW)
    holds = SHAPE_HOLDS[shape]
    for kind in triplets:
        holds |= PUNG_HOLDS[kind]
    if pair >= 0:
        holds |= PAIR_HOLDS[pair]
    linked: dict[str, list[str]] = {}
    hidden, place = 0, ""
    if shape in (STANDARD, KNITTED):
        made = plain_chows_made(starts, pair if len(starts) == 4 else -1) if len(starts) > 1 else ()
        made += plain_pungs_made(triplets) if len(triplets) > 1 else ()
        for at in range(0, len(made), 2):
            linked.setdefault(made[at], []).append(made[at + 1])
        hidden = concealed_pungs(sets, win, self_drawn, knit)
        place = wait_place(groups, win)
        holds |= CONCEALED_HOLDS[hidden] | WAIT_HOLDS[place]
        if len(starts) + (3 if knit and shape == KNITTED else 0) == 4:
            holds |= ALL_CHOWS
    return {
        "sets": sets,
        "pair": pair,
        "triplets": triplets,
        "linked": linked,
        "concealed_pungs": hidden,
        "wait_place": place,
        "holds": holds,
    }


# hands whose sets make fan between them: four chows with the pair 双龙会 reads, three chows and the fourth's
# fan with one of them, pairs of chows more than the chows account for, three pungs and the fourth's fan, kongs
LINKED_LINES = [
    "123123789789m 5m +5m seat:E",
    "123789m 123789s 5p +5p seat:E",
    "123123123123m 5p +5p seat:E",
    "123234345456m 9p +9p seat:E",
    "123456789m 123p 5s +5s seat:E",
    "123m 456p 789s 123s 5m +5m seat:E",
    "123m 123m 123p 999s 5s +5s seat:E",
    "123123456456m E +E seat:E",
    "111m 222p 333s 222m 5s +5s seat:E",
    "EEESSSWWW CCC F +F seat:E",
    "CCCFFFPPP 111m 5s +5s seat:E",
    "[1111m] [1111p] 111s 234s 5s +5s seat:E",
    "(5555p) [123m] 456m 789m 9s +9s seat:W self",
]


def lines() -> list[str]:
    rng = random.Random(20261208)
    return LINKED_LINES + [random_hand(rng) for _ in range(300)]


@pytest.mark.parametrize("line", lines())
def test_the_reading_facts_as_found_apart(line: str) -> None:
    hand = MCR.prepare(parse(line), MCR.resolve_options(None))
    assert isinstance(hand, McrHand)
    readings = MCR.readings(hand)
    assert readings, line
    for facts in readings:
        found = {name: getattr(facts, name) for name in plain_facts(facts, hand.win, hand.self_drawn)}
        assert found == plain_facts(facts, hand.win, hand.self_drawn), line


def test_the_chosen_hands_make_fan_between_sets() -> None:
    """Each of `LINKED_LINES` reads as a hand whose sets make fan between them (else the line tests nothing)."""
    for line in LINKED_LINES:
        hand = MCR.prepare(parse(line), MCR.resolve_options(None))
        assert isinstance(hand, McrHand)
        assert any(facts.linked for facts in MCR.readings(hand)), line
