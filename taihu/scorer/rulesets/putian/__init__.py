"""Putian 莆田 — the 底分 and winning types of docs/rules/putian.md as data.

A Putian hand scores no pattern: its `total` is the player's 底分
(底 + 分), and the winning type is a multiplier the settlement applies.
So the winning type is an item whose value is its multiplier, and `finish`
leaves it out of the sum (`total` stays the 底分). Nothing here depends on
the grouping, so the search only has to prove a winning shape exists.

The folder, one concern a file: `hand.py` the hand as Putian sees it (`PutianHand`, built and validated by
`prepare`); `search.py` its readings and what the wildcard search is told (representatives, reading classes);
`items.py` the items, exclusions and house options, as data in the rules page's order; `settlement.py` its
payments, `arithmetic.py` its arithmetic lines; this module the `RuleSet` that reaches them.
"""

from __future__ import annotations

import dataclasses

from ... import tiles as T
from ...engine import PAIR
from ...errors import HandError, Text
from ...notation import ParsedHand
from ...said import said
from .. import base as B
from .. import interface as I
from .hand import CONDITIONS, DECLARES, SETS, PutianHand, copies, prepare
from .items import ITEMS, MULTIPLIER
from .search import KEPT_FOR_ITEMS, jokers, readings


def _copies_in_play(kind: int, parsed: ParsedHand) -> int:
    """The flipped 金 is out of play (a fourth is only taken by the declared 抢金)."""
    return 3 if parsed.wild and kind == parsed.wild[0] else copies(kind)


def _as_faces(hand: PutianHand) -> PutianHand | None:
    """A 白 that is 金 is no meldable tile as itself."""
    if hand.jin == T.WHITE and hand.jin_tiles:
        return None
    return dataclasses.replace(hand, jin_tiles=(), jin=None, naturals=I.with_tiles(hand.naturals, hand.jin_tiles))


def _standard_shape(hand: PutianHand) -> tuple[list[int], int] | None:
    return None if hand.jin_tiles else (I.tiles_of(hand.naturals), SETS - len(hand.melds))


def _sweep(hand: PutianHand, kinds: list[int]) -> I.Sweep | None:
    """One sweep over the suited tiles (the only natural ones that can win), whose hands all get the same
    stand-ins (those of the 金)."""
    if not hand.jin_tiles:
        return None
    swept = [kind for kind in kinds if T.is_suited(kind) and kind != hand.jin]
    return hand.naturals, len(hand.jin_tiles), SETS - len(hand.melds), {jokers(hand): swept}


class Putian(B.RuleSet):
    name = "putian"
    chinese = "莆田"
    unit = "fen"
    tiles = (*I.SUITED_TILES, "P")
    wild_kinds = 1
    wild_name = "金"  # the page's name for its wildcard
    events = ("false-win", "foul", "xiao-xiang-gong", "gen-da", "da-jin")  # the side events its settlement takes
    items = ITEMS
    exclusions = ()
    options = ()

    conditions = CONDITIONS
    search_keeps = KEPT_FOR_ITEMS
    declared_wins = DECLARES
    discards_wildcards = False  # 打金: no win this deal
    claims_wildcards = False

    prepare = staticmethod(prepare)
    copies_in_play = staticmethod(_copies_in_play)
    as_faces = staticmethod(_as_faces)
    standard_shape = staticmethod(_standard_shape)
    sweep = staticmethod(_sweep)

    def wildcard_kinds(self, hand: PutianHand) -> frozenset[int]:
        return frozenset(() if hand.jin is None else (hand.jin,))

    readings = staticmethod(readings)

    def finish(self, hand: PutianHand, found: I.Found) -> I.Outcome:
        """`total` is the 底分: the winning type's multiplier is applied in settlement, not added."""
        base = sum(v for item, v, _ in found if item.kind != MULTIPLIER)  # 底 + 分
        if hand.winner and hand.has("da-jin"):
            return I.Outcome(base, False, base, legal=False, notes=[said("note.putian.da_jin")])
        return I.Outcome(base, False, base)

    def no_shape_error(self, hand: PutianHand) -> HandError:
        if hand.you_jin:
            return HandError.of("error.shape.putian.you_jin", code="no_winning_shape", declare=hand.parsed.declare)
        if len(hand.jin_tiles) >= 3:
            hint = Text("error.hint.san_jin_dao")
            return HandError.of("error.shape.putian.three_jin", code="no_winning_shape", hint=hint)
        return HandError.of("error.shape.putian", code="no_winning_shape")

    def arrangement(self, hand: PutianHand, reading: I.Reading) -> list[str]:
        melds = [g.text() for g in reading[: len(hand.melds)]]
        rest = reading[len(hand.melds) :]
        if hand.shapeless:
            held = sorted(hand.jin_tiles + tuple(k for k in range(27) for _ in range(hand.naturals[k])))
            return melds + [said("detail.putian.held.san_jin_dao", tiles=T.group_text(held))]
        if hand.you_jin:
            lone, rest = rest[-1], rest[:-1]
            sets = sorted(rest, key=lambda g: g.kind)
            return melds + [g.text() for g in sets] + [said("detail.putian.held.you_jin", tile=T.name(lone.kind))]
        pair = [g for g in rest if g.shape == PAIR]
        sets = sorted((g for g in rest if g.shape != PAIR), key=lambda g: g.kind)
        return melds + [g.text() for g in sets + pair]


PUTIAN = Putian()


RULE_SET = PUTIAN
