"""Luoshan 螺山 "打来干、自摸干" — the hu table of docs/rules/luoshan.md as data.

Read top to bottom like the rules page: the hand as Luoshan sees it
(`LuoshanHand`, built and validated by `prepare`), the readings (each with
the place of the winning tile, since the wait bonuses depend on it), the
hu items, the tai items, the special hands, and `finish`: the formula, the
fixed totals and the minimums for a legal win.
"""

from __future__ import annotations

import dataclasses
import re
from bisect import insort
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ... import engine as E
from ... import memo as M
from ... import tiles as T
from ...engine import CHOW, KONG, PUNG, Group, ReadingFacts
from ...errors import HandError
from ...notation import Meld, ParsedHand
from .. import base as B
from ..base import FOUND, HU, NONE, ONE, TAI, TOTAL, WINNER, Exclusion, Item, Variant

SETS = 4  # 4 sets + 1 pair
WIN_SIZE, HAND_SIZE = 14, 13
CONDITIONS = frozenset({"seat", "wild", "flip", "self", "kong-draw", "rob-kong"})
WIN_CONDITIONS = ("self", "kong-draw", "rob-kong")
SELF_DRAWN = frozenset(WIN_CONDITIONS)  # 抢杠当自摸; a kong replacement is a draw
CONFLICTS = (
    ("rob-kong", "self", "robbing a kong is a win on another player's tile (it only scores as self-drawn)"),
    B.ROB_KONG_OR_KONG_DRAW,
)
DRAGONS = (T.RED, T.GREEN, T.WHITE)  # 大料: 白 is an ordinary dragon here
MINIMUM = {True: 100, False: 200}  # self-drawn / on a discard
# the note of a win below its minimum, but for the hu it makes: written once, as most readings' totals fall short
NOT_LEGAL = {
    self_drawn: f"not a legal win: {how} needs at least {MINIMUM[self_drawn]} hu; this hand makes "
    for self_drawn, how in (
        (True, "a self-drawn win (rob-kong and kong-draw count as self-drawn)"),
        (False, "a win on a discard"),
    )
}
DI_HE = 10
HONORED = {seat: frozenset((*DRAGONS, wind)) for seat, wind in T.SEAT_WIND.items()}  # 大料 and 座风


def wildcard_after(indicator: int) -> int:
    """The kind a flipped indicator makes wild: the next tile, wrapping within its family."""
    if T.is_suited(indicator):
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if T.is_wind(indicator):
        return T.EAST + (indicator - T.EAST + 1) % 4
    return T.RED + (indicator - T.RED + 1) % 3


@dataclass
class LuoshanHand(B.Prepared):
    wild_kind: int | None = None
    honored: frozenset[int] = frozenset()  # the dragons and the seat wind: 对子 hu, 台
    wild_tiles: tuple[int, ...] = ()  # held wildcards, the winning tile included
    natural_kinds: bytes = b""  # the held tiles but wildcards, winning tile included, sorted, as bytes
    melds: tuple[Group, ...] = ()  # exposed melds (花碰 included) and concealed kongs
    win: int = -1
    self_drawn: bool = False


# five of a kind in sorted kinds: with a flower (the last kind, 34 and up), a hand to look at tile by tile
_FIVE_ALIKE = re.compile(rb"(.)\1\1\1\1", re.DOTALL)


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
    return B.meld_group(meld)


# (seat, wild, flip, flags, declare, the riichi values: `_CONDITION_FIELDS`, `_RIICHI_FIELDS`) of hands that passed
# the checks
# -> (wildcard kind, notes, whether the win conditions pass for a non-winner and for a winner)
_CONDITIONS_SEEN: dict[tuple[Any, ...], tuple[int | None, tuple[str, ...], tuple[bool, bool]]] = {}
M.register("luoshan.conditions", _CONDITIONS_SEEN.__len__, _CONDITIONS_SEEN.clear, bytes_per_entry=400)


def _conditions(parsed: ParsedHand) -> tuple[int | None, list[str], tuple[bool, bool]]:
    """The checks of the conditions alone, and the wildcard they give: done once per set of conditions.

    Whether `check_win_conditions` passes depends on the conditions and on
    winning only, so it is tried here for both; `prepare` still raises its
    error in its own place, after the tile count.
    """
    fields: tuple[Any, ...] = parsed
    key = fields[_CONDITION_FIELDS] + fields[_RIICHI_FIELDS]
    known = _CONDITIONS_SEEN.get(key)
    if known is None:
        B.check_known_conditions(parsed, "Luoshan", CONDITIONS)
        notes: list[str] = []
        wild_kind = _wild_kind(parsed, notes)
        B.seat_or_dealer(parsed, notes)  # the seat wind's pungs and pair score: a missing seat: is noted
        if len(_CONDITIONS_SEEN) >= 1024:
            _CONDITIONS_SEEN.clear()
        passes = (_win_conditions_pass(parsed, False), _win_conditions_pass(parsed, True))
        known = _CONDITIONS_SEEN[key] = (wild_kind, tuple(notes), passes)
    return known[0], list(known[1]), known[2]


# the fields `_conditions` reads, as slices of the NamedTuple (one C call, where ten field reads cost ten lookups):
# seat, wild, flip, flags, declare; and the riichi values, refused, but a key must tell them apart
_CONDITION_FIELDS = slice(ParsedHand._fields.index("seat"), ParsedHand._fields.index("declare") + 1)
_RIICHI_FIELDS = slice(ParsedHand._fields.index("round"), ParsedHand._fields.index("sticks") + 1)


def _win_conditions_pass(parsed: ParsedHand, winner: bool) -> bool:
    try:
        B.check_win_conditions(parsed, winner, WIN_CONDITIONS, CONFLICTS)
    except HandError:
        return False
    return True


def prepare(parsed: ParsedHand, options: dict[str, int]) -> LuoshanHand:
    wild_kind, notes, win_conditions_pass = _conditions(parsed)

    held: Sequence[int] = parsed.tiles
    if parsed.win is not None:
        held = list(held)
        insort(held, parsed.win)
    kinds = bytes(held)  # sorted: the search reads each suit's run of it (engine.kinds_readings)
    seen = kinds if not parsed.melds else bytes(sorted((*held, *(t for m in parsed.melds for t in m.tiles))))
    if seen and (seen[-1] >= T.FIRST_FLOWER or _FIVE_ALIKE.search(seen)):  # the message needs the loop
        counts = E.to_counts(seen)
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
    if size != (WIN_SIZE if winner else HAND_SIZE):
        raise B.tile_count_error(parsed, "luoshan", size, HAND_SIZE, winner)

    flags = parsed.flags
    if not win_conditions_pass[winner]:
        B.check_win_conditions(parsed, winner, WIN_CONDITIONS, CONFLICTS)  # raises the error
    if not winner:
        notes.append("Luoshan non-winners score 0")
    if "kong-draw" in flags:
        B.check_kong_draw(flags, melds)

    hand = B.new_instance(LuoshanHand)
    LuoshanHand.__init__(
        hand,
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
    return hand


# -- the readings ------------------------------------------------------------


def _joker_options(hand: LuoshanHand, naturals: list[int]) -> E.JokerOptions:
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
    return E.JokerOptions(pairs=tuple(dict.fromkeys(pairs)), sets=tuple(dict.fromkeys(sets)), classify=classify)


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
    for groups in E.standard_readings(naturals, hand.wild_tiles, sets, _joker_options(hand, naturals)):
        full = melds + groups if melds else groups
        _add_placements(found, full, E.win_placements(full, win, False))
    return found


def _wild_win_readings(hand: LuoshanHand, sets: int) -> list[ReadingFacts]:
    """`readings` for a winning wildcard, one of each placement that scores unlike those before it."""
    naturals = E.to_counts(hand.natural_kinds)
    options = _joker_options(hand, naturals)
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
    options: E.JokerOptions,
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


# -- hu items ------------------------------------------------------------------


# the row of a pung's or kong's hu by kind: 2–8, or 1, 9, winds, dragons
ROW = tuple("terminal" if T.is_terminal_or_honor(k) else "simple" for k in range(T.PLAYABLE))
MELD_TEXT = "{simple} / {terminal}"


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
        return g.text() + (" 花碰" if g.wilds else "")
    return f"{g.text()} completed by the discarded {T.name(hand.win)}"


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


def _kongs(concealed: bool) -> B.Finder:
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
    return f"{group.text()} completed by the self-drawn {T.name(hand.win)}"


def diao_tou(hand: LuoshanHand, facts: ReadingFacts) -> Occurrences:
    if facts.wait != "pair":
        return []
    group = facts.groups[facts.win_at]
    how = "self_" if hand.self_drawn else "discard_"
    return [(how + ROW[group.kind], group)]


def diao_tou_detail(hand: LuoshanHand, facts: ReadingFacts | None, group: Group) -> str:
    return f"{T.name(hand.win)} completes the pair {group.text()}"


def bian_qian(hand: LuoshanHand, facts: ReadingFacts) -> Occurrences:
    wait = facts.wait
    if wait not in ("edge", "closed"):
        return []
    return [("self" if hand.self_drawn else "discard", facts.groups[facts.win_at])]


def bian_qian_detail(hand: LuoshanHand, facts: ReadingFacts, group: Group) -> str:
    return f"{facts.wait} wait: {T.name(facts.win_as)} in {group.text()}"


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
    return f"tai: {'kong' if g.shape == KONG else 'pung'} of {T.name(g.kind)}"


def dui_dui_hu(hand: LuoshanHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    return NONE if facts.chows else [(ONE, "tai: no chows")]


def cou_yi_tai(hand: LuoshanHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    suit = facts.suit
    return [(ONE, f"tai: {suit} + honors")] if suit and facts.honors else NONE


def gang_kai(hand: LuoshanHand, facts: None) -> list[tuple[Variant, str]]:
    return [(ONE, "tai: won on a kong replacement")] if hand.has("kong-draw") else NONE


def qing_san_tai(hand: LuoshanHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    suit = facts.one_suit
    return [(ONE, f"tai: all {suit}")] if suit else NONE


def qing_si_tai(hand: LuoshanHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    suit = facts.one_suit
    return [(ONE, f"tai: all {suit}, no chows")] if suit and not facts.chows else NONE


# -- special hands (fixed totals) ----------------------------------------------------


def _ping_he(facts: ReadingFacts) -> str:
    """平和: four chows + pair and a two-sided wait; the detail, or ''."""
    if facts.chows != SETS or facts.wait != "two-sided":
        return ""
    return f"four chows, two-sided wait: {T.name(facts.win_as)} in {facts.groups[facts.win_at].text()}"


def ping_he(hand: LuoshanHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    detail = _ping_he(facts)
    return [(ONE, detail)] if detail else NONE


def qing_san_tai_ping_he(hand: LuoshanHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    suit = facts.one_suit
    detail = _ping_he(facts) if suit else ""
    return [(ONE, f"{detail}; all {suit}")] if detail else NONE


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
        WINNER,
        peng,
        MELD_TEXT + " (1, 9, honors)",
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
        WINNER,
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
        WINNER,
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
        WINNER,
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
        WINNER,
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
        WINNER,
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
        WINNER,
        diao_tou,
        "self-drawn +{self_simple} / +{self_terminal}; discard +{discard_simple} / +{discard_terminal}",
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
        WINNER,
        bian_qian,
        "self-drawn +{self}; discard +{discard}",
        reads=(*WAIT, "win_as"),
        gate=("wait_edge", "wait_closed"),
        describe=bian_qian_detail,
    ),
    Item("di_he", "底和", "Base for winning", 10, HU, WINNER, di_he, "+{}"),
    # Tai (台): each doubles the hu
    Item(
        "jian_feng_ke",
        "大料/座风刻",
        "Pung/kong of a dragon or seat wind",
        1,
        TAI,
        WINNER,
        jian_feng_ke,
        "{} tai each",
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
        WINNER,
        dui_dui_hu,
        "{} tai",
        reads=("chows",),
        gate=("no_chows",),
    ),
    Item(
        "cou_yi_tai",
        "凑一台",
        "One suit plus honors",
        1,
        TAI,
        WINNER,
        cou_yi_tai,
        "{} tai",
        reads=("suit", "honors"),
        gate=("one_suit_honors",),
    ),
    Item("gang_kai", "杠开", "Won on a kong replacement", 1, TAI, WINNER, gang_kai, "{} tai"),
    Item(
        "qing_san_tai",
        "清三台",
        "One suit only",
        3,
        TAI,
        WINNER,
        qing_san_tai,
        "{} tai",
        reads=("one_suit",),
        gate=("one_suit",),
    ),
    Item(
        "qing_si_tai",
        "清四台",
        "One suit only, no chows",
        4,
        TAI,
        WINNER,
        qing_si_tai,
        "{} tai",
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
        WINNER,
        ping_he,
        "{} total",
        reads=(*WAIT, "win_as", "chows"),
        gate=("four_chows",),
    ),
    Item(
        "qing_san_tai_ping_he",
        "清三台平和",
        "平和 in one suit",
        240,
        TOTAL,
        WINNER,
        qing_san_tai_ping_he,
        "{} total",
        reads=(*WAIT, "win_as", "chows", "one_suit"),
        gate=("four_chows",),
    ),
)

EXCLUSIONS = (
    Exclusion("qing_si_tai", ("qing_san_tai", "dui_dui_hu")),
    Exclusion("ping_he", ("di_he", "dui_zi", "cou_yi_tai")),
    Exclusion("qing_san_tai_ping_he", ("ping_he", "di_he", "dui_zi", "qing_san_tai")),
)


class Luoshan(B.RuleSet):
    name = "luoshan"
    chinese = "螺山"
    unit = "hu"
    items = ITEMS
    exclusions = EXCLUSIONS
    options = ()
    stand_in_pungs = True  # 花碰
    conditions = CONDITIONS
    same_readings_self_drawn = True  # how it was won changes only the items valued on the readings

    prepare = staticmethod(prepare)

    def copies_in_play(self, kind: int, parsed: ParsedHand) -> int:
        return 0 if T.is_flower(kind) else 4  # the flipped indicator stays in play

    def wildcard_kinds(self, hand: LuoshanHand) -> frozenset[int]:
        return frozenset(() if hand.wild_kind is None else (hand.wild_kind,))

    def as_faces(self, hand: LuoshanHand) -> LuoshanHand:
        kinds = bytes(sorted(hand.natural_kinds + bytes(hand.wild_tiles)))
        return dataclasses.replace(hand, wild_tiles=(), wild_kind=None, natural_kinds=kinds)

    def standard_shape(self, hand: LuoshanHand) -> tuple[list[int], int] | None:
        return None if hand.wild_tiles else (list(hand.natural_kinds), SETS - len(hand.melds))

    readings = staticmethod(readings)

    def finish(self, hand: LuoshanHand, found: B.Found) -> B.Outcome:
        if not hand.winner:
            return B.Outcome(0, False, 0)
        hu = tai = 0
        for item, value, _ in found:
            kind = item.kind
            if kind == HU:
                hu += value
            elif kind == TAI:
                tai += value
            else:  # a named special hand gives the total, legal at any total (Decision); exclusions leave one
                return B.Outcome(value, False, value)
        total = -(-hu * 2**tai // 10) * 10  # rounded up to 10
        if total >= MINIMUM[hand.self_drawn]:
            return B.Outcome(hu, tai > 0, total)
        return B.Outcome(hu, tai > 0, total, legal=False, notes=[NOT_LEGAL[hand.self_drawn] + str(total)])

    def arrangement(self, hand: LuoshanHand, reading: ReadingFacts) -> list[str]:
        """`RuleSet.arrangement` from what a Luoshan reading is: the melds on the table lead it (no search
        group is on the table), and its facts hold its pairs, so nothing is looked at group by group
        (tests/test_luoshan_fast_paths.py)."""
        melds = hand.melds
        concealed = sorted(reading.groups[len(melds) :], key=B.BY_KIND)
        pairs = reading.pairs
        for pair in pairs:
            concealed.remove(pair)
        return list(map(E.group_text, (*melds, *concealed, *pairs)))

    def no_shape_message(self, hand: LuoshanHand) -> str:
        return "no winning shape: the tiles do not form 4 sets + a pair (Luoshan has no seven pairs)"


LUOSHAN = Luoshan()
RULE_SET = LUOSHAN
