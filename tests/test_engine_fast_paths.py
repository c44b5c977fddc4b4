"""The engine's wildcard-free fast paths against plain versions of the same thing.

- `kinds_readings` cuts each suit's run off with `bytes.rstrip`, finds a
  run new to its memo by its stretch moved to rank 0 (`_RUN_WAYS`), keeps
  each way as its group codes in bytes moved to where the run lies and
  builds the groups when read, checks the tile count and pairs once per
  hand and makes the one reading of a hand whose suits read one way each as
  it goes: compared with counting each suit, reading its stretch off the
  table, building every combination and keeping those of the right size;
  and the memos it fills hold nothing the garbage collector must keep
  tracking (bytes and ints in flat tuples, untracked at the first
  collection that sees them);
- `ReadingFacts` reads the wait off tables made from `wait_of` and the
  suits' gate facts off a table by the suits present: compared with
  `wait_of` and the gate facts named from the groups one by one;
- `win_placements` of a natural winning tile, on wildcard-free readings too
  (`tests/test_fast_paths.py` compares it on readings with wildcards);
- `wildcard_free_facts` (Luoshan's readings of a hand without wildcards)
  puts each reading's facts together from its suits' memoised parts:
  compared field by field with `ReadingFacts` of each plain place of the
  winning tile in each plainly combined reading, melds in front;
- `standard_waits` (MCR's 独听) sends the added tile only to the suit that
  does not read whole, or to one holding a pair, and memoises what makes a
  suit's run whole: compared with adding each of the 34 kinds and asking
  `kinds_readings` for a reading; what makes a run whole
  (`_stretch_completions`) is read off the run's counts made once, each
  tile added looked up in the stretch table: compared with each tile added
  to the run and the run read anew (`_stretch_whole`).

Each is run on random tiles, winning-shaped or not (with wildcards too, for
`ReadingFacts`), with the memos empty and then full, and must give the same
readings in the same order (the first best reading is the one scored).
"""

from __future__ import annotations

import gc
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fast_paths import HANDS, plain_win_places, searched

from taihu.scorer import engine as E
from taihu.scorer import memo, parse
from taihu.scorer import tiles as T
from taihu.scorer.engine import CHOW, KONG, PAIR, PUNG, Group, ReadingFacts

EXAMPLES = settings(max_examples=150, deadline=None, database=None)


def plain_suit_readings(run: list[int]) -> list[tuple[int, tuple[Group, ...]]]:
    """One suit's (or the honors') readings: (pairs used, groups), each group made anew."""
    first = run[0]
    if first >= T.EAST:
        groups = []
        for kind in sorted(set(run)):
            count = run.count(kind)
            if count not in (2, 3):
                return []
            groups.append(Group(PAIR if count == 2 else PUNG, kind))
        return [(sum(g.shape == PAIR for g in groups), tuple(groups))]
    stretch = bytes(run.count(kind) for kind in range(first, run[-1] + 1))
    shapes = (PAIR, PUNG, CHOW)  # the stretch table's codes: shape index × 34 + rank from the first tile
    return [
        (pairs, tuple(Group(shapes[code // T.PLAYABLE], first + code % T.PLAYABLE) for code in codes))
        for pairs, codes in E._suit_ways(stretch)
    ]


def plain_kinds_readings(kinds: bytes, sets: int, pair: bool) -> tuple[tuple[Group, ...], ...]:
    """Every combination of the suits' readings with `pair` pairs and `sets` sets, in suit order."""
    parts = []
    for suit in range(4):
        run = [kind for kind in kinds if min(kind // 9, 3) == suit]
        if run:
            parts.append(plain_suit_readings(run))
    found = []
    for combo in product(*parts):
        pairs = sum(used for used, _ in combo)
        groups = tuple(g for _, part in combo for g in part)
        if pairs == pair and len(groups) == sets + pair:
            found.append(groups)
    return tuple(found)


def winning(sets: int) -> st.SearchStrategy[list[int]]:
    """`sets` sets and a pair, within four of a kind."""
    chow = st.tuples(st.integers(0, 2), st.integers(0, 6)).map(lambda sr: [sr[0] * 9 + sr[1] + i for i in range(3)])
    pung = st.integers(0, T.PLAYABLE - 1).map(lambda k: [k] * 3)
    pair = st.integers(0, T.PLAYABLE - 1).map(lambda k: [k, k])
    return (
        st.tuples(st.lists(st.one_of(chow, pung), min_size=sets, max_size=sets), pair)
        .map(lambda parts: [k for g in parts[0] for k in g] + parts[1])
        .filter(lambda tiles: all(tiles.count(k) <= 4 for k in tiles))
    )


# winning shapes of 4 or 5 sets, the same with a tile swapped (mostly no reading), and any tiles at all
TILES = st.one_of(
    winning(4),
    winning(5),
    st.tuples(winning(4), st.integers(0, 13), st.integers(0, T.PLAYABLE - 1)).map(
        lambda c: [*c[0][: c[1]], c[2], *c[0][c[1] + 1 :]]
    ),
    st.lists(st.integers(0, T.PLAYABLE - 1), min_size=0, max_size=14),
)


@pytest.mark.slow  # the plain combination of every drawn hand is the cost
@EXAMPLES
@given(TILES, st.integers(0, 5), st.booleans())
def test_kinds_readings_as_combined_plainly(tiles: list[int], sets: int, pair: bool) -> None:
    kinds = bytes(sorted(tiles))
    expected = plain_kinds_readings(kinds, sets, pair)
    memo.clear_caches()
    assert E.kinds_readings(kinds, sets, pair) == expected, tiles  # every suit new to the memos
    assert E.kinds_readings(kinds, sets, pair) == expected, tiles  # every suit found in them


@EXAMPLES
@given(winning(4))
def test_kinds_readings_of_a_winning_hand_as_combined_plainly(tiles: list[int]) -> None:
    """The sets and pair the tiles were made of: every reading is of the right size, never none."""
    kinds = bytes(sorted(tiles))
    readings = E.kinds_readings(kinds, 4, True)
    assert readings and readings == plain_kinds_readings(kinds, 4, True), tiles


# (tiles, sets, pair): the count of tiles fits, the pairs do not (three suits' pairs as two sets; four
# honor pairs as two sets and a pair); a suit read in more than one way, alone and beside another suit
CASES = [
    ("11m 11p 11s", 2, False),
    ("EE SS WW NN", 2, True),
    ("11m 11p 11s EE", 3, False),
    ("111222333m 55p", 3, True),
    ("111222333m 456p 55s", 4, True),
    ("11122233344455m", 4, True),
    ("123m 111222333p 55s", 4, True),
]


@pytest.mark.parametrize(("tiles", "sets", "pair"), CASES)
def test_kinds_readings_by_the_table(tiles: str, sets: int, pair: bool) -> None:
    kinds = bytes(sorted(parse(tiles).tiles))
    memo.clear_caches()
    assert E.kinds_readings(kinds, sets, pair) == plain_kinds_readings(kinds, sets, pair)
    assert E.kinds_readings(kinds, sets, pair) == plain_kinds_readings(kinds, sets, pair)


def untrackable(value: object) -> bool:
    """What the garbage collector stops tracking the first time it looks: atoms, and plain tuples of them
    (a NamedTuple such as `Group`, a list, an `itemgetter` stay tracked for good)."""
    if type(value) is tuple:
        return all(untrackable(item) for item in value)
    return type(value) in (int, bytes, str, bool)


@pytest.mark.parametrize("memo_of", [E._SUIT_MEMO, E._RUN_WAYS], ids=["suit memo", "run memo"])
def test_the_suit_memos_hold_only_untrackable_values(memo_of: dict[bytes, object]) -> None:
    """Every hand new to the memos adds entries to them: were those tracked, each collection would walk
    them until they reached the oldest generation (the slowest MCR hand was such a collection)."""
    memo.clear_caches()
    for tiles, sets in [*[(t, s) for t, s, _ in CASES], ("123m 456p 789s EEE 55m", 4), ("EEE SSS WWW NN CCC", 4)]:
        kinds = bytes(sorted(parse(tiles).tiles))
        E.kinds_readings(kinds, sets, True)
        E.kinds_readings(kinds, sets, False)
        E.wildcard_free_facts(kinds, sets, kinds[0])
    assert len(memo_of) >= 5
    assert all(untrackable(value) for value in memo_of.values())


@pytest.mark.parametrize("memo_of", [E._SUIT_MEMO, E._RUN_WAYS], ids=["suit memo", "run memo"])
def test_a_new_suit_memo_entry_is_untracked_at_the_first_collection(memo_of: dict[bytes, object]) -> None:
    """A collection moves an object reached only through a young container behind it before it untracks what
    it can, so a new entry holding a new tuple would stay tracked into the older generation, whose collection
    walks every such entry (the slowest hand of `bench.py --mcr-only`); a flat entry is untracked at once."""
    memo.clear_caches()
    gc.collect()
    gc.disable()  # the one collection below is the first to see the new entries
    try:
        for tiles, sets in [*[(t, s) for t, s, _ in CASES], ("123m 456p 789s EEE 55m", 4), ("EEE SSS WWW NN CCC", 4)]:
            kinds = bytes(sorted(parse(tiles).tiles))
            E.kinds_readings(kinds, sets, True)
            E.wildcard_free_facts(kinds, sets, kinds[0])
        gc.collect(0)
    finally:
        gc.enable()
    assert len(memo_of) >= 5
    assert not [value for value in memo_of.values() if gc.is_tracked(value)]


def plain_present(groups: tuple[Group, ...], wait: str) -> frozenset[str]:
    """The gate facts of a reading (`GATE_FACTS`), named from its groups one by one."""
    shapes = [g.shape for g in groups]
    suits = {g.kind // 9 for g in groups if 0 <= g.kind < 27}
    honors = any(27 <= g.kind < 34 for g in groups)
    names = {
        "pungs": PUNG in shapes,
        "kongs": KONG in shapes,
        "honors": honors,
        "no_chows": CHOW not in shapes,
        "four_chows": shapes.count(CHOW) == 4,
        "one_suit": len(suits) == 1 and not honors,
        "one_suit_honors": len(suits) == 1 and honors,
        f"wait_{wait.replace('-', '_')}": bool(wait),
    }
    return frozenset(name for name, holds in names.items() if holds)


def assert_facts_as_read_plainly(groups: tuple[Group, ...], win: int, win_is_wild: bool) -> None:
    if not win_is_wild:
        assert [at for _, at, _ in E.win_placements(groups, win, False)] == plain_win_places(groups, win), groups
    for placed, at, stands_for in E.win_placements(groups, win, win_is_wild):
        facts = ReadingFacts(placed, at, stands_for)
        wait = E.wait_of(placed[at], stands_for)
        assert facts.wait == wait, (placed, at, stands_for)
        assert facts.present == plain_present(placed, wait), placed
        assert ReadingFacts(placed, at, stands_for, facts).present == facts.present, placed
        assert facts.pungs == [(i, g) for i, g in enumerate(placed) if g.shape == PUNG], placed
        assert facts.pairs == [g for g in placed if g.shape == PAIR], placed
    assert ReadingFacts(groups).present == plain_present(groups, ""), groups


@EXAMPLES
@given(st.one_of(winning(4), winning(5)), st.integers(0, 16))
def test_reading_facts_of_wildcard_free_readings_as_read_plainly(tiles: list[int], at: int) -> None:
    readings = E.kinds_readings(bytes(sorted(tiles)), (len(tiles) - 2) // 3, True)
    assert readings, tiles
    for groups in readings:
        assert_facts_as_read_plainly(groups, tiles[at % len(tiles)], False)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(HANDS)
def test_reading_facts_of_readings_with_wildcards_as_read_plainly(case: tuple[str, str]) -> None:
    rules, hand = case
    for prepared, groups, wild_tiles in searched(rules, hand):
        reading = prepared.melds + E.place_wildcards(groups, wild_tiles)
        win = prepared.parsed.win
        assert_facts_as_read_plainly(reading, win, win in wild_tiles)


def plain_facts(kinds: bytes, sets: int, win: int, melds: tuple[Group, ...]) -> list[dict[str, object]]:
    """Every field of `ReadingFacts` built the plain way for each place of the winning tile in each reading."""
    return [
        fields(ReadingFacts(melds + groups, at, win))
        for groups in plain_kinds_readings(kinds, sets, True)
        for at in plain_win_places(melds + groups, win)
    ]


def fields(facts: ReadingFacts) -> dict[str, object]:
    return {name: getattr(facts, name) for name in ReadingFacts.__slots__}


def assert_facts_put_together_as_built_plainly(kinds: bytes, sets: int, win: int, melds: tuple[Group, ...]) -> None:
    expected = plain_facts(kinds, sets, win, melds)
    memo.clear_caches()
    assert [fields(f) for f in E.wildcard_free_facts(kinds, sets, win, melds)] == expected  # every suit new
    assert [fields(f) for f in E.wildcard_free_facts(kinds, sets, win, melds)] == expected  # every suit memoised


# melds on the table: exposed pungs, chows and kongs, concealed kongs, and 花碰 (a wildcard completing an exposed
# pung of honors, Luoshan)
MELD = st.one_of(
    st.integers(0, T.PLAYABLE - 1).map(lambda k: Group(PUNG, k, exposed=True)),
    st.tuples(st.integers(0, 2), st.integers(0, 6)).map(lambda sr: Group(CHOW, sr[0] * 9 + sr[1], exposed=True)),
    st.integers(0, T.PLAYABLE - 1).map(lambda k: Group(KONG, k, exposed=True)),
    st.integers(0, T.PLAYABLE - 1).map(lambda k: Group(KONG, k, concealed_kong=True)),
    st.integers(T.EAST, T.PLAYABLE - 1).map(lambda k: Group(PUNG, k, (k,), exposed=True, wilds=((T.EAST, k),))),
)


@st.composite
def wildcard_free_hands(draw: st.DrawFn) -> tuple[bytes, int, int, tuple[Group, ...]]:
    """(concealed kinds, sets, winning tile, melds): a winning shape or any tiles, the winning tile mostly held."""
    melds = tuple(draw(st.lists(MELD, max_size=4)))
    sets = 4 - len(melds)
    tiles = draw(st.one_of(winning(sets), TILES.filter(lambda t: len(t) == 3 * sets + 2)))
    win = draw(st.one_of(st.sampled_from(tiles), st.integers(-1, T.PLAYABLE - 1))) if tiles else -1
    return bytes(sorted(tiles)), sets, win, melds


@pytest.mark.slow  # the plain construction of every drawn hand is the cost
@EXAMPLES
@given(wildcard_free_hands())
def test_wildcard_free_facts_as_built_plainly(hand: tuple[bytes, int, int, tuple[Group, ...]]) -> None:
    assert_facts_put_together_as_built_plainly(*hand)


# (concealed tiles, winning tile, melds): a suit read more than one way, alone and beside others (read the
# plain way); the winning tile in a pair and two chows, in two chows, in a pung and a chow; the edge waits of
# 123 and 789 (twice) and the closed wait; a pung after other suits' groups; honors only; a pair in every
# suit (no reading); tiles that read no way; the winning tile not held, or no winner; kongs, a chow and 花碰
# on the table; four chows; one suit, and one suit with honors
FACTS_CASES = [
    ("111222333m 456p 55s", "1m", ()),
    ("123m 111222333p 55s", "2p", ()),
    ("11122233344455m", "3m", ()),
    ("112233m 456p 789s 11m", "1m", ()),
    ("123m 234m 456p 789s EE", "3m", ()),
    ("111m 123m 456p 789s EE", "1m", ()),
    ("123m 456p 789s 789s CC", "3m", ()),
    ("123m 456p 789s 789s CC", "7s", ()),
    ("123m 456p 789s 789s CC", "5p", ()),
    ("EEE SSS WWW NNN CC", "N", ()),
    ("11199m 11p 11s EEE NN", "1p", ()),
    ("123m 456p 789s 135s CC", "8s", ()),
    ("123m 456p 789s 111s CC", "C", ()),
    ("123m 456p 789s 111s CC", "5m", ()),
    ("123m 456p 789s 111s CC", "-", ()),
    ("123m 456p 99s", "9s", (Group(KONG, T.EAST, exposed=True), Group(PUNG, T.RED, (T.RED,), exposed=True))),
    (
        "456m 77m",
        "6m",
        (Group(KONG, 0, concealed_kong=True), Group(CHOW, 3, exposed=True), Group(PUNG, 27, exposed=True)),
    ),
    ("123m 234m 345m 456m 99m", "4m", ()),
    ("123m 234m 456m 99m", "9m", (Group(PUNG, T.EAST, exposed=True),)),
]


@pytest.mark.parametrize(("tiles", "win", "melds"), FACTS_CASES)
def test_wildcard_free_facts_by_the_table(tiles: str, win: str, melds: tuple[Group, ...]) -> None:
    kinds = bytes(sorted(parse(tiles).tiles))
    winning_tile = -1 if win == "-" else parse(win).tiles[0]
    assert_facts_put_together_as_built_plainly(kinds, 4 - len(melds), winning_tile, melds)


def plain_standard_waits(kinds: bytes, sets: int) -> list[int]:
    """Each kind whose tile added to `kinds` leaves a reading of `sets` sets and a pair."""
    return [x for x in range(T.PLAYABLE) if E.kinds_readings(bytes(sorted((*kinds, x))), sets, True)]


# one tile short of a winning shape of 1 to 4 sets (a tile taken out, or one swapped too), and any tiles
WAITING = st.one_of(
    st.tuples(st.integers(1, 4).flatmap(winning), st.integers(0, 13)).map(lambda c: c[0][: c[1]] + c[0][c[1] + 1 :]),
    st.tuples(winning(4), st.integers(0, 12), st.integers(0, T.PLAYABLE - 1)).map(
        lambda c: [*c[0][: c[1]], c[2], *c[0][c[1] + 2 :]]
    ),
    st.lists(st.integers(0, T.PLAYABLE - 1), min_size=0, max_size=13),
)


@EXAMPLES
@given(WAITING)
def test_standard_waits_as_found_plainly(tiles: list[int]) -> None:
    kinds = bytes(sorted(tiles))
    sets = len(kinds) // 3
    expected = plain_standard_waits(kinds, sets) if len(kinds) % 3 == 1 else []
    memo.clear_caches()
    assert E.standard_waits(kinds, sets) == expected, tiles  # every run new to the memos
    assert E.standard_waits(kinds, sets) == expected, tiles  # every run found in them


def plain_stretch_completions(relative: bytes) -> tuple[tuple[int, int], ...]:
    """Each tile up to two ranks beyond a run from rank 0, added to it, the run read anew (`_stretch_whole`)."""
    found = []
    for offset in range(-2, relative[-1] + 3):
        more = bytes([0, *(rank - offset for rank in relative)]) if offset < 0 else bytes(sorted((*relative, offset)))
        pair = E._stretch_whole(more)
        if pair >= 0:
            found.append((offset, pair))
    return tuple(found)


# one suit's tiles, at most four of a rank (a fifth drawn is left out: no example is thrown away)
RUNS = st.lists(st.integers(0, 8), min_size=1, max_size=16).map(
    lambda drawn: [rank for rank in sorted(set(drawn)) for _ in range(min(4, drawn.count(rank)))]
)


@EXAMPLES
@given(RUNS)
def test_stretch_completions_as_read_anew(ranks: list[int]) -> None:
    relative = bytes(sorted(rank - min(ranks) for rank in ranks))
    with_the_table()
    assert E._stretch_completions(relative) == plain_stretch_completions(relative), relative


def with_the_table() -> None:
    """The stretch table built, as a process has it after its first 300 stretches, and the memos that read it
    emptied. Before the table a stretch is searched, which reads five of a kind as a pung and a pair where
    the table has no such stretch: no hand holds five, but a memo filled before the table would keep it."""
    if not E._STRETCHES:
        E._STRETCHES.update(E._every_stretch())
    E._stretch_whole.cache_clear()
    E._stretch_completions.cache_clear()


@pytest.mark.parametrize(
    ("run", "found"),
    [
        ("1m", ((0, 1),)),  # the pair
        ("23m", ((-1, 0), (2, 0))),  # either side
        ("13m", ((1, 0),)),  # the middle
        ("1112m", ((-1, 1), (1, 1), (2, 1))),  # 11 + 012, 111 + 22, 11 + 123: not a fourth 1
        ("12m", ((-1, 0), (2, 0))),  # a chow either side
        ("12m 3m", ()),  # three tiles and one more: one over a multiple of three
        ("1234567m", ((0, 1), (3, 1), (6, 1))),
    ],
)
def test_stretch_completions_by_the_table(run: str, found: tuple[tuple[int, int], ...]) -> None:
    ranks = sorted(parse(run).tiles)
    relative = bytes(rank - ranks[0] for rank in ranks)
    with_the_table()
    assert E._stretch_completions(relative) == plain_stretch_completions(relative) == found


@pytest.mark.parametrize(
    "tiles",
    ["1112345678999m", "55m 77p", "1m", "EE SS", "2345m FFF", "11m 11p 11s E", "123m 456p 789s 1199s", "1234m"],
)
def test_standard_waits_by_the_table(tiles: str) -> None:
    kinds = bytes(sorted(parse(tiles).tiles))
    sets = len(kinds) // 3
    assert E.standard_waits(kinds, sets) == plain_standard_waits(kinds, sets)
