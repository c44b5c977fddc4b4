"""MCR 国标: the 81 fan of docs/rules/mcr.md, their exclusions and the house option, as data in its order.

Each fan is one `Item` row (key, 中文, English, value); its finder says only
where it occurs. A fan of the hand's tiles or of how it was won reads no
reading and is found once per hand; a fan of the sets reads the reading
(`McrFacts`), and the fan made between sets come from the reading's
`linked`, where the principles of combining sets were applied once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ... import tiles as T
from ...engine import CHOW
from .. import interface as I
from ..interface import FOUND, NONE, ONE, WINNER_ONLY, Exclusion, Item, Kind, Option, Variant, once
from . import facts as F
from .facts import HONORS_AND_KNITTED, KNITTED, ORPHANS, SEVEN_PAIRS, STANDARD, McrFacts
from .hand import McrHand

Found = list[tuple[Variant, str]]
FAN = Kind("fan", "fan")  # how its items count: every fan adds up

# -- the hand's tiles (read once per hand) ----------------------------------------


def _tiles(test: Callable[[int], bool]) -> I.Finder:
    """A fan of the hand's tiles alone, found when `test(kinds held)`, the kinds as bits (`McrHand.held`)."""

    def find(hand: McrHand, facts: None) -> Found:
        return FOUND if test(hand.held) else NONE

    return find


def _bits(kinds: Iterable[int]) -> int:
    return sum(1 << k for k in set(kinds))


SUITS = tuple(_bits(range(9 * suit, 9 * suit + 9)) for suit in range(3))
HONORS = _bits(range(T.EAST, T.PLAYABLE))
WINDS = _bits(range(T.EAST, T.RED))
DRAGONS = HONORS & ~WINDS


def _suits(held: int) -> int:
    """How many of the three suits the hand holds."""
    return (held & SUITS[0] != 0) + (held & SUITS[1] != 0) + (held & SUITS[2] != 0)


def _within(allowed: Iterable[int]) -> Callable[[int], bool]:
    outside = ~_bits(allowed)
    return lambda held: not held & outside


def _ranks(low: int, high: int) -> Callable[[int], bool]:
    """Suited tiles of ranks low..high only, no honor."""
    return _within(k for k in range(T.EAST) if low <= T.rank(k) <= high)


GREEN = (19, 20, 21, 23, 25, T.GREEN)  # 2 3 4 6 8 bamboo and 发
REVERSIBLE = (9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, T.WHITE)  # 1234589 dots, 245689 bamboo, 白
TERMINALS = frozenset((0, 8, 9, 17, 18, 26))
YAO_JIU = TERMINALS | frozenset(range(T.EAST, T.RED))  # the kinds whose pung may be a 幺九刻
_qing_yao_jiu = _within(TERMINALS)
_only_terminals_and_honors = _within(TERMINALS | set(range(T.EAST, T.PLAYABLE)))


def _hun_yao_jiu(held: int) -> bool:
    return bool(held & HONORS) and bool(held & ~HONORS) and _only_terminals_and_honors(held)


def _zi_yi_se(held: int) -> bool:
    return not held & ~HONORS


def _qing_yi_se(held: int) -> bool:
    return not held & HONORS and _suits(held) == 1


def _hun_yi_se(held: int) -> bool:
    return bool(held & HONORS) and _suits(held) == 1


def _que_yi_men(held: int) -> bool:
    return _suits(held) == 2


def _wu_zi(held: int) -> bool:
    return not held & HONORS


def _wu_men_qi(held: int) -> bool:
    return _suits(held) == 3 and bool(held & WINDS) and bool(held & DRAGONS)


_duan_yao = _ranks(2, 8)


def _si_gui_yi(hand: McrHand, facts: None) -> Found:
    """Each kind with its four tiles in the hand, none of them as a kong."""
    if 4 not in hand.counts:
        return NONE
    kongs = {g.kind for g in hand.melds if g.shape == "kong"}
    return [(ONE, T.name(k)) for k, n in enumerate(hand.counts) if n == 4 and k not in kongs]


def _nine_gates(hand: McrHand, facts: None) -> Found:
    return FOUND if hand.nine_gates else NONE


# -- how it was won ---------------------------------------------------------------


def _flag(*conditions: str, self_drawn: bool | None = None) -> I.Finder:
    """A fan of the conditions written: all of `conditions`, self-drawn or not where `self_drawn` says."""

    written = frozenset(conditions)

    def find(hand: McrHand, facts: None) -> Found:
        if self_drawn is not None and hand.self_drawn != self_drawn:
            return NONE
        return FOUND if written <= hand.parsed.flags else NONE

    return find


def _zi_mo(hand: McrHand, facts: None) -> Found:
    return FOUND if hand.self_drawn else NONE


def _concealed(hand: McrHand) -> bool:
    return not hand.melds or all(not g.exposed for g in hand.melds)


def _men_qian_qing(hand: McrHand, facts: None) -> Found:
    return FOUND if _concealed(hand) and not hand.self_drawn else NONE


def _bu_qiu_ren(hand: McrHand, facts: None) -> Found:
    return FOUND if _concealed(hand) and hand.self_drawn else NONE


def _quan_qiu_ren(hand: McrHand, facts: None) -> Found:
    exposed = sum(1 for g in hand.melds if g.exposed)
    return FOUND if exposed == 4 and not hand.self_drawn else NONE


def _he_jue_zhang(hand: McrHand, facts: None) -> Found:
    """`fourth-tile`, or the other three of the winning kind in the winner's own exposed melds."""
    if hand.has("fourth-tile"):
        return FOUND
    shown = sum(g.kinds.count(hand.win) for g in hand.melds if g.exposed) if hand.melds else 0
    return FOUND if shown == 3 else NONE


# -- kongs ------------------------------------------------------------------------


def _kongs(exposed: int | None, concealed: int | None, total: int) -> I.Finder:
    """A kong fan: `total` kongs, of which `exposed` and `concealed` (None: any)."""

    def find(hand: McrHand, facts: None) -> Found:
        e, c = hand.exposed_kongs, hand.concealed_kongs
        if e + c != total or (exposed is not None and e != exposed) or (concealed is not None and c != concealed):
            return NONE
        return FOUND

    return find


def _one_of_each(hand: McrHand, facts: None) -> Found:
    """明暗杠: one exposed and one concealed kong, where the house counts them as one fan."""
    return FOUND if hand.exposed_kongs == 1 == hand.concealed_kongs and hand.options["ming_an_gang"] else NONE


def _single_kong(exposed: bool) -> I.Finder:
    """明杠 / 暗杠: the hand's one kong; with one of each, both where the house counts them apart."""

    def find(hand: McrHand, facts: None) -> Found:
        e, c = hand.exposed_kongs, hand.concealed_kongs
        if e + c == 1 and (e if exposed else c):
            return FOUND
        if e == 1 == c and not hand.options["ming_an_gang"]:
            return FOUND
        return NONE

    return find


# -- the reading's shape and sets -------------------------------------------------


def _shape(shape: str, test: Callable[[McrHand, McrFacts], bool] | None = None) -> I.Finder:
    def find(hand: McrHand, facts: McrFacts) -> Found:
        return FOUND if facts.shape == shape and (test is None or test(hand, facts)) else NONE

    return find


def _lian_qi_dui(hand: McrHand, facts: McrFacts) -> bool:
    kinds = sorted({g.kind for g in facts.pairs})
    return len(kinds) == 7 and T.is_suited(kinds[0]) and kinds[6] - kinds[0] == 6 and kinds[0] // 9 == kinds[6] // 9


def _all_honors_there(hand: McrHand, facts: McrFacts) -> bool:
    return all(hand.counts[k] for k in range(T.EAST, T.PLAYABLE))


def _lesser(hand: McrHand, facts: McrFacts) -> bool:
    return not _all_honors_there(hand, facts)


def _zu_he_long(hand: McrHand, facts: McrFacts) -> Found:
    if facts.shape == KNITTED:
        return FOUND
    if facts.shape == HONORS_AND_KNITTED and all(hand.counts[k] for k in facts.knit):
        return FOUND
    return NONE


LINKED: set[str] = set()  # the fan made between sets: the scoring loop reads them off `McrFacts.linked` by key


def _linked(key: str) -> I.Finder:
    """A fan made between sets: as often as the reading's sets make it (`McrFacts.linked`)."""
    LINKED.add(key)

    def find(hand: McrHand, facts: McrFacts) -> Found:
        return [(ONE, detail) for detail in facts.linked.get(key, ())]

    return find


def _triplets(facts: McrFacts) -> list[int]:
    return facts.triplets


def _winds(hand: McrHand, facts: McrFacts) -> Found:
    """小四喜: pungs of three winds and a pair of the fourth."""
    if not T.is_wind(facts.pair):
        return NONE
    winds = [k for k in _triplets(facts) if T.is_wind(k)]
    return FOUND if len(winds) == 3 else NONE


def _dragons(hand: McrHand, facts: McrFacts) -> Found:
    """小三元: pungs of two dragons and a pair of the third."""
    if facts.pair < T.RED:
        return NONE
    dragons = [k for k in _triplets(facts) if k >= T.RED]
    return FOUND if len(dragons) == 2 else NONE


def _an_ke(count: int) -> I.Finder:
    def find(hand: McrHand, facts: McrFacts) -> Found:
        return FOUND if facts.concealed_pungs == count else NONE

    return find


def _peng_peng_he(hand: McrHand, facts: McrFacts) -> Found:
    return FOUND if facts.shape == STANDARD and len(_triplets(facts)) == 4 else NONE


def _quan_shuang_ke(hand: McrHand, facts: McrFacts) -> Found:
    kinds = [*_triplets(facts), facts.pair]
    even = all(T.is_suited(k) and T.rank(k) % 2 == 0 for k in kinds)
    return FOUND if facts.shape == STANDARD and len(kinds) == 5 and even else NONE


def _every_set(holds: Callable[[int, bool], bool]) -> I.Finder:
    """A fan of a standard reading whose every set and pair holds a tile of `holds(kind, chow)`."""

    # the chows (by their lowest kind) and the kinds of pungs and pairs that hold one, read off once
    chows = frozenset(s for s in range(T.EAST) if s % 9 < 7 and any(holds(k, True) for k in (s, s + 1, s + 2)))
    kinds = frozenset(k for k in range(T.PLAYABLE) if holds(k, False))

    def find(hand: McrHand, facts: McrFacts) -> Found:
        if facts.shape != STANDARD:
            return NONE
        every = all(g.kind in (chows if g.shape == CHOW else kinds) for g in facts.groups)
        return FOUND if every else NONE

    return find


def _yao(kind: int, chow: bool) -> bool:
    return kind >= T.EAST or kind in TERMINALS


def _five(kind: int, chow: bool) -> bool:
    return T.is_suited(kind) and T.rank(kind) == 5


def _ping_he(hand: McrHand, facts: McrFacts) -> Found:
    """Four chows (the knitted straight counts as three) and a suited pair."""
    chows = facts.chows + (3 if facts.knit and facts.shape == KNITTED else 0)
    return FOUND if facts.shape in (STANDARD, KNITTED) and chows == 4 and T.is_suited(facts.pair) else NONE


def _pung_of(test: Callable[[McrHand, int], bool]) -> I.Finder:
    """A fan of each pung (or kong) of a kind `test` accepts."""

    def find(hand: McrHand, facts: McrFacts) -> Found:
        if not any(test(hand, kind) for kind in facts.triplets):
            return NONE
        return [(ONE, T.name(g.kind)) for g in facts.sets if g.is_triplet and test(hand, g.kind)]

    return find


def _yao_jiu_ke(hand: McrHand, facts: McrFacts) -> Found:
    """Each pung of a 1, a 9 or a wind: a dragon's scores 箭刻, a wind's that is the prevalent or seat wind scores
    圈风刻/门风刻, and the three wind pungs of 三风刻 (or 小四喜) count no 幺九刻; 九莲宝灯 takes one."""
    if YAO_JIU.isdisjoint(facts.triplets):
        return NONE
    winds = sum(1 for k in _triplets(facts) if T.is_wind(k))
    found: Found = []
    for g in facts.sets:
        if not g.is_triplet:
            continue
        kind = g.kind
        if kind in TERMINALS or (T.is_wind(kind) and winds < 3 and kind != hand.round_wind and kind != hand.seat_wind):
            found.append((ONE, T.name(kind)))
    return found[1:] if hand.nine_gates else found


def _wait(place: str) -> I.Finder:
    """独听 and the winning tile's place in the reading's concealed sets and pair (`McrFacts.wait_place`): 边张
    (an end of a chow) before 坎张 (its middle) before 单钓将 (the pair). Whether the hand waited on that tile
    alone is a search of the hand's waits (`McrHand.single_wait`, or `single_wait_of_sets` where the reading is
    of sets and a pair): asked last, and not at all where the reading itself shows another wait (`_two_sided`)."""

    def find(hand: McrHand, facts: McrFacts) -> Found:
        if facts.wait_place != place or (place == "bian" and _two_sided(hand, facts)):
            return NONE
        if not (hand.single_wait_of_sets if facts.shape == STANDARD else hand.single_wait):
            return NONE
        return once(ONE, T.name(hand.win))

    return find


def _two_sided(hand: McrHand, facts: McrFacts) -> bool:
    """Whether the winning tile ends a concealed chow of the reading whose other side is a kind of the suit
    with a tile left to draw (not all four the winner's own): that tile would complete the same sets and pair
    (23m waits on 1m and 4m), so the hand did not wait on one kind only."""
    win = hand.win
    for g in facts.groups:
        if g.shape != CHOW or g.exposed:
            continue
        start = g.kind
        if win == start + 2 and start % 9 > 0:
            other = start - 1
        elif win == start and start % 9 < 6:
            other = start + 3
        else:
            continue
        if hand.counts[other] < 4:
            return True
    return False


def _flowers(hand: McrHand, facts: None) -> Found:
    return [(ONE, T.name(k)) for k in hand.flowers]


def _nothing(hand: McrHand, facts: None) -> Found:
    """无番和: found on every winning hand, and kept only where no other fan is (`Mcr._exclude`)."""
    return FOUND


READS = (
    "shape",
    "knit",
    "pair",
    "sets",
    "triplets",
    "pairs",
    "groups",
    "chows",
    "linked",
    "concealed_pungs",
    "wait_place",
)


# gates (`Item.gate`): a fan of pungs needs a reading with a pung or a kong; one of no chows (碰碰和, the special
# shapes) a reading with none; one of honor pungs a reading with an honor group
PUNGS = ("pungs", "kongs")
NO_CHOWS = ("no_chows",)
HONORS_HELD = ("honors",)  # a fan of honor pungs needs a reading with an honor group (few have one)


# What a fan of a reading's sets needs the reading to hold, by fan: any one of these bits of `McrFacts.holds`
# (its shape, the winning tile's place, its concealed pungs, its pair and pungs of honors or terminals, four
# chows). The scoring loop runs the finder only on a reading that holds one; a fan not here is always run.
READING_NEEDS: dict[str, int] = {}


def _fan(
    key: str,
    name: str,
    name_en: str,
    value: int,
    find: I.Finder,
    reads: bool = True,
    gate: tuple[str, ...] = (),
    holds: int = 0,
    option: str = "",
) -> Item:
    if holds:
        READING_NEEDS[key] = holds
    facts_read = READS if reads else ()
    return Item(key, name, name_en, value, FAN, WINNER_ONLY, find, option=option, reads=facts_read, gate=gate)


# What a fan of the hand (read once per hand) needs the hand to have at all, by fan: the scoring loop looks for
# it only in a hand with every fact it names (`hand_facts`), and the answer is the same either way
# (tests/test_mcr_fast_paths.py runs every finder on every hand)
HAND_FACTS = frozenset(
    {
        "kongs",
        "conditions",
        "melds",
        "written_or_shown",  # a condition written or a meld shown: 和绝张 is one or the other
        "flowers",
        "nine_gates",
        "honors",
        "no_honors",
        "honors_only",
        "no_characters",  # no 万: 推不倒's tiles are dots, bamboo and 白
        "one_suit",
        "two_suits",
        "three_suits",
        "four_alike",
        # the ranks of the suited tiles held (all suits alike): 1 and 9 only; 2 to 8 only; within 1–4, 4–6 or 6–9
        "terminal_ranks",
        "simple_ranks",
        "narrow_ranks",
    }
)
HAND_BIT = {fact: 1 << bit for bit, fact in enumerate(sorted(HAND_FACTS))}  # each fact as a bit of `hand_facts`
HAND_NEEDS: dict[str, int] = {}  # by fan: the bits of the facts it needs, all of them


def hand_facts(hand: McrHand) -> int:
    """The facts of `HAND_FACTS` the hand has, as bits (`HAND_BIT`): kongs, conditions written, exposed melds,
    flowers, 九莲宝灯's tiles, honors or none, how many suits, a kind's four tiles, the ranks held."""
    held = hand.held
    facts = (_HONORS_BIT if held & HONORS else _NO_HONORS_BIT) | _SUITS_BITS[_suits(held)]
    facts |= _RANKS_BITS[(held | held >> 9 | held >> 18) & _ONE_SUIT_RANKS]
    if not held & _CHARACTERS:
        facts |= _NO_CHARACTERS_BIT
    if hand.melds:
        if hand.exposed_kongs or hand.concealed_kongs:
            facts |= HAND_BIT["kongs"]
        if any(g.exposed for g in hand.melds):
            facts |= _MELDS_BIT
    if hand.parsed.flags:
        facts |= _CONDITIONS_BIT
    if facts & (_MELDS_BIT | _CONDITIONS_BIT):
        facts |= HAND_BIT["written_or_shown"]
    if hand.flowers:
        facts |= HAND_BIT["flowers"]
    if hand.nine_gates:
        facts |= HAND_BIT["nine_gates"]
    if hand.four_alike:
        facts |= HAND_BIT["four_alike"]
    return facts


_HONORS_BIT, _NO_HONORS_BIT = HAND_BIT["honors"], HAND_BIT["no_honors"]
_SUITS_BITS = (HAND_BIT["honors_only"], HAND_BIT["one_suit"], HAND_BIT["two_suits"], HAND_BIT["three_suits"])
_CHARACTERS, _NO_CHARACTERS_BIT = SUITS[0], HAND_BIT["no_characters"]
_ONE_SUIT_RANKS = SUITS[0]  # ranks 1–9 as bits: a suit's kinds moved down to the first suit's


def _ranks_facts(ranks: int) -> int:
    """The facts of the ranks held (`ranks`, bit r-1 for rank r, all suits alike)."""
    facts = 0
    if not ranks & ~_bits((0, 8)):
        facts |= HAND_BIT["terminal_ranks"]
    if not ranks & _bits((0, 8)):
        facts |= HAND_BIT["simple_ranks"]
    if any(not ranks & ~_bits(range(low - 1, high)) for low, high in ((1, 4), (4, 6), (6, 9))):
        facts |= HAND_BIT["narrow_ranks"]
    return facts


_RANKS_BITS = tuple(_ranks_facts(ranks) for ranks in range(1 << 9))
_MELDS_BIT, _CONDITIONS_BIT = HAND_BIT["melds"], HAND_BIT["conditions"]


def _hand_fan(
    key: str, name: str, name_en: str, value: int, find: I.Finder, needs: tuple[str, ...] = (), option: str = ""
) -> Item:
    if not HAND_FACTS.issuperset(needs):  # a misspelt fact would keep the fan from every hand
        raise ValueError(f"fan {key}: hand facts {sorted(set(needs) - HAND_FACTS)} are none of {sorted(HAND_FACTS)}")
    HAND_NEEDS[key] = sum(HAND_BIT[fact] for fact in set(needs))
    return _fan(key, name, name_en, value, find, reads=False, option=option)


OPTIONS = (Option("ming_an_gang", 5, (6, 0), "option.mcr.ming_an_gang", chinese="明暗杠番数"),)

ITEMS = (
    # 88
    _fan("da_si_xi", "大四喜", "Big Four Winds", 88, _linked("da_si_xi"), gate=PUNGS),
    _fan("da_san_yuan", "大三元", "Big Three Dragons", 88, _linked("da_san_yuan"), gate=PUNGS),
    _hand_fan("lv_yi_se", "绿一色", "All Green", 88, _tiles(_within(GREEN)), needs=("one_suit",)),
    _hand_fan("jiu_lian_bao_deng", "九莲宝灯", "Nine Gates", 88, _nine_gates, needs=("nine_gates",)),
    _hand_fan("si_gang", "四杠", "Four Kongs", 88, _kongs(None, None, 4), needs=("kongs",)),
    _fan(
        "lian_qi_dui",
        "连七对",
        "Seven Shifted Pairs",
        88,
        _shape(SEVEN_PAIRS, _lian_qi_dui),
        gate=NO_CHOWS,
        holds=F.SEVEN_PAIRS_SHAPE,
    ),
    _fan("shi_san_yao", "十三幺", "Thirteen Orphans", 88, _shape(ORPHANS), gate=NO_CHOWS, holds=F.ORPHANS_SHAPE),
    # 64
    _hand_fan(
        "qing_yao_jiu", "清幺九", "All Terminals", 64, _tiles(_qing_yao_jiu), needs=("no_honors", "terminal_ranks")
    ),
    _fan("xiao_si_xi", "小四喜", "Little Four Winds", 64, _winds, gate=HONORS_HELD, holds=F.WIND_PAIR),
    _fan("xiao_san_yuan", "小三元", "Little Three Dragons", 64, _dragons, gate=HONORS_HELD, holds=F.DRAGON_PAIR),
    _hand_fan("zi_yi_se", "字一色", "All Honors", 64, _tiles(_zi_yi_se), needs=("honors_only",)),
    _fan("si_an_ke", "四暗刻", "Four Concealed Pungs", 64, _an_ke(4), gate=PUNGS, holds=F.FOUR_CONCEALED),
    _fan("yi_se_shuang_long_hui", "一色双龙会", "Pure Terminal Chows", 64, _linked("yi_se_shuang_long_hui")),
    # 48
    _fan("yi_se_si_tong_shun", "一色四同顺", "Quadruple Chow", 48, _linked("yi_se_si_tong_shun")),
    _fan("yi_se_si_jie_gao", "一色四节高", "Four Pure Shifted Pungs", 48, _linked("yi_se_si_jie_gao"), gate=PUNGS),
    # 32
    _fan("yi_se_si_bu_gao", "一色四步高", "Four Pure Shifted Chows", 32, _linked("yi_se_si_bu_gao")),
    _hand_fan("san_gang", "三杠", "Three Kongs", 32, _kongs(None, None, 3), needs=("kongs",)),
    _hand_fan(
        "hun_yao_jiu",
        "混幺九",
        "All Terminals and Honors",
        32,
        _tiles(_hun_yao_jiu),
        needs=("honors", "terminal_ranks"),
    ),
    # 24
    _fan("qi_dui", "七对", "Seven Pairs", 24, _shape(SEVEN_PAIRS), gate=NO_CHOWS, holds=F.SEVEN_PAIRS_SHAPE),
    _fan(
        "qi_xing_bu_kao",
        "七星不靠",
        "Greater Honors and Knitted Tiles",
        24,
        _shape(HONORS_AND_KNITTED, _all_honors_there),
        gate=NO_CHOWS,
        holds=F.HONORS_AND_KNITTED_SHAPE,
    ),
    _fan("quan_shuang_ke", "全双刻", "All Even Pungs", 24, _quan_shuang_ke, gate=NO_CHOWS, holds=F.STANDARD_SHAPE),
    _hand_fan("qing_yi_se", "清一色", "Full Flush", 24, _tiles(_qing_yi_se), needs=("one_suit", "no_honors")),
    _fan("yi_se_san_tong_shun", "一色三同顺", "Pure Triple Chow", 24, _linked("yi_se_san_tong_shun")),
    _fan("yi_se_san_jie_gao", "一色三节高", "Pure Shifted Pungs", 24, _linked("yi_se_san_jie_gao"), gate=PUNGS),
    _hand_fan("quan_da", "全大", "Upper Tiles", 24, _tiles(_ranks(7, 9)), needs=("no_honors", "narrow_ranks")),
    _hand_fan("quan_zhong", "全中", "Middle Tiles", 24, _tiles(_ranks(4, 6)), needs=("no_honors", "narrow_ranks")),
    _hand_fan("quan_xiao", "全小", "Lower Tiles", 24, _tiles(_ranks(1, 3)), needs=("no_honors", "narrow_ranks")),
    # 16
    _fan("qing_long", "清龙", "Pure Straight", 16, _linked("qing_long")),
    _fan("san_se_shuang_long_hui", "三色双龙会", "Three-Suited Terminal Chows", 16, _linked("san_se_shuang_long_hui")),
    _fan("yi_se_san_bu_gao", "一色三步高", "Pure Shifted Chows", 16, _linked("yi_se_san_bu_gao")),
    _fan("quan_dai_wu", "全带五", "All Fives", 16, _every_set(_five), holds=F.FIVE_PAIR),
    _fan("san_tong_ke", "三同刻", "Triple Pung", 16, _linked("san_tong_ke"), gate=PUNGS),
    _fan("san_an_ke", "三暗刻", "Three Concealed Pungs", 16, _an_ke(3), gate=PUNGS, holds=F.THREE_CONCEALED),
    # 12
    _fan(
        "quan_bu_kao",
        "全不靠",
        "Lesser Honors and Knitted Tiles",
        12,
        _shape(HONORS_AND_KNITTED, _lesser),
        gate=NO_CHOWS,
        holds=F.HONORS_AND_KNITTED_SHAPE,
    ),
    _fan(
        "zu_he_long", "组合龙", "Knitted Straight", 12, _zu_he_long, holds=F.KNITTED_SHAPE | F.HONORS_AND_KNITTED_SHAPE
    ),
    _hand_fan("da_yu_wu", "大于五", "Upper Four", 12, _tiles(_ranks(6, 9)), needs=("no_honors", "narrow_ranks")),
    _hand_fan("xiao_yu_wu", "小于五", "Lower Four", 12, _tiles(_ranks(1, 4)), needs=("no_honors", "narrow_ranks")),
    _fan("san_feng_ke", "三风刻", "Big Three Winds", 12, _linked("san_feng_ke"), gate=PUNGS),
    # 8
    _fan("hua_long", "花龙", "Mixed Straight", 8, _linked("hua_long")),
    _hand_fan("tui_bu_dao", "推不倒", "Reversible Tiles", 8, _tiles(_within(REVERSIBLE)), needs=("no_characters",)),
    _fan("san_se_san_tong_shun", "三色三同顺", "Mixed Triple Chow", 8, _linked("san_se_san_tong_shun")),
    _fan("san_se_san_jie_gao", "三色三节高", "Mixed Shifted Pungs", 8, _linked("san_se_san_jie_gao"), gate=PUNGS),
    _hand_fan("wu_fan_he", "无番和", "Chicken Hand", 8, _nothing),
    _hand_fan(
        "miao_shou_hui_chun",
        "妙手回春",
        "Last Tile Draw",
        8,
        _flag("last-tile", self_drawn=True),
        needs=("conditions",),
    ),
    _hand_fan(
        "hai_di_lao_yue", "海底捞月", "Last Tile Claim", 8, _flag("last-tile", self_drawn=False), needs=("conditions",)
    ),
    _hand_fan(
        "gang_shang_kai_hua",
        "杠上开花",
        "Out with Replacement Tile",
        8,
        _flag("kong-draw"),
        needs=("conditions", "kongs"),
    ),
    _hand_fan("qiang_gang_he", "抢杠和", "Robbing the Kong", 8, _flag("rob-kong"), needs=("conditions",)),
    # 6
    _fan("peng_peng_he", "碰碰和", "All Pungs", 6, _peng_peng_he, gate=NO_CHOWS, holds=F.STANDARD_SHAPE),
    _hand_fan("hun_yi_se", "混一色", "Half Flush", 6, _tiles(_hun_yi_se), needs=("one_suit", "honors")),
    _fan("san_se_san_bu_gao", "三色三步高", "Mixed Shifted Chows", 6, _linked("san_se_san_bu_gao")),
    _hand_fan("wu_men_qi", "五门齐", "All Types", 6, _tiles(_wu_men_qi), needs=("honors", "three_suits")),
    _hand_fan("quan_qiu_ren", "全求人", "Melded Hand", 6, _quan_qiu_ren, needs=("melds",)),
    _hand_fan("shuang_an_gang", "双暗杠", "Two Concealed Kongs", 6, _kongs(0, 2, 2), needs=("kongs",)),
    _fan("shuang_jian_ke", "双箭刻", "Two Dragon Pungs", 6, _linked("shuang_jian_ke"), gate=PUNGS),
    # 5 (明暗杠: one item for one exposed and one concealed kong, a house option)
    _hand_fan(
        "ming_an_gang",
        "明暗杠",
        "Melded and Concealed Kongs",
        1,
        _one_of_each,
        needs=("kongs",),
        option="ming_an_gang",
    ),
    # 4
    _fan("quan_dai_yao", "全带幺", "Outside Hand", 4, _every_set(_yao), holds=F.YAO_PAIR),
    _hand_fan("bu_qiu_ren", "不求人", "Fully Concealed Hand", 4, _bu_qiu_ren, needs=("conditions",)),
    _hand_fan("shuang_ming_gang", "双明杠", "Two Melded Kongs", 4, _kongs(2, 0, 2), needs=("kongs", "melds")),
    _hand_fan("he_jue_zhang", "和绝张", "Last Tile", 4, _he_jue_zhang, needs=("written_or_shown",)),
    # 2
    _fan(
        "jian_ke",
        "箭刻",
        "Dragon Pung",
        2,
        _pung_of(lambda hand, kind: kind >= T.RED),
        gate=HONORS_HELD,
        holds=F.DRAGON_PUNG,
    ),
    _fan(
        "quan_feng_ke",
        "圈风刻",
        "Prevalent Wind",
        2,
        _pung_of(lambda hand, kind: kind == hand.round_wind),
        gate=HONORS_HELD,
        holds=F.WIND_PUNG,
    ),
    _fan(
        "men_feng_ke",
        "门风刻",
        "Seat Wind",
        2,
        _pung_of(lambda hand, kind: kind == hand.seat_wind),
        gate=HONORS_HELD,
        holds=F.WIND_PUNG,
    ),
    _hand_fan("men_qian_qing", "门前清", "Concealed Hand", 2, _men_qian_qing),
    _fan("ping_he", "平和", "All Chows", 2, _ping_he, holds=F.ALL_CHOWS),
    _hand_fan("si_gui_yi", "四归一", "Tile Hog", 2, _si_gui_yi, needs=("four_alike",)),
    _fan("shuang_tong_ke", "双同刻", "Double Pung", 2, _linked("shuang_tong_ke"), gate=PUNGS),
    _fan("shuang_an_ke", "双暗刻", "Two Concealed Pungs", 2, _an_ke(2), gate=PUNGS, holds=F.TWO_CONCEALED),
    _hand_fan("an_gang", "暗杠", "Concealed Kong", 2, _single_kong(exposed=False), needs=("kongs",)),
    _hand_fan("duan_yao", "断幺", "All Simples", 2, _tiles(_duan_yao), needs=("no_honors", "simple_ranks")),
    # 1
    _fan("yi_ban_gao", "一般高", "Pure Double Chow", 1, _linked("yi_ban_gao")),
    _fan("xi_xiang_feng", "喜相逢", "Mixed Double Chow", 1, _linked("xi_xiang_feng")),
    _fan("lian_liu", "连六", "Short Straight", 1, _linked("lian_liu")),
    _fan("lao_shao_fu", "老少副", "Two Terminal Chows", 1, _linked("lao_shao_fu")),
    _fan("yao_jiu_ke", "幺九刻", "Pung of Terminals or Honors", 1, _yao_jiu_ke, gate=PUNGS, holds=F.YAO_JIU_PUNG),
    _hand_fan("ming_gang", "明杠", "Melded Kong", 1, _single_kong(exposed=True), needs=("kongs",)),
    _hand_fan("que_yi_men", "缺一门", "One Voided Suit", 1, _tiles(_que_yi_men), needs=("two_suits",)),
    _hand_fan("wu_zi", "无字", "No Honors", 1, _tiles(_wu_zi), needs=("no_honors",)),
    _fan("bian_zhang", "边张", "Edge Wait", 1, _wait("bian"), holds=F.EDGE_WAIT),
    _fan("kan_zhang", "坎张", "Closed Wait", 1, _wait("kan"), holds=F.CLOSED_WAIT),
    _fan("dan_diao_jiang", "单钓将", "Single Wait", 1, _wait("dan"), holds=F.PAIR_WAIT),
    _hand_fan("zi_mo", "自摸", "Self-Drawn", 1, _zi_mo, needs=("conditions",)),
    # flowers: counted apart, never toward the minimum
    _hand_fan("hua_pai", "花牌", "Flower Tiles", 1, _flowers, needs=("flowers",)),
)


def _no(present: str, removes: str, sentence: str) -> Exclusion:
    """One fan's 不计 list, written as the rulebook's names (`"三风刻 碰碰和"`), with its sentence."""
    keys = tuple(KEY_OF[name] for name in removes.split())
    return Exclusion(present, keys, sentence)


KEY_OF = {item.name: item.key for item in ITEMS}

EXCLUSIONS = (
    _no(
        "da_si_xi",
        "三风刻 碰碰和 圈风刻 门风刻 幺九刻",
        "大四喜：由4副风刻(杠)组成的和牌。不计圈风刻、门风刻、三风刻、碰碰和、幺九刻。",
    ),
    _no("da_san_yuan", "双箭刻 箭刻", "大三元：和牌中，有中发白3副刻子。不计双箭刻、箭刻。"),
    _no("lv_yi_se", "混一色 缺一门", "绿一色：由23468条及发字中的任何牌组成的和牌。不计混一色、缺一门。"),
    _no(
        "jiu_lian_bao_deng",
        "清一色 门前清 不求人 无字",
        "九莲宝灯：由一种花色序数牌按1112345678999组成的特定牌型，见同花色任何1张序数牌即成和牌。"
        "不计清一色、门前清、不求人、无字，幺九刻计一副（另一副不计，见幺九刻）。",
    ),
    _no(
        "si_gang",
        "三杠 双明杠 双暗杠 明杠 暗杠 碰碰和 单钓将",
        "四杠：4个杠。不计三杠、双明杠、双暗杠、明杠、暗杠、碰碰和、单钓将。",
    ),
    _no(
        "lian_qi_dui",
        "七对 清一色 门前清 不求人 单钓将 无字",
        "连七对：由一种花色序数牌组成序数相连的7个对子的和牌。不计七对、清一色、门前清、不求人、单钓将、无字。",
    ),
    _no(
        "shi_san_yao",
        "五门齐 混幺九 门前清 不求人 单钓将",
        "十三幺：由3种序数牌的一、九牌，7种字牌及其中一对作将组成的和牌。不计五门齐、混幺九、门前清、不求人、单钓将。",
    ),
    _no(
        "qing_yao_jiu",
        "混幺九 碰碰和 全带幺 双同刻 幺九刻 无字",
        "清幺九：由序数牌一、九刻子组成的和牌。不计混幺九、碰碰和、全带幺、双同刻、幺九刻、无字。",
    ),
    _no("xiao_si_xi", "三风刻 幺九刻", "小四喜：和牌时有风牌的3副刻子及将牌。不计三风刻、幺九刻。"),
    _no("xiao_san_yuan", "双箭刻 箭刻", "小三元：和牌时有箭牌的两副刻子及将牌。不计双箭刻、箭刻。"),
    _no(
        "zi_yi_se",
        "混幺九 碰碰和 全带幺 幺九刻 缺一门",
        "字一色：由字牌的刻子(杠)、将组成的和牌。不计混幺九、碰碰和、全带幺、幺九刻、缺一门。",
    ),
    _no(
        "si_an_ke",
        "三暗刻 双暗刻 碰碰和 门前清 不求人",
        "四暗刻：4个暗刻(暗杠)。不计三暗刻、双暗刻、碰碰和、门前清、不求人。",
    ),
    _no(
        "yi_se_shuang_long_hui",
        "七对 清一色 平和 一般高 老少副 无字",
        "一色双龙会：一种花色的两个老少副，5为将牌。不计七对、清一色、平和、一般高、老少副、无字。",
    ),
    _no(
        "yi_se_si_tong_shun",
        "一色三同顺 一色三节高 一般高 四归一",
        "一色四同顺：一种花色4副序数相同的顺子。不计一色三同顺、一色三节高、一般高、四归一。",
    ),
    _no(
        "yi_se_si_jie_gao",
        "一色三节高 一色三同顺 碰碰和",
        "一色四节高：一种花色4副依次递增一位数的刻子。不计一色三节高、一色三同顺、碰碰和。",
    ),
    _no(
        "yi_se_si_bu_gao",
        "一色三步高 连六 老少副",
        "一色四步高：一种花色4副依次递增一位数或依次递增二位数的顺子。不计一色三步高、连六、老少副。",
    ),
    _no("san_gang", "双明杠 双暗杠 明杠 暗杠", "三杠：3个杠。不计双明杠、双暗杠、明杠、暗杠。"),
    _no(
        "hun_yao_jiu",
        "碰碰和 全带幺 幺九刻",
        "混幺九：由字牌和序数牌一、九的刻子及将牌组成的和牌。不计碰碰和、全带幺、幺九刻。",
    ),
    _no("qi_dui", "门前清 不求人 单钓将", "七对：由7个对子组成和牌。不计门前清、不求人、单钓将。"),
    _no(
        "qi_xing_bu_kao",
        "全不靠 五门齐 门前清 不求人 单钓将",
        "七星不靠：必须有7个单张的东西南北中发白，加上3种花色，数位按147、258、369中的7张序数牌组成没有将牌的和牌。"
        "不计全不靠、五门齐、门前清、不求人、单钓将。",
    ),
    _no(
        "quan_shuang_ke",
        "碰碰和 断幺 无字",
        "全双刻：由2、4、6、8序数牌的刻子、将牌组成的和牌。不计碰碰和、断幺、无字。",
    ),
    _no("qing_yi_se", "无字", "清一色：由一种花色的序数牌组成的和牌。不计无字。"),
    _no(
        "yi_se_san_tong_shun",
        "一色三节高 一般高",
        "一色三同顺：和牌时有一种花色3副序数相同的顺子。不计一色三节高、一般高。",
    ),
    _no("yi_se_san_jie_gao", "一色三同顺", "一色三节高：和牌时有一种花色3副依次递增一位数字的刻子。不计一色三同顺。"),
    _no("quan_da", "大于五 无字", "全大：由序数牌789组成的顺子、刻子(杠)、将牌的和牌。不计大于五、无字。"),
    _no("quan_zhong", "断幺 无字", "全中：由序数牌456组成的顺子、刻子(杠)、将牌的和牌。不计断幺、无字。"),
    _no("quan_xiao", "小于五 无字", "全小：由序数牌123组成的顺子、刻子(杠)、将牌的和牌。不计小于五、无字。"),
    _no("qing_long", "连六 老少副", "清龙：和牌时，有一种花色1-9相连接的序数牌。不计连六、老少副。"),
    _no(
        "san_se_shuang_long_hui",
        "喜相逢 老少副 平和 无字",
        "三色双龙会：2种花色2个老少副、另一种花色5作将的和牌。不计喜相逢、老少副、平和、无字。",
    ),
    _no("quan_dai_wu", "断幺 无字", "全带五：每副牌及将牌必须有5的序数牌。不计断幺、无字。"),
    _no("san_tong_ke", "双同刻", "三同刻：3个序数相同的刻子(杠)。不计双同刻。"),
    _no("san_an_ke", "双暗刻", "三暗刻：3个暗刻。不计双暗刻。"),
    _no(
        "quan_bu_kao",
        "五门齐 门前清 不求人 单钓将",
        "全不靠：由单张3种花色147、258、369不能错位的序数牌及东南西北中发白中的任何14张牌组成的和牌。不计五门齐、门前清、不求人、单钓将。",
    ),
    _no("da_yu_wu", "无字", "大于五：由序数牌6-9的顺子、刻子、将牌组成的和牌。不计无字。"),
    _no("xiao_yu_wu", "无字", "小于五：由序数牌1-4的顺子、刻子、将牌组成的和牌。不计无字。"),
    _no("tui_bu_dao", "缺一门", "推不倒：由牌面图形没有上下区别的牌组成的和牌。不计缺一门。"),
    _no("san_se_san_tong_shun", "喜相逢", "三色三同顺：和牌时，有3种花色3副序数相同的顺子。不计喜相逢。"),
    _no("miao_shou_hui_chun", "自摸", "妙手回春：自摸牌墙上最后一张牌和牌。不计自摸。"),
    _no("gang_shang_kai_hua", "自摸", "杠上开花：开杠抓进的牌成和牌(不包括补花)。不计自摸。"),
    _no("qiang_gang_he", "和绝张", "抢杠和：和别人自抓开明杠的牌。不计和绝张。"),
    _no("quan_qiu_ren", "单钓将", "全求人：全靠吃牌、碰牌、单钓别人打出的牌和牌。不计单钓将。"),
    _no("shuang_an_gang", "暗杠 双暗刻", "双暗杠：2个暗杠。不计暗杠、双暗刻。"),
    _no("shuang_jian_ke", "箭刻", "双箭刻：2副箭刻(或杠)。不计箭刻。"),
    _no("bu_qiu_ren", "门前清 自摸", "不求人：4副牌及将中没有吃牌、碰牌(包括明杠)，自摸和牌。不计门前清、自摸。"),
    _no("shuang_ming_gang", "明杠", "双明杠：2个明杠。不计明杠。"),
    _no("ping_he", "无字", "平和：由4副顺子及序数牌作将组成的和牌，边、坎、钓不影响平和。不计无字。"),
    _no("duan_yao", "无字", "断幺：和牌中没有一、九及字牌。不计无字。"),
)
