"""Luoshan 螺山: its readings, and what the wildcard search is told of it (representatives for
all-wildcard groups, reading classes): docs/architecture.md, the wildcard search."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ... import engine as E
from ... import memo as M
from ... import tiles as T
from ...engine import CHOW, PUNG, Group, ReadingFacts
from .hand import ROW, SETS, LuoshanHand

# -- the readings ------------------------------------------------------------


def stand_ins(hand: LuoshanHand, naturals: list[int]) -> E.StandIns:
    """Representatives for all-wildcard groups: only these can change the hu.

    A dragon (as good as the seat wind: hu, 台, 对子), and per suit in the
    hand its 1 (a terminal pung/pair beats 2–8, keeps 清/凑) and a 234 chow
    (平和, or a closed/two-sided place for a winning wildcard). A natural
    winning tile may sit in an all-wildcard group too (its wildcard moving to
    where the tile was), so the pair, the pung and the chows of its kind are
    offered as well: each gives it another wait (吊头, a pung, edge, closed,
    two-sided).
    """
    suits = {T.suit_of(k) for k in range(27) if naturals[k]}
    suits |= {T.suit_of(g.kind) for g in hand.melds if T.is_suited(g.kind)}
    ones = [s * 9 for s in sorted(suits or {0})]
    pairs: list[int] = [T.RED, *ones]
    sets: list[tuple[str, int]] = [(PUNG, T.RED), *((PUNG, k) for k in ones), *((CHOW, k + 1) for k in ones)]
    win = hand.win
    if len(hand.wild_tiles) >= 2 and win >= 0 and win != hand.wild_kind:
        pairs.append(win)
        sets.append((PUNG, win))
        if T.is_suited(win):
            sets += [(CHOW, start) for start in range(win - 2, win + 1) if start // 9 == win // 9 and start % 9 <= 6]
    # a winning wildcard may take any place a wildcard or a natural tile holds: its readings are not classed
    classify = None if win < 0 or win == hand.wild_kind else _group_class(win, hand.honored)
    return E.StandIns(pairs=tuple(dict.fromkeys(pairs)), sets=tuple(dict.fromkeys(sets)), classify=classify)


HONORS = 3  # a group's suit place in its class when it is of honors


@M.lru_cache("luoshan.group_classes", maxsize=512, bytes_per_entry=400)
def _group_class(win: int, honored: frozenset[int]) -> Callable[[Group], tuple[Any, ...]]:
    """What Luoshan's items see of a group the search found, for a natural winning tile `win`.

    Its shape (对对胡, 平和: chows), its suit or honors (清三台, 凑一台),
    for a pung or pair its row (2–8, or 1, 9, honors) and whether it is of a
    dragon or the seat wind (对子, 大料/座风刻), and the wait it makes if
    the winning tile sits in it (碰, 自摸六, 吊头, 边张/嵌张, 平和): where
    a natural tile of that kind is, or a wildcard stands for one
    (`engine.win_placements` places it in either; the winning tile itself
    is a natural one in every grouping). Which wildcard stands where, and
    which tiles of a suit a group holds besides, changes no value, so
    readings that differ only there are one class (docs/architecture.md: value-exact
    classes). One function per winning tile and seat, made once, so the
    search's memo table is shared by the hands that have them.
    """

    def group_class(group: Group) -> tuple[Any, ...]:
        shape, kind = group.shape, group.kind
        suit = kind // 9 if kind < 27 else HONORS
        if shape == CHOW:
            row, own, holds_win = "", False, kind <= win <= kind + 2
        else:
            row, own, holds_win = ROW[kind], kind in honored, kind == win
        return (shape, suit, row, own, E.wait_of(group, win) if holds_win else "")

    return group_class


def readings(hand: LuoshanHand) -> list[ReadingFacts]:
    """A list, built by loops: cheaper than a generator for the one or two readings of most hands."""
    win, melds = hand.win, hand.melds
    sets = SETS - len(melds)
    if not hand.wild_tiles:  # its facts put together from its suits' (the engine's fast path)
        return E.wildcard_free_facts(hand.natural_kinds, sets, win, melds)
    if win == hand.wild_kind:
        return _wild_win_readings(hand, sets)
    naturals = E.to_counts(hand.natural_kinds)  # the search with wildcards works on counts
    found: list[ReadingFacts] = []
    for groups in E.standard_readings(naturals, hand.wild_tiles, sets, stand_ins(hand, naturals)):
        full = melds + groups if melds else groups
        _add_placements(found, full, E.win_placements(full, win, False))
    return found


def _wild_win_readings(hand: LuoshanHand, sets: int) -> list[ReadingFacts]:
    """`readings` for a winning wildcard, one of each placement that scores unlike those before it."""
    naturals = E.to_counts(hand.natural_kinds)
    options = stand_ins(hand, naturals)
    found: list[ReadingFacts] = []
    for placed_full, placements in _wild_win_placements(
        hand.natural_kinds, hand.wild_tiles, sets, options, hand.melds, hand.honored
    ):
        _add_placements(found, placed_full, placements)
    return found


def _add_placements(found: list[ReadingFacts], full: tuple[Group, ...], placements: Iterable[E.Placement]) -> None:
    """The facts of each place of the winning tile in the grouping `full`, added to `found`. A placement that
    moved a wildcard shows the groups as they then lie; those of `full` itself share its grouping's facts."""
    first: ReadingFacts | None = None
    for placed, at, stands_for in placements:
        facts = ReadingFacts(placed, at, stands_for, first if placed is full else None)
        if placed is full and first is None:
            first = facts
        found.append(facts)


WildWinPlacements = tuple[tuple[tuple[Group, ...], tuple[E.Placement, ...]], ...]


@M.lru_cache("luoshan.wild_win_placements", maxsize=256, bytes_per_entry=6000)
def _wild_win_placements(
    natural_kinds: bytes,
    wild_tiles: tuple[int, ...],
    sets: int,
    options: E.StandIns,
    melds: tuple[Group, ...],
    honored: frozenset[int],
) -> WildWinPlacements:
    """Each grouping with a placement of the winning wildcard that scores unlike those before, and those.

    A winning wildcard may take any place a wildcard or a natural tile holds,
    so its search is not classed; instead a placement's values are decided by
    the classes of the reading's groups (`_base_class`) and the winning
    group's class and wait, which the items read and nothing else. A later
    placement of a key seen is one the scoring loop, keeping the first best,
    would never keep: it is skipped (a grouping all of whose placements are
    seen, before its wildcards are placed), which changes no output
    (tests/test_reading_classes.py checks it against every placement). Kept
    per hand: a client sending one hand again, or the hands a waiting hand
    makes, ask for it anew.
    """
    naturals = E.to_counts(natural_kinds)
    seen: set[tuple[Any, ...]] = set()
    out = []
    for groups in E.standard_readings(naturals, wild_tiles, sets, options, placed=False):
        full = melds + groups if melds else groups
        classes = tuple(sorted(_base_class(g, honored) for g in full))
        keys = [
            (classes, _base_class(full[at], honored), E.wait_of(full[at], kind))
            for at, kind, _ in E.wild_win_places(full)
        ]
        if seen.issuperset(keys):
            continue
        placed_full = melds + E.place_wildcards(groups, wild_tiles)
        kept = []
        for key, placement in zip(keys, E.win_placements(placed_full, wild_tiles[0], True), strict=True):
            if key not in seen:
                seen.add(key)
                kept.append(placement)
        out.append((placed_full, tuple(kept)))
    return tuple(out)


def _base_class(group: Group, honored: frozenset[int]) -> tuple[Any, ...]:
    """What Luoshan's items see of a group but the winning tile's place: shape, suit or honors, row, whether
    of a dragon or the seat wind, whether on the table."""
    kind = group.kind
    return (group.shape, kind // 9 if kind < 27 else HONORS, ROW[kind], kind in honored, group.exposed)


# The contract with the items (`RuleSet.search_keeps`, checked when the rule set's class is made): for each item
# that reads a reading, the facts `_group_class` and the representatives of `stand_ins` keep exact. An item
# reading a fact not listed could score wrong on the readings the search leaves out: make them keep it
# (tests/test_reading_classes.py and tests/test_wildcard_brute_force.py hold them to the full search), then list
# it here.
KEPT_FOR_ITEMS: dict[str, tuple[str, ...]] = {
    "peng": ("pungs", "win_at"),
    "an_ke": ("pungs", "win_at"),
    "ming_gang": ("kongs",),
    "an_gang": ("kongs",),
    "dui_zi": ("pairs", "honors"),
    "zi_mo_liu": ("wait", "win_at", "groups"),
    "diao_tou": ("wait", "win_at", "groups"),
    "bian_qian": ("wait", "win_at", "groups", "win_as"),
    "jian_feng_ke": ("groups", "honors"),
    "dui_dui_hu": ("chows",),
    "cou_yi_tai": ("suit", "honors"),
    "qing_san_tai": ("one_suit",),
    "qing_si_tai": ("one_suit", "chows"),
    "ping_he": ("wait", "win_at", "groups", "win_as", "chows"),
    "qing_san_tai_ping_he": ("wait", "win_at", "groups", "win_as", "chows", "one_suit"),
}
