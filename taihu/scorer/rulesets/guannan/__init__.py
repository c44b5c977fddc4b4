"""Guannan 灌南 — the hand types of docs/rules/guannan.md as data.

The seed names the tiles and four hand types and gives no values, so every
value is a house option; exactly one type applies to a reading (the best
reading wins), and the notes say which values were used.

The folder, one concern a file: `hand.py` the hand as Guannan sees it (`GuannanHand`, built and validated by
`prepare`); `items.py` the items, exclusions and house options, as data in the rules page's order;
`settlement.py` its payments, `arithmetic.py` its arithmetic lines; this module the `RuleSet` that reaches
them.
"""

from __future__ import annotations

from collections.abc import Mapping

from ... import tiles as T
from ...errors import HandError
from ...notation import ParsedHand
from .. import base as B
from .. import interface as I
from .hand import CONDITIONS, GuannanHand, copies, prepare, readings
from .items import EXCLUSIONS, HAND_TYPE, ITEMS, OPTIONS


class Guannan(B.RuleSet):
    name = "guannan"
    chinese = "灌南"
    unit = "points"
    tiles = (*I.SUITED_TILES, "E", "S", "W", "N")
    # the side events its settlement takes: foul (the seat counts 0 and cannot win, docs/api.md); no false win or 包赔
    events = ("foul",)
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

    def finish(self, hand: GuannanHand, found: I.Found) -> I.Outcome:
        total = sum(v for item, v, _ in found if item.kind == HAND_TYPE)
        return I.Outcome(total, False, total)

    def no_shape_error(self, hand: GuannanHand) -> HandError:
        if hand.winds:
            held = " ".join(T.name(k) for k in hand.winds)
            return HandError.of("error.shape.guannan.winds", code="no_winning_shape", winds=held)
        return HandError.of("error.shape.guannan", code="no_winning_shape")


GUANNAN = Guannan()
RULE_SET = GUANNAN
