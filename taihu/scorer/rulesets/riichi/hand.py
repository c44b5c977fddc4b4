"""A riichi hand as written, checked: the tiles, the conditions and every contradiction between them.

Nothing here scores; `prepare` refuses what cannot be (docs/rules/riichi.md
"Conditions that contradict each other") and gathers what the yaku, fu and
points need, once per hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, NamedTuple

from ... import tiles as T
from ...engine import CHOW, KONG, PUNG, Group, to_counts
from ...errors import HandError, Text
from ...notation import FLAG_CONDITIONS, ParsedHand
from ...said import phrase
from .. import condition_word
from ..interface import Option
from ..validation import (
    check_known_conditions,
    check_kong_draw,
    check_win_conditions,
    not_a_tile_of,
    tile_count_error,
)

RIICHI_NO_DORA_NOTE = phrase("note.riichi.no_dora")


class Deal(NamedTuple):
    """The values riichi's words declare (`words.toml`: the round wind, the indicators, the counters) and its red
    fives, as a parsed hand keeps them (`ParsedHand.values`); None: not written."""

    round: str | None = None
    dora: tuple[int, ...] | None = None
    ura: tuple[int, ...] | None = None
    honba: int | None = None
    sticks: int | None = None
    # by where they were written: ("hand", suit), ("win", suit), ("dora", suit), ("ura", suit),
    # ("meld", tiles, concealed); a line holds at most one per suit
    red: frozenset[tuple[Any, ...]] = frozenset()


NO_DEAL = Deal()


def deal_of(parsed: ParsedHand) -> Deal:
    """The deal's values a riichi line wrote."""
    values = parsed.values
    if not values:
        return NO_DEAL
    get = values.get
    return Deal(get("round"), get("dora"), get("ura"), get("honba"), get("sticks"), get("red", frozenset()))


OPTIONS = (
    Option("kuitan", 0, (1,), "option.riichi.kuitan", chinese="食断"),
    Option("aka_dora", 0, (1,), "option.riichi.aka_dora", chinese="赤宝牌"),
    Option("kiriage", 0, (1,), "option.riichi.kiriage", chinese="切上满贯"),
    Option("kazoe", 0, (1, 2), "option.riichi.kazoe", chinese="累计役满"),
    Option("double_yakuman", 1, (0,), "option.riichi.double_yakuman", chinese="双倍役满"),
    Option("open_pinfu_fu", 1, (0,), "option.riichi.open_pinfu_fu", chinese="副露平和型的符"),
    Option("pinfu_tsumo", 1, (0,), "option.riichi.pinfu_tsumo", chinese="平和自摸"),
    Option("renhou_yakuman", 0, (1,), "option.riichi.renhou_yakuman", chinese="人和役满"),
    Option("double_wind_fu", 4, (2,), "option.riichi.double_wind_fu", chinese="连风牌对子的符"),
    Option("yakuman_stacking", 1, (0,), "option.riichi.yakuman_stacking", chinese="役满复合"),
    Option("noten_bappu", 1, (0,), "option.riichi.noten_bappu", chinese="不听罚符"),
)
OPTION_VALUES = {o.name: (o.default, *o.seed_alternatives) for o in OPTIONS}

CONDITIONS = frozenset({"seat", "round", "dora", "ura", "honba", "sticks", *FLAG_CONDITIONS}) - {
    "da-jin",
    "fourth-tile",
}  # 打金 is Putian's, 和绝张 MCR's
NOT_RIICHI = {
    "wild": Text("error.condition.riichi_no_wild"),
    "flip": Text("error.condition.riichi_no_flip"),
    "declare": Text("error.condition.riichi_no_declare"),
    "da-jin": Text("error.condition.riichi_no_wild"),
}
WIN_CONDITIONS = ("self", "ippatsu", "kong-draw", "rob-kong", "last-tile", "heaven", "earth", "human")
CONFLICTS = (
    ("riichi", "double-riichi", "error.conflict.riichi.double"),
    ("ippatsu", "kong-draw", "error.conflict.riichi.ippatsu_kong"),
    ("kong-draw", "rob-kong", "error.conflict.riichi.kong_draw_rob_kong"),
    ("kong-draw", "last-tile", "error.conflict.riichi.kong_draw_last_tile"),
    ("rob-kong", "self", "error.conflict.riichi.rob_kong_self"),
    ("rob-kong", "last-tile", "error.conflict.riichi.rob_kong_last_tile"),
    ("human", "self", "error.conflict.riichi.human_self"),
    ("earth", "human", "error.conflict.riichi.earth_human"),
    ("heaven", "earth", "error.conflict.riichi.heaven_earth"),
    ("heaven", "human", "error.conflict.riichi.heaven_human"),
)
BLESSINGS = ("heaven", "earth", "human")
PLAIN = frozenset({"self", "furiten"})  # flags that contradict nothing
NOT_WITH_BLESSINGS = ("riichi", "double-riichi", "ippatsu", "kong-draw", "rob-kong", "last-tile")
WIN_SIZE, HAND_SIZE, MAX_INDICATORS = 14, 13, 5
SELF_DRAWN = frozenset({"self", "kong-draw", "heaven", "earth"})  # kong-draw, heaven, earth are self-drawn
RIICHI_FLAGS = frozenset({"riichi", "double-riichi"})
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)  # terminals and honors
_orphans_of = itemgetter(*ORPHANS)  # a count array's counts of the terminals and honors, read at C speed
NO_SUIT, NO_HONORS = [0] * 9, [0] * 7  # the count slices of a suit / the honors that hold nothing
GREEN = frozenset({19, 20, 21, 23, 25, T.GREEN})  # 2 3 4 6 8s, 发
# facts of the tiles that yaku need (`Yaku.needs`), besides the conditions written
CLOSED, NO_ORPHANS, ALL_ORPHANS, ONE_SUIT = "closed", "no terminal or honor", "only terminals and honors", "one suit"
THREE_KONGS, ALL_GREEN = "three kongs or more", "all green"


@dataclass(slots=True)
class RiichiHand:
    """Everything about a hand that does not depend on how its tiles are grouped."""

    parsed: ParsedHand
    options: dict[str, int]
    winner: bool
    win: int  # the winning tile's kind (-1: not a winning line)
    tsumo: bool  # self-drawn: `self`, `kong-draw`, `heaven`, `earth`
    closed: bool  # no `[..]` meld (a concealed kong keeps it closed)
    dealer: bool
    seat_wind: int
    round_wind: int
    melds: tuple[Group, ...]
    held: list[int]  # count array of the tiles in hand, the winning tile included
    counts: list[int]  # count array of every tile of the hand (kongs count 4)
    kongs: int
    dora: dict[int, int]  # indicated kind -> indicators pointing at it
    ura: dict[int, int]
    aka: int  # red fives held (aka_dora=1)
    notes: list[str] = field(default_factory=list)
    # facts of the tiles, whatever the grouping
    suits: int = 0  # how many of m p s appear
    honors: bool = False
    orphans: int = 0  # terminals and honors held
    size: int = 0  # tiles held (kongs count 4)
    facts: frozenset[str] = frozenset()  # the conditions written and the facts below, for the yaku's `needs`

    def __post_init__(self) -> None:
        counts = self.counts
        self.suits = (counts[0:9] != NO_SUIT) + (counts[9:18] != NO_SUIT) + (counts[18:27] != NO_SUIT)
        self.honors = counts[27:34] != NO_HONORS
        self.orphans = sum(_orphans_of(counts))
        self.size = sum(counts)
        facts = {"", *self.parsed.flags}
        if self.closed:
            facts.add(CLOSED)
        if self.orphans == 0:
            facts.add(NO_ORPHANS)
        elif self.orphans == self.size:
            facts.add(ALL_ORPHANS)
        if self.suits <= 1:
            facts.add(ONE_SUIT)
        if self.kongs >= 3:
            facts.add(THREE_KONGS)
        if not any(counts[0:18]) and all(counts[k] == 0 or k in GREEN for k in range(18, T.PLAYABLE)):
            facts.add(ALL_GREEN)
        self.facts = frozenset(facts)

    def has(self, flag: str) -> bool:
        return flag in self.parsed.flags

    @property
    def riichi(self) -> bool:
        return self.has("riichi") or self.has("double-riichi")


def dora_of(indicator: int) -> int:
    """The kind an indicator shows: the next one, 9→1 in a suit, E→S→W→N→E, 白→发→中→白."""
    if T.is_suited(indicator):
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if T.is_wind(indicator):
        return T.EAST + (indicator - T.EAST + 1) % 4
    return {T.WHITE: T.GREEN, T.GREEN: T.RED, T.RED: T.WHITE}[indicator]


def _pointed(indicators: tuple[int, ...] | None) -> dict[int, int]:
    out: dict[int, int] = {}
    for indicator in indicators or ():
        kind = dora_of(indicator)
        out[kind] = out.get(kind, 0) + 1
    return out


def _check_tiles(parsed: ParsedHand) -> tuple[list[int], list[int]]:
    """The count arrays of the tiles in hand (the winning tile included) and of every tile of the hand
    (indicators apart); at most 4 of a kind, counting the indicators."""
    deal = deal_of(parsed)
    held = to_counts(parsed.tiles)
    if parsed.win is not None:
        held[parsed.win] += 1
    counts = held
    if parsed.melds:
        counts = held.copy()
        for meld in parsed.melds:
            for kind in meld.tiles:
                counts[kind] += 1
    shown = (deal.dora or ()) + (deal.ura or ())
    if max(counts) <= 4 and not any(counts[T.FIRST_FLOWER :]) and not any(map(T.is_flower, shown)):
        for kind in shown:
            if counts[kind] + shown.count(kind) > 4:
                break
        else:
            return held, counts
    everything = list(parsed.tiles) + [kind for meld in parsed.melds for kind in meld.tiles]
    if parsed.win is not None:
        everything.append(parsed.win)
    for kind in sorted(set(everything + list(shown))):
        if T.is_flower(kind):
            raise not_a_tile_of(parsed, kind, "riichi", Text("error.tiles.riichi"))
        seen = everything.count(kind) + shown.count(kind)
        if seen > 4:
            counting = Text("error.tiles.counting_indicators") if kind in shown else ""
            raise HandError.of(
                "error.tiles.riichi_too_many",
                code="tile_copies",
                column=parsed.tile_column(kind, 5),  # the fifth
                hint=Text("error.hint.fewer_copies", tile=T.said(kind), most=4),
                tile=T.name(kind),
                count=seen,
                most=4,
                counting=counting,
            )
    raise AssertionError("not reached: a kind over 4 or a flower raised above")


def reject_flowers(parsed: ParsedHand) -> None:
    """Riichi plays no flowers: one anywhere in the line (hand, melds, indicators) is refused before any search,
    as `waits` would otherwise try a discard of it."""
    deal = deal_of(parsed)
    melded = (kind for meld in parsed.melds for kind in meld.tiles)
    for kind in (*parsed.tiles, *melded, *(deal.dora or ()), *(deal.ura or ())):
        if T.is_flower(kind):
            raise not_a_tile_of(parsed, kind, "riichi", Text("error.tiles.riichi"))


def _melds(parsed: ParsedHand) -> tuple[Group, ...]:
    if not parsed.melds:
        return ()
    groups = []
    for meld in parsed.melds:  # a loop: a comprehension is a call in Python 3.11
        groups.append(_meld_group(meld.tiles, meld.concealed))
    return tuple(groups)


def _meld_group(tiles: tuple[int, ...], concealed: bool) -> Group:
    """The group of a meld as the readings hold it."""
    kind = tiles[0]
    if len(tiles) == 4:
        return Group(KONG, kind, exposed=not concealed, concealed_kong=concealed)
    return Group(CHOW if tiles[1] != kind else PUNG, kind, exposed=True)


def _check_conditions(parsed: ParsedHand, winner: bool, melds: tuple[Group, ...], held: list[int]) -> None:
    """The contradictions of docs/rules/riichi.md, each an error with its reason."""
    deal = deal_of(parsed)
    flags = parsed.flags
    if flags <= PLAIN and deal.ura is None and len(deal.dora or ()) <= MAX_INDICATORS:
        return  # nothing that can contradict: the common case
    exposed = [g for g in melds if g.exposed] if melds else []
    check_win_conditions(parsed, winner, WIN_CONDITIONS, CONFLICTS)
    for flag in ("riichi", "double-riichi", "ippatsu"):
        if flag in flags and exposed:
            raise HandError.of(
                "error.condition.riichi_closed",
                code="condition_not_met",
                column=parsed.columns.get(flag),
                cond=condition_word(flag),
                meld=Group.text(exposed[0]),
            )
    if "ippatsu" in flags and not flags & {"riichi", "double-riichi"}:
        raise HandError.of("error.condition.ippatsu", code="condition_not_met", column=parsed.columns.get("ippatsu"))
    check_kong_draw(flags, melds)
    if "rob-kong" in flags and parsed.win is not None:
        win = parsed.win
        if held[win] > 1 or any(win in g.kinds for g in melds):
            raise HandError.of("error.condition.rob_kong_held", code="condition_not_met", tile=T.name(win))
        if win in (deal.dora or ()) or win in (deal.ura or ()):
            raise HandError.of("error.condition.rob_kong_indicator", code="condition_not_met", tile=T.name(win))
    seat = parsed.seat or "E"
    if "heaven" in flags and seat != "E":
        raise HandError.of("error.condition.riichi_heaven", code="condition_not_met")
    for flag in ("earth", "human"):
        if flag in flags and seat == "E":
            raise HandError.of("error.condition.riichi_non_dealer", code="condition_not_met", cond=condition_word(flag))
    for flag in BLESSINGS:
        if flag in flags:
            if melds:
                raise HandError.of(
                    "error.condition.riichi_no_meld", code="condition_not_met", cond=condition_word(flag)
                )
            for other in NOT_WITH_BLESSINGS:
                if other in flags:
                    raise HandError.of(
                        "error.condition.contradict",
                        code="conditions_contradict",
                        column=parsed.columns.get(other),
                        first=condition_word(flag),
                        second=condition_word(other),
                        why=Text("error.conflict.riichi.blessing", cond=condition_word(flag)),
                    )
    if deal.ura is not None:
        if not flags & {"riichi", "double-riichi"}:
            raise HandError.of("error.indicator.ura_riichi", code="bad_indicator", column=parsed.columns.get("ura"))
        if len(deal.ura) > len(deal.dora or ()):
            raise HandError.of(
                "error.indicator.ura_count",
                code="bad_indicator",
                column=parsed.columns.get("ura"),
                ura=len(deal.ura),
                dora=len(deal.dora or ()),
            )
    if deal.dora is not None and len(deal.dora) > MAX_INDICATORS:
        raise HandError.of(
            "error.indicator.dora_count",
            code="bad_indicator",
            column=parsed.columns.get("dora"),
            count=len(deal.dora),
            most=MAX_INDICATORS,
        )


def check_options(options: dict[str, int]) -> dict[str, int]:
    """Each house option takes one of the page's values."""
    for name, value in options.items():
        if value not in OPTION_VALUES[name]:
            allowed = ", ".join(map(str, sorted(OPTION_VALUES[name])))
            raise HandError.of(
                "error.option.riichi_values",
                code="bad_option",
                field=f"options.{name}",
                option=name,
                allowed=allowed,
                got=value,
            )
    return options


def prepare(parsed: ParsedHand, options: dict[str, int]) -> RiichiHand:
    deal = deal_of(parsed)
    if not (parsed.flags <= CONDITIONS and parsed.wild is None and parsed.flip is None and parsed.declare is None):
        check_known_conditions(parsed, "riichi", CONDITIONS, NOT_RIICHI)
    if deal.red and not options["aka_dora"]:
        suit, column = min(((k, c) for k, c in parsed.columns.items() if k.startswith("0")), key=lambda kc: kc[1])
        raise HandError.of(
            "error.tiles.red_five",
            code="red_five",
            column=column,
            hint=Text("error.hint.red_five", suit=suit[1]),
            tile=suit,
            at=column,
        )
    held, counts = _check_tiles(parsed)
    melds = _melds(parsed)
    winner = parsed.win is not None
    size = len(parsed.tiles) + winner + 3 * len(melds)
    if size != (WIN_SIZE if winner else HAND_SIZE):  # the error every rule set gives, with its hints
        raise tile_count_error(parsed, "riichi", size, HAND_SIZE, winner)
    _check_conditions(parsed, winner, melds, held)
    flags = parsed.flags
    seat = parsed.seat or "E"
    aka = sum(1 for where in deal.red if where[0] in ("hand", "win", "meld")) if deal.red else 0
    closed, kongs = True, 0
    for group in melds:  # a loop, not two generators (each a call in Python 3.11)
        closed = closed and not group.exposed
        kongs += group.shape == KONG
    return RiichiHand(
        parsed=parsed,
        options=options,
        winner=winner,
        win=parsed.win if parsed.win is not None else -1,
        tsumo=not flags.isdisjoint(SELF_DRAWN),
        closed=closed,
        dealer=seat == "E",
        seat_wind=T.SEAT_WIND[seat],
        round_wind=T.SEAT_WIND[deal.round or "E"],
        melds=melds,
        held=held,
        counts=counts,
        kongs=kongs,
        dora=_pointed(deal.dora) if deal.dora else {},
        ura=_pointed(deal.ura) if deal.ura and not flags.isdisjoint(RIICHI_FLAGS) else {},
        aka=aka,
        notes=[RIICHI_NO_DORA_NOTE()] if winner and deal.dora is None else [],
    )
