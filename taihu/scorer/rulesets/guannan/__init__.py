"""Guannan 灌南 — the hand types of docs/rules/guannan.md as data.

The seed names the tiles and four hand types and gives no values, so every
value is a house option; exactly one type applies to a reading (the best
reading wins), and the notes say which values were used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from ... import engine as E
from ... import tiles as T
from ...engine import CHOW, Group, ReadingFacts
from ...errors import HandError
from ...notation import ParsedHand
from .. import base as B
from ..base import HAND_TYPE, NONE, ONE, WINNER, Exclusion, Item, Option, Variant, once

SETS = 4  # 4 sets + 1 pair, or seven pairs
WIN_SIZE, HAND_SIZE = 14, 13
CONDITIONS = frozenset({"seat", "self", "kong-draw", "rob-kong"})  # how the hand was won decides who pays
WIN_CONDITIONS = ("self", "kong-draw", "rob-kong")
CONFLICTS = (B.ROB_KONG_NOT_SELF, B.ROB_KONG_OR_KONG_DRAW)
NO_WILDCARDS = E.JokerOptions(pairs=(), sets=())


@dataclass
class GuannanHand(B.Prepared):
    naturals: list[int] = field(default_factory=list)  # count array, winning tile included
    melds: tuple[Group, ...] = ()
    winds: tuple[int, ...] = ()  # winds held in hand: such a hand cannot win


def copies(kind: int) -> int:
    """112 tiles: suited ×4, one of each wind; no dragons, no flowers."""
    return 1 if T.is_wind(kind) else 4


def prepare(parsed: ParsedHand, options: dict[str, int]) -> GuannanHand:
    no_wild = ": Guannan has no wildcards"
    B.check_known_conditions(parsed, "Guannan", CONDITIONS, {"wild": no_wild, "flip": no_wild})

    everything = list(parsed.tiles) + [t for m in parsed.melds for t in m.tiles]
    if parsed.win is not None:
        everything.append(parsed.win)
    for kind in sorted(set(everything)):
        if T.is_flower(kind) or kind in (T.RED, T.GREEN, T.WHITE):
            what = "flower" if T.is_flower(kind) else "dragon"
            raise HandError(
                f"{what} {T.name(kind)} is not a Guannan tile: Guannan plays 112 tiles "
                f"(m/p/s ×4 and one each of E S W N; no dragons, no flowers)"
            )
        seen = everything.count(kind)
        if seen > copies(kind):
            if T.is_wind(kind):
                raise HandError(f"{T.name(kind)} appears {seen} times; Guannan has one of each wind")
            raise HandError(f"{T.name(kind)} appears {seen} times; at most 4 exist")

    melds: list[Group] = []
    for meld in parsed.melds:
        melds.append(B.meld_group(meld))
    held = list(parsed.tiles) + ([parsed.win] if parsed.win is not None else [])

    size = len(held) + 3 * len(melds)
    winner = parsed.win is not None
    if size != (WIN_SIZE if winner else HAND_SIZE):
        raise B.tile_count_error(parsed, "guannan", size, HAND_SIZE, winner)

    flags = parsed.flags
    B.check_win_conditions(parsed, winner, WIN_CONDITIONS, CONFLICTS)
    B.check_kong_draw(flags, melds)

    values = ", ".join(f"{o.name} {options[o.name]}" for o in OPTIONS)
    return GuannanHand(
        parsed=parsed,
        winner=winner,
        declared=False,
        options=options,
        notes=[f"house values used: {values}"] if winner else [],
        naturals=E.to_counts(held),
        melds=tuple(melds),
        winds=tuple(k for k in held if T.is_wind(k)),
    )


def readings(hand: GuannanHand) -> Iterable[B.Reading]:
    sets = SETS - len(hand.melds)
    for groups in E.standard_readings(hand.naturals, (), sets, NO_WILDCARDS):
        yield hand.melds + groups
    if not hand.melds:
        yield from E.seven_pairs_readings(hand.naturals, (), NO_WILDCARDS)


# -- hand types ------------------------------------------------------------------


def _is_seven_pairs(facts: ReadingFacts) -> bool:
    return len(facts.pairs) == 7


def _house(key: str, applies: Callable[[ReadingFacts], bool]) -> B.Finder:
    """A finder of the hand type `key`, found when `applies(facts)`."""

    def find(hand: GuannanHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
        return once(ONE, f"house value {hand.options[key]}") if applies(facts) else NONE

    return find


def _no_chow(facts: ReadingFacts) -> bool:
    return not _is_seven_pairs(facts) and not facts.chows


def _straight(facts: ReadingFacts) -> bool:
    """一条龙: 123 456 789 of one suit among the sets (exposed chows too)."""
    starts = {g.kind for g in facts.groups if g.shape == CHOW}
    return any({s, s + 3, s + 6} <= starts for s in (0, 9, 18))


def _standard(facts: ReadingFacts) -> bool:
    return not _is_seven_pairs(facts)


OPTIONS = (
    Option("ping_pai", 1, (2,), "平牌 value (any other 4 sets + pair)"),
    Option("qi_dui", 2, (4,), "七对 value (seven pairs; four alike are two pairs)"),
    Option("peng_peng_he", 2, (4,), "碰碰和 value (pungs/kongs + a pair)"),
    Option("yi_tiao_long", 2, (4,), "一条龙 value (123 456 789 of one suit)"),
)


def _hand_type(key: str, name: str, name_en: str, applies: Callable[[ReadingFacts], bool]) -> Item:
    """A hand type worth the house option of its own name (value 1 × the option)."""
    return Item(
        key,
        name,
        name_en,
        1,
        HAND_TYPE,
        WINNER,
        _house(key, applies),
        text=f"house option {key} (default {{}})",
        option=key,
        reads=("pairs", "chows", "groups"),
    )


ITEMS = (
    _hand_type("qi_dui", "七对", "Seven pairs", _is_seven_pairs),
    _hand_type("peng_peng_he", "碰碰和", "All pungs", _no_chow),
    _hand_type("yi_tiao_long", "一条龙", "Pure straight", _straight),
    _hand_type("ping_pai", "平牌", "Plain hand", _standard),
)

# Exactly one type applies: 平牌 is "any other" 4 sets + pair.
EXCLUSIONS = (
    Exclusion("peng_peng_he", ("ping_pai",)),
    Exclusion("yi_tiao_long", ("ping_pai",)),
)


class Guannan(B.RuleSet):
    name = "guannan"
    chinese = "灌南"
    unit = "points"
    items = ITEMS
    exclusions = EXCLUSIONS
    options = OPTIONS

    conditions = CONDITIONS

    prepare = staticmethod(prepare)

    def copies_in_play(self, kind: int, parsed: ParsedHand) -> int:
        return copies(kind)

    def self_drawn_from_discard(self, total: int, subtotal: int, options: Mapping[str, int]) -> int | None:
        """The hand types do not depend on how the hand was won (only who pays does)."""
        return total

    readings = staticmethod(readings)

    def finish(self, hand: GuannanHand, found: B.Found) -> B.Outcome:
        total = sum(v for item, v, _ in found if item.kind == HAND_TYPE)
        return B.Outcome(total, False, total)

    def no_shape_message(self, hand: GuannanHand) -> str:
        if hand.winds:
            held = " ".join(T.name(k) for k in hand.winds)
            return (
                f"no winning shape: this hand holds {held}, and a wind can never pair or pung "
                f"in Guannan (one of each), so it cannot win"
            )
        return "no winning shape: the tiles form neither 4 sets + a pair nor seven pairs"


GUANNAN = Guannan()
RULE_SET = GUANNAN
