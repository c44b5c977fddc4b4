"""The fast paths of `waits` against the plain ones (every fast path is tested against a plain one).

- `engine.completing_kinds` (one pass over the suits for every candidate
  tile) against searching the hand with each tile added (`kinds_readings`);
- `engine.extra_tile_decompositions` (one search for the hand with each
  tile added) against the search of each of those hands by itself: the same
  decompositions in the same order, so scoring picks the same reading;
- `RuleSet.best_reading_among` (each class of reading valued once for all
  the tiles of a waiting hand) against `best_reading` of each hand alone;
- `waits` against `plain_waits` on ready Lingxi and Putian hands holding
  wildcards, where the sweep, its pruning, the values shared by class and
  the wildcard-face test do the work.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taihu.scorer import HandError, parse
from taihu.scorer import engine as E
from taihu.scorer import tiles as T
from taihu.scorer.rulesets import lingxi
from taihu.scorer.waiting import Waits, plain_waits, waits

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def winning_kinds(rng: random.Random, sets: int, kinds: list[int] | range = range(T.PLAYABLE)) -> list[int]:
    """`sets` sets and a pair of `kinds`, within four of a kind."""
    while True:
        tiles: list[int] = []
        for _ in range(sets):
            kind = rng.choice(kinds)
            if T.is_suited(kind) and T.rank(kind) <= 7 and {kind + 1, kind + 2} <= set(kinds) and rng.random() < 0.6:
                tiles += [kind, kind + 1, kind + 2]
            else:
                tiles += [kind] * 3
        tiles += [rng.choice(kinds)] * 2
        if all(tiles.count(k) <= 4 for k in tiles):
            return tiles


def one_short(seed: int, sets: int) -> list[int]:
    """A winning hand less one tile, or (one time in four) with one tile swapped: ready or not."""
    rng = random.Random(seed)
    kinds = winning_kinds(rng, sets)
    kinds.pop(rng.randrange(len(kinds)))
    if rng.random() < 0.25:
        kinds[rng.randrange(len(kinds))] = rng.randrange(T.PLAYABLE)
    return sorted(kinds)


@SETTINGS
@given(seed=st.integers(0, 2**32), sets=st.sampled_from([4, 5]))
def test_completing_kinds_agree_with_searching_each_hand(seed: int, sets: int) -> None:
    kinds = one_short(seed, sets)
    searched = [x for x in range(T.PLAYABLE) if E.kinds_readings(bytes(sorted([*kinds, x])), sets, True)]
    assert E.completing_kinds(bytes(kinds), sets, range(T.PLAYABLE)) == searched, kinds


def sweep_options(hand_kinds: list[int], jokers: int, seat: int, coarse: bool) -> E.StandIns:
    """Search options as Lingxi makes them (classed), or unclassed ones (every reading kept)."""
    suits = sorted({T.suit_of(k) for k in hand_kinds if T.is_suited(k)}) or [0, 1, 2]
    kinds = tuple(s * 9 + 4 for s in suits) + (T.EAST, T.SOUTH, T.RED)
    classify = lingxi.search.COARSE_CLASSES[seat] if coarse else lingxi.search.group_class
    return E.StandIns(
        pairs=kinds, sets=((E.WILD_SET, -1), *((E.PUNG, k) for k in kinds)), classify=classify if jokers else None
    )


@SETTINGS
@given(
    seed=st.integers(0, 2**32),
    sets=st.sampled_from([4, 5]),
    jokers=st.integers(0, 6),
    seat=st.sampled_from(sorted(T.SEAT_WIND.values())),
    coarse=st.booleans(),
)
def test_extra_tile_sweep_gives_the_search_of_each_hand(
    seed: int, sets: int, jokers: int, seat: int, coarse: bool
) -> None:
    """The decompositions of the hand + each tile, in order, as the search of that hand alone gives them."""
    kinds = one_short(seed, sets)
    rng = random.Random(seed)
    for _ in range(jokers):
        kinds.pop(rng.randrange(len(kinds)))
    options = sweep_options(kinds, jokers, seat, coarse)
    counts = bytes(E.to_counts(kinds)[: T.PLAYABLE])
    added = [x for x in range(T.PLAYABLE) if counts[x] < 4]
    swept = E.extra_tile_decompositions(counts, jokers, sets, True, options, added)
    assert list(swept) == added
    for x in added:
        alone = E._search(E._plus(counts, x), jokers, sets, True, options, {})  # a memo of its own
        assert swept[x] == alone, (kinds, jokers, T.name(x))


# (kinds a set may be made of, the wildcard tiles in play, the wildcard condition, the seats to pick from)
WILD_HANDS = {
    "lingxi": ([k for k in range(T.PLAYABLE) if k not in (4, T.EAST, T.WHITE)], [4] * 3 + [T.EAST] * 3, "wild:5m,E"),
    "putian": ([k for k in range(27) if k != 4], [4] * 3, "wild:5m"),  # the flipped 金 is out of play
}


def ready_wild_hand(rules: str, seed: int, wildcards: int) -> str:
    """A winning hand of 5 sets and a pair less one natural tile, `wildcards` of its tiles made wildcards."""
    kinds, pool, condition = WILD_HANDS[rules]
    rng = random.Random(seed)
    natural = winning_kinds(rng, 5, kinds)
    rng.shuffle(natural)
    held = min(wildcards, len(pool))
    tiles = natural[: 16 - held] + rng.sample(pool, held)  # the wildcards stand for tiles left out, bar one
    return " ".join(T.name(k) for k in sorted(tiles)) + f" {condition} " + rng.choice(["seat:S", "seat:E", "seat:W"])


@settings(SETTINGS, max_examples=8)
@given(rules=st.sampled_from(sorted(WILD_HANDS)), seed=st.integers(0, 2**32), wildcards=st.integers(1, 6))
def test_waits_with_wildcards_equal_plain(rules: str, seed: int, wildcards: int) -> None:
    """Every tile's totals, legality, reading and cover as scoring each tile in full gives them."""
    hand = ready_wild_hand(rules, seed, wildcards)
    result = waits(hand, rules=rules)
    assert isinstance(result, Waits) and result.ready, hand
    assert result == waits(hand, rules=rules, finder=plain_waits), hand


@settings(SETTINGS, max_examples=10)
@given(seed=st.integers(0, 2**32), wildcards=st.integers(1, 6))
def test_readings_valued_by_class_keep_what_each_hand_alone_keeps(seed: int, wildcards: int) -> None:
    """One table of class values for every natural tile of a waiting Lingxi hand: each hand keeps the
    reading, items and outcome that valuing its own readings keeps."""
    hand = ready_wild_hand("lingxi", seed, wildcards)
    ruleset, options = lingxi.LINGXI, lingxi.LINGXI.resolve_options(None)
    values: dict[object, tuple[bool, int, int]] = {}
    for x in range(T.PLAYABLE):
        try:
            prepared = ruleset.prepare(parse(f"{hand} +{T.name(x)}"), options)
        except HandError:
            continue
        if x in prepared.wild_kinds:
            continue
        shared, alone = ruleset.best_reading_among(prepared, values), ruleset.best_reading(prepared)
        assert (shared is None) == (alone is None), (hand, T.name(x))
        if shared is not None and alone is not None:
            assert shared[:3] == alone[:3], (hand, T.name(x))  # items, outcome, reading (facts are read off it)
