"""Jinhua 金华: the items, exclusions and house options of docs/rules/jinhua.md, as data in its order."""

from __future__ import annotations

from ... import tiles as T
from ...engine import KONG, PUNG, Group, ReadingFacts
from ...said import phrase, said
from .. import interface as I
from ..interface import FOUND, NONE, ONE, WINNER_ONLY, Exclusion, Item, Kind, Option, Variant, flag_item, once
from .hand import ALL_HONORS, BU_KAO, LUAN_FENG, SEVEN_PAIRS, STANDARD, JinhuaHand, Shape, quan_qiu_ren_shape

MULTIPLIER = Kind("multiplier", "multiplier")  # how its items count: the multipliers multiply

# the texts of the details found for every reading (taihu/scorer/said.py)
ALL_HONORS_TEXT = phrase("detail.jinhua.all_honors")
BAO_TOU = phrase("detail.jinhua.bao_tou")
GANG_BAO = phrase("detail.jinhua.gang_bao")
HAI_DI_BAO_TOU = phrase("detail.jinhua.hai_di_bao_tou")
HONORS = phrase("detail.jinhua.honors", "count")
ONE_SUIT_PLAIN = phrase("detail.jinhua.one_suit_plain", "suit")
ONE_SUIT_WILD = phrase("detail.jinhua.one_suit_wild", "suit")
QI_DUI_BAO_TOU = phrase("detail.jinhua.qi_dui_bao_tou")
WAITING_ON = phrase("detail.waiting_on", "tile")

# -- items ---------------------------------------------------------------------


class ShapeFacts(ReadingFacts):
    """The facts of a reading, and its shape (sets + pair, seven pairs, 不靠, 乱风)."""

    __slots__ = ("shape",)

    def __init__(self, shape: Shape) -> None:
        super().__init__(shape.groups)
        self.shape = shape


def _kinds(facts: ShapeFacts) -> list[int]:
    return [k for g in facts.groups for k in g.kinds]


def _all_honors(facts: ShapeFacts) -> bool:
    name = facts.shape.name
    if name == LUAN_FENG:
        return True
    return name != BU_KAO and all(T.is_honor(k) for k in _kinds(facts))


def _shape_is(name: str) -> I.Finder:
    def find(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
        return FOUND if facts.shape.name == name else NONE

    return find


def ping_hu(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    name = facts.shape.name
    return once(ONE, said(SHAPE_DETAIL[name]) if name in SHAPE_DETAIL else name)


SHAPE_DETAIL = {STANDARD: "detail.jinhua.standard", SEVEN_PAIRS: "detail.jinhua.seven_pairs"}  # the others: Chinese


PENG_PENG_HU_EXPOSED = "peng_peng_hu_exposed"  # the house option: 碰碰胡 needs melded pungs
CLAIMED_PUNGS = 3  # 「必须已经碰过三次」


def peng_peng_hu(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    """No chows; with the house option on, also three pungs or kongs claimed from others (a concealed
    kong was never 碰)."""
    if facts.shape.name != STANDARD or facts.chows:
        return NONE
    if hand.options[PENG_PENG_HU_EXPOSED] and _claimed_pungs(hand) < CLAIMED_PUNGS:
        return NONE
    return FOUND


def _claimed_pungs(hand: JinhuaHand) -> int:
    return sum(1 for g in hand.melds if g.exposed and g.shape in (PUNG, KONG))


def quan_qiu_ren(hand: JinhuaHand, facts: None) -> list[tuple[Variant, str]]:
    """Won on a discard only: self-drawn it counts ×1 (a note says so)."""
    if hand.self_drawn or not quan_qiu_ren_shape(hand.parsed, hand.wild_kind):
        return NONE
    return once(ONE, WAITING_ON(T.name(hand.parsed.tiles[0])))


def qing_qi_dui(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    return FOUND if facts.shape.name == SEVEN_PAIRS and not hand.wild_tiles else NONE


def _bao_tou(hand: JinhuaHand, facts: ShapeFacts) -> bool:
    """Before the win a 财神 stood alone and the rest was complete (敲响).

    In a reading that is: the winning tile pairs with one 财神 standing for
    it, or a winning 财神 pairs with another. Tiles of one kind are
    interchangeable, so any such pair means the 财神 waited alone.

    敲响 is won on a drawn tile (「抓到任意一张则为敲响」): on a discard the
    hand scores without it, and `prepare` notes why.
    """
    if not hand.self_drawn:
        return False
    for g in facts.pairs:
        if g.exposed:
            continue
        if hand.win_kind < 0 and hand.wild_tiles and len(g.slots) == 2:
            return True
        if hand.win_kind >= 0 and g.kind == hand.win_kind and len(g.slots) == 1:
            return True
    return False


def qi_dui_bao_tou(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    if facts.shape.name != SEVEN_PAIRS or not _bao_tou(hand, facts):
        return NONE
    return once(ONE, QI_DUI_BAO_TOU())


def bao_tou(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    if facts.shape.name != STANDARD or not _bao_tou(hand, facts):
        return NONE
    return once(ONE, BAO_TOU())


def gang_bao(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    if not hand.has("kong-draw") or not bao_tou(hand, facts):
        return NONE
    return once(ONE, GANG_BAO())


def hai_di(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    """Self-drawn among the last four tiles; 爆头 so won is ×8 (「爆头的海捞是八倍」), so 海底 counts ×4 there.
    七对子爆头 is not named there: it multiplies as any other item."""
    if not hand.has("last-tile"):
        return NONE
    if facts.shape.name == STANDARD and _bao_tou(hand, facts):
        return once("bao_tou", HAI_DI_BAO_TOU())
    return once("plain")


def shi_san_bu_kao(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    shape = facts.shape
    return once(ONE, HONORS(shape.honors)) if shape.name == BU_KAO else NONE


def qi_feng(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    shape = facts.shape
    return once(ONE, ALL_HONORS_TEXT()) if shape.name == BU_KAO and shape.honors == ALL_HONORS else NONE


def qing_yi_se(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    """One suit once the 财神 are assigned; 2 with a 财神 held, 4 without."""
    if facts.shape.name not in (STANDARD, SEVEN_PAIRS) or not facts.one_suit:
        return NONE
    suit = facts.one_suit
    if hand.wild_tiles:
        return once("wild", ONE_SUIT_WILD(suit))
    return once("plain", ONE_SUIT_PLAIN(suit))


def luan_feng(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    return FOUND if _all_honors(facts) else NONE


def qing_feng(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    return FOUND if facts.shape.name == STANDARD and _all_honors(facts) else NONE


def _as_themselves(group: Group, size: int) -> bool:
    """`size` 财神 in the group, each standing for its own kind (no stand-in role)."""
    return len(group.wilds) == size == len(group.kinds) and all(w == k for w, k in group.wilds)


def cai_shen_tou(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    if facts.shape.name != STANDARD:
        return NONE
    pairs = [g for g in facts.pairs if _as_themselves(g, 2)]
    return once(ONE, pairs[0].text()) if pairs else NONE


def san_cai_yi_ke(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    if facts.shape.name != STANDARD:
        return NONE
    pungs = [g for _, g in facts.pungs if _as_themselves(g, 3)]
    return once(ONE, pungs[0].text()) if pungs else NONE


TIMES = "×{}"
SHAPE = ("shape",)  # what most items read: the reading's shape
ITEMS = (
    Item("ping_hu", "平胡", "Any winning hand (the base)", 1, MULTIPLIER, WINNER_ONLY, ping_hu, TIMES, reads=SHAPE),
    Item(
        "peng_peng_hu",
        "碰碰胡",
        "No chows",
        2,
        MULTIPLIER,
        WINNER_ONLY,
        peng_peng_hu,
        TIMES,
        reads=(*SHAPE, "chows"),
    ),
    Item(
        "quan_qiu_ren",
        "全求人",
        "One tile left, won on a discard",
        2,
        MULTIPLIER,
        WINNER_ONLY,
        quan_qiu_ren,
        "value.jinhua.quan_qiu_ren",
    ),
    Item("qi_dui", "七对子", "Seven pairs", 2, MULTIPLIER, WINNER_ONLY, _shape_is(SEVEN_PAIRS), TIMES, reads=SHAPE),
    Item(
        "qing_qi_dui", "清七对", "Seven pairs without 财神", 4, MULTIPLIER, WINNER_ONLY, qing_qi_dui, TIMES, reads=SHAPE
    ),
    Item(
        "qi_dui_bao_tou",
        "七对子爆头",
        "Six pairs + a lone 财神",
        8,
        MULTIPLIER,
        WINNER_ONLY,
        qi_dui_bao_tou,
        TIMES,
        reads=(*SHAPE, "pairs"),
    ),
    Item(
        "shi_san_bu_kao",
        "十三不靠",
        "≥5 honors + spaced suited tiles",
        1,
        MULTIPLIER,
        WINNER_ONLY,
        shi_san_bu_kao,
        TIMES,
        reads=SHAPE,
    ),
    Item(
        "qi_feng", "七风", "All 7 honors + spaced suited tiles", 2, MULTIPLIER, WINNER_ONLY, qi_feng, TIMES, reads=SHAPE
    ),
    Item(
        "gang_kai", "杠上开花", "Won on a kong replacement", 2, MULTIPLIER, WINNER_ONLY, flag_item("kong-draw"), TIMES
    ),
    Item(
        "qing_yi_se",
        "清一色",
        "One suit",
        {"wild": 2, "plain": 4},
        MULTIPLIER,
        WINNER_ONLY,
        qing_yi_se,
        "value.jinhua.qing_yi_se",
        reads=(*SHAPE, "one_suit"),
    ),
    Item(
        "luan_feng",
        "乱风",
        "All honors, any shape",
        8,
        MULTIPLIER,
        WINNER_ONLY,
        luan_feng,
        TIMES,
        reads=(*SHAPE, "groups"),
    ),
    Item(
        "qing_feng",
        "清风",
        "All honors in 4 sets + pair",
        16,
        MULTIPLIER,
        WINNER_ONLY,
        qing_feng,
        TIMES,
        reads=(*SHAPE, "groups"),
    ),
    Item(
        "cai_shen_tou",
        "财神头",
        "Two 财神 as the pair, as themselves",
        4,
        MULTIPLIER,
        WINNER_ONLY,
        cai_shen_tou,
        TIMES,
        reads=(*SHAPE, "pairs"),
    ),
    Item(
        "san_cai_yi_ke",
        "三财一刻",
        "Three 财神 as a pung, as themselves",
        8,
        MULTIPLIER,
        WINNER_ONLY,
        san_cai_yi_ke,
        TIMES,
        reads=(*SHAPE, "pungs"),
    ),
    Item(
        "bao_tou",
        "爆头",
        "Four sets + a lone 财神, any tile wins (敲响)",
        2,
        MULTIPLIER,
        WINNER_ONLY,
        bao_tou,
        TIMES,
        reads=(*SHAPE, "pairs"),
    ),
    Item(
        "gang_bao",
        "杠爆",
        "Kong while waiting 爆头, won on it",
        4,
        MULTIPLIER,
        WINNER_ONLY,
        gang_bao,
        "value.jinhua.gang_bao",
        reads=(*SHAPE, "pairs"),
    ),
    Item("tian_hu", "天胡", "Heavenly hand", 2, MULTIPLIER, WINNER_ONLY, flag_item("heaven"), TIMES),
    Item("di_hu", "地胡", "Earthly hand", 2, MULTIPLIER, WINNER_ONLY, flag_item("earth"), TIMES),
    Item(
        "ren_hu",
        "人胡",
        "Non-dealer self-draw in the first go-round",
        2,
        MULTIPLIER,
        WINNER_ONLY,
        flag_item("human"),
        TIMES,
    ),
    Item(
        "hai_di",
        "海底捞月",
        "Self-drawn among the last four tiles",
        {"plain": 2, "bao_tou": 4},
        MULTIPLIER,
        WINNER_ONLY,
        hai_di,
        "value.jinhua.hai_di",
        reads=(*SHAPE, "pairs"),
    ),
)

EXCLUSIONS = (
    Exclusion("qing_qi_dui", ("qi_dui",), "清七对：指没有财神的七个对子。这个是四倍。（不再计七对子的二倍）"),
    Exclusion(
        "qi_dui_bao_tou",
        ("qi_dui",),
        "七对子爆头：已有六个对子，最后一张用财神敲响为七对子爆头。这个是八倍。（不再计七对子的二倍）",
    ),
    Exclusion(
        "qi_feng",
        ("shi_san_bu_kao",),
        "七风：东、南、西、北、中、发、白、加其余至少相隔两张的牌。这个是二倍。（不再计十三不靠）",
    ),
    Exclusion(
        "qing_feng",
        ("luan_feng", "peng_peng_hu"),
        "清风：全部是风牌，但需要规则组合。这个是十六倍。（不再计乱风、碰碰胡）",
    ),
    Exclusion(
        "gang_bao",
        ("bao_tou", "gang_kai"),
        "杠爆：当牌型成为敲响胡时，如果有人打了一张牌，你可以杠，这时你就可以杠敲和牌。（计爆头×杠开，不再分开计）",
    ),
)

OPTIONS = (
    Option("unit", 1, (2, 5, 10), "option.jinhua.unit", chinese="一倍的分值"),
    Option(PENG_PENG_HU_EXPOSED, 0, (1,), "option.jinhua.peng_peng_hu_exposed", chinese="碰碰胡要碰出"),
)
