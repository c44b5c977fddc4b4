"""The yaku and yakuman of docs/rules/riichi.md, each declared once as data beside its check.

A check takes one `View` (a grouping of the tiles with the place of the
winning tile) and answers a detail string when the yaku is there, None when
it is not. Which yaku replace which is data too (`EXCLUSIONS`); that a
yakuman leaves only yakuman is the rule `yakuman` below, not a list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ... import tiles as T
from ...engine import CHOW, PAIR, Group
from ...said import said
from ..interface import Exclusion
from ..rule_data import exclusion_problems
from .hand import ALL_GREEN, ALL_ORPHANS, CLOSED, NO_ORPHANS, ONE_SUIT, THREE_KONGS, RiichiHand

STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS = "standard", "seven pairs", "thirteen orphans"
DRAGON_KINDS = (T.RED, T.GREEN, T.WHITE)
RYANMEN, KANCHAN, PENCHAN, TANKI, SHANPON = "two-sided", "closed", "edge", "pair", "pung"
# facts of a reading that yaku need (`Yaku.needs`): a reading without the fact skips the check
CHOWS, THREE_CHOWS, OUTSIDE = "chows", "three chows", "outside"  # outside: chows and ≥ 5 terminals/honors
THREE_TRIPLETS, FOUR_TRIPLETS = "three triplets", "four triplets"
HONOR_TRIPLETS, DRAGON_TRIPLETS, WIND_TRIPLETS = "honor triplets", "dragon triplets", "wind triplets"
NINE_GATES = "one suit, closed, no kong"


class View:
    """One reading of a winning hand: its groups (melds included) and the group the winning tile completed."""

    __slots__ = (
        "hand",
        "shape",
        "groups",
        "win_group",
        "wait",
        "chows",
        "triplets",
        "pair",
        "concealed_triplets",
        "honor_triplets",
        "dragon_triplets",
        "wind_triplets",
        "has",
        "outside",
    )

    def __init__(self, hand: RiichiHand, shape: str, groups: tuple[Group, ...], win_index: int) -> None:
        self.hand = hand
        self.shape = shape
        self.groups = groups
        win_group = self.win_group = groups[win_index] if win_index >= 0 else None
        self.wait = _wait(win_group, hand.win)
        chows: list[int] = []
        triplets: list[Group] = []
        honors: list[int] = []  # the kinds of its honor pungs and kongs (what yakuhai read)
        dragons = winds = concealed = 0
        pair = -1
        for group in groups:
            shape_of = group.shape
            if shape_of == CHOW:
                chows.append(group.kind)
            elif shape_of == PAIR:
                pair = group.kind
            else:
                triplets.append(group)
                if group.kind >= T.EAST:
                    honors.append(group.kind)
                    if group.kind >= T.RED:  # the winds come before the dragons
                        dragons += 1
                    else:
                        winds += 1
                # a pung completed by the winning tile on a discard is not concealed
                concealed += not group.exposed and (hand.tsumo or group is not win_group)
        self.chows = chows
        self.triplets = triplets
        self.pair = pair if shape == STANDARD else -1
        self.concealed_triplets = concealed
        self.honor_triplets = honors
        self.dragon_triplets = dragons
        self.wind_triplets = winds
        # the facts of the reading the yaku's `needs` name: a yaku whose need is not there is not looked for
        has = {"", shape}
        if chows:
            has.add(CHOWS)
            if len(chows) >= 3:
                has.add(THREE_CHOWS)
            if hand.orphans >= 5:
                has.add(OUTSIDE)
        if len(triplets) >= 3:
            has.add(THREE_TRIPLETS)
            if len(triplets) == 4:
                has.add(FOUR_TRIPLETS)
        if honors:
            has.add(HONOR_TRIPLETS)
            if winds:
                has.add(WIND_TRIPLETS)
            if dragons:
                has.add(DRAGON_TRIPLETS)
        if hand.suits == 1 and not hand.honors and not hand.melds and shape == STANDARD:
            has.add(NINE_GATES)
        self.has = frozenset(has)
        # (every group holds a terminal or an honor, with a chow; some group is honors): chanta and junchan
        self.outside = _outside(self) if OUTSIDE in has else (False, False)


def _wait(group: Group | None, win: int) -> str:
    if group is None:
        return ""
    if group.shape == PAIR:
        return TANKI
    if group.shape != CHOW:
        return SHANPON
    if win == group.kind + 1:
        return KANCHAN
    if (win == group.kind + 2 and group.kind % 9 == 0) or (win == group.kind and group.kind % 9 == 6):
        return PENCHAN
    return RYANMEN


Check = Callable[[View], "str | None"]


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: each yaku exists once
class Yaku:
    """One yaku or yakuman of the page: key, names, han closed / open (None: closed only), and its check.

    A yakuman's han are 13 per yakuman (26 for a ×2, which is 13 under
    `double_yakuman=0`); `yakuman_option` names the house option that makes
    a yaku a yakuman (`renhou_yakuman`).
    """

    key: str
    name: str
    name_en: str
    closed: int
    open: int | None
    check: Check
    yakuman: bool = False
    double: bool = False
    yakuman_option: str = ""
    per_reading: bool = True  # False: the answer is the same for every reading of the hand (found once)
    # a fact without which the check cannot answer yes: of the reading (`View.has`), or for a yaku found
    # once per hand, a condition written or a fact of the tiles (`RiichiHand.facts`); "" always holds
    needs: str = ""


YES = ""  # a check's answer when the yaku is there with no detail of its own


def _flag(flag: str) -> Check:
    def check(view: View) -> str | None:
        return YES if view.hand.has(flag) else None

    return check


def riichi(view: View) -> str | None:
    return YES if view.hand.has("riichi") else None


def menzen_tsumo(view: View) -> str | None:
    return YES if view.hand.closed and view.hand.tsumo else None


def pinfu(view: View) -> str | None:
    hand = view.hand
    if not hand.closed or view.shape != STANDARD or len(view.chows) != 4 or view.wait != RYANMEN:
        return None
    if hand.tsumo and not hand.options["pinfu_tsumo"]:
        return None
    return None if _valued(hand, view.pair) else YES


def _valued(hand: RiichiHand, kind: int) -> bool:
    return kind in DRAGON_KINDS or kind == hand.seat_wind or kind == hand.round_wind


def tanyao(view: View) -> str | None:
    hand = view.hand
    if not (hand.closed or hand.options["kuitan"]):
        return None
    return None if hand.orphans else YES


def iipeikou(view: View) -> str | None:
    chows = view.chows
    return YES if view.hand.closed and len(set(chows)) < len(chows) else None


def ryanpeikou(view: View) -> str | None:
    """Two pairs of identical chows (four alike count): the four sorted chows pair up."""
    chows = sorted(view.chows)
    return YES if view.hand.closed and len(chows) == 4 and chows[0] == chows[1] and chows[2] == chows[3] else None


def _yakuhai(kind: int) -> Check:
    name = T.name(kind)

    def check(view: View) -> str | None:
        return name if kind in view.honor_triplets else None

    return check


def _wind_detail(view: View, wind: int) -> str | None:
    if wind not in view.honor_triplets:
        return None
    both = view.hand.seat_wind == view.hand.round_wind
    return said("detail.riichi.seat_and_round", wind=T.name(wind)) if both else T.name(wind)


def yakuhai_seat_wind(view: View) -> str | None:
    return _wind_detail(view, view.hand.seat_wind)


def yakuhai_round_wind(view: View) -> str | None:
    return _wind_detail(view, view.hand.round_wind)


def haitei(view: View) -> str | None:
    return YES if view.hand.has("last-tile") and view.hand.tsumo else None


def houtei(view: View) -> str | None:
    return YES if view.hand.has("last-tile") and not view.hand.tsumo else None


def sanshoku(view: View) -> str | None:
    """Three of the (at most four) chows: at most one run can be in all three suits."""
    chows = view.chows
    for k in chows:
        if k < 7 and k + 9 in chows and k + 18 in chows:
            return f"{k + 1}{k + 2}{k + 3}"
    return None


def ittsu(view: View) -> str | None:
    """Three of the (at most four) chows: at most one suit can hold 123 456 789."""
    chows = view.chows
    for s in chows:
        if s % 9 == 0 and s + 3 in chows and s + 6 in chows:
            return "mps"[s // 9]
    return None


def _outside(view: View) -> tuple[bool, bool]:
    """(every group holds a terminal or an honor with at least one chow, some group is honors)."""
    if view.shape != STANDARD or not view.chows:
        return False, False
    honors = False
    for group in view.groups:
        kinds = group.kinds
        if T.is_honor(kinds[0]):
            honors = True
        elif T.rank(kinds[0]) != 1 and T.rank(kinds[-1]) != 9:
            return False, False
    return True, honors


def chanta(view: View) -> str | None:
    outside, honors = view.outside
    return YES if outside and honors else None


def junchan(view: View) -> str | None:
    outside, honors = view.outside
    return YES if outside and not honors else None


def chiitoitsu(view: View) -> str | None:
    return YES if view.shape == SEVEN_PAIRS else None


def toitoi(view: View) -> str | None:
    return YES if len(view.triplets) == 4 else None


def sanankou(view: View) -> str | None:
    return YES if view.concealed_triplets == 3 else None


def sanshoku_doukou(view: View) -> str | None:
    """Three of the (at most four) pungs: at most one rank can be pung in all three suits."""
    kinds = []
    for group in view.triplets:  # a loop: a comprehension is a call in Python 3.11
        kinds.append(group.kind)
    for r in kinds:
        if r < 9 and r + 9 in kinds and r + 18 in kinds:
            return f"{r + 1}"
    return None


def sankantsu(view: View) -> str | None:
    return YES if view.hand.kongs == 3 else None


def honroutou(view: View) -> str | None:
    return YES if view.hand.orphans == view.hand.size else None


def _dragon_sets(view: View) -> tuple[int, bool]:
    """(dragon pungs/kongs, whether the pair is a dragon)."""
    return view.dragon_triplets, view.pair in DRAGON_KINDS


def shousangen(view: View) -> str | None:
    return YES if _dragon_sets(view) == (2, True) else None


def _suits(view: View) -> tuple[int, bool]:
    """(number of suits, honors present) over every tile of the hand."""
    return view.hand.suits, view.hand.honors


def honitsu(view: View) -> str | None:
    return YES if _suits(view) == (1, True) else None


def chinitsu(view: View) -> str | None:
    return YES if _suits(view) == (1, False) else None


# -- yakuman ------------------------------------------------------------------------


def kokushi_musou(view: View) -> str | None:
    return YES if view.shape == THIRTEEN_ORPHANS else None


def kokushi_musou_13(view: View) -> str | None:
    """The winning tile is the paired one: the hand waited on all thirteen."""
    return YES if view.shape == THIRTEEN_ORPHANS and view.hand.counts[view.hand.win] == 2 else None


def suuankou(view: View) -> str | None:
    return YES if view.hand.closed and view.concealed_triplets == 4 else None


def suuankou_tanki(view: View) -> str | None:
    return YES if suuankou(view) is not None and view.wait == TANKI else None


def daisangen(view: View) -> str | None:
    return YES if _dragon_sets(view)[0] == 3 else None


def _wind_sets(view: View) -> tuple[int, bool]:
    return view.wind_triplets, T.is_wind(view.pair)


def shousuushii(view: View) -> str | None:
    return YES if _wind_sets(view) == (3, True) else None


def daisuushii(view: View) -> str | None:
    return YES if _wind_sets(view)[0] == 4 else None


def tsuuiisou(view: View) -> str | None:
    return YES if view.hand.suits == 0 else None


def chinroutou(view: View) -> str | None:
    hand = view.hand
    return YES if hand.orphans == hand.size and not hand.honors else None


def ryuuiisou(view: View) -> str | None:
    return YES if ALL_GREEN in view.hand.facts else None


def _nine_gates(view: View) -> bool:
    hand = view.hand
    if hand.melds or view.shape != STANDARD or _suits(view) != (1, False):
        return False
    start = next(s for s in (0, 9, 18) if any(hand.counts[s : s + 9]))
    extra = [c - need for c, need in zip(hand.counts[start : start + 9], (3, 1, 1, 1, 1, 1, 1, 1, 3), strict=True)]
    return min(extra) >= 0 and sum(extra) == 1


def chuuren_poutou(view: View) -> str | None:
    return YES if _nine_gates(view) else None


def junsei_chuuren_poutou(view: View) -> str | None:
    """Nine gates whose 13 tiles before the win were 1112345678999: the winning tile is the extra one."""
    if not _nine_gates(view):
        return None
    count = view.hand.counts[view.hand.win]
    rank = T.rank(view.hand.win)
    return YES if count == (4 if rank in (1, 9) else 2) else None


def suukantsu(view: View) -> str | None:
    return YES if view.hand.kongs == 4 else None


def renhou(view: View) -> str | None:
    return YES if view.hand.has("human") else None


YAKU: tuple[Yaku, ...] = (
    Yaku("riichi", "立直", "Riichi", 1, None, riichi, per_reading=False, needs="riichi"),
    Yaku(
        "double_riichi",
        "两立直",
        "Double riichi",
        2,
        None,
        _flag("double-riichi"),
        per_reading=False,
        needs="double-riichi",
    ),
    Yaku("ippatsu", "一发", "One-shot", 1, None, _flag("ippatsu"), per_reading=False, needs="ippatsu"),
    Yaku(
        "menzen_tsumo", "门清自摸", "Fully concealed self-draw", 1, None, menzen_tsumo, per_reading=False, needs=CLOSED
    ),
    Yaku("pinfu", "平和", "Pinfu (no-fu hand)", 1, None, pinfu, needs=CHOWS),
    Yaku("tanyao", "断幺", "All simples", 1, 1, tanyao, per_reading=False, needs=NO_ORPHANS),
    Yaku("iipeikou", "一杯口", "Pure double sequence", 1, None, iipeikou, needs=CHOWS),
    Yaku("yakuhai_haku", "役牌 白", "White dragon pung", 1, 1, _yakuhai(T.WHITE), needs=HONOR_TRIPLETS),
    Yaku("yakuhai_hatsu", "役牌 发", "Green dragon pung", 1, 1, _yakuhai(T.GREEN), needs=HONOR_TRIPLETS),
    Yaku("yakuhai_chun", "役牌 中", "Red dragon pung", 1, 1, _yakuhai(T.RED), needs=HONOR_TRIPLETS),
    Yaku("yakuhai_seat_wind", "役牌 自风", "Seat wind pung", 1, 1, yakuhai_seat_wind, needs=HONOR_TRIPLETS),
    Yaku("yakuhai_round_wind", "役牌 场风", "Round wind pung", 1, 1, yakuhai_round_wind, needs=HONOR_TRIPLETS),
    Yaku("haitei", "海底摸月", "Win on the last wall tile", 1, 1, haitei, per_reading=False, needs="last-tile"),
    Yaku("houtei", "河底捞鱼", "Win on the last discard", 1, 1, houtei, per_reading=False, needs="last-tile"),
    Yaku(
        "rinshan",
        "岭上开花",
        "Win on a kong replacement",
        1,
        1,
        _flag("kong-draw"),
        per_reading=False,
        needs="kong-draw",
    ),
    Yaku("chankan", "抢杠", "Robbing a kong", 1, 1, _flag("rob-kong"), per_reading=False, needs="rob-kong"),
    Yaku("sanshoku", "三色同顺", "Mixed triple sequence", 2, 1, sanshoku, needs=THREE_CHOWS),
    Yaku("ittsu", "一气通贯", "Pure straight", 2, 1, ittsu, needs=THREE_CHOWS),
    Yaku("chanta", "全带幺", "Half outside hand", 2, 1, chanta, needs=OUTSIDE),
    Yaku("chiitoitsu", "七对子", "Seven pairs", 2, None, chiitoitsu, needs=SEVEN_PAIRS),
    Yaku("toitoi", "对对和", "All pungs", 2, 2, toitoi, needs=FOUR_TRIPLETS),
    Yaku("sanankou", "三暗刻", "Three concealed pungs", 2, 2, sanankou, needs=THREE_TRIPLETS),
    Yaku("sanshoku_doukou", "三色同刻", "Triple pung", 2, 2, sanshoku_doukou, needs=THREE_TRIPLETS),
    Yaku("sankantsu", "三杠子", "Three kongs", 2, 2, sankantsu, per_reading=False, needs=THREE_KONGS),
    Yaku("honroutou", "混老头", "All terminals and honors", 2, 2, honroutou, per_reading=False, needs=ALL_ORPHANS),
    Yaku("shousangen", "小三元", "Little three dragons", 2, 2, shousangen, needs=DRAGON_TRIPLETS),
    Yaku("honitsu", "混一色", "Half flush", 3, 2, honitsu, per_reading=False, needs=ONE_SUIT),
    Yaku("junchan", "纯全带幺", "Fully outside hand", 3, 2, junchan, needs=OUTSIDE),
    Yaku("ryanpeikou", "两杯口", "Twice pure double sequence", 3, None, ryanpeikou, needs=CHOWS),
    Yaku("chinitsu", "清一色", "Full flush", 6, 5, chinitsu, per_reading=False, needs=ONE_SUIT),
    Yaku(
        "renhou",
        "人和",
        "Blessing of man",
        5,
        None,
        renhou,
        yakuman_option="renhou_yakuman",
        per_reading=False,
        needs="human",
    ),
    # yakuman
    Yaku(
        "kokushi_musou", "国士无双", "Thirteen orphans", 13, None, kokushi_musou, yakuman=True, needs=THIRTEEN_ORPHANS
    ),
    Yaku(
        "kokushi_musou_13",
        "国士无双十三面",
        "Thirteen orphans, 13-sided wait",
        26,
        None,
        kokushi_musou_13,
        yakuman=True,
        double=True,
        needs=THIRTEEN_ORPHANS,
    ),
    Yaku("suuankou", "四暗刻", "Four concealed pungs", 13, None, suuankou, yakuman=True, needs=FOUR_TRIPLETS),
    Yaku(
        "suuankou_tanki",
        "四暗刻单骑",
        "Four concealed pungs, pair wait",
        26,
        None,
        suuankou_tanki,
        yakuman=True,
        double=True,
        needs=FOUR_TRIPLETS,
    ),
    Yaku("daisangen", "大三元", "Big three dragons", 13, 13, daisangen, yakuman=True, needs=DRAGON_TRIPLETS),
    Yaku("shousuushii", "小四喜", "Little four winds", 13, 13, shousuushii, yakuman=True, needs=WIND_TRIPLETS),
    Yaku("daisuushii", "大四喜", "Big four winds", 26, 26, daisuushii, yakuman=True, double=True, needs=WIND_TRIPLETS),
    Yaku("tsuuiisou", "字一色", "All honors", 13, 13, tsuuiisou, yakuman=True, per_reading=False, needs=ONE_SUIT),
    Yaku(
        "chinroutou", "清老头", "All terminals", 13, 13, chinroutou, yakuman=True, per_reading=False, needs=ALL_ORPHANS
    ),
    Yaku("ryuuiisou", "绿一色", "All green", 13, 13, ryuuiisou, yakuman=True, per_reading=False, needs=ALL_GREEN),
    Yaku("chuuren_poutou", "九莲宝灯", "Nine gates", 13, None, chuuren_poutou, yakuman=True, needs=NINE_GATES),
    Yaku(
        "junsei_chuuren_poutou",
        "纯正九莲宝灯",
        "Nine gates, 9-sided wait",
        26,
        None,
        junsei_chuuren_poutou,
        yakuman=True,
        double=True,
        needs=NINE_GATES,
    ),
    Yaku("suukantsu", "四杠子", "Four kongs", 13, 13, suukantsu, yakuman=True, per_reading=False, needs=THREE_KONGS),
    Yaku(
        "tenhou",
        "天和",
        "Blessing of heaven",
        13,
        None,
        _flag("heaven"),
        yakuman=True,
        per_reading=False,
        needs="heaven",
    ),
    Yaku(
        "chiihou", "地和", "Blessing of earth", 13, None, _flag("earth"), yakuman=True, per_reading=False, needs="earth"
    ),
)

# A hand with a yakuman scores its yakuman alone (`yakuman` below): the rule, as the rules answer says it
YAKUMAN_RULE = "和了役满时只计役满：不计其他役，也不计宝牌。"
# when the first is scored, the others are not (the page's "replaces")
EXCLUSIONS = (
    Exclusion(
        "ryanpeikou",
        ("iipeikou",),
        "两杯口：门清，两对相同的顺子（四组相同的顺子也算）；取代一杯口。",
    ),
    Exclusion(
        "junchan",
        ("chanta",),
        "纯全带幺九：每组面子和雀头都含老头牌，至少一组顺子，没有字牌（取代混全带幺九）。",
    ),
    Exclusion("chinitsu", ("honitsu",), "清一色：只有一种花色（取代混一色）。"),
    Exclusion("daisangen", ("shousangen",), YAKUMAN_RULE),
    Exclusion(
        "kokushi_musou_13",
        ("kokushi_musou",),
        "国士无双十三面：以十三面听（和牌是成对的那张）和出的国士无双，记两倍役满，取代国士无双。",
    ),
    Exclusion("suuankou_tanki", ("suuankou",), "四暗刻单骑：以单骑听和出的四暗刻，记两倍役满，取代四暗刻。"),
    Exclusion(
        "junsei_chuuren_poutou",
        ("chuuren_poutou",),
        "纯正九莲宝灯：以九面听和出的九莲宝灯，记两倍役满，取代九莲宝灯。",
    ),
)
REMOVES: dict[str, frozenset[str]] = {e.present: frozenset(e.removes) for e in EXCLUSIONS}
BY_KEY = {y.key: y for y in YAKU}
# the yaku are not `Item`s, so the check the `RuleSet` class makes of its exclusions is made here
_UNKNOWN = exclusion_problems(EXCLUSIONS, BY_KEY)
if _UNKNOWN:
    raise TypeError("the rule data of riichi: " + "; ".join(_UNKNOWN))
PER_HAND = tuple(y for y in YAKU if not y.per_reading)
PER_READING = tuple(y for y in YAKU if y.per_reading)
