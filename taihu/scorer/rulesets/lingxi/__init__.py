"""Lingxi 灵溪 — the table of docs/rules/lingxi.md as data.

Read top to bottom like the rules page: the hand as Lingxi sees it
(`LingxiHand`, built and validated by `prepare`), then the items, the
exclusions, the house options, doubling.

The folder, one concern a file: `hand.py` the hand as Lingxi sees it (`LingxiHand`, built and validated by
`prepare`); `search.py` its readings and what the wildcard search is told (representatives, reading classes);
`items.py` the items, exclusions and house options, as data in the rules page's order; `settlement.py` its
payments, `arithmetic.py` its arithmetic lines; this module the `RuleSet` that reaches them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping

from ... import engine as E
from ... import tiles as T
from ...engine import PAIR, WILD_SET
from ...errors import HandError
from ...notation import ParsedHand
from .. import base as B
from .. import interface as I
from ..interface import ONE
from .hand import CONDITIONS, DECLARES, SETS, LingxiHand, copies, prepare
from .items import EXCLUSIONS, ITEMS, OPTIONS, ZI_MO, doubles
from .search import KEPT_FOR_ITEMS, readings, si_feng_qi_in_reach, stand_ins


class Lingxi(B.RuleSet):
    name = "lingxi"
    chinese = "灵溪"
    unit = "tai"
    tiles = (*I.SUITED_TILES, *I.HONOUR_TILES, *I.FLOWER_TILES)
    wild_kinds = 2
    events = ("false-win", "foul", "liable")  # the side events its settlement takes
    items = ITEMS
    exclusions = EXCLUSIONS
    options = OPTIONS

    conditions = CONDITIONS
    examples = (
        {"hand": "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S", "options": {}},
        {"hand": "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W", "options": {"double_at": 10}},
    )
    example_table = {
        "wild": ["5m", "E"],
        "winner": "S",
        "discarder": "W",
        "players": {
            "E": "[CCC] 123p 456p 78s 11s 34p 9s f3",
            "S": "555m 222p 777p 333s 888s 9m f1 f2 P P +9m",
            "W": {"total": 4},
            "N": "E 123m 789m 12s 33p 66p 99p 5s f4",
        },
        "events": [],
        "options": {},
    }
    search_keeps = KEPT_FOR_ITEMS
    declared_wins = DECLARES
    discards_wildcards = False  # discarding one is 诈胡
    claims_wildcards = False

    prepare = staticmethod(prepare)
    readings = staticmethod(readings)

    def finish(self, hand: LingxiHand, found: I.Found) -> I.Outcome:
        subtotal = sum(v for _, v, _ in found)  # base, bonus and declared tai all add up
        doubled = hand.winner and doubles(subtotal, hand.options)
        return I.Outcome(subtotal, doubled, subtotal * 2 if doubled else subtotal)

    def copies_in_play(self, kind: int, parsed: ParsedHand) -> int:
        return copies(kind, parsed.wild or ())

    def wildcard_kinds(self, hand: LingxiHand) -> frozenset[int]:
        return hand.wild_kinds

    def as_faces(self, hand: LingxiHand) -> LingxiHand | None:
        """A wildcard flower or 白 is no meldable tile as itself."""
        if any(T.is_flower(t) or t == T.WHITE for t in hand.wild_tiles):
            return None
        naturals = I.with_tiles(hand.naturals, hand.wild_tiles)
        return dataclasses.replace(hand, wild_tiles=(), wild_kinds=frozenset(), naturals=naturals)

    def standard_shape(self, hand: LingxiHand) -> tuple[list[int], int] | None:
        return None if hand.wild_tiles else (I.tiles_of(hand.naturals), SETS - len(hand.melds))

    def self_drawn_from_discard(self, total: int, subtotal: int, options: Mapping[str, int]) -> int | None:
        """The same reading + 自摸: no other item reads how the hand was won (bar the conditions waits
        refuses), and adding it to every reading keeps the best one best, as the doubling only grows."""
        subtotal += ZI_MO.points(ONE, options)
        return subtotal * 2 if doubles(subtotal, options) else subtotal

    def sweep(self, hand: LingxiHand, kinds: list[int]) -> I.Sweep | None:
        """The tiles are swept together by the stand-ins their hands get (the suits present and
        whether 四风齐 is in reach change with the tile)."""
        if not hand.wild_tiles:
            return None
        by_stand_ins: dict[E.StandIns, list[int]] = {}
        for kind in kinds:
            if kind < T.PLAYABLE and kind != T.WHITE and kind not in hand.wild_kinds:
                won = dataclasses.replace(hand, naturals=I.with_tiles(hand.naturals, (kind,)))
                by_stand_ins.setdefault(stand_ins(won), []).append(kind)
        return hand.naturals, len(hand.wild_tiles), SETS - len(hand.melds), by_stand_ins

    def no_shape_error(self, hand: LingxiHand) -> HandError:
        return HandError.of("error.shape.lingxi", code="no_winning_shape")

    def classed_readings(self, hand: LingxiHand) -> Iterable[tuple[str, I.Reading]] | None:
        """With wildcards and 四风齐 out of reach, the coarse classes decide every item that reads a reading
        (`_coarse_class`), and the melds are the hand's: the signature is the key."""
        if not hand.wild_tiles or si_feng_qi_in_reach(hand):
            return None
        sets = SETS - len(hand.melds)
        found = E.classed_readings(hand.naturals, hand.wild_tiles, sets, stand_ins(hand))
        return ((signature, hand.melds + groups) for signature, groups in found)

    def as_shown(self, hand: LingxiHand, reading: I.Reading) -> I.Reading:
        if not hand.wild_tiles or si_feng_qi_in_reach(hand):
            return reading  # placed by the search
        return hand.melds + E.place_wildcards(reading[len(hand.melds) :], hand.wild_tiles)

    def arrangement(self, hand: LingxiHand, reading: I.Reading) -> list[str]:
        melds = reading[: len(hand.melds)]
        rest = reading[len(hand.melds) :]
        pair = [g for g in rest if g.shape == PAIR]
        sets = sorted(
            (g for g in rest if g.shape != PAIR),
            key=lambda g: g.kind if g.shape != WILD_SET else min(w for w, _ in g.wilds),
        )
        return [g.text() for g in list(melds) + sets + pair]


LINGXI = Lingxi()
RULE_SET = LINGXI
