"""Guannan 灌南: the items, exclusions and house options of docs/rules/guannan.md, as data in its order."""

from __future__ import annotations

from collections.abc import Callable

from ...engine import CHOW, ReadingFacts
from ...said import said
from .. import interface as I
from ..interface import NONE, ONE, WINNER_ONLY, Exclusion, Item, Kind, Option, Variant, once
from .hand import GuannanHand

HAND_TYPE = Kind("hand type", "points")  # how its items count: the one type that applies

# -- hand types ------------------------------------------------------------------


def _is_seven_pairs(facts: ReadingFacts) -> bool:
    return len(facts.pairs) == 7


def _house(key: str, applies: Callable[[ReadingFacts], bool]) -> I.Finder:
    """A finder of the hand type `key`, found when `applies(facts)`."""

    def find(hand: GuannanHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
        return once(ONE, said("detail.guannan.house_value", value=hand.options[key])) if applies(facts) else NONE

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
    Option("ping_pai", 1, (2,), "option.guannan.ping_pai", chinese="平牌分值"),
    Option("qi_dui", 2, (4,), "option.guannan.qi_dui", chinese="七对分值"),
    Option("peng_peng_he", 2, (4,), "option.guannan.peng_peng_he", chinese="碰碰和分值"),
    Option("yi_tiao_long", 2, (4,), "option.guannan.yi_tiao_long", chinese="一条龙分值"),
)


def _hand_type(key: str, name: str, name_en: str, applies: Callable[[ReadingFacts], bool]) -> Item:
    """A hand type worth the house option of its own name (value 1 × the option)."""
    return Item(
        key,
        name,
        name_en,
        1,
        HAND_TYPE,
        WINNER_ONLY,
        _house(key, applies),
        text="value.guannan.house",
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
ONE_TYPE = "平牌是普通的和牌形式：七对、碰碰和、一条龙、平牌只计一种，碰碰和、一条龙不再计平牌。"
EXCLUSIONS = (
    Exclusion("peng_peng_he", ("ping_pai",), ONE_TYPE),
    Exclusion("yi_tiao_long", ("ping_pai",), ONE_TYPE),
)
