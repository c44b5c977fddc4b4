"""Luoshan 螺山 "打来干、自摸干" — the hu table of docs/rules/luoshan.md as data.

Read top to bottom like the rules page: the hand as Luoshan sees it
(`LuoshanHand`, built and validated by `prepare`), the readings (each with
the place of the winning tile, since the wait bonuses depend on it), the
hu items, the tai items, the special hands, and `finish`: the formula, the
fixed totals and the minimums for a legal win.
"""

from __future__ import annotations

import re
from bisect import insort
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .. import memo as M
from .. import tiles as T
from ..engine import (
    CHOW,
    KONG,
    PAIR,
    PUNG,
    Group,
    JokerOptions,
    kinds_readings,
    standard_readings,
    to_counts,
    win_placements,
)
from ..errors import HandError
from ..notation import Meld, ParsedHand
from .base import (
    NONE,
    ROB_KONG_OR_KONG_DRAW,
    WINNER,
    Exclusion,
    Finder,
    Found,
    Item,
    Outcome,
    Prepared,
    Reading,
    RuleSet,
    check_known_conditions,
    check_kong_draw,
    check_win_conditions,
)

SETS = 4  # 4 sets + 1 pair
WIN_SIZE, HAND_SIZE = 14, 13
CONDITIONS = frozenset({"seat", "wild", "flip", "self", "kong-draw", "rob-kong"})
WIN_CONDITIONS = ("self", "kong-draw", "rob-kong")
SELF_DRAWN = frozenset(WIN_CONDITIONS)  # 抢杠当自摸; a kong replacement is a draw
CONFLICTS = (
    ("rob-kong", "self", "robbing a kong is a win on another player's tile (it only scores as self-drawn)"),
    ROB_KONG_OR_KONG_DRAW,
)
DRAGONS = (T.RED, T.GREEN, T.WHITE)  # 大料: 白 is an ordinary dragon here
MINIMUM = {True: 100, False: 200}  # self-drawn / on a discard
DI_HE = 10
HONORED = {seat: frozenset((*DRAGONS, wind)) for seat, wind in T.SEAT_WIND.items()}  # 大料 and 座风

# hu of a pung or kong: (2–8, 1/9/winds/dragons)
MELD_HU = {
    "peng": (2, 4),
    "an_ke": (4, 8),
    "ming_gang": (8, 16),
    "an_gang": (16, 32),
    "zi_mo_liu": (6, 10),
}
DIAO_TOU = {True: (4, 6), False: (2, 4)}  # self-drawn? -> (2–8, others)
BIAN_QIAN = {True: 4, False: 2}


def wildcard_after(indicator: int) -> int:
    """The kind a flipped indicator makes wild: the next tile, wrapping within its family."""
    if T.is_suited(indicator):
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if T.is_wind(indicator):
        return T.EAST + (indicator - T.EAST + 1) % 4
    return T.RED + (indicator - T.RED + 1) % 3


@dataclass
class LuoshanHand(Prepared):
    wild_kind: int | None = None
    honored: frozenset[int] = frozenset()  # the dragons and the seat wind: 对子 hu, 台
    wild_tiles: tuple[int, ...] = ()  # held wildcards, the winning tile included
    natural_kinds: bytes = b""  # the held tiles but wildcards, winning tile included, sorted, as bytes
    melds: tuple[Group, ...] = ()  # exposed melds (花碰 included) and concealed kongs
    win: int = -1
    self_drawn: bool = False


# a flower (kind 34 and up), or five of a kind in sorted kinds: a hand to look at tile by tile
_FLOWER_OR_FIVE_ALIKE = re.compile(rb"[\x22-\xff]|(.)\1{4}", re.DOTALL)


Facts = tuple[list[tuple[int, Group]], list[Group], list[Group], int, str, bool, str, int]


class WinReading:
    """A reading (its groups) plus where the winning tile sits in it.

    `win_at` is the group's index, `win_as` the kind the winning tile stands
    for there (itself, unless it is a wildcard). The facts several items ask
    (what the winning tile did, the pungs, the chows, the suit) are found
    once per grouping, not by each item.
    """

    __slots__ = (
        "groups",
        "win_at",
        "win_as",
        "role",
        "pungs",
        "kongs",
        "pairs",
        "chows",
        "suit",
        "honors",
        "one_suit",
        "tags",
    )
    groups: Reading
    win_at: int
    win_as: int
    role: str  # pung, pair, edge, closed or two-sided
    pungs: list[tuple[int, Group]]  # (index, group)
    kongs: list[Group]
    pairs: list[Group]
    chows: int
    suit: str  # the suit letter when the suited tiles are of one suit (wildcards as assigned), else ''
    honors: bool
    one_suit: str  # the suit letter of a hand in one suit and no honors, else ''
    tags: int  # the facts items may need (`Item.needs`): those of the grouping and the wait

    def __init__(self, groups: Reading, facts: Facts, win_at: int, win_as: int) -> None:
        self.groups, self.win_at, self.win_as = groups, win_at, win_as
        self.role = role = _role(groups[win_at], win_as)
        self.pungs, self.kongs, self.pairs, self.chows, self.suit, self.honors, self.one_suit, tags = facts
        self.tags = tags | WAIT_TAGS[role]


# A reading's tags, the facts items may need (`Item.needs`), one bit each: the grouping's, and the wait
PUNGS, KONGS, HONORS, NO_CHOWS, FOUR_CHOWS, ONE_SUIT, ONE_SUIT_HONORS = (1 << bit for bit in range(7))
WAIT_PUNG, WAIT_PAIR, WAIT_EDGE, WAIT_CLOSED, WAIT_TWO_SIDED = (1 << bit for bit in range(7, 12))
WAIT_TAGS = {
    "pung": WAIT_PUNG,
    "pair": WAIT_PAIR,
    "edge": WAIT_EDGE,
    "closed": WAIT_CLOSED,
    "two-sided": WAIT_TWO_SIDED,
}


# a suit as a bit, by kind; the suit letter by the bits of the suits present ('' unless exactly one)
SUIT_BIT = tuple(1 << (kind // 9) for kind in range(27))
ONLY_SUIT = tuple(T.SUITS[bits.bit_length() - 1] if bits and not bits & (bits - 1) else "" for bits in range(8))


def grouping_facts(groups: Reading) -> Facts:
    """What the items ask of a grouping, in one pass: pungs, kongs, pairs, chows, the suit, honors, the one suit."""
    pungs: list[tuple[int, Group]] = []
    kongs: list[Group] = []
    pairs: list[Group] = []
    chows = 0
    suit_bits = 0
    honors = False
    for index, g in enumerate(groups):
        shape, kind = g.shape, g.kind
        if shape == CHOW:
            chows += 1
        elif shape == PUNG:
            pungs.append((index, g))
        elif shape == PAIR:
            pairs.append(g)
        elif shape == KONG:
            kongs.append(g)
        if kind >= 27:
            honors = True
        elif kind >= 0:
            suit_bits |= SUIT_BIT[kind]
    suit = ONLY_SUIT[suit_bits]
    one_suit = "" if honors else suit
    tags = PUNGS if pungs else 0
    if kongs:
        tags |= KONGS
    if not chows:
        tags |= NO_CHOWS
    elif chows == SETS:
        tags |= FOUR_CHOWS
    if honors:
        tags |= HONORS | (ONE_SUIT_HONORS if suit else 0)
    elif one_suit:
        tags |= ONE_SUIT
    return pungs, kongs, pairs, chows, suit, honors, one_suit, tags


def _role(group: Group, win_as: int) -> str:
    if group.shape == PAIR:
        return "pair"
    if group.shape == PUNG:
        return "pung"
    place, start = win_as - group.kind, group.kind % 9 + 1  # the place in the chow, the chow's first rank
    if place == 1:
        return "closed"
    if (place == 2 and start == 1) or (place == 0 and start == 7):
        return "edge"
    return "two-sided"


# -- validation -------------------------------------------------------------


def _wild_kind(parsed: ParsedHand, notes: list[str]) -> int | None:
    if parsed.wild is not None and parsed.flip is not None:
        raise HandError(
            f"give either flip: (column {parsed.columns['flip']}) or wild: (column {parsed.columns['wild']}), "
            f"not both: Luoshan has one wildcard kind"
        )
    if parsed.flip is not None:
        if T.is_flower(parsed.flip):
            raise HandError(f"flip:{T.name(parsed.flip)} is a flower; Luoshan plays 136 tiles, no flowers")
        kind = wildcard_after(parsed.flip)
        notes.append(f"flipped {T.name(parsed.flip)}: the wildcard is {T.name(kind)}")
        return kind
    if parsed.wild is not None:
        if len(parsed.wild) != 1:
            raise HandError(
                f"Luoshan has one wildcard kind, e.g. wild:2m or flip:1m; got {len(parsed.wild)} "
                f"at column {parsed.columns.get('wild', 0)}"
            )
        if T.is_flower(parsed.wild[0]):
            raise HandError(f"wild:{T.name(parsed.wild[0])} is a flower; Luoshan plays 136 tiles, no flowers")
        return parsed.wild[0]
    notes.append("no wild: or flip: given — scored with no wildcards")
    return None


def _meld_group(meld: Meld, wild_kind: int | None, seat: str) -> Group:
    """A meld as a group; a wildcard may sit only in a 花碰 (`[CC2m]`)."""
    source = meld.source or meld.text()
    wild = [t for t in meld.tiles if t == wild_kind]
    natural = [t for t in meld.tiles if t != wild_kind]
    if wild or meld.is_stand_in_pung:
        if (
            not meld.concealed
            and len(meld.tiles) == 3
            and len(wild) == 1
            and len(set(natural)) == 1
            and natural[0] in HONORED[seat]
        ):
            kind = natural[0]
            return Group(PUNG, kind, (kind,), exposed=True, wilds=((wild[0], kind),))
        rule = (
            f"only 花碰 — an exposed pung of a dragon or one's seat wind ({seat}) completed by "
            f"one wildcard — may hold a wildcard"
        )
        if wild:
            where = "concealed kong" if meld.concealed else "exposed meld"
            raise HandError(f"wildcard {T.name(wild[0])} used in {where} {source}: {rule}")
        odd = min(set(meld.tiles), key=meld.tiles.count)
        held = f"the wildcard is {T.name(wild_kind)}" if wild_kind is not None else "no wildcard is given"
        raise HandError(
            f"{source} at column {meld.column} is not a meld: {T.name(odd)} is not a wildcard ({held}); {rule}"
        )
    kind = meld.tiles[0]
    if meld.is_kong:
        return Group(KONG, kind, exposed=not meld.concealed, concealed_kong=meld.concealed)
    if meld.is_chow:
        return Group(CHOW, kind, exposed=True)
    return Group(PUNG, kind, exposed=True)


# (flags, seat, wild, flip, declare, any riichi value) of hands that passed the checks -> (wildcard kind, notes)
_CONDITIONS_SEEN: dict[tuple[Any, ...], tuple[int | None, tuple[str, ...]]] = {}
M.register("luoshan.conditions", _CONDITIONS_SEEN.__len__, _CONDITIONS_SEEN.clear, bytes_per_entry=400)


def _conditions(parsed: ParsedHand) -> tuple[int | None, list[str]]:
    """The checks of the conditions alone, and the wildcard they give: done once per set of conditions."""
    key = (parsed.flags, parsed.seat, parsed.wild, parsed.flip, parsed.declare, parsed.riichi_values)
    known = _CONDITIONS_SEEN.get(key)
    if known is None:
        check_known_conditions(parsed, "Luoshan", CONDITIONS)
        notes: list[str] = []
        wild_kind = _wild_kind(parsed, notes)
        if len(_CONDITIONS_SEEN) >= 1024:
            _CONDITIONS_SEEN.clear()
        known = _CONDITIONS_SEEN[key] = (wild_kind, tuple(notes))
    return known[0], list(known[1])


def prepare(parsed: ParsedHand, options: dict[str, int]) -> LuoshanHand:
    wild_kind, notes = _conditions(parsed)

    held: Sequence[int] = parsed.tiles
    if parsed.win is not None:
        held = list(held)
        insort(held, parsed.win)
    kinds = bytes(held)  # sorted: the search reads each suit's run of it (engine.kinds_readings)
    seen = kinds if not parsed.melds else bytes(sorted((*held, *(t for m in parsed.melds for t in m.tiles))))
    if _FLOWER_OR_FIVE_ALIKE.search(seen):  # found in one pass; the message needs the loop
        counts = to_counts(seen)
        for kind in sorted(set(seen)):
            if T.is_flower(kind):
                raise HandError(f"flower {T.name(kind)} is not a Luoshan tile: Luoshan plays 136 tiles, no flowers")
            # the flipped indicator stays in play: four of every kind can be held
            if counts[kind] > 4:
                raise HandError(f"{T.name(kind)} appears {counts[kind]} times; at most 4 exist")

    seat = parsed.seat or "E"
    melds = tuple([_meld_group(m, wild_kind, seat) for m in parsed.melds]) if parsed.melds else ()
    wild_tiles: tuple[int, ...] = ()
    if wild_kind is not None and wild_kind in kinds:
        wild_tiles = (wild_kind,) * kinds.count(wild_kind)
        kinds = kinds.replace(bytes((wild_kind,)), b"")

    size = len(held) + 3 * len(melds)
    winner = parsed.win is not None
    if winner and size != WIN_SIZE:
        raise HandError(f"hand has {size} tiles, a winning Luoshan hand needs 14 (13 + winning tile; a kong counts 3)")
    if not winner and size != HAND_SIZE:
        raise HandError(f"hand has {size} tiles, a non-winning Luoshan hand holds 13 (a kong counts 3)")

    flags = parsed.flags
    check_win_conditions(parsed, winner, WIN_CONDITIONS, CONFLICTS)
    if not winner:
        notes.append("Luoshan non-winners score 0")
    check_kong_draw(flags, melds)

    return LuoshanHand(
        parsed=parsed,
        winner=winner,
        declared=False,
        options=options,
        notes=notes,
        honored=HONORED[seat],
        wild_kind=wild_kind,
        wild_tiles=wild_tiles,
        natural_kinds=kinds,
        melds=melds,
        win=parsed.win if parsed.win is not None else -1,
        self_drawn=not flags.isdisjoint(SELF_DRAWN),
    )


# -- the readings ------------------------------------------------------------


def _joker_options(hand: LuoshanHand, naturals: list[int]) -> JokerOptions:
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
    return JokerOptions(pairs=tuple(dict.fromkeys(pairs)), sets=tuple(dict.fromkeys(sets)))


def readings(hand: LuoshanHand) -> list[WinReading]:
    """A list, built by loops: cheaper than a generator for the one or two readings of most hands."""
    win, win_is_wild, melds = hand.win, hand.win == hand.wild_kind, hand.melds
    sets = SETS - len(melds)
    groupings: Iterable[Reading]
    if hand.wild_tiles:
        naturals = to_counts(hand.natural_kinds)  # the search with wildcards works on counts
        groupings = standard_readings(naturals, hand.wild_tiles, sets, _joker_options(hand, naturals))
    else:
        groupings = kinds_readings(hand.natural_kinds, sets, True)
    found = []
    for groups in groupings:
        full = melds + groups if melds else groups
        facts = grouping_facts(full)
        for placed, at, stands_for in win_placements(full, win, win_is_wild):
            # a placement that moved a wildcard shows the groups as they then lie
            found.append(WinReading(placed, facts if placed is full else grouping_facts(placed), at, stands_for))
    return found


# -- hu items ------------------------------------------------------------------


# MELD_HU by kind, so an item reads its hu off a table: HU["an_ke"][kind]
HU = {key: tuple(values[T.is_terminal_or_honor(k)] for k in range(T.PLAYABLE)) for key, values in MELD_HU.items()}


def peng(hand: LuoshanHand, reading: WinReading) -> list[tuple[int, str]]:
    """Exposed pungs, and the pung a discard completed (Decision: it counts as exposed)."""
    out = []
    hu = HU["peng"]
    for i, g in reading.pungs:
        if g.exposed:
            out.append((hu[g.kind], g.text() + (" 花碰" if g.wilds else "")))
        elif i == reading.win_at and not hand.self_drawn:
            out.append((hu[g.kind], f"{g.text()} completed by the discarded {T.name(hand.win)}"))
    return out


def an_ke(hand: LuoshanHand, reading: WinReading) -> list[tuple[int, str]]:
    """Concealed pungs the winning tile did not complete (that one is peng or zi_mo_liu)."""
    hu, win_at = HU["an_ke"], reading.win_at
    out = []
    for i, g in reading.pungs:
        if not g.exposed and i != win_at:
            out.append((hu[g.kind], g.text()))
    return out


def _kongs(concealed: bool, key: str) -> Finder:
    def find(hand: LuoshanHand, reading: WinReading) -> list[tuple[int, str]]:
        out = []
        for g in reading.kongs:
            if g.concealed_kong == concealed:
                out.append((HU[key][g.kind], g.text()))
        return out

    return find


def dui_zi(hand: LuoshanHand, reading: WinReading) -> list[tuple[int, str]]:
    out = []
    for g in reading.pairs:
        if g.kind in hand.honored:
            out.append((2, g.text()))
    return out


def zi_mo_liu(hand: LuoshanHand, reading: WinReading) -> list[tuple[int, str]]:
    if reading.role != "pung" or not hand.self_drawn:
        return NONE
    group = reading.groups[reading.win_at]
    return [(HU["zi_mo_liu"][group.kind], f"{group.text()} completed by the self-drawn {T.name(hand.win)}")]


def diao_tou(hand: LuoshanHand, reading: WinReading) -> list[tuple[int, str]]:
    if reading.role != "pair":
        return NONE
    group = reading.groups[reading.win_at]
    value = DIAO_TOU[hand.self_drawn][T.is_terminal_or_honor(group.kind)]
    return [(value, f"{T.name(hand.win)} completes the pair {group.text()}")]


def bian_qian(hand: LuoshanHand, reading: WinReading) -> list[tuple[int, str]]:
    role = reading.role
    if role not in ("edge", "closed"):
        return NONE
    group = reading.groups[reading.win_at]
    return [(BIAN_QIAN[hand.self_drawn], f"{role} wait: {T.name(reading.win_as)} in {group.text()}")]


def di_he(hand: LuoshanHand, reading: WinReading | None) -> list[tuple[int, str]]:
    return [(DI_HE, "")]


# -- tai items (value in tai, said in detail) ------------------------------------


def jian_feng_ke(hand: LuoshanHand, reading: WinReading) -> list[tuple[int, str]]:
    honored = hand.honored
    out = []
    for g in reading.groups:  # in the order of the reading
        if g.kind in honored and (g.shape == PUNG or g.shape == KONG):
            out.append((1, f"tai: {'kong' if g.shape == KONG else 'pung'} of {T.name(g.kind)}"))
    return out


def dui_dui_hu(hand: LuoshanHand, reading: WinReading) -> list[tuple[int, str]]:
    return NONE if reading.chows else [(1, "tai: no chows")]


def cou_yi_tai(hand: LuoshanHand, reading: WinReading) -> list[tuple[int, str]]:
    suit = reading.suit
    return [(1, f"tai: {suit} + honors")] if suit and reading.honors else NONE


def gang_kai(hand: LuoshanHand, reading: WinReading | None) -> list[tuple[int, str]]:
    return [(1, "tai: won on a kong replacement")] if hand.has("kong-draw") else NONE


def qing_san_tai(hand: LuoshanHand, reading: WinReading) -> list[tuple[int, str]]:
    suit = reading.one_suit
    return [(3, f"tai: all {suit}")] if suit else NONE


def qing_si_tai(hand: LuoshanHand, reading: WinReading) -> list[tuple[int, str]]:
    suit = reading.one_suit
    return [(4, f"tai: all {suit}, no chows")] if suit and not reading.chows else NONE


# -- special hands (fixed totals) ----------------------------------------------------


def _ping_he(reading: WinReading) -> str:
    """平和: four chows + pair and a two-sided wait; the detail, or ''."""
    if reading.chows != SETS or reading.role != "two-sided":
        return ""
    return f"four chows, two-sided wait: {T.name(reading.win_as)} in {reading.groups[reading.win_at].text()}"


def ping_he(hand: LuoshanHand, reading: WinReading) -> list[tuple[int, str]]:
    detail = _ping_he(reading)
    return [(30, detail)] if detail else NONE


def qing_san_tai_ping_he(hand: LuoshanHand, reading: WinReading) -> list[tuple[int, str]]:
    suit = reading.one_suit
    detail = _ping_he(reading) if suit else ""
    return [(240, f"{detail}; all {suit}")] if detail else NONE


ITEMS = (
    # Base hu (基本和数)
    Item("peng", "碰", "Exposed pung", "2 / 4 (1, 9, honors)", WINNER, peng, needs=PUNGS),
    Item("an_ke", "暗刻", "Concealed pung", "4 / 8", WINNER, an_ke, needs=PUNGS),
    Item("ming_gang", "明杠", "Open kong", "8 / 16", WINNER, _kongs(False, "ming_gang"), needs=KONGS),
    Item("an_gang", "暗杠", "Concealed kong", "16 / 32", WINNER, _kongs(True, "an_gang"), needs=KONGS),
    Item("dui_zi", "对子", "Pair of a dragon or seat wind", "2", WINNER, dui_zi, needs=HONORS),
    Item("zi_mo_liu", "自摸六/十", "Self-drawn tile completes a pung", "6 / 10", WINNER, zi_mo_liu, needs=WAIT_PUNG),
    Item("diao_tou", "吊头", "Pair wait", "self-drawn +4 / +6; discard +2 / +4", WINNER, diao_tou, needs=WAIT_PAIR),
    Item(
        "bian_qian",
        "边张/嵌张",
        "Edge or closed wait",
        "self-drawn +4; discard +2",
        WINNER,
        bian_qian,
        needs=WAIT_EDGE | WAIT_CLOSED,
    ),
    Item("di_he", "底和", "Base for winning", "+10", WINNER, di_he),
    # Tai (台): each doubles the hu
    Item(
        "jian_feng_ke",
        "大料/座风刻",
        "Pung/kong of a dragon or seat wind",
        "1 tai each",
        WINNER,
        jian_feng_ke,
        needs=HONORS,
    ),
    Item("dui_dui_hu", "对对胡", "No chows", "1 tai", WINNER, dui_dui_hu, needs=NO_CHOWS),
    Item("cou_yi_tai", "凑一台", "One suit plus honors", "1 tai", WINNER, cou_yi_tai, needs=ONE_SUIT_HONORS),
    Item("gang_kai", "杠开", "Won on a kong replacement", "1 tai", WINNER, gang_kai),
    Item("qing_san_tai", "清三台", "One suit only", "3 tai", WINNER, qing_san_tai, needs=ONE_SUIT),
    Item("qing_si_tai", "清四台", "One suit only, no chows", "4 tai", WINNER, qing_si_tai, needs=ONE_SUIT),
    # Special hands: a fixed total instead of the formula
    Item("ping_he", "平和", "Four chows, two-sided wait", "30 total", WINNER, ping_he, needs=FOUR_CHOWS),
    Item(
        "qing_san_tai_ping_he",
        "清三台平和",
        "平和 in one suit",
        "240 total",
        WINNER,
        qing_san_tai_ping_he,
        needs=FOUR_CHOWS,
    ),
)
TAI = frozenset({"jian_feng_ke", "dui_dui_hu", "cou_yi_tai", "gang_kai", "qing_san_tai", "qing_si_tai"})
SPECIAL = frozenset({"qing_san_tai_ping_he", "ping_he"})  # gives the total; exclusions leave one at most

EXCLUSIONS = (
    Exclusion("qing_si_tai", ("qing_san_tai", "dui_dui_hu")),
    Exclusion("ping_he", ("di_he", "dui_zi", "cou_yi_tai")),
    Exclusion("qing_san_tai_ping_he", ("ping_he", "di_he", "dui_zi", "qing_san_tai")),
)


class Luoshan(RuleSet):
    name = "luoshan"
    chinese = "螺山"
    unit = "hu"
    items = ITEMS
    exclusions = EXCLUSIONS
    options = ()
    stand_in_pungs = True  # 花碰

    prepare = staticmethod(prepare)
    readings = staticmethod(readings)

    def finish(self, hand: LuoshanHand, found: Found) -> Outcome:
        if not hand.winner:
            return Outcome(0, False, 0)
        hu = tai = 0
        for item, value, _ in found:
            if item.key in TAI:
                tai += value
            elif item.key in SPECIAL:  # a named special hand: legal at any total (Decision)
                return Outcome(value, False, value)
            else:
                hu += value
        total = -(-hu * 2**tai // 10) * 10  # rounded up to 10
        minimum = MINIMUM[hand.self_drawn]
        if total >= minimum:
            return Outcome(hu, tai > 0, total)
        how = "a win on a discard"
        if hand.self_drawn:
            how = "a self-drawn win (rob-kong and kong-draw count as self-drawn)"
        note = f"not a legal win: {how} needs at least {minimum} hu; this hand makes {total}"
        return Outcome(hu, tai > 0, total, legal=False, notes=[note])

    def arrangement(self, hand: LuoshanHand, reading: WinReading) -> list[str]:
        return RuleSet.arrangement(self, hand, reading.groups)

    def no_shape_message(self, hand: LuoshanHand) -> str:
        return "no winning shape: the tiles do not form 4 sets + a pair (Luoshan has no seven pairs)"


LUOSHAN = Luoshan()
