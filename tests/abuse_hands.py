"""Distinct hands as a hostile or just busy client sends them: for the memory tests and `make soak`.

Each hand is sets and a pair of random tiles, some replaced by wildcards of
a random kind, under a random rule set, so the core's caches see new keys
(new wildcard kinds and suit mixes) hand after hand. Many are valid wins;
the rest are bad input, which costs as a client would make it cost.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from taihu.scorer import tiles as T

TILES = {"lingxi": 17, "putian": 17, "luoshan": 14, "jinhua": 14, "guannan": 14}


def _sets_and_pair(rng: random.Random, tiles: int) -> list[int]:
    while True:
        kinds: list[int] = []
        for _ in range((tiles - 2) // 3):
            if rng.random() < 0.5:
                start = rng.randrange(3) * 9 + rng.randrange(7)
                kinds += [start, start + 1, start + 2]
            else:
                kinds += [rng.randrange(34)] * 3
        kinds += [rng.randrange(34)] * 2
        if all(kinds.count(k) <= 4 for k in set(kinds)):
            return kinds


def hand_line(rng: random.Random, rules: str) -> str:
    """One hand line: up to five tiles replaced by the wildcard kind, the last tile the winning one."""
    kinds = _sets_and_pair(rng, TILES[rules])
    wild = rng.randrange(34)
    for place in rng.sample(range(len(kinds)), rng.randrange(6)):
        if kinds.count(wild) < 4:
            kinds[place] = wild
    rng.shuffle(kinds)
    win = kinds.pop()
    text = " ".join(T.name(k) for k in kinds)
    flags = " self" if rng.random() < 0.5 else ""
    return f"{text} +{T.name(win)} wild:{T.name(wild)} seat:{rng.choice('ESWN')}{flags}"


def distinct_hands(seed: int = 15) -> Iterator[tuple[str, str]]:
    """(rule set, hand line) pairs, never the same twice."""
    rng = random.Random(seed)
    seen: set[tuple[str, str]] = set()
    names = sorted(TILES)
    while True:
        rules = rng.choice(names)
        case = (rules, hand_line(rng, rules))
        if case not in seen:
            seen.add(case)
            yield case
