"""MCR 国标: the winning shapes apart from sets and a pair, on sorted concealed kinds.

七对 (seven pairs, four alike are two), 十三幺, 全不靠 (and 七星不靠, its
seven-honor form), the knitted straight 组合龙 (the nine tiles 147, 258,
369 of the three suits in some order) and 九莲宝灯's thirteen tiles.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import permutations

from ... import tiles as T
from ...engine import kinds_readings

ORPHANS = frozenset((0, 8, 9, 17, 18, 26, *range(T.EAST, T.PLAYABLE)))
HONORS = tuple(range(T.EAST, T.PLAYABLE))
# the six knitted straights, each as its nine kinds: 147 of one suit, 258 of another, 369 of the third
KNITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(9 * suit + rank for suit, start in zip(order, range(3), strict=True) for rank in range(start, 9, 3)))
    for order in permutations(range(3))
)
KNIT_SETS = tuple(map(frozenset, KNITS))
KNIT_BITS = tuple(sum(1 << k for k in knit) for knit in KNITS)  # each as bits of kinds (`McrHand.held`)
ORPHAN_BITS = sum(1 << k for k in ORPHANS)
# the 1, 2 and 3 of each suit, as bits: where a knitted straight's three kinds of a suit (147, 258 or 369) begin
KNIT_TRIPLE_STARTS = sum(1 << (9 * suit + rank) for suit in range(3) for rank in range(3))
# sorted kinds that are pairs (four alike are two) and one tile: pairs, the tile, pairs (`fullmatch`)
PAIRS_AND_ONE = re.compile(rb"(?:(.)\1)*.(?:(.)\2)*", re.DOTALL)
NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def seven_pairs(kinds: bytes) -> bool:
    """Fourteen tiles in seven pairs (four alike are two)."""
    return len(kinds) == 14 and all(kinds.count(k) % 2 == 0 for k in set(kinds))


def thirteen_orphans(kinds: bytes) -> bool:
    return len(kinds) == 14 and set(kinds) == ORPHANS


def knit_of(kinds: Iterable[int]) -> tuple[int, ...] | None:
    """The knitted straight all the suited kinds belong to, if one does."""
    suited = {k for k in kinds if T.is_suited(k)}
    return next((knit for knit in KNITS if suited <= set(knit)), None)


def honors_and_knitted(kinds: bytes) -> tuple[int, ...] | None:
    """全不靠: fourteen different tiles, honors and tiles of one knitted straight; that straight, or None."""
    if len(kinds) != 14 or len(set(kinds)) != 14:
        return None
    return knit_of(kinds)


def knitted_readings(kinds: bytes, melds: int) -> list[tuple[tuple[int, ...], tuple]]:
    """组合龙 shape: for each knitted straight whose nine tiles are among `kinds`, the readings of the rest
    as one set (none where a meld is that set) and a pair."""
    if melds > 1 or len(kinds) != 14 - 3 * melds:
        return []
    found = []
    held = set(kinds)
    for knit in KNITS:
        if held.issuperset(knit):
            rest = bytearray(kinds)
            for k in knit:
                rest.remove(k)
            for groups in kinds_readings(bytes(rest), 1 - melds, True):
                found.append((knit, groups))
    return found


def nine_gates(before: list[int] | bytes) -> bool:
    """九莲宝灯: the thirteen tiles before the win are 1112345678999 of one suit."""
    if len(before) != 13 or not T.is_suited(before[0]) or before[2] != before[0] or before[-1] != before[0] + 8:
        return False  # not three of the suit's 1 first and its 9 last
    base = before[0] - before[0] % 9
    return tuple(before.count(base + r) for r in range(9)) == NINE_GATES


def special_candidates(before: bytes, melds: int, held: int) -> list[int]:
    """The kinds that might complete `before` into a shape other than sets and a pair, found without trying
    all 34: a knitted straight needs eight of its nine tiles held already; 七对 six pairs; 十三幺 only orphans;
    全不靠 thirteen different tiles of honors and one knitted straight.

    `held` is the kinds of `before` as bits, or of the whole hand (the winning
    tile's and the melds' too, as `McrHand.held`): a shape is looked at only
    where those kinds allow it, which most standard hands do not. Eight kinds
    of a knitted straight hold all three of its kinds (147, 258 or 369) in two
    suits; six pairs and a tile are seven kinds at most, eight with the winning
    tile; only orphans leave one kind at most outside them; thirteen different
    tiles are thirteen kinds."""
    if melds > 1:
        return []
    kinds: list[int] = []
    if (held & held >> 3 & held >> 6 & KNIT_TRIPLE_STARTS).bit_count() >= 2:
        present = set(before)
        for knit in KNIT_SETS:
            missing = knit.difference(present)
            if len(missing) <= 1:
                kinds += missing or range(T.PLAYABLE)
    if not melds:
        different = held.bit_count()
        if different <= 8 and len(before) == 13 and PAIRS_AND_ONE.fullmatch(before):  # 七对: six pairs and a tile
            kinds += [k for k in set(before) if before.count(k) % 2]
        if (held & ~ORPHAN_BITS).bit_count() <= 1 and ORPHANS.issuperset(before):
            kinds += ORPHANS
        if different >= 13:
            present = set(before)
            single = knit_of(present) if len(present) == 13 else None
            if single is not None:
                kinds += (*single, *HONORS)
    return sorted(set(kinds)) if kinds else kinds


def special_win(before: bytes, kind: int, melds: int) -> bool:
    """Whether `before` + `kind` wins as a shape other than sets and a pair."""
    kinds = bytes(sorted((*before, kind)))
    if knitted_readings(kinds, melds):
        return True
    if melds:
        return False
    return seven_pairs(kinds) or thirteen_orphans(kinds) or honors_and_knitted(kinds) is not None
