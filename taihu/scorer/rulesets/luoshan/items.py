"""Luoshan 螺山: the items, exclusions and house options of docs/rules/luoshan.md, as data in its order."""

from __future__ import annotations

from ... import tiles as T
from ...engine import KONG, PUNG, Group, ReadingFacts
from ...said import phrase
from .. import interface as I
from ..interface import FOUND, NONE, ONE, WINNER_ONLY, Exclusion, Item, Kind, Variant
from .hand import ROW, SETS, LuoshanHand

# How its items count: hu × 2^tai, or a special hand's fixed total (in hu)
HU, TAI, TOTAL = Kind("hu", "hu"), Kind("tai", "tai"), Kind("total", "hu")

# the texts of the details found for every reading (taihu/scorer/said.py)
COMPLETED_BY_DISCARD = phrase("detail.completed_by_discard", "group", "tile")
COMPLETED_BY_SELF_DRAW = phrase("detail.completed_by_self_draw", "group", "tile")
COMPLETES_PAIR = phrase("detail.completes_pair", "tile", "group")
PING_HE = phrase("detail.luoshan.ping_he", "tile", "group")
PING_HE_ONE_SUIT = phrase("detail.luoshan.ping_he_one_suit", "tile", "group", "suit")
STAND_IN_PUNG = phrase("detail.luoshan.stand_in_pung", "group")
TAI_KONG_DRAW = phrase("detail.luoshan.tai_kong_draw")
TAI_NO_CHOWS = phrase("detail.luoshan.tai_no_chows")
TAI_ONE_SUIT = phrase("detail.luoshan.tai_one_suit", "suit")
TAI_ONE_SUIT_NO_CHOWS = phrase("detail.luoshan.tai_one_suit_no_chows", "suit")
TAI_SUIT_AND_HONORS = phrase("detail.luoshan.tai_suit_and_honors", "suit")

# -- hu items ------------------------------------------------------------------


# the row of a pung's or kong's hu by kind: 2–8, or 1, 9, winds, dragons
MELD_TEXT = "{simple} / {terminal}"
TAI_TEXT = "value.luoshan.tai"


# The meld and wait finders yield the group in the detail's place; `describe` words it, only for the reading
# that scores best (`RuleSet.score`).
Occurrences = list[tuple[Variant, Group]]


def peng(hand: LuoshanHand, facts: ReadingFacts) -> Occurrences:
    """Exposed pungs, and the pung a discard completed (Decision: it counts as exposed)."""
    out: Occurrences = []
    for i, g in facts.pungs:
        if g.exposed or (i == facts.win_at and not hand.self_drawn):
            out.append((ROW[g.kind], g))
    return out


def peng_detail(hand: LuoshanHand, facts: ReadingFacts | None, g: Group) -> str:
    if g.exposed:
        return STAND_IN_PUNG(g.text()) if g.wilds else g.text()
    return COMPLETED_BY_DISCARD(g.text(), T.name(hand.win))


def group_detail(hand: LuoshanHand, facts: ReadingFacts | None, g: Group) -> str:
    return g.text()


def an_ke(hand: LuoshanHand, facts: ReadingFacts) -> Occurrences:
    """Concealed pungs the winning tile did not complete (that one is peng or zi_mo_liu)."""
    win_at = facts.win_at
    out: Occurrences = []
    for i, g in facts.pungs:
        if not g.exposed and i != win_at:
            out.append((ROW[g.kind], g))
    return out


def _kongs(concealed: bool) -> I.Finder:
    def find(hand: LuoshanHand, facts: ReadingFacts) -> Occurrences:
        out: Occurrences = []
        for g in facts.kongs:
            if g.concealed_kong == concealed:
                out.append((ROW[g.kind], g))
        return out

    return find


def dui_zi(hand: LuoshanHand, facts: ReadingFacts) -> Occurrences:
    out: Occurrences = []
    for g in facts.pairs:
        if g.kind in hand.honored:
            out.append((ONE, g))
    return out


def zi_mo_liu(hand: LuoshanHand, facts: ReadingFacts) -> Occurrences:
    if facts.wait != "pung" or not hand.self_drawn:
        return []
    group = facts.groups[facts.win_at]
    return [(ROW[group.kind], group)]


def zi_mo_liu_detail(hand: LuoshanHand, facts: ReadingFacts | None, group: Group) -> str:
    return COMPLETED_BY_SELF_DRAW(group.text(), T.name(hand.win))


def diao_tou(hand: LuoshanHand, facts: ReadingFacts) -> Occurrences:
    if facts.wait != "pair":
        return []
    group = facts.groups[facts.win_at]
    how = "self_" if hand.self_drawn else "discard_"
    return [(how + ROW[group.kind], group)]


def diao_tou_detail(hand: LuoshanHand, facts: ReadingFacts | None, group: Group) -> str:
    return COMPLETES_PAIR(T.name(hand.win), group.text())


def bian_qian(hand: LuoshanHand, facts: ReadingFacts) -> Occurrences:
    wait = facts.wait
    if wait not in ("edge", "closed"):
        return []
    return [("self" if hand.self_drawn else "discard", facts.groups[facts.win_at])]


def bian_qian_detail(hand: LuoshanHand, facts: ReadingFacts, group: Group) -> str:
    return WAIT_DETAIL[facts.wait](T.name(facts.win_as), group.text())


WAIT_DETAIL = {
    "edge": phrase("detail.luoshan.edge_wait", "tile", "group"),
    "closed": phrase("detail.luoshan.closed_wait", "tile", "group"),
}


def di_he(hand: LuoshanHand, facts: None) -> list[tuple[Variant, str]]:
    return FOUND


# -- tai items (value in tai, said in detail) ------------------------------------


def jian_feng_ke(hand: LuoshanHand, facts: ReadingFacts) -> Occurrences:
    honored = hand.honored
    out: Occurrences = []
    for g in facts.groups:  # in the order of the reading
        if g.kind in honored and (g.shape == PUNG or g.shape == KONG):
            out.append((ONE, g))
    return out


def jian_feng_ke_detail(hand: LuoshanHand, facts: ReadingFacts | None, g: Group) -> str:
    return (TAI_KONG if g.shape == KONG else TAI_PUNG)(T.name(g.kind))


TAI_KONG, TAI_PUNG = phrase("detail.luoshan.tai_kong", "tile"), phrase("detail.luoshan.tai_pung", "tile")


def dui_dui_hu(hand: LuoshanHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    return NONE if facts.chows else [(ONE, TAI_NO_CHOWS())]


def cou_yi_tai(hand: LuoshanHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    suit = facts.suit
    return [(ONE, TAI_SUIT_AND_HONORS(suit))] if suit and facts.honors else NONE


def gang_kai(hand: LuoshanHand, facts: None) -> list[tuple[Variant, str]]:
    return [(ONE, TAI_KONG_DRAW())] if hand.has("kong-draw") else NONE


def qing_san_tai(hand: LuoshanHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    suit = facts.one_suit
    return [(ONE, TAI_ONE_SUIT(suit))] if suit else NONE


def qing_si_tai(hand: LuoshanHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    suit = facts.one_suit
    return [(ONE, TAI_ONE_SUIT_NO_CHOWS(suit))] if suit and not facts.chows else NONE


# -- special hands (fixed totals) ----------------------------------------------------


def _ping_he(facts: ReadingFacts, suit: str = "") -> str:
    """平和: four chows + pair and a two-sided wait; the detail (with the one suit, if given), or ''."""
    if facts.chows != SETS or facts.wait != "two-sided":
        return ""
    tile, group = T.name(facts.win_as), facts.groups[facts.win_at].text()
    if suit:
        return PING_HE_ONE_SUIT(tile, group, suit)
    return PING_HE(tile, group)


def ping_he(hand: LuoshanHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    detail = _ping_he(facts)
    return [(ONE, detail)] if detail else NONE


def qing_san_tai_ping_he(hand: LuoshanHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    suit = facts.one_suit
    detail = _ping_he(facts, suit) if suit else ""
    return [(ONE, detail)] if detail else NONE


PUNGS, KONGS = ("pungs",), ("kongs",)  # the facts the meld items read, and their gates
WAIT = ("wait", "win_at", "groups")  # what the wait items read
ITEMS = (
    # Base hu (基本和数)
    Item(
        "peng",
        "碰",
        "Exposed pung",
        {"simple": 2, "terminal": 4},
        HU,
        WINNER_ONLY,
        peng,
        "value.luoshan.meld",
        reads=(*PUNGS, "win_at"),
        gate=PUNGS,
        describe=peng_detail,
    ),
    Item(
        "an_ke",
        "暗刻",
        "Concealed pung",
        {"simple": 4, "terminal": 8},
        HU,
        WINNER_ONLY,
        an_ke,
        MELD_TEXT,
        reads=(*PUNGS, "win_at"),
        gate=PUNGS,
        describe=group_detail,
    ),
    Item(
        "ming_gang",
        "明杠",
        "Open kong",
        {"simple": 8, "terminal": 16},
        HU,
        WINNER_ONLY,
        _kongs(False),
        MELD_TEXT,
        reads=KONGS,
        gate=KONGS,
        describe=group_detail,
    ),
    Item(
        "an_gang",
        "暗杠",
        "Concealed kong",
        {"simple": 16, "terminal": 32},
        HU,
        WINNER_ONLY,
        _kongs(True),
        MELD_TEXT,
        reads=KONGS,
        gate=KONGS,
        describe=group_detail,
    ),
    Item(
        "dui_zi",
        "对子",
        "Pair of a dragon or seat wind",
        2,
        HU,
        WINNER_ONLY,
        dui_zi,
        reads=("pairs", "honors"),
        gate=("honors",),
        describe=group_detail,
    ),
    Item(
        "zi_mo_liu",
        "自摸六/十",
        "Self-drawn tile completes a pung",
        {"simple": 6, "terminal": 10},
        HU,
        WINNER_ONLY,
        zi_mo_liu,
        MELD_TEXT,
        reads=WAIT,
        gate=("wait_pung",),
        describe=zi_mo_liu_detail,
    ),
    Item(
        "diao_tou",
        "吊头",
        "Pair wait",
        {"self_simple": 4, "self_terminal": 6, "discard_simple": 2, "discard_terminal": 4},
        HU,
        WINNER_ONLY,
        diao_tou,
        "value.luoshan.diao_tou",
        reads=WAIT,
        gate=("wait_pair",),
        describe=diao_tou_detail,
    ),
    Item(
        "bian_qian",
        "边张/嵌张",
        "Edge or closed wait",
        {"self": 4, "discard": 2},
        HU,
        WINNER_ONLY,
        bian_qian,
        "value.luoshan.bian_qian",
        reads=(*WAIT, "win_as"),
        gate=("wait_edge", "wait_closed"),
        describe=bian_qian_detail,
    ),
    Item("di_he", "底和", "Base for winning", 10, HU, WINNER_ONLY, di_he, "+{}"),
    # Tai (台): each doubles the hu
    Item(
        "jian_feng_ke",
        "大料/座风刻",
        "Pung/kong of a dragon or seat wind",
        1,
        TAI,
        WINNER_ONLY,
        jian_feng_ke,
        "value.luoshan.tai_each",
        reads=("groups", "honors"),
        gate=("honors",),
        describe=jian_feng_ke_detail,
    ),
    Item(
        "dui_dui_hu",
        "对对胡",
        "No chows",
        1,
        TAI,
        WINNER_ONLY,
        dui_dui_hu,
        TAI_TEXT,
        reads=("chows",),
        gate=("no_chows",),
    ),
    Item(
        "cou_yi_tai",
        "凑一台",
        "One suit plus honors",
        1,
        TAI,
        WINNER_ONLY,
        cou_yi_tai,
        TAI_TEXT,
        reads=("suit", "honors"),
        gate=("one_suit_honors",),
    ),
    Item("gang_kai", "杠开", "Won on a kong replacement", 1, TAI, WINNER_ONLY, gang_kai, TAI_TEXT),
    Item(
        "qing_san_tai",
        "清三台",
        "One suit only",
        3,
        TAI,
        WINNER_ONLY,
        qing_san_tai,
        TAI_TEXT,
        reads=("one_suit",),
        gate=("one_suit",),
    ),
    Item(
        "qing_si_tai",
        "清四台",
        "One suit only, no chows",
        4,
        TAI,
        WINNER_ONLY,
        qing_si_tai,
        TAI_TEXT,
        reads=("one_suit", "chows"),
        gate=("one_suit",),
    ),
    # Special hands: a fixed total instead of the formula
    Item(
        "ping_he",
        "平和",
        "Four chows, two-sided wait",
        30,
        TOTAL,
        WINNER_ONLY,
        ping_he,
        "value.luoshan.total",
        reads=(*WAIT, "win_as", "chows"),
        gate=("four_chows",),
    ),
    Item(
        "qing_san_tai_ping_he",
        "清三台平和",
        "平和 in one suit",
        240,
        TOTAL,
        WINNER_ONLY,
        qing_san_tai_ping_he,
        "value.luoshan.total",
        reads=(*WAIT, "win_as", "chows", "one_suit"),
        gate=("four_chows",),
    ),
)

EXCLUSIONS = (
    Exclusion("qing_si_tai", ("qing_san_tai", "dui_dui_hu"), "清四台：同时符合对对胡和清三台的，称“清四台”，计四台。"),
    Exclusion(
        "ping_he",
        ("di_he", "dui_zi", "cou_yi_tai"),
        "和牌类型①（123/123/123/123/11），且和的牌不是吊头、边张、嵌张，称“平和”，算30胡。",
    ),
    Exclusion(
        "qing_san_tai_ping_he",
        ("ping_he", "di_he", "dui_zi", "qing_san_tai"),
        "符合平和的条件，且为清三台，称“清三台平和”，则算240和。",
    ),
)
