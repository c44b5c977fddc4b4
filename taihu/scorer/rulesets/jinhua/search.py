"""Jinhua 金华: its readings, and what the wildcard search is told of it (representatives for
all-wildcard groups, reading classes): docs/architecture.md, the wildcard search."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ... import engine as E
from ... import memo as M
from ... import tiles as T
from ...engine import CHOW, KONG, PAIR, PUNG, Group
from .hand import BU_KAO, BU_KAO_GAP, LUAN_FENG, MIN_HONORS_BU_KAO, SETS, SEVEN_PAIRS, STANDARD, JinhuaHand, Shape

# -- the readings ------------------------------------------------------------


HONORS = 3  # a group's suit place in its class when it is of honors


@M.lru_cache("jinhua.group_classes", maxsize=2048, bytes_per_entry=400)
def _group_class(wild_kind: int, win_kind: int) -> Callable[[Group], tuple[int, ...]]:
    """What Jinhua's items see of a group of a standard reading, given the 财神 kind and the winning kind.

    Its shape (碰碰胡: chows; 财神头/爆头: the pair), its suit or honors
    (清一色, 清风), how many 财神 stand in it and whether they all stand for
    themselves filling it (财神头, 三财一刻), and whether it is of the winning
    kind (爆头: the winning tile paired with a 财神). Readings that differ
    only in which tiles of a suit a group holds are one class (docs/architecture.md:
    value-exact classes). One function per pair of kinds, made once, so the
    search's memo table is shared by the hands that have them.
    """

    def group_class(group: Group) -> tuple[int, ...]:
        kind, slots = group.kind, group.slots
        as_themselves = len(slots) == len(group.kinds) and all(k == wild_kind for k in slots)
        suit = T.suit_of(kind) if T.is_suited(kind) else HONORS
        return (_SHAPES[group.shape], suit, len(slots), as_themselves, kind == win_kind)

    return group_class


_SHAPES = {PAIR: 0, PUNG: 1, KONG: 1, CHOW: 2}  # a kong is a pung to every Jinhua item


def stand_ins(hand: JinhuaHand) -> E.StandIns:
    """Representatives for all-财神 groups (docs/architecture.md): the 财神 as itself
    (财神头, 三财一刻), one tile per suit held (清一色) and one honor (清风);
    a chow of 财神 never beats their pung, so only pungs are offered."""
    suits = {T.suit_of(k) for k in range(27) if hand.naturals[k]}
    suits |= {T.suit_of(g.kind) for g in hand.melds if T.is_suited(g.kind)}
    kinds = [s * 9 + 4 for s in sorted(suits)] + [T.EAST]
    if hand.wild_kind is not None:
        kinds = [hand.wild_kind] + [k for k in kinds if k != hand.wild_kind]
    classify = _group_class(-1 if hand.wild_kind is None else hand.wild_kind, hand.win_kind)
    return E.StandIns(pairs=tuple(kinds), sets=tuple((PUNG, k) for k in kinds), classify=classify)


def readings(hand: JinhuaHand) -> Iterator[Shape]:
    options = stand_ins(hand)
    for groups in E.standard_readings(hand.naturals, hand.wild_tiles, SETS - len(hand.melds), options):
        yield Shape(STANDARD, hand.melds + groups)
    if not hand.melds:
        for groups in E.seven_pairs_readings(hand.naturals, hand.wild_tiles, options):
            yield Shape(SEVEN_PAIRS, groups)
        yield from _bu_kao(hand)
    yield from _luan_feng(hand)


SIX_PAIRS = 6  # 七对子爆头's wait: six pairs and the lone 财神


def wild_waited_alone(hand: JinhuaHand) -> bool:
    """Whether a 财神 stood alone before the winning tile came and the rest was complete (爆头's and
    七对子爆头's wait), whoever gave the tile: the tiles before the win, one 财神 set aside, make the sets
    (or six pairs) by themselves."""
    if not hand.wild_tiles or hand.win_kind < 0:
        return False
    before = list(hand.naturals)
    before[hand.win_kind] -= 1
    others = hand.wild_tiles[1:]
    options = stand_ins(hand)
    if any(E.set_readings(before, others, SETS - len(hand.melds), options)):
        return True
    return not hand.melds and any(E.seven_pairs_readings(before, others, options, pairs=SIX_PAIRS))


def _bu_kao(hand: JinhuaHand) -> Iterator[Shape]:
    """十三不靠/七风: distinct honors, spaced suited tiles; a 财神 fills only a
    suited place, and a 白 may be 白 itself here (Decision: the seed's "wind
    财神 needs two 白 for 七风" — one as the wind, one as 白)."""
    for as_bai in range(min(hand.whites, 1) + 1):
        counts = list(hand.naturals[: T.PLAYABLE])
        if as_bai:
            counts[hand.face] -= 1  # type: ignore[index]
            counts[T.WHITE] += 1
        honors = counts[27:34]
        if max(honors) > 1 or sum(honors) < MIN_HONORS_BU_KAO:
            continue
        fill = E.spaced_fill(tuple(counts[:27]), len(hand.wild_tiles), BU_KAO_GAP)
        if fill is None:
            continue
        shown = _tiles_shown(hand, counts)
        shown += [f"{T.name(w)}={T.name(k)}" for w, k in zip(hand.wild_tiles, fill, strict=False)]
        yield Shape(BU_KAO, shown=tuple(shown), honors=sum(honors))


def _tiles_shown(hand: JinhuaHand, counts: list[int]) -> list[str]:
    """Concealed natural tiles one by one; a 白 playing the face shows as `P=3m`.

    Every natural tile of the face kind is a 白: the face's own tiles are 财神.
    """
    shown = []
    for kind in range(T.PLAYABLE):
        text = f"P={T.name(kind)}" if kind == hand.face and kind != T.WHITE else T.name(kind)
        shown += [text] * counts[kind]
    return shown


def _luan_feng(hand: JinhuaHand) -> Iterator[Shape]:
    """乱风 needs no shape: every tile an honor, each 财神 standing for one."""
    if any(hand.naturals[:27]) or any(T.is_suited(g.kind) for g in hand.melds):
        return
    wilds = [f"{T.name(w)}=honor" for w in hand.wild_tiles]
    yield Shape(LUAN_FENG, hand.melds, tuple(_tiles_shown(hand, hand.naturals[: T.PLAYABLE]) + wilds))


# The contract with the items (`RuleSet.search_keeps`, checked when the rule set's class is made): for each item
# that reads a reading, the facts `_group_class` and the representatives of `stand_ins` keep exact. An item
# reading a fact not listed could score wrong on the readings the search leaves out: make them keep it
# (tests/test_reading_classes.py and tests/test_wildcard_brute_force.py hold them to the full search), then list
# it here.
KEPT_FOR_ITEMS: dict[str, tuple[str, ...]] = {
    "ping_hu": ("shape",),
    "peng_peng_hu": ("shape", "chows"),
    "qi_dui": ("shape",),
    "qing_qi_dui": ("shape",),
    "qi_dui_bao_tou": ("shape", "pairs"),
    "shi_san_bu_kao": ("shape",),
    "qi_feng": ("shape",),
    "qing_yi_se": ("shape", "one_suit"),
    "luan_feng": ("shape", "groups"),
    "qing_feng": ("shape", "groups"),
    "cai_shen_tou": ("shape", "pairs"),
    "san_cai_yi_ke": ("shape", "pungs"),
    "bao_tou": ("shape", "pairs"),
    "gang_bao": ("shape", "pairs"),
    "hai_di": ("shape", "pairs"),
}
