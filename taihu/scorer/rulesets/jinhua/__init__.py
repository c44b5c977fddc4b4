"""Jinhua 金华 — the multiplier (倍) table of docs/rules/jinhua.md as data.

Read top to bottom like the rules page: the hand as Jinhua sees it
(`JinhuaHand`: one 财神 kind, 白 turned into the 财神's face), the shapes a
hand can be read as (`Shape`: sets + pair, seven pairs, 十三不靠/七风, 乱风),
the items, the exclusions; `finish` multiplies every item that applies.

The folder, one concern a file: `hand.py` the hand as Jinhua sees it (`JinhuaHand`, built and validated by
`prepare`); `search.py` its readings and what the wildcard search is told (representatives, reading classes);
`items.py` the items, exclusions and house options, as data in the rules page's order; `settlement.py` its
payments, `arithmetic.py` its arithmetic lines; this module the `RuleSet` that reaches them.
"""

from __future__ import annotations

import dataclasses
from math import prod

from ... import tiles as T
from ...engine import PAIR, Group
from ...errors import HandError
from ...notation import ParsedHand
from ...said import said
from .. import base as B
from .. import interface as I
from .hand import BU_KAO, CONDITIONS, LUAN_FENG, SEVEN_PAIRS, JinhuaHand, Shape, copies, prepare
from .items import EXCLUSIONS, ITEMS, MULTIPLIER, OPTIONS, ShapeFacts
from .search import KEPT_FOR_ITEMS, readings, wild_waited_alone


class Jinhua(B.RuleSet):
    name = "jinhua"
    chinese = "金华"
    unit = "bei"
    wild_kinds = 1
    # the side events its settlement takes: 承包, and foul (the seat counts 0 and cannot win, docs/api.md)
    events = ("foul", "liable")
    items = ITEMS
    exclusions = EXCLUSIONS
    options = OPTIONS

    conditions = CONDITIONS
    search_keeps = KEPT_FOR_ITEMS
    claims_wildcards = False  # a 财神 is never claimed
    lone_tiles_win = True  # 十三不靠/七风 and 乱风

    def prepare(self, parsed: ParsedHand, options: dict[str, int]) -> JinhuaHand:
        """The hand; won on a discard where a 财神 waited alone, a note says why no 爆头 is scored."""
        hand = prepare(parsed, options)
        if hand.winner and not hand.self_drawn and wild_waited_alone(hand):
            hand.notes.append(said("note.jinhua.bao_tou_drawn"))
        return hand

    def copies_in_play(self, kind: int, parsed: ParsedHand) -> int:
        return copies(kind, parsed.wild)

    def wildcard_kinds(self, hand: JinhuaHand) -> frozenset[int]:
        return frozenset(() if hand.wild_kind is None else (hand.wild_kind,))

    def as_faces(self, hand: JinhuaHand) -> JinhuaHand:
        return dataclasses.replace(hand, wild_tiles=(), naturals=I.with_tiles(hand.naturals, hand.wild_tiles))

    readings = staticmethod(readings)

    def facts_of(self, reading: Shape) -> ShapeFacts:
        return ShapeFacts(reading)

    def finish(self, hand: JinhuaHand, found: I.Found) -> I.Outcome:
        """The multipliers multiply (Decision); a non-winner counts 0."""
        if not hand.winner:
            return I.Outcome(0, False, 0)
        total = prod(v for item, v, _ in found if item.kind == MULTIPLIER)
        return I.Outcome(total, False, total)

    def no_shape_error(self, hand: JinhuaHand) -> HandError:
        return HandError.of("error.shape.jinhua", code="no_winning_shape")

    def arrangement(self, hand: JinhuaHand, reading: Shape) -> list[str]:
        melds = [g for g in reading.groups if g.exposed or g.concealed_kong]
        if reading.name in (BU_KAO, LUAN_FENG):
            return [_text(hand, g) for g in melds] + list(reading.shown)
        rest = [g for g in reading.groups if not (g.exposed or g.concealed_kong)]
        sets = sorted((g for g in rest if g.shape != PAIR), key=lambda g: g.kind)
        pairs = [g for g in rest if g.shape == PAIR]
        if reading.name == SEVEN_PAIRS:
            pairs.sort(key=lambda g: g.kind)
        return [_text(hand, g) for g in melds + sets + pairs]


def _text(hand: JinhuaHand, group: Group) -> str:
    """A group as players read it; a 白 playing the 财神's face shows as `P=3m`."""
    face = hand.face
    natural = list(group.kinds)
    for _, kind in group.wilds:
        natural.remove(kind)
    if face is None or face == T.WHITE or face not in natural:
        return group.text()
    parts = [f"P={T.name(k)}" if k == face else T.name(k) for k in natural]
    parts += [T.name(w) if w == k else f"{T.name(w)}={T.name(k)}" for w, k in group.wilds]
    body = " ".join(parts)
    if group.exposed:
        return f"[{body}]"
    return f"({body})" if group.concealed_kong else body


JINHUA = Jinhua()
RULE_SET = JINHUA
