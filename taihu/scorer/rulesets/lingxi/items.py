"""Lingxi 灵溪: the items, exclusions and house options of docs/rules/lingxi.md, as data in its order."""

from __future__ import annotations

from collections.abc import Mapping

from ... import tiles as T
from ...engine import CHOW, KONG, PUNG, Group, ReadingFacts
from ...said import phrase, said
from .. import interface as I
from ..interface import (
    DECLARED_ONLY,
    EVERY_PLAYER,
    FOUND,
    NON_WINNERS,
    NONE,
    ONE,
    WINNER_ONLY,
    Exclusion,
    Item,
    Kind,
    Option,
    Variant,
    flag_item,
    once,
)
from .hand import FLOWER_GROUPS, LingxiHand, all_flowers, held_text, held_wildcards, sha_zhu_holding

# How its items count: all add up, in tai
BASE_TAI, BONUS_TAI, DECLARED_WIN = Kind("base tai", "tai"), Kind("bonus tai", "tai"), Kind("declared win", "tai")

# the texts of the details found for every reading (taihu/scorer/said.py)
DECLARED_FLOWERS = phrase("detail.lingxi.declared_flowers")
HUA_IN_PLAY = phrase("detail.lingxi.hua_in_play", "tiles")
ONE_SUIT = phrase("detail.one_suit", "suit")
PAIR_AND_WILDCARD = phrase("detail.lingxi.pair_and_wildcard", "pair")
SUIT_AND_HONORS = phrase("detail.suit_and_honors", "suit")
TILE_AND_WILDCARDS = phrase("detail.lingxi.tile_and_wildcards", "tile")
WAITING_ON = phrase("detail.waiting_on", "tile")
WAITING_ON_WILDCARD = phrase("detail.lingxi.waiting_on_wildcard", "tile")

# -- items ---------------------------------------------------------------------


def _groups(hand: LingxiHand, facts: ReadingFacts | None) -> I.Reading:
    """The reading, or for a non-winner its melds and concealed natural triples."""
    if facts is not None:
        return facts.groups
    triples = tuple(Group(PUNG, k) for k in (hand.seat_wind, T.RED, T.GREEN) if hand.naturals[k] >= 3)
    return hand.melds + triples


def _pungs(hand: LingxiHand, facts: ReadingFacts | None, kinds: tuple[int, ...]) -> list[tuple[Variant, str]]:
    return [(ONE, g.text()) for g in _groups(hand, facts) if g.shape == PUNG and g.kind in kinds]


def feng_ke(hand: LingxiHand, facts: ReadingFacts | None) -> list[tuple[Variant, str]]:
    return _pungs(hand, facts, (hand.seat_wind,))


def jian_ke(hand: LingxiHand, facts: ReadingFacts | None) -> list[tuple[Variant, str]]:
    return _pungs(hand, facts, (T.RED, T.GREEN))


HONORED_KONG = 1  # a kong of the seat wind, 中 or 发 scores this much more
KONG_VALUE_TEXT = "value.lingxi.kong"


def _kongs(concealed: bool) -> I.Finder:
    def find(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
        out: list[tuple[Variant, str]] = []
        for g in hand.melds:
            if g.shape == KONG and g.concealed_kong == concealed:
                if g.kind in (hand.seat_wind, T.RED, T.GREEN):
                    out.append((("plain", "honored"), f"{g.text()} +{HONORED_KONG}"))
                else:
                    out.append(("plain", g.text()))
        return out

    return find


def _kong_item(key: str, name: str, name_en: str, plain: int, concealed: bool) -> Item:
    """明杠 and 暗杠 differ only in the plain value: either scores +HONORED_KONG more of the seat wind, 中 or 发."""
    value = {"plain": plain, "honored": HONORED_KONG}
    return Item(key, name, name_en, value, BASE_TAI, EVERY_PLAYER, _kongs(concealed), text=KONG_VALUE_TEXT)


HUA_ROWS = ("one", "two", "three", "four")  # the row of a flower group by how many of its tiles are held


def hua(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
    out: list[tuple[Variant, str]] = []
    for group, _ in FLOWER_GROUPS:
        tiles = hand.set_aside.get(group, [])
        if not tiles:
            continue
        text = " ".join(T.name(t) for t in sorted(tiles))
        if group in hand.from_deal:
            out.append(("deal", said("detail.lingxi.hua_from_deal", tiles="".join(T.name(t) for t in sorted(tiles)))))
        else:
            shown = HUA_IN_PLAY(text) if len(tiles) == 4 else text
            out.append((HUA_ROWS[len(tiles) - 1], shown))
    return out


def cai_shen(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
    out: list[tuple[Variant, str]] = []
    for family, tiles in held_wildcards(hand):
        n = len(tiles)
        if not n:
            continue
        kind = "same" if hand.same_kind else "honor" if family.honor_like else "suited"
        detail = f"{family.label} ×{n}" if len(family.kinds) == 1 else " ".join(T.name(t) for t in sorted(tiles))
        out.append((f"{kind}{n}", detail))
    return out


def cai_shen_ke(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
    """Pairs first (one wildcard each), then singles (two each)."""
    kinds = [k for k in (hand.seat_wind, T.RED, T.GREEN) if k not in hand.wild_kinds]
    pairs = [k for k in kinds if hand.naturals[k] == 2]
    singles = [k for k in kinds if hand.naturals[k] == 1]
    spare = len(hand.wild_tiles)
    out: list[tuple[Variant, str]] = []
    for k in pairs:
        if spare >= 1:
            spare -= 1
            out.append((ONE, PAIR_AND_WILDCARD(T.name(k) * 2)))
    for k in singles:
        if spare >= 2:
            spare -= 2
            out.append((ONE, TILE_AND_WILDCARDS(T.name(k))))
    return out


def zi_mo(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
    """kong-draw and last-tile are self-drawn by nature (Decision)."""
    self_drawn = hand.has("self") or hand.has("kong-draw") or hand.has("last-tile")
    return FOUND if self_drawn else NONE


def hun_yi_se(hand: LingxiHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    return once(ONE, SUIT_AND_HONORS(facts.suit)) if facts.suit and facts.honors else NONE


def qing_yi_se(hand: LingxiHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    return once(ONE, ONE_SUIT(facts.one_suit)) if facts.one_suit else NONE


def dui_dui_hu(hand: LingxiHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    return NONE if facts.chows else FOUND


def ying_da_ying(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
    return NONE if hand.wild_tiles else FOUND


def cai_shen_hui(hand: LingxiHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    """Counts once even when six wildcards make two such sets (Decision)."""
    wild_sets = facts.wild_sets
    return once(ONE, wild_sets[0].text()) if wild_sets else NONE


def dan_diao(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
    if len(hand.before_win) != 1:
        return NONE
    tile = hand.before_win[0]
    if tile in hand.wild_kinds:
        return once("wildcard", WAITING_ON_WILDCARD(T.name(tile)))
    return once("natural", WAITING_ON(T.name(tile)))


def _wind_of(group: Group) -> int:
    """The wind a group counts as for 四风齐, or -1.

    A wind that is a wildcard kind counts only where it stands for itself
    (Decision); any other wildcard may stand for a wind.
    """
    if not T.is_wind(group.kind) or group.shape == CHOW:
        return -1
    if any(T.is_wind(w) and w != k for w, k in group.wilds):
        return -1
    return group.kind


def si_feng_qi(hand: LingxiHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    triplets = {_wind_of(g) for _, g in facts.pungs} | {_wind_of(g) for g in facts.kongs}
    triplets.discard(-1)
    pairs = {_wind_of(g) for g in facts.pairs} - {-1}
    if len(triplets) == 4 or (len(triplets) == 3 and pairs - triplets):
        return FOUND
    return NONE


def ping_hu(hand: LingxiHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    """No pung, no kong, no flower/白, no wildcard: a fixed 13 (Decision)."""
    if hand.wild_tiles or hand.set_aside or hand.from_deal:
        return NONE
    return NONE if facts.pungs or facts.kongs or facts.wild_sets else FOUND


SHA_ZHU_HU_ROWS = {"held": 1, "five": 2, "six": 4}  # factors of the `sha_zhu_hu` option
MORE_HELD = {5: "five", 6: "six"}  # the row of 杀猪胡 by the wildcards held, past the AAA+B's


def sha_zhu_hu_factors(rows: dict[str, int]) -> dict[str, int]:
    """The option's text's numbers, from the item's rows: 杀猪胡 bonus (5 wildcards ×2, 6 ×4)."""
    return {f"{row}_held": held for held, row in MORE_HELD.items()} | {row: rows[row] for row in MORE_HELD.values()}


def sha_zhu_hu(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
    n = sha_zhu_holding(hand)
    if not n:
        return NONE
    return once(MORE_HELD.get(n, "held"), held_text(hand))


def hua_hu(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
    return once(ONE, "f1–f8") if all_flowers(hand) else NONE


def sha_zhu(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
    return once(ONE, held_text(hand)) if hand.parsed.declare == "sha-zhu" else NONE


def declared_hua_hu(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
    return once(ONE, DECLARED_FLOWERS()) if hand.parsed.declare == "hua-hu" else NONE


PLUS = "+{}"  # a bonus added to the tai
ITEMS = (
    # Base tai — every player
    Item("feng_ke", "风刻", "Seat-wind pung", 1, BASE_TAI, EVERY_PLAYER, feng_ke, reads=("groups",)),
    Item("jian_ke", "箭刻", "Dragon pung (中/发)", 1, BASE_TAI, EVERY_PLAYER, jian_ke, reads=("groups",)),
    _kong_item("ming_gang", "明杠", "Open kong", 3, concealed=False),
    _kong_item("an_gang", "暗杠", "Concealed kong", 4, concealed=True),
    Item(
        "hua",
        "花",
        "Flowers (per group)",
        {"one": 1, "two": 3, "three": 5, "four": 10, "deal": 13},
        BASE_TAI,
        EVERY_PLAYER,
        hua,
        text="value.lingxi.hua",
    ),
    Item(
        "cai_shen",
        "财神",
        "Wildcards held",
        {"suited1": 2, "suited2": 5, "suited3": 8, "honor1": 3, "honor2": 7, "honor3": 11, "same1": 7, "same2": 15},
        BASE_TAI,
        EVERY_PLAYER,
        cai_shen,
        text="value.lingxi.cai_shen",
    ),
    Item(
        "cai_shen_ke", "财神刻", "Wildcard-completable pung", 1, BASE_TAI, NON_WINNERS, cai_shen_ke, text="value.each"
    ),
    # Bonus tai — the winner
    Item("zi_mo", "自摸", "Self-drawn", 1, BONUS_TAI, WINNER_ONLY, zi_mo, text=PLUS),
    Item("gang_kai", "杠开", "Win on a kong replacement", 3, BONUS_TAI, WINNER_ONLY, flag_item("kong-draw"), text=PLUS),
    Item("qiang_gang", "抢杠", "Robbing a kong", 3, BONUS_TAI, WINNER_ONLY, flag_item("rob-kong"), text=PLUS),
    Item("hai_di", "海底捞月", "Last tile", 3, BONUS_TAI, WINNER_ONLY, flag_item("last-tile"), text=PLUS),
    Item(
        "hun_yi_se",
        "混一色",
        "One suit with honors",
        7,
        BONUS_TAI,
        WINNER_ONLY,
        hun_yi_se,
        text=PLUS,
        reads=("suit", "honors"),
    ),
    Item("dui_dui_hu", "对对胡", "All pungs", 7, BONUS_TAI, WINNER_ONLY, dui_dui_hu, text=PLUS, reads=("chows",)),
    Item("qing_yi_se", "清一色", "One suit", 13, BONUS_TAI, WINNER_ONLY, qing_yi_se, text=PLUS, reads=("one_suit",)),
    Item("ying_da_ying", "硬打硬", "No wildcard held", 7, BONUS_TAI, WINNER_ONLY, ying_da_ying, text=PLUS),
    Item(
        "cai_shen_hui",
        "财神汇",
        "Three wildcards as a set",
        7,
        BONUS_TAI,
        WINNER_ONLY,
        cai_shen_hui,
        text=PLUS,
        reads=("wild_sets",),
    ),
    Item(
        "dan_diao",
        "单钓将",
        "Single-tile wait",
        {"wildcard": 7, "natural": 13},
        BONUS_TAI,
        WINNER_ONLY,
        dan_diao,
        text="value.lingxi.dan_diao",
    ),
    Item(
        "si_feng_qi",
        "四风齐",
        "All four winds",
        13,
        BONUS_TAI,
        WINNER_ONLY,
        si_feng_qi,
        text=PLUS,
        reads=("pungs", "kongs", "pairs"),
    ),
    Item("ping_hu", "平胡", "Plain hand", 13, BONUS_TAI, WINNER_ONLY, ping_hu, reads=("pungs", "kongs", "wild_sets")),
    Item("tian_hu", "天胡", "Heavenly hand", 13, BONUS_TAI, WINNER_ONLY, flag_item("heaven"), text=PLUS),
    Item("di_hu", "地胡", "Earthly hand", 13, BONUS_TAI, WINNER_ONLY, flag_item("earth"), text=PLUS),
    Item(
        "sha_zhu_hu",
        "杀猪胡",
        "Win holding AAA+B wildcards",
        SHA_ZHU_HU_ROWS,
        BONUS_TAI,
        WINNER_ONLY,
        sha_zhu_hu,
        option="sha_zhu_hu",
        text="value.lingxi.sha_zhu_hu",
    ),
    Item(
        "hua_hu", "花胡", "Win holding all eight flowers", 1, BONUS_TAI, WINNER_ONLY, hua_hu, option="hua_hu", text=PLUS
    ),
    # Declared wins — nothing else counts
    Item("sha_zhu", "杀猪", "Declared: AAA+B wildcards", 13, DECLARED_WIN, DECLARED_ONLY, sha_zhu),
    # The rules page keys both 花胡 `hua_hu` (docs/rules/lingxi.md), and the answers keep it: the won item above
    # and this declared win are told apart by their kind and scope (BONUS_TAI/WINNER_ONLY, DECLARED_WIN/
    # DECLARED_ONLY), never by the key alone; both are valued by the one `hua_hu` option.
    Item(
        "hua_hu",
        "花胡",
        "Declared: all eight flowers",
        1,
        DECLARED_WIN,
        DECLARED_ONLY,
        declared_hua_hu,
        option="hua_hu",
    ),
)

EXCLUSIONS = (
    Exclusion("gang_kai", ("zi_mo",), "槓上開花（槓開）：通過自己的槓補上來的牌而胡牌，則額外加3台，不計自摸。"),
    Exclusion(
        "hai_di",
        ("zi_mo",),
        "海底撈月：將要流局時（牌池裡能摸的牌僅剩4張或更少時）摸上來的牌是你要胡的牌，額外加3台，不計自摸。",
    ),
    Exclusion("qing_yi_se", ("hun_yi_se",), "清一色：只有一种花色，没有字牌和风牌，不再计混一色。"),
    Exclusion("ping_hu", ("ying_da_ying",), "平胡直接计13台，已含“没有财神”，不再计硬打硬。"),
)

OPTIONS = (
    Option("double_at", 13, (10,), "option.lingxi.double_at", chinese="翻倍线"),
    Option(
        "sha_zhu_hu",
        13,
        (20,),
        "option.lingxi.sha_zhu_hu",
        chinese="杀猪胡加台",
        params=sha_zhu_hu_factors(SHA_ZHU_HU_ROWS),
    ),
    Option("hua_hu", 52, (100,), "option.lingxi.hua_hu", chinese="花胡台数"),
)

ZI_MO = next(item for item in ITEMS if item.key == "zi_mo")  # what a self-drawn win adds (`self_drawn_from_discard`)


def doubles(subtotal: int, options: Mapping[str, int]) -> bool:
    """翻: a winner's total at or over `double_at` doubles."""
    return subtotal >= options["double_at"]
