"""Lingxi 灵溪: its readings, and what the wildcard search is told of it (representatives for
all-wildcard groups, reading classes): docs/architecture.md, the wildcard search."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ... import engine as E
from ... import tiles as T
from ...engine import CHOW, PUNG, WILD_SET, Group
from .. import interface as I
from .hand import SETS, LingxiHand

# -- the readings ------------------------------------------------------------


def group_class(group: Group) -> tuple[object, ...]:
    """What Lingxi's items see of a concealed group.

    Honors by kind (风刻, 箭刻, 四风齐 — with the wildcards in a wind group
    counted, since a wind wildcard counts for 四风齐 only as itself), suited
    tiles by suit alone (混一色/清一色), and chow or not (对对胡, 平胡).
    """
    if group.shape == WILD_SET:
        return (WILD_SET,)
    if T.is_wind(group.kind):
        return (group.shape, group.kind, len(group.slots))
    if T.is_honor(group.kind):
        return (group.shape, group.kind)
    return (group.shape, -1 - T.suit_of(group.kind))


NO_WILDCARDS = E.StandIns((), (), classify=group_class)

SI_FENG_QI_TILES = 11  # three wind pungs and a wind pair: fewer wind tiles and wildcards cannot make 四风齐
# the coarse classes, orderable against each other (the search sorts a reading's classes):
COARSE_WILD_SET = (0,)  # 财神汇
SEAT_WIND_PUNG = (1,)  # 风刻 +1
DRAGON_PUNG = (2,)  # a pung of 中 or 发: 箭刻 +1
HONOR = (3,)  # any other honor group: it only makes honors present
SUITED = 4  # (SUITED, chow or not, suit)


def _coarse_class(seat_wind: int) -> Callable[[Group], tuple[object, ...]]:
    """What Lingxi's items see of a group when 四风齐 is out of reach: coarser than `group_class`.

    With no 四风齐 to make, a wind is no more than an honor unless it is the
    seat wind: a pung of the seat wind scores 风刻, one of 中 or 发 箭刻; any
    other honor group only makes honors present (混一色/清一色). A suited
    group counts by suit and by being a chow or not (对对胡); 财神汇 by its
    wild set. So readings that differ only in which honor or which suited
    tile an all-wildcard group stands for are one class (docs/architecture.md: value-
    exact classes). `ping_hu` needs no wildcard, and this class is used only
    with wildcards held.
    """

    def coarse_class(group: Group) -> tuple[object, ...]:
        kind = group.kind
        if group.shape == WILD_SET:
            return COARSE_WILD_SET
        if kind >= T.EAST:
            if group.shape != PUNG:
                return HONOR
            if kind == seat_wind:
                return SEAT_WIND_PUNG
            return DRAGON_PUNG if kind in (T.RED, T.GREEN) else HONOR
        return (SUITED, group.shape == CHOW, T.suit_of(kind))

    return coarse_class


# one per seat wind, made once: StandIns with the same function share the search's memo table
COARSE_CLASSES = {wind: _coarse_class(wind) for wind in T.SEAT_WIND.values()}


def si_feng_qi_in_reach(hand: LingxiHand) -> bool:
    """Whether the wind tiles held, in melds and wildcards together could make 四风齐 (11 tiles)."""
    winds = sum(hand.naturals[T.EAST : T.NORTH + 1]) + sum(len(g.kinds) for g in hand.melds if T.is_wind(g.kind))
    return winds + len(hand.wild_tiles) >= SI_FENG_QI_TILES


def stand_ins(hand: LingxiHand) -> E.StandIns:
    """Representatives for all-wildcard groups (docs/architecture.md): what can change the tai."""
    if not hand.wild_tiles:
        return NO_WILDCARDS
    present = {T.suit_of(k) for k in range(27) if hand.naturals[k]}
    present |= {T.suit_of(g.kind) for g in hand.melds if T.is_suited(g.kind)}
    suits = present or {0, 1, 2}
    kinds = [s * 9 + 4 for s in sorted(suits)] + [T.EAST, T.SOUTH, T.WEST, T.NORTH, T.RED, T.GREEN]
    classify = group_class if si_feng_qi_in_reach(hand) else COARSE_CLASSES[hand.seat_wind]
    return E.StandIns(
        pairs=tuple(kinds),
        sets=tuple([(WILD_SET, -1)] + [(PUNG, k) for k in kinds]),
        classify=classify,
    )


def readings(hand: LingxiHand) -> Iterable[I.Reading]:
    """With 四风齐 out of reach, no value depends on which wildcard stands where (only 四风齐 tells a wind
    wildcard from another), so the wildcards are placed on the reading shown only (`Lingxi.as_shown`)."""
    sets = SETS - len(hand.melds)
    placed = si_feng_qi_in_reach(hand)
    for groups in E.standard_readings(hand.naturals, hand.wild_tiles, sets, stand_ins(hand), placed):
        yield hand.melds + groups


# The contract with the items (`RuleSet.search_keeps`, checked when the rule set's class is made): for each item
# that reads a reading, the facts `group_class`, the coarse classes and the representatives of `stand_ins`
# keep exact. An item reading a fact not listed could score wrong on the readings the search leaves out: make
# them keep it (tests/test_reading_classes.py and tests/test_wildcard_brute_force.py hold them to the full
# search), then list it here.
KEPT_FOR_ITEMS: dict[str, tuple[str, ...]] = {
    "feng_ke": ("groups",),
    "jian_ke": ("groups",),
    "hun_yi_se": ("suit", "honors"),
    "dui_dui_hu": ("chows",),
    "qing_yi_se": ("one_suit",),
    "cai_shen_hui": ("wild_sets",),
    "si_feng_qi": ("pungs", "kongs", "pairs"),
    "ping_hu": ("pungs", "kongs", "wild_sets"),
}
