"""The wildcard-free search against a plain reference: every grouping, each once."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taihu.scorer import engine
from taihu.scorer import tiles as T
from taihu.scorer.engine import CHOW, PAIR, PUNG, Group, StandIns, set_readings, standard_readings, to_counts

NO_WILDCARDS = StandIns((), ())


def reference(counts: list[int], sets: int, pair: bool) -> set[tuple[tuple[str, int], ...]]:
    """All groupings as sorted (shape, kind) tuples, by trying every group through the lowest tile."""
    first = next((k for k in range(T.PLAYABLE) if counts[k]), None)
    if first is None:
        return {()} if sets == 0 and not pair else set()
    found: set[tuple[tuple[str, int], ...]] = set()
    options = []
    if pair:
        options.append((PAIR, (first, first), sets, False))
    if sets:
        options.append((PUNG, (first, first, first), sets - 1, pair))
        if first < 27 and first % 9 <= 6:
            options.append((CHOW, (first, first + 1, first + 2), sets - 1, pair))
    for shape, places, rest_sets, rest_pair in options:
        rest = list(counts)
        for p in places:
            rest[p] -= 1
        if min(rest) < 0:
            continue
        for tail in reference(rest, rest_sets, rest_pair):
            found.add(tuple(sorted(((shape, first), *tail))))
    return found


def hands(groups: int, with_pair: bool = True) -> st.SearchStrategy[list[int]]:
    """Random winning-shaped tiles (`groups` sets and a pair), at most four of a kind."""
    chow = st.tuples(st.integers(0, 2), st.integers(0, 6)).map(lambda sr: [sr[0] * 9 + sr[1] + i for i in range(3)])
    pung = st.integers(0, T.PLAYABLE - 1).map(lambda k: [k] * 3)
    pair = st.integers(0, T.PLAYABLE - 1).map(lambda k: [k] * (2 if with_pair else 0))
    return (
        st.tuples(st.lists(st.one_of(chow, pung), min_size=groups, max_size=groups), pair)
        .map(lambda parts: sorted([k for g in parts[0] for k in g] + parts[1]))
        .filter(lambda tiles: all(tiles.count(k) <= 4 for k in tiles))
    )


def as_keys(readings: Iterable[tuple[Group, ...]]) -> list[tuple[tuple[str, int], ...]]:
    return [tuple(sorted((g.shape, g.kind) for g in reading)) for reading in readings]


@settings(max_examples=300, deadline=None)
@given(hands(4))
def test_standard_readings_are_every_grouping_once(tiles: list[int]) -> None:
    counts = to_counts(tiles)
    found = as_keys(standard_readings(counts, (), 4, NO_WILDCARDS))
    assert len(found) == len(set(found))  # no grouping twice
    assert set(found) == reference(counts, 4, True)


@settings(max_examples=150, deadline=None)
@given(hands(5))
def test_seventeen_tile_readings_are_every_grouping_once(tiles: list[int]) -> None:
    counts = to_counts(tiles)
    found = as_keys(standard_readings(counts, (), 5, NO_WILDCARDS))
    assert len(found) == len(set(found))
    assert set(found) == reference(counts, 5, True)


@settings(max_examples=150, deadline=None)
@given(hands(4, with_pair=False))
def test_set_readings_without_a_pair(tiles: list[int]) -> None:
    counts = to_counts(tiles)
    found = as_keys(set_readings(counts, (), 4, NO_WILDCARDS))
    assert len(found) == len(set(found))
    assert set(found) == reference(counts, 4, False)


def test_a_pair_and_a_chow_through_one_tile_are_one_grouping() -> None:
    """111m23m: pair 11m + chow 123m, found once (not again as chow then pair)."""
    counts = to_counts([0, 0, 0, 1, 2])
    assert as_keys(standard_readings(counts, (), 1, NO_WILDCARDS)) == [((CHOW, 0), (PAIR, 0))]


def test_shared_stretch_lands_in_its_own_suit_and_rank() -> None:
    """234m and 567p share one memo entry; each reading still names its own tiles."""
    low = as_keys(standard_readings(to_counts([1, 2, 3, 27, 27]), (), 1, NO_WILDCARDS))
    high = as_keys(standard_readings(to_counts([13, 14, 15, 27, 27]), (), 1, NO_WILDCARDS))
    assert low == [((CHOW, 1), (PAIR, 27))]
    assert high == [((CHOW, 13), (PAIR, 27))]


def stretch_reference(stretch: bytes) -> set[tuple[tuple[str, int], ...]]:
    """A stretch's groupings (laid from 1m), by the plain reference: sets and at most one pair."""
    counts = [0] * T.KIND_COUNT
    counts[: len(stretch)] = stretch
    tiles = sum(stretch)
    return reference(counts, tiles // 3, tiles % 3 == 2) if tiles % 3 != 1 else set()


def stretch_keys(ways: Iterable[tuple[int, tuple[int, ...]]]) -> list[tuple[tuple[str, int], ...]]:
    return [tuple(sorted((engine._PLAIN[c].shape, engine._PLAIN[c].kind) for c in codes)) for _, codes in ways]


def test_the_stretch_table_holds_every_grouping_of_every_stretch_once() -> None:
    """All ~11,000 stretches of up to 14 tiles, against the reference; and in the order the search gives."""
    table = engine._every_stretch()
    assert len(table) > 10_000
    for stretch, ways in table.items():
        keys = stretch_keys(ways)
        assert len(keys) == len(set(keys)), stretch
        assert set(keys) == stretch_reference(stretch), stretch
        assert all(pairs == (sum(stretch) % 3 == 2) for pairs, _ in ways), stretch
        assert engine._searched_suit_ways(stretch) == ways, stretch


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=9).filter(lambda c: c[0] and c[-1]))
def test_a_stretch_not_in_the_table_has_no_reading_or_is_long(counts: list[int]) -> None:
    stretch = bytes(counts)
    keys = stretch_keys(engine._suit_ways(stretch))
    assert len(keys) == len(set(keys))
    assert set(keys) == stretch_reference(stretch)


def test_seventeen_tiles_in_one_suit_are_searched() -> None:
    """Past the table's 14 tiles (Lingxi holds 17): 111 222 333 444 555 66m, read by search."""
    tiles = [0] * 3 + [1] * 3 + [2] * 3 + [3] * 3 + [4] * 3 + [5] * 2
    counts = to_counts(tiles)
    assert bytes(counts[:6]) not in engine._every_stretch()
    found = as_keys(standard_readings(counts, (), 5, NO_WILDCARDS))
    assert len(found) == len(set(found)) > 1
    assert set(found) == reference(counts, 5, True)


def test_stretches_are_searched_until_the_table_pays_then_read_off_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """One-shot use (`taihu score`) searches its few stretches; past `TABLE_AFTER` the table is built.

    Either way a stretch gets the same ways in the same order.
    """
    table = engine._every_stretch()
    monkeypatch.setattr(engine, "_STRETCHES", {})
    monkeypatch.setattr(engine, "_searched_before_table", 0)
    monkeypatch.setattr(engine, "TABLE_AFTER", 40)
    engine._searched_suit_ways.cache_clear()
    sample = list(table)[::100]
    assert engine._suit_ways(sample[0]) == table[sample[0]]
    assert not engine._STRETCHES  # one stretch searched: no table
    for stretch in sample[1:]:
        assert engine._suit_ways(stretch) == table[stretch], stretch
    assert engine._STRETCHES == table
    assert engine._searched_before_table == engine.TABLE_AFTER + 1  # built once, then only read
