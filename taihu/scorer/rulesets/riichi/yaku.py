"""The yaku and yakuman of rules/riichi.md, each declared once as data beside its check.

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
from .hand import RiichiHand

STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS = "standard", "seven pairs", "thirteen orphans"
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
GREEN_KINDS = frozenset({19, 20, 21, 23, 25, T.GREEN})  # 2 3 4 6 8s, 发
DRAGON_KINDS = (T.RED, T.GREEN, T.WHITE)
RYANMEN, KANCHAN, PENCHAN, TANKI, SHANPON = "two-sided", "closed", "edge", "pair", "pung"


class View:
    """One reading of a winning hand: its groups (melds included) and the group the winning tile completed."""

    __slots__ = ("hand", "shape", "groups", "win_group", "wait", "chows", "triplets", "pair", "concealed_triplets")

    def __init__(self, hand: RiichiHand, shape: str, groups: tuple[Group, ...], win_index: int) -> None:
        self.hand = hand
        self.shape = shape
        self.groups = groups
        self.win_group = groups[win_index] if win_index >= 0 else None
        self.wait = _wait(self.win_group, hand.win)
        self.chows = [g.kind for g in groups if g.shape == CHOW]
        self.triplets = [g for g in groups if g.is_triplet]
        pairs = [g.kind for g in groups if g.shape == PAIR]
        self.pair = pairs[0] if shape == STANDARD else -1
        # a pung completed by the winning tile on a discard is not concealed
        self.concealed_triplets = sum(
            1 for i, g in enumerate(groups) if g.is_triplet and not g.exposed and not self.claimed(i)
        )

    def claimed(self, index: int) -> bool:
        """Whether group `index` is the pung the winning tile completed on a discard (it then counts as open)."""
        group = self.groups[index]
        return not self.hand.tsumo and group is self.win_group and group.shape != CHOW and group.shape != PAIR


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


@dataclass(frozen=True)
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
    return None if any(hand.counts[k] for k in ORPHANS) else YES


def iipeikou(view: View) -> str | None:
    return YES if view.hand.closed and _identical_chow_pairs(view) >= 1 else None


def ryanpeikou(view: View) -> str | None:
    return YES if view.hand.closed and _identical_chow_pairs(view) >= 2 else None


def _identical_chow_pairs(view: View) -> int:
    return sum(view.chows.count(k) // 2 for k in set(view.chows))


def _yakuhai(kind: int) -> Check:
    def check(view: View) -> str | None:
        return T.name(kind) if any(g.kind == kind for g in view.triplets) else None

    return check


def _wind_detail(view: View, wind: int) -> str | None:
    if not any(g.kind == wind for g in view.triplets):
        return None
    both = view.hand.seat_wind == view.hand.round_wind
    return f"{T.name(wind)}: seat and round" if both else T.name(wind)


def yakuhai_seat_wind(view: View) -> str | None:
    return _wind_detail(view, view.hand.seat_wind)


def yakuhai_round_wind(view: View) -> str | None:
    return _wind_detail(view, view.hand.round_wind)


def haitei(view: View) -> str | None:
    return YES if view.hand.has("last-tile") and view.hand.tsumo else None


def houtei(view: View) -> str | None:
    return YES if view.hand.has("last-tile") and not view.hand.tsumo else None


def sanshoku(view: View) -> str | None:
    starts = set(view.chows)
    return next((f"{k + 1}{k + 2}{k + 3}" for k in range(7) if {k, k + 9, k + 18} <= starts), None)


def ittsu(view: View) -> str | None:
    starts = set(view.chows)
    return next(("mps"[s // 9] for s in (0, 9, 18) if {s, s + 3, s + 6} <= starts), None)


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
    outside, honors = _outside(view)
    return YES if outside and honors else None


def junchan(view: View) -> str | None:
    outside, honors = _outside(view)
    return YES if outside and not honors else None


def chiitoitsu(view: View) -> str | None:
    return YES if view.shape == SEVEN_PAIRS else None


def toitoi(view: View) -> str | None:
    return YES if len(view.triplets) == 4 else None


def sanankou(view: View) -> str | None:
    return YES if view.concealed_triplets == 3 else None


def sanshoku_doukou(view: View) -> str | None:
    kinds = {g.kind for g in view.triplets}
    return next((f"{r + 1}" for r in range(9) if {r, r + 9, r + 18} <= kinds), None)


def sankantsu(view: View) -> str | None:
    return YES if view.hand.kongs == 3 else None


def honroutou(view: View) -> str | None:
    counts = view.hand.counts
    return YES if sum(counts[k] for k in ORPHANS) == sum(counts[: T.PLAYABLE]) else None


def _dragon_sets(view: View) -> tuple[int, bool]:
    """(dragon pungs/kongs, whether the pair is a dragon)."""
    return sum(g.kind in DRAGON_KINDS for g in view.triplets), view.pair in DRAGON_KINDS


def shousangen(view: View) -> str | None:
    return YES if _dragon_sets(view) == (2, True) else None


def _suits(view: View) -> tuple[int, bool]:
    """(number of suits, honors present) over every tile of the hand."""
    counts = view.hand.counts
    suits = sum(1 for s in (0, 9, 18) if any(counts[s : s + 9]))
    return suits, any(counts[27:34])


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
    return sum(T.is_wind(g.kind) for g in view.triplets), T.is_wind(view.pair)


def shousuushii(view: View) -> str | None:
    return YES if _wind_sets(view) == (3, True) else None


def daisuushii(view: View) -> str | None:
    return YES if _wind_sets(view)[0] == 4 else None


def tsuuiisou(view: View) -> str | None:
    counts = view.hand.counts
    return YES if not any(counts[:27]) else None


def chinroutou(view: View) -> str | None:
    counts = view.hand.counts
    terminals = sum(counts[k] for k in ORPHANS[:6])
    return YES if terminals == sum(counts[: T.PLAYABLE]) else None


def ryuuiisou(view: View) -> str | None:
    counts = view.hand.counts
    return YES if all(k in GREEN_KINDS for k in range(T.PLAYABLE) if counts[k]) else None


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
    Yaku("riichi", "立直", "Riichi", 1, None, riichi),
    Yaku("double_riichi", "两立直", "Double riichi", 2, None, _flag("double-riichi")),
    Yaku("ippatsu", "一发", "One-shot", 1, None, _flag("ippatsu")),
    Yaku("menzen_tsumo", "门清自摸", "Fully concealed self-draw", 1, None, menzen_tsumo),
    Yaku("pinfu", "平和", "Pinfu (no-fu hand)", 1, None, pinfu),
    Yaku("tanyao", "断幺", "All simples", 1, 1, tanyao),
    Yaku("iipeikou", "一杯口", "Pure double sequence", 1, None, iipeikou),
    Yaku("yakuhai_haku", "役牌 白", "White dragon pung", 1, 1, _yakuhai(T.WHITE)),
    Yaku("yakuhai_hatsu", "役牌 发", "Green dragon pung", 1, 1, _yakuhai(T.GREEN)),
    Yaku("yakuhai_chun", "役牌 中", "Red dragon pung", 1, 1, _yakuhai(T.RED)),
    Yaku("yakuhai_seat_wind", "役牌 自风", "Seat wind pung", 1, 1, yakuhai_seat_wind),
    Yaku("yakuhai_round_wind", "役牌 场风", "Round wind pung", 1, 1, yakuhai_round_wind),
    Yaku("haitei", "海底摸月", "Win on the last wall tile", 1, 1, haitei),
    Yaku("houtei", "河底捞鱼", "Win on the last discard", 1, 1, houtei),
    Yaku("rinshan", "岭上开花", "Win on a kong replacement", 1, 1, _flag("kong-draw")),
    Yaku("chankan", "抢杠", "Robbing a kong", 1, 1, _flag("rob-kong")),
    Yaku("sanshoku", "三色同顺", "Mixed triple sequence", 2, 1, sanshoku),
    Yaku("ittsu", "一气通贯", "Pure straight", 2, 1, ittsu),
    Yaku("chanta", "全带幺", "Half outside hand", 2, 1, chanta),
    Yaku("chiitoitsu", "七对子", "Seven pairs", 2, None, chiitoitsu),
    Yaku("toitoi", "对对和", "All pungs", 2, 2, toitoi),
    Yaku("sanankou", "三暗刻", "Three concealed pungs", 2, 2, sanankou),
    Yaku("sanshoku_doukou", "三色同刻", "Triple pung", 2, 2, sanshoku_doukou),
    Yaku("sankantsu", "三杠子", "Three kongs", 2, 2, sankantsu),
    Yaku("honroutou", "混老头", "All terminals and honors", 2, 2, honroutou),
    Yaku("shousangen", "小三元", "Little three dragons", 2, 2, shousangen),
    Yaku("honitsu", "混一色", "Half flush", 3, 2, honitsu),
    Yaku("junchan", "纯全带幺", "Fully outside hand", 3, 2, junchan),
    Yaku("ryanpeikou", "两杯口", "Twice pure double sequence", 3, None, ryanpeikou),
    Yaku("chinitsu", "清一色", "Full flush", 6, 5, chinitsu),
    Yaku("renhou", "人和", "Blessing of man", 5, None, renhou, yakuman_option="renhou_yakuman"),
    # yakuman
    Yaku("kokushi_musou", "国士无双", "Thirteen orphans", 13, None, kokushi_musou, yakuman=True),
    Yaku(
        "kokushi_musou_13",
        "国士无双十三面",
        "Thirteen orphans, 13-sided wait",
        26,
        None,
        kokushi_musou_13,
        yakuman=True,
        double=True,
    ),
    Yaku("suuankou", "四暗刻", "Four concealed pungs", 13, None, suuankou, yakuman=True),
    Yaku(
        "suuankou_tanki",
        "四暗刻单骑",
        "Four concealed pungs, pair wait",
        26,
        None,
        suuankou_tanki,
        yakuman=True,
        double=True,
    ),
    Yaku("daisangen", "大三元", "Big three dragons", 13, 13, daisangen, yakuman=True),
    Yaku("shousuushii", "小四喜", "Little four winds", 13, 13, shousuushii, yakuman=True),
    Yaku("daisuushii", "大四喜", "Big four winds", 26, 26, daisuushii, yakuman=True, double=True),
    Yaku("tsuuiisou", "字一色", "All honors", 13, 13, tsuuiisou, yakuman=True),
    Yaku("chinroutou", "清老头", "All terminals", 13, 13, chinroutou, yakuman=True),
    Yaku("ryuuiisou", "绿一色", "All green", 13, 13, ryuuiisou, yakuman=True),
    Yaku("chuuren_poutou", "九莲宝灯", "Nine gates", 13, None, chuuren_poutou, yakuman=True),
    Yaku(
        "junsei_chuuren_poutou",
        "纯正九莲宝灯",
        "Nine gates, 9-sided wait",
        26,
        None,
        junsei_chuuren_poutou,
        yakuman=True,
        double=True,
    ),
    Yaku("suukantsu", "四杠子", "Four kongs", 13, 13, suukantsu, yakuman=True),
    Yaku("tenhou", "天和", "Blessing of heaven", 13, None, _flag("heaven"), yakuman=True),
    Yaku("chiihou", "地和", "Blessing of earth", 13, None, _flag("earth"), yakuman=True),
)

# when the first is scored, the others are not (the page's "replaces")
EXCLUSIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ryanpeikou", ("iipeikou",)),
    ("junchan", ("chanta",)),
    ("chinitsu", ("honitsu",)),
    ("daisangen", ("shousangen",)),
    ("kokushi_musou_13", ("kokushi_musou",)),
    ("suuankou_tanki", ("suuankou",)),
    ("junsei_chuuren_poutou", ("chuuren_poutou",)),
)
REMOVES: dict[str, frozenset[str]] = {present: frozenset(gone) for present, gone in EXCLUSIONS}
BY_KEY = {y.key: y for y in YAKU}
