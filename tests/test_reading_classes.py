"""Reading classes against the full search, for every rule set with wildcards (docs/architecture.md).

A rule set may give the search a `classify`: readings whose groups have the
same classes are searched once. That is only right when a class decides the
score, so the classed search must give what the search without classes
gives. It does, to the letter: the search keeps the first reading of each
class in the order the full search finds them, the scoring loop keeps the
first best reading, and readings of one class score alike, so the first best
reading of the full search is the first of its class and is kept. The tests
therefore ask for the whole result to be the same — total, subtotal, items
with their values and details, legal, arrangement and notes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from abuse_cases import costly_hands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_wildcard_brute_force import ALL_KINDS, example_hands, wild_hands

from taihu.scorer import HandError, parse, score_hand
from taihu.scorer import engine as E
from taihu.scorer import tiles as T
from taihu.scorer.engine import ReadingFacts
from taihu.scorer.rulesets import jinhua, lingxi, luoshan
from taihu.scorer.rulesets.base import RuleSet

_classed_decompose = E._decompose
_classed_kinds_readings = E.kinds_readings


def _unclassed_decompose(
    counts: tuple[int, ...], jokers: int, sets: int, pair: bool, options: E.StandIns
) -> tuple[E.Decomposition, ...]:
    return _classed_decompose(counts, jokers, sets, pair, options._replace(classify=None))


def _unclassed_kinds_readings(kinds: bytes, sets: int, pair: bool, classify: Any = None) -> Any:
    return _classed_kinds_readings(kinds, sets, pair, None)


def _every_wild_win_reading(hand: luoshan.LuoshanHand, sets: int) -> list[ReadingFacts]:
    """Luoshan's readings of a winning wildcard with every placement of it kept, none skipped as scoring alike."""
    naturals = E.to_counts(hand.natural_kinds)
    options = luoshan.search.stand_ins(hand, naturals)
    found = []
    for groups in E.standard_readings(naturals, hand.wild_tiles, sets, options):
        for placed, at, stands_for in E.win_placements(hand.melds + groups, hand.win, True):
            found.append(ReadingFacts(placed, at, stands_for))
    return found


@contextmanager
def full_search() -> Iterator[None]:
    """The search as if no rule set classed its readings: every decomposition is scored."""
    with (
        mock.patch.object(E, "_decompose", _unclassed_decompose),
        mock.patch.object(E, "kinds_readings", _unclassed_kinds_readings),
        mock.patch.object(luoshan.search, "_wild_win_readings", _every_wild_win_reading),
    ):
        yield


def outcome(hand: str, rules: str) -> dict[str, Any] | str:
    try:
        return score_hand(hand, rules=rules).to_dict()
    except HandError as err:
        return f"HandError: {err}"


def assert_same_as_full_search(hand: str, rules: str) -> None:
    classed = outcome(hand, rules)
    with full_search():
        full = outcome(hand, rules)
    assert classed == full, hand


EXAMPLES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])

# 四风齐 within reach and just out of it, the seat wind or 中/发 from wildcards, two wild sets (财神汇 once)
LINGXI_HANDS = (
    "E E E S S S W W W 5m 5m 5m N 1p 2p 3p +N wild:5m,C seat:S",
    "E E E S S S W W 5m 5m 5m 1p 2p 3p 7s 8s +9s wild:5m,C seat:W",
    "E E S S W W 5m 5m 5m C C C 1p 2p 3p 7s +7s wild:5m,C seat:N",
    "1m 2m 3m 4p 5p 6p 7s 8s 9s 5m 5m 5m E E E C +C wild:5m,E seat:S",
    "1m 1m 1m 2m 3m 4m 5m 5m 5m E E E 9m 9m C C +C wild:5m,E seat:E",
    "2p 3p 4p 6s 7s 8s 5m 5m 5m E E E 9p 9p 9p 1s +1s wild:5m,E seat:N self",
    "S S S W W W N N 1p 1p 1p 5m 5m 5m E E +E wild:5m,E seat:W",
)

LINGXI_KINDS = tuple(range(T.WHITE))  # a Lingxi wildcard stands for any tile but a flower or 白
HONOR_HEAVY = (*range(T.EAST, T.WHITE), 0, 1, 2, 12, 13, 14, 22, 23, 24)  # winds and dragons recur


@EXAMPLES
@given(st.one_of(wild_hands("lingxi", 5, LINGXI_KINDS, 2, 3, 6), wild_hands("lingxi", 5, HONOR_HEAVY, 2, 3, 6)))
@example_hands(LINGXI_HANDS)
def test_lingxi_classes_score_as_the_full_search(hand: str) -> None:
    assert_same_as_full_search(hand, "lingxi")


@EXAMPLES
@given(wild_hands("putian", 5, tuple(range(27)), 1, 3, 3))
def test_putian_classes_score_as_the_full_search(hand: str) -> None:
    assert_same_as_full_search(hand, "putian")


@EXAMPLES
@given(wild_hands("jinhua", 4, LINGXI_KINDS, 1, 3, 3))
def test_jinhua_classes_score_as_the_full_search(hand: str) -> None:
    assert_same_as_full_search(hand, "jinhua")


# a pung wait or a pair wait on wildcards, the seat wind's pair or pung, 平和 or an edge by the tile's place
LUOSHAN_HANDS = (
    "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 1p 2p +2p wild:C",
    "2p 3p 4p 5s 6s 7s C C 8s 9s E E E +9s self wild:C seat:E",
    "1m 2m 3m 4m 5m 6m 7m 8m 9m 9m C C 3p +4p wild:C seat:S",
    "2m 3m 4m 5m 6m 7m C C C 8m 8m S S +S wild:C seat:S self",
    "1p 2p 3p 7s 8s 9s 5m 5m C C C E E +E wild:C seat:W",
    "E E N N C 1m 2m 3m 4p 5p 6p 7s 8s +9s wild:C seat:E",
)


@EXAMPLES
@given(wild_hands("luoshan", 4, ALL_KINDS, 1, 4, 3))
@example_hands(LUOSHAN_HANDS)
def test_luoshan_classes_score_as_the_full_search(hand: str) -> None:
    assert_same_as_full_search(hand, "luoshan")


# a winning wildcard: every place it can take is searched, and placements scoring alike are valued once
LUOSHAN_WILD_WINS = (
    "3p 4p 5p 5p 7p 7p 7p 7p 8p 8p 9s 9s 9s +9s wild:9s seat:S self",
    "1m 2m 3m 4p 5p 6p 7s 8s C C E E E +C wild:C seat:E",
    "2m 3m 4m 5m 6m 7m 8m 8m S S C C [PPP] +C wild:C seat:S",
    "1p 1p 2p 3p 5p 6p C C C 7s 8s 9s 9s +C wild:C seat:W self",
    # the wait decides: a place of one class but another wait scores otherwise
    "4s 6m 5s 3m 3s 8s 8s 5m W W 4s 5m W +W wild:W seat:N self",
    "7p 4p 9p N E N 6p 3p 2s 6p 2s E N +6p wild:6p seat:E",
    # the seat wind or a dragon decides: 对子, 大料/座风刻
    "W 4s 5m 5m W C 4s 5p W 5p 4s 5m C +5p wild:5p seat:S",
    "7p 8p 7m S 9p 8s 9m S 7s S 4p 9s 8m +4p wild:4p seat:E self",
)


def won_on_a_wildcard(line: str) -> str:
    """The same tiles with a held wildcard as the winning tile (and the winning tile held), where one is held."""
    tokens = line.split()
    win = next(t for t in tokens if t.startswith("+"))
    wild = next(t for t in tokens if t.startswith("wild:"))[len("wild:") :]
    if wild not in tokens:
        return line
    tokens[tokens.index(wild)] = win[1:]
    tokens[tokens.index(win)] = "+" + wild
    return " ".join(tokens)


@EXAMPLES
@given(wild_hands("luoshan", 4, ALL_KINDS, 1, 4, 4).map(won_on_a_wildcard))
@example_hands(LUOSHAN_WILD_WINS)
def test_luoshan_winning_wildcard_scores_as_every_placement(hand: str) -> None:
    assert_same_as_full_search(hand, "luoshan")


@pytest.mark.parametrize(("rules", "hand"), costly_hands(each=2))
def test_costly_hands_score_as_the_full_search(rules: str, hand: str) -> None:
    """The costly hands of the abuse suite (many wildcards and one suit's tiles): the classed search and the
    skipped placements of a winning wildcard give what the full search gives."""
    assert_same_as_full_search(hand, rules)


def test_luoshan_winning_wildcard_values_fewer_readings() -> None:
    """The abuse suite's costliest hand: its winning wildcard's placements that score alike are valued once,
    so fewer readings are valued than the full search's (else the skipping does nothing)."""
    hand = luoshan.prepare(parse(LUOSHAN_WILD_WINS[0]), {})
    kept = len(luoshan.readings(hand))
    with full_search():
        full = len(luoshan.readings(hand))
    assert kept * 10 < full


def one_reading(rules: RuleSet, reading: Any) -> RuleSet:
    """The rule set scoring just the reading it is given: one reading's value, by its own items."""
    only = type(rules)()
    only.readings = lambda hand: [reading]  # type: ignore[method-assign]
    return only


def value(rules: RuleSet, reading: Any, line: str) -> tuple[Any, ...]:
    """What must agree within a class: legal, total, subtotal and each item's key and value."""
    result = one_reading(rules, reading).score(parse(line))
    return result.legal, result.total, result.subtotal, tuple(sorted((i.key, i.value) for i in result.items))


# per rule set with classes: the rule set, its stand-ins for a hand, and a reading's groups the search found
# (None: a reading of another shape, not classed)
CLASSED: dict[str, tuple[RuleSet, Callable[[Any], E.StandIns], Callable[[Any, Any], Any]]] = {
    "lingxi": (lingxi.LINGXI, lingxi.search.stand_ins, lambda hand, reading: reading[len(hand.melds) :]),
    "jinhua": (
        jinhua.JINHUA,
        jinhua.search.stand_ins,
        lambda hand, shape: shape.groups[len(hand.melds) :] if shape.name == jinhua.hand.STANDARD else None,
    ),
}


def assert_one_class_scores_alike(hand: str, rules: str) -> None:
    """Value-exact whatever order the search finds readings in: every reading of the full search, grouped by
    its class, scores as the others of its class."""
    ruleset, options_of, searched = CLASSED[rules]
    try:
        prepared = ruleset.prepare(parse(hand), ruleset.resolve_options(None))
    except HandError:
        return
    if not prepared.winner:
        return
    classify = options_of(prepared).classify
    assert classify is not None
    by_class: dict[tuple[Any, ...], set[tuple[Any, ...]]] = {}
    with full_search():
        for reading in ruleset.readings(prepared):
            groups = searched(prepared, reading)
            if groups is not None:
                signature = tuple(sorted(classify(g) for g in groups))
                by_class.setdefault(signature, set()).add(value(ruleset, reading, hand))
    assert all(len(values) == 1 for values in by_class.values()), hand


@pytest.mark.slow  # hands of five wildcards, each scored reading by reading
@EXAMPLES
@given(st.one_of(wild_hands("lingxi", 5, LINGXI_KINDS, 2, 3, 6), wild_hands("lingxi", 5, HONOR_HEAVY, 2, 3, 6)))
@example_hands(LINGXI_HANDS)
def test_lingxi_readings_of_one_class_score_alike(hand: str) -> None:
    assert_one_class_scores_alike(hand, "lingxi")


@EXAMPLES
@given(wild_hands("jinhua", 4, LINGXI_KINDS, 1, 3, 3))
def test_jinhua_readings_of_one_class_score_alike(hand: str) -> None:
    assert_one_class_scores_alike(hand, "jinhua")


def test_lingxi_coarse_classes_cut_the_readings() -> None:
    """Six wildcards and 四风齐 out of reach: the honors an all-wildcard group may stand for are one class,
    so the classed search finds fewer readings than the full one (else the classes do nothing)."""
    line = "1m 2m 3m 4p 5p 6p 7s 8s 9s 1p 1p 5m 5m 5m E E +E wild:5m,E seat:S self"
    hand = lingxi.prepare(parse(line), lingxi.LINGXI.resolve_options(None))
    classed = len(list(lingxi.readings(hand)))
    with full_search():
        full = len(list(lingxi.readings(hand)))
    assert classed < full


def luoshan_placement_values(hand: str) -> dict[tuple[Any, ...], set[tuple[Any, ...]]]:
    """Each grouping of the full search by its class signature, with the values of the winning tile's places in it.

    A Luoshan reading is a grouping with the winning tile placed (its wait scores), so what must agree within a
    class is the values of all the places of the tile, taken together.
    """
    parsed = parse(hand)
    prepared = luoshan.prepare(parsed, {})
    if not prepared.winner or not prepared.wild_tiles:
        return {}
    naturals = E.to_counts(prepared.natural_kinds)
    options = luoshan.search.stand_ins(prepared, naturals)
    if options.classify is None:
        return {}
    by_class: dict[tuple[Any, ...], set[tuple[Any, ...]]] = {}
    sets = luoshan.SETS - len(prepared.melds)
    win_is_wild = prepared.win == prepared.wild_kind
    with full_search():
        for groups in E.standard_readings(naturals, prepared.wild_tiles, sets, options):
            full = prepared.melds + groups
            places = tuple(
                sorted(
                    value(luoshan.LUOSHAN, ReadingFacts(placed, at, kind), hand)
                    for placed, at, kind in E.win_placements(full, prepared.win, win_is_wild)
                )
            )
            signature = tuple(sorted(options.classify(g) for g in groups))
            by_class.setdefault(signature, set()).add(places)
    return by_class


@EXAMPLES
@given(wild_hands("luoshan", 4, ALL_KINDS, 1, 4, 3))
@example_hands(LUOSHAN_HANDS)
def test_luoshan_readings_of_one_class_score_alike(hand: str) -> None:
    assert all(len(values) == 1 for values in luoshan_placement_values(hand).values()), hand


def test_luoshan_classes_cut_the_readings() -> None:
    """Three wildcards and a natural winning tile: groupings that differ only in which wildcard stands where, or in
    which simple tiles of a suit a wildcard group holds, are one class, so the classed search finds fewer."""
    line = "1m 2m 3m 4m 5m 6m 7m 8m C C C 9p 9p +9m wild:C seat:S"
    hand = luoshan.prepare(parse(line), {})
    classed = len(luoshan.readings(hand))
    with full_search():
        full = len(luoshan.readings(hand))
    assert classed < full
