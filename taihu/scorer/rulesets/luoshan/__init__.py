"""Luoshan 螺山 "打来干、自摸干" — the hu table of docs/rules/luoshan.md as data.

Read top to bottom like the rules page: the hand as Luoshan sees it
(`LuoshanHand`, built and validated by `prepare`), the readings (each with
the place of the winning tile, since the wait bonuses depend on it), the
hu items, the tai items, the special hands, and `finish`: the formula, the
fixed totals and the minimums for a legal win.

The folder, one concern a file: `hand.py` the hand as Luoshan sees it (`LuoshanHand`, built and validated by
`prepare`); `search.py` its readings and what the wildcard search is told (representatives, reading classes);
`items.py` the items, exclusions and house options, as data in the rules page's order; `settlement.py` its
payments, `arithmetic.py` its arithmetic lines; this module the `RuleSet` that reaches them.
"""

from __future__ import annotations

import dataclasses

from ... import engine as E
from ... import tiles as T
from ...engine import ReadingFacts
from ...errors import HandError
from ...notation import ParsedHand
from .. import base as B
from .. import interface as I
from .hand import CONDITIONS, MINIMUM, SETS, LuoshanHand, not_legal, prepare
from .items import EXCLUSIONS, HU, ITEMS, TAI
from .search import KEPT_FOR_ITEMS, readings


class Luoshan(B.RuleSet):
    name = "luoshan"
    chinese = "螺山"
    unit = "hu"
    wild_kinds = 1
    # the side events its settlement takes: foul (the seat counts 0 and cannot win, docs/api.md); no false win or 包赔
    events = ("foul",)
    items = ITEMS
    exclusions = EXCLUSIONS
    options = ()
    stand_in_pungs = True  # 花碰
    conditions = CONDITIONS
    examples = ({"hand": "[EEE] (CCCC) [999m] 11p FF +1p self flip:5s seat:E"},)
    search_keeps = KEPT_FOR_ITEMS
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

    def finish(self, hand: LuoshanHand, found: I.Found) -> I.Outcome:
        if not hand.winner:
            return I.Outcome(0, False, 0)
        hu = tai = 0
        for item, value, _ in found:
            kind = item.kind
            if kind == HU:
                hu += value
            elif kind == TAI:
                tai += value
            else:  # a named special hand gives the total, legal at any total (Decision); exclusions leave one
                return I.Outcome(value, False, value)
        total = -(-hu * 2**tai // 10) * 10  # rounded up to 10
        if total >= MINIMUM[hand.self_drawn]:
            return I.Outcome(hu, tai > 0, total)
        return I.Outcome(hu, tai > 0, total, legal=False, notes=[not_legal(hand.self_drawn, total)])

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

    def no_shape_error(self, hand: LuoshanHand) -> HandError:
        return HandError.of("error.shape.luoshan", code="no_winning_shape")


LUOSHAN = Luoshan()
RULE_SET = LUOSHAN
