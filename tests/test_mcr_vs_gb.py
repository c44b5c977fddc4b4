"""MCR scored by taihu and by pymahjonggb (the C++ GB fan calculator) on random legal hands.

Closed and open hands, kongs, the knitted and special shapes, flowers and
every win condition (tests/mcr_hands.py). Each hand's fan list must be the
oracle's, item for item, and so its total; the one ruling where taihu reads
the rules otherwise (a wait whose four tiles are all the winner's own is no
wait, so the other is 独听) is left out here and tested on its own below
and in tests/test_mcr.py. `MCR_EXAMPLES=5000` runs more hands.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
from mcr_hands import exhausted_wait, oracle, random_hand

from taihu.scorer import score_hand

pytest.importorskip("MahjongGB")

EXAMPLES = int(os.environ.get("MCR_EXAMPLES", "300"))
SEED = int(os.environ.get("MCR_SEED", "20261207"))


def taihu_fan(line: str) -> list[tuple[str, int]]:
    return sorted((item.key, item.value) for item in score_hand(line, rules="mcr").items)


def test_random_hands_score_as_the_oracle() -> None:
    rng = random.Random(SEED)
    differ: list[str] = []
    compared = ruled = 0
    for _ in range(EXAMPLES):
        line = random_hand(rng)
        if exhausted_wait(line):
            ruled += 1
            continue
        compared += 1
        mine, theirs = taihu_fan(line), oracle(line)
        if mine != theirs:
            extra = sorted((Counter(mine) - Counter(theirs)).elements())
            missing = sorted((Counter(theirs) - Counter(mine)).elements())
            differ.append(f"{line}: taihu adds {extra}, lacks {missing}")
    assert differ == [], f"{len(differ)} of {compared} hands differ:\n" + "\n".join(differ[:20])
    assert compared > EXAMPLES * 0.9 and ruled < EXAMPLES * 0.1


def test_the_generator_reaches_the_shapes_and_conditions() -> None:
    """The random hands are not all plain: they reach the special shapes, kongs, flowers and each condition."""
    rng = random.Random(SEED)
    seen: Counter[str] = Counter()
    for _ in range(max(EXAMPLES, 300)):
        line = random_hand(rng)
        seen.update(key for key, _ in taihu_fan(line))
        seen.update(
            word for word in ("self", "kong-draw", "rob-kong", "last-tile", "fourth-tile", "(", "[") if word in line
        )
    for key in ("qi_dui", "shi_san_yao", "quan_bu_kao", "zu_he_long", "an_gang", "ming_gang", "hua_pai"):
        assert seen[key], key
    for word in ("self", "kong-draw", "rob-kong", "last-tile", "fourth-tile", "(", "["):
        assert seen[word], word


# -- the ruling on exhausted waits, each side of it ---------------------------------------


def test_exhausted_wait_the_oracle_counts_no_wait_fan() -> None:
    """Worked example 7: 2m or 3m by shape, but all four 3m are the winner's; pymahjonggb counts 11, no 坎张."""
    line = "[333m] [456p] [789s] 1113m +2m"
    assert exhausted_wait(line)
    assert sum(value for _, value in oracle(line)) == 11
    assert taihu_fan(line) == sorted([("hua_long", 8), ("si_gui_yi", 2), ("wu_zi", 1), ("kan_zhang", 1)])


def test_exhausted_wait_on_random_hands_differs_only_by_the_wait_fan() -> None:
    """Where the ruling applies, taihu's fan are the oracle's and one of 边张/坎张/单钓将."""
    rng = random.Random(SEED + 1)
    checked = 0
    for _ in range(EXAMPLES * 10):
        line = random_hand(rng)
        if not exhausted_wait(line):
            continue
        checked += 1
        extra = Counter(taihu_fan(line)) - Counter(oracle(line))
        assert not Counter(oracle(line)) - Counter(taihu_fan(line)), line
        assert sorted(extra.elements()) in ([], [("bian_zhang", 1)], [("kan_zhang", 1)], [("dan_diao_jiang", 1)]), line
        if checked >= 20:
            break
    assert checked >= 5
