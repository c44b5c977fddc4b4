"""The engine's fast paths against plain versions of the same thing.

- `place_wildcards` sorts the slots and the wildcards only when the
  wildcards left to place are not all alike;
- `ReadingFacts` reads the suits and honors present off one table by kind;
- `win_placements` builds the placements of a natural winning tile as it
  finds the groups that hold it.

Each is run here on the readings of random hands with wildcards and
compared with the plain version written out in full.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_reading_classes import HONOR_HEAVY, LINGXI_KINDS
from test_wildcard_brute_force import ALL_KINDS, wild_hands

from taihu.scorer import HandError, parse
from taihu.scorer import engine as E
from taihu.scorer import tiles as T
from taihu.scorer.engine import CHOW, Group, ReadingFacts
from taihu.scorer.rulesets import RULESETS


def plain_suits_and_honors(reading: Iterable[Group]) -> tuple[set[int], bool]:
    """The suits and whether any honor appear after the wildcards are assigned, group by group (what
    `ReadingFacts` reads off a table by kind).

    A group's tiles share one suit, so its kind tells; a wild set (财神汇)
    stands for nothing and shows neither.
    """
    suits: set[int] = set()
    honors = False
    for group in reading:
        kind = group.kind
        if 0 <= kind < 27:
            suits.add(kind // 9)
        elif 27 <= kind < 34:
            honors = True
    return suits, honors


def plain_place_wildcards(groups: tuple[Group, ...], wild_tiles: tuple[int, ...]) -> tuple[Group, ...]:
    """Each wildcard on its own kind first; the rest sorted every time: wind slots first, non-wind wildcards first."""
    pool = list(wild_tiles)
    placed: list[list[tuple[int, int]]] = [[] for _ in groups]
    pending = []
    for gi, group in enumerate(groups):
        for kind in group.slots:
            if kind >= 0 and kind in pool:
                pool.remove(kind)
                placed[gi].append((kind, kind))
            else:
                pending.append((gi, kind))
    pending.sort(key=lambda p: not T.is_wind(p[1]))
    pool.sort(key=T.is_wind)
    for (gi, kind), tile in zip(pending, pool, strict=False):
        placed[gi].append((tile, kind))
    return tuple(g._replace(wilds=tuple(placed[i])) if g.slots else g for i, g in enumerate(groups))


def plain_win_places(reading: tuple[Group, ...], win: int) -> list[int]:
    """The groups a natural winning tile may sit in: a natural tile of its kind there, or a wildcard standing for
    one there when some group holds a natural one."""
    holders, takers = [], []
    for index, group in enumerate(reading):
        if group.exposed or group.concealed_kong:
            continue
        naturals = list(group.kinds)
        for kind in group.slots:
            if kind in naturals:  # a wild set's slots stand for nothing
                naturals.remove(kind)
        if win in naturals:
            holders.append(index)
        elif win in group.slots:
            takers.append(index)
    return sorted(holders + takers) if holders else []


def searched(rules: str, hand: str) -> list[tuple[Any, tuple[Group, ...], tuple[int, ...]]]:
    """(prepared hand, groups as the search found them, the wildcards held) for each reading of a hand."""
    ruleset = RULESETS[rules]
    try:
        prepared = ruleset.prepare(parse(hand), ruleset.resolve_options(None))
    except HandError:
        return []
    if not prepared.winner:
        return []
    naturals = E.to_counts(prepared.natural_kinds) if rules == "luoshan" else prepared.naturals
    options = RULESETS_OPTIONS[rules](prepared, naturals)
    sets = 4 if rules == "luoshan" else 5
    sets -= len(prepared.melds)
    counts = tuple(naturals[: T.PLAYABLE])
    found = E._decompose(counts, len(prepared.wild_tiles), sets, True, options)
    return [(prepared, E._groups(decomposition), prepared.wild_tiles) for decomposition in found]


def _luoshan_options(hand: Any, naturals: list[int]) -> E.StandIns:
    from taihu.scorer.rulesets import luoshan

    return luoshan.search.stand_ins(hand, naturals)


def _lingxi_options(hand: Any, naturals: list[int]) -> E.StandIns:
    from taihu.scorer.rulesets import lingxi

    return lingxi.search.stand_ins(hand)


RULESETS_OPTIONS = {"luoshan": _luoshan_options, "lingxi": _lingxi_options}
EXAMPLES = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
HANDS = st.one_of(
    wild_hands("luoshan", 4, ALL_KINDS, 1, 4, 3).map(lambda hand: ("luoshan", hand)),
    wild_hands("lingxi", 5, LINGXI_KINDS, 2, 3, 6).map(lambda hand: ("lingxi", hand)),
    wild_hands("lingxi", 5, HONOR_HEAVY, 2, 3, 6).map(lambda hand: ("lingxi", hand)),
)


@EXAMPLES
@given(HANDS)
def test_place_wildcards_as_the_plain_placement(case: tuple[str, str]) -> None:
    rules, hand = case
    for _, groups, wild_tiles in searched(rules, hand):
        assert E.place_wildcards(groups, wild_tiles) == plain_place_wildcards(groups, wild_tiles), hand


@EXAMPLES
@given(HANDS)
def test_reading_facts_as_counted_plainly(case: tuple[str, str]) -> None:
    rules, hand = case
    for prepared, groups, wild_tiles in searched(rules, hand):
        reading = prepared.melds + E.place_wildcards(groups, wild_tiles)
        facts = ReadingFacts(reading)
        suits, honors = plain_suits_and_honors(reading)
        assert facts.honors == honors, hand
        assert facts.suit == ("mps"[min(suits)] if len(suits) == 1 else ""), hand
        assert facts.one_suit == ("" if honors else facts.suit), hand
        assert facts.chows == sum(g.shape == CHOW for g in reading), hand


@EXAMPLES
@given(HANDS)
def test_win_placements_of_a_natural_tile_as_found_plainly(case: tuple[str, str]) -> None:
    rules, hand = case
    for prepared, groups, wild_tiles in searched(rules, hand):
        win = prepared.parsed.win
        if win in prepared.wild_tiles:
            continue
        reading = prepared.melds + E.place_wildcards(groups, wild_tiles)
        places = [at for _, at, _ in E.win_placements(reading, win, False)]
        assert places == plain_win_places(reading, win), hand
