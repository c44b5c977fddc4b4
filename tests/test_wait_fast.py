"""The 独听 search's fast paths against plain versions of the same thing.

- `engine.standard_waits_with` finds the waits of sets and a pair of a
  winning hand's tiles before the win in the winning tile's suit where it
  can: compared with each of the 34 kinds added and read (`kinds_readings`)
  and with `standard_waits`, which reads every suit whole or not off
  `kinds_readings`' memo;
- `engine._stretch_completions` tries only the tiles that can mend a run:
  compared with each tile added and the run read anew;
- `shapes.special_candidates` looks at a special shape only where the kinds
  of the hand allow it: every kind that completes a special shape (every
  kind tried, `special_win`) must be among its candidates;
- `McrHand.single_wait` and `single_wait_of_sets` (the hand read as sets and
  a pair): compared with every kind tried, every shape.

Each runs with the stretch table not yet built (suits searched) and built,
and the memos empty and then full.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcr_hands import random_hand

from taihu.scorer import engine as E
from taihu.scorer import memo, parse
from taihu.scorer import tiles as T
from taihu.scorer.rulesets.mcr import RULE_SET as MCR
from taihu.scorer.rulesets.mcr import shapes as S
from taihu.scorer.rulesets.mcr.facts import KNITTED, STANDARD
from taihu.scorer.rulesets.mcr.hand import McrHand
from taihu.scorer.rulesets.mcr.items import _two_sided

# the fixture only sets how the suits are read, the same for every example
EXAMPLES = settings(
    max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
STRETCHES: dict[bytes, tuple[E.SuitWay, ...]] = {}  # the table, made once and copied in for each example


# the searched state (a process's first stretches) is checked by `make test`; the fast loop reads the tables
@pytest.fixture(params=[pytest.param("searched", marks=pytest.mark.slow), "tables"])
def stretches(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The suits searched (the stretch table not built, as in a process's first 300 stretches) or read off the
    tables; the memos emptied after the test, so that no other test meets this state."""
    if request.param == "searched":
        monkeypatch.setattr(E, "TABLE_AFTER", 10**9)
    yield request.param
    memo.clear_caches()


def fresh(state: str) -> None:
    """Every memo and table emptied; the stretch table filled again where it is to be read."""
    memo.clear_caches()
    if state == "tables":
        if not STRETCHES:
            STRETCHES.update(E._every_stretch())
        E._STRETCHES.update(STRETCHES)


def plain_waits(kinds: bytes, sets: int) -> list[int]:
    """Each kind whose tile added to `kinds` leaves a reading of `sets` sets and a pair."""
    return [x for x in range(T.PLAYABLE) if E.kinds_readings(bytes(sorted((*kinds, x))), sets, True)]


def winning(sets: int) -> st.SearchStrategy[list[int]]:
    """`sets` sets and a pair, within four of a kind, chows and pungs of one suit made likelier (they wait on
    more kinds)."""
    suit = st.sampled_from([0, 9, 18, 27])
    chow = st.tuples(st.integers(0, 2), st.integers(0, 6)).map(lambda sr: [sr[0] * 9 + sr[1] + i for i in range(3)])
    near = st.integers(0, 8).map(lambda r: [r] * 3)  # a pung of the characters, beside their chows
    pung = st.tuples(suit, st.integers(0, 8)).map(lambda sr: [min(sr[0] + sr[1], T.PLAYABLE - 1)] * 3)
    pair = st.integers(0, T.PLAYABLE - 1).map(lambda k: [k, k])
    return (
        st.tuples(st.lists(st.one_of(chow, near, pung), min_size=sets, max_size=sets), pair)
        .map(lambda parts: [k for g in parts[0] for k in g] + parts[1])
        .filter(lambda tiles: all(tiles.count(k) <= 4 for k in tiles))
    )


# a winning shape of 1 to 4 sets and which of its tiles was the winning one
WON = st.integers(1, 4).flatmap(lambda sets: st.tuples(winning(sets), st.integers(0, 3 * sets + 1)))


@EXAMPLES
@given(WON)
def test_waits_with_the_winning_tile_as_every_kind_tried(stretches: str, won: tuple[list[int], int]) -> None:
    tiles, at = won
    kind = tiles[at]
    before = bytes(sorted(tiles[:at] + tiles[at + 1 :]))
    sets = len(before) // 3
    fresh(stretches)
    expected = plain_waits(before, sets)
    assert kind in expected
    fresh(stretches)
    assert E.standard_waits_with(before, sets, kind) == expected, tiles  # every run new to the memos
    assert E.standard_waits_with(before, sets, kind) == expected, tiles  # every run found in them
    fresh(stretches)
    assert E.standard_waits(before, sets) == expected, tiles
    assert E.standard_waits(before, sets) == expected, tiles


@pytest.mark.parametrize(
    ("tiles", "win"),
    [
        ("1112345678999m", "5m"),  # 九莲宝灯: every kind of the suit
        ("123m 456p 789s EEE 99s", "9s"),  # the pair in the winning tile's suit: that suit mends alone
        ("123m 456p 789s EEE 99s", "8s"),  # the pair in the winning tile's suit, a chow completed
        ("123m 456p 789s EEE 99p", "8s"),  # the pair in another suit, the winning suit broken without the tile
        ("123m 456p 789s EE 999p", "9p"),  # the winning suit reads whole without its tile: every suit asked
        ("11m 22m 33m 456p EEE SS", "S"),  # the honors
        ("11m 22m 33m 456p EEE SS", "E"),  # the honors whole without the tile, a pair in them
        ("1234m 567p 789s EEE", "1m"),  # 1234m: 1m and 4m
        ("2345m 567p 789s EEE", "5m"),
    ],
)
def test_waits_with_the_winning_tile_by_the_table(stretches: str, tiles: str, win: str) -> None:
    held = sorted(parse(tiles).tiles)
    kind = parse(win).tiles[0]
    held.remove(kind)
    before = bytes(held)
    fresh(stretches)
    assert E.standard_waits_with(before, len(before) // 3, kind) == plain_waits(before, len(before) // 3)


def plain_completions(relative: bytes) -> tuple[tuple[int, int], ...]:
    """Each tile up to two ranks beyond a run from rank 0, added to it, the run read anew."""
    found = []
    for offset in range(-2, relative[-1] + 3):
        ranks = [rank - offset for rank in relative] + [0] if offset < 0 else [*relative, offset]
        counts = bytes(sorted(ranks).count(rank) for rank in range(max(ranks) + 1))
        if E._suit_ways(counts):
            found.append((offset, 1 if len(ranks) % 3 == 2 else 0))
    return tuple(found)


# one suit's tiles, at most four of a rank; most one tile short of a winning suit
RUNS = st.one_of(
    winning(4)
    .map(lambda tiles: [k for k in tiles if k < 9])
    .filter(bool)
    .flatmap(lambda ranks: st.integers(0, len(ranks) - 1).map(lambda at: ranks[:at] + ranks[at + 1 :])),
    st.lists(st.integers(0, 8), min_size=1, max_size=16).map(
        lambda drawn: [rank for rank in sorted(set(drawn)) for _ in range(min(4, drawn.count(rank)))]
    ),
).filter(bool)


@EXAMPLES
@given(RUNS)
def test_stretch_completions_as_each_tile_added(stretches: str, ranks: list[int]) -> None:
    relative = bytes(sorted(rank - min(ranks) for rank in ranks))
    fresh(stretches)
    expected = plain_completions(relative)
    fresh(stretches)
    assert E._stretch_completions(relative) == expected, relative
    assert E._stretch_completions.__wrapped__(relative) == expected, relative


@pytest.mark.parametrize(
    "run",
    ["1m", "13m", "1245m", "11m 45m", "1112345678999m", "11122233344455m", "1112223334445556m", "12m 4m 6m", "159m"],
)
def test_stretch_completions_by_the_table(stretches: str, run: str) -> None:
    """Runs short of the table's fourteen tiles, and longer ones (a suit of five sets is searched)."""
    ranks = sorted(parse(run).tiles)
    relative = bytes(rank - ranks[0] for rank in ranks)
    fresh(stretches)
    assert E._stretch_completions(relative) == plain_completions(relative), run


def special_hand(rng: random.Random) -> tuple[list[int], int]:
    """A winning hand of a shape other than sets and a pair (14 concealed tiles, or 11 and a meld's count for
    the knitted straight), with a tile swapped now and then, and one of its tiles as the winning one."""
    shape = rng.choice(["seven", "knit", "knit-meld", "orphans", "honors-knitted"])
    knit = list(rng.choice(S.KNITS))
    if shape == "seven":
        kinds = [rng.randrange(T.PLAYABLE) for _ in range(7)]
        tiles = sorted(k for k in kinds for _ in range(2))
    elif shape.startswith("knit"):
        rest = rng.choice([[k, k + 1, k + 2] for k in range(0, 25) if k % 9 < 7] + [[k] * 3 for k in range(34)])
        pair = [rng.randrange(T.PLAYABLE)] * 2
        tiles = sorted(knit + (pair if shape == "knit-meld" else rest + pair))
    elif shape == "orphans":
        tiles = sorted([*S.ORPHANS, rng.choice(sorted(S.ORPHANS))])
    else:
        tiles = sorted(rng.sample(knit, 7) + list(S.HONORS))
    if rng.random() < 0.3:
        tiles[rng.randrange(len(tiles))] = rng.randrange(T.PLAYABLE)
        tiles.sort()
    return tiles, rng.randrange(len(tiles))


def bits(kinds: list[int] | bytes) -> int:
    return sum(1 << k for k in set(kinds))


def test_special_candidates_hold_every_kind_that_completes_a_shape() -> None:
    rng = random.Random(20261207)
    checked = completing = 0
    for _ in range(3000):
        tiles, at = special_hand(rng)
        melds = 0 if len(tiles) == 14 else 1
        if any(tiles.count(k) > 4 for k in tiles):
            continue
        before = bytes(tiles[:at] + tiles[at + 1 :])
        kinds = {k for k in range(T.PLAYABLE) if S.special_win(before, k, melds)}
        meld = [0] * 3 if melds else []  # the meld's kind, held in the hand's kinds too
        for held in (bits(before), bits([*tiles, *meld])):
            assert kinds <= set(S.special_candidates(before, melds, held)), (tiles, at)
        checked += 1
        completing += bool(kinds - {tiles[at]})
    assert checked > 2500 and completing > 300  # many hands wait on another kind too


def hand_lines() -> list[str]:
    """Random winning lines, and winning hands of the special shapes (the question is asked of a reading)."""
    rng = random.Random(20261208)
    # knitted straights whose winning tile's suit alone another tile would make whole: no wait of sets and a pair
    knitted = ["147m2225789p369s +8p", "369m147p2345578s +7s", "3456689m147p258s +8m", "369m1114577p258s +6p"]
    found = [f"{line} seat:S round:E" for line in knitted] + [random_hand(rng) for _ in range(300)]
    for _ in range(600):
        tiles, at = special_hand(rng)
        if len(tiles) == 14 and all(tiles.count(k) <= 4 for k in tiles):
            win = tiles.pop(at)
            line = f"{T.group_text(tiles)} +{T.name(win)} seat:S round:E"
            if any(MCR.readings(prepared(line))):
                found.append(line)
    return found


def prepared(line: str) -> McrHand:
    hand = MCR.prepare(parse(line), MCR.resolve_options(None))
    assert isinstance(hand, McrHand)
    return hand


def plain_single_wait(hand: McrHand) -> bool:
    """独听: every kind tried on the tiles before the win, as sets and a pair and as each other shape; a kind
    whose four tiles are all the winner's own is no wait."""
    before = bytearray(hand.concealed)
    before.remove(hand.win)
    melds = len(hand.melds)
    waits = set(plain_waits(bytes(before), 4 - melds))
    waits |= {kind for kind in range(T.PLAYABLE) if S.special_win(bytes(before), kind, melds)}
    return sorted(k for k in waits if hand.counts[k] - (k == hand.win) < 4) == [hand.win]


LINES = hand_lines()


@pytest.mark.parametrize("line", LINES)
def test_single_wait_as_every_kind_tried(stretches: str, line: str) -> None:
    fresh(stretches)
    hand = prepared(line)
    assert hand.single_wait == plain_single_wait(hand), line
    if any(facts.shape == STANDARD for facts in MCR.readings(hand)):
        assert hand.single_wait_of_sets == plain_single_wait(hand), line


def test_the_lines_wait_every_way() -> None:
    """The lines hold single waits and other waits, special shapes among them."""
    hands = [prepared(line) for line in LINES]
    alone = [plain_single_wait(hand) for hand in hands]
    assert 100 < sum(alone) < len(hands) - 100
    special = [hand for hand in hands if not any(f.shape == STANDARD for f in MCR.readings(hand))]
    assert sum(plain_single_wait(hand) for hand in special) > 20


def test_knitted_straights_and_suit_triples() -> None:
    """Eight kinds of any knitted straight hold all three of its kinds of two suits (the cheap test first)."""
    for knit in S.KNITS:
        for left_out in knit:
            held = bits([k for k in knit if k != left_out])
            assert (held & held >> 3 & held >> 6 & S.KNIT_TRIPLE_STARTS).bit_count() >= 2


@pytest.mark.parametrize(
    "run", ["EESSWW", "EESSWWNN", "EEE", "EEESS", "EES", "11m", "111m", "1122m", "112233m", "11122m", "12m", "1239m"]
)
def test_whole_pairs_as_the_run_read(stretches: str, run: str) -> None:
    """A suit's run reads whole as sets and at most one pair (three pairs of honors do not)."""
    kinds = bytes(sorted(parse(run).tiles))
    fresh(stretches)
    pair = len(kinds) % 3 == 2
    whole = len(kinds) % 3 != 1 and E.kinds_readings(kinds, len(kinds) // 3, pair)
    assert E._whole_pairs(kinds) == (int(pair) if whole else -1)


@pytest.mark.parametrize("line", LINES)
def test_the_wait_fans_as_every_kind_tried(line: str) -> None:
    """边张, 坎张 and 单钓将 on every reading (the knitted straight's too): the winning tile's place there, and the
    hand waited on it alone."""
    fresh("tables")
    hand = prepared(line)
    for facts in MCR.readings(hand):
        for place, key in (("bian", "bian_zhang"), ("kan", "kan_zhang"), ("dan", "dan_diao_jiang")):
            item = next(item for item in MCR.items if item.key == key)
            expected = (
                facts.wait_place == place
                and not (place == "bian" and _two_sided(hand, facts))
                and plain_single_wait(hand)
            )
            assert bool(item.find(hand, facts)) == expected, (line, facts.shape, place)


def test_the_lines_hold_wait_fans_of_the_knitted_straight() -> None:
    knitted = [
        facts
        for hand in map(prepared, LINES)
        for facts in MCR.readings(hand)
        if facts.shape == KNITTED and facts.wait_place and plain_single_wait(hand)
    ]
    assert len(knitted) > 10
