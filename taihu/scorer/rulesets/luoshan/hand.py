"""Luoshan 螺山: the hand as the rules page sees it (`LuoshanHand`), built and validated by `prepare`."""

from __future__ import annotations

import re
from bisect import insort
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ... import engine as E
from ... import memo as M
from ... import tiles as T
from ...engine import PUNG, Group
from ...errors import HandError, Text
from ...notation import Meld, ParsedHand
from ...said import phrase, said
from .. import interface as I
from .. import validation as V

SETS = 4  # 4 sets + 1 pair
WIN_SIZE, HAND_SIZE = 14, 13
CONDITIONS = frozenset({"seat", "wild", "flip", "self", "kong-draw", "rob-kong"})
WIN_CONDITIONS = ("self", "kong-draw", "rob-kong")
SELF_DRAWN = frozenset(WIN_CONDITIONS)  # 抢杠当自摸; a kong replacement is a draw
CONFLICTS = (
    ("rob-kong", "self", "robbing a kong is a win on another player's tile (it only scores as self-drawn)"),
    V.ROB_KONG_OR_KONG_DRAW,
)
DRAGONS = (T.RED, T.GREEN, T.WHITE)  # 大料: 白 is an ordinary dragon here
MINIMUM = {True: 100, False: 200}  # self-drawn / on a discard
# the note of a win below its minimum (self-drawn / on a discard), with the minimum and the hu it makes: made for
# every reading that falls short (most do), so by position (`phrase`)
NOT_LEGAL = {
    True: phrase("note.luoshan.not_legal_self", "minimum", "total"),
    False: phrase("note.luoshan.not_legal_discard", "minimum", "total"),
}
NOT_LEGAL_CODES = ("note.luoshan.not_legal_self", "note.luoshan.not_legal_discard")


def not_legal(self_drawn: bool, total: int) -> str:
    """The note of a win below its minimum."""
    return NOT_LEGAL[self_drawn](MINIMUM[self_drawn], total)


# the row of a kind in the meld items' values: 1/9/honors or 2–8
ROW = tuple("terminal" if T.is_terminal_or_honor(k) else "simple" for k in range(T.PLAYABLE))
HONORED = {seat: frozenset((*DRAGONS, wind)) for seat, wind in T.SEAT_WIND.items()}  # 大料 and 座风


def wildcard_after(indicator: int) -> int:
    """The kind a flipped indicator makes wild: the next tile, wrapping within its family."""
    if T.is_suited(indicator):
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if T.is_wind(indicator):
        return T.EAST + (indicator - T.EAST + 1) % 4
    return T.RED + (indicator - T.RED + 1) % 3


@dataclass
class LuoshanHand(I.Prepared):
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


def named_wild_kind(parsed: ParsedHand, notes: list[str]) -> int | None:
    if parsed.wild is not None and parsed.flip is not None:
        raise HandError.of(
            "error.wild.luoshan_both",
            code="bad_wild",
            column=parsed.columns["wild"],
            flip_at=parsed.columns["flip"],
            wild_at=parsed.columns["wild"],
        )
    if parsed.flip is not None:
        if T.is_flower(parsed.flip):
            raise HandError.of(
                "error.wild.luoshan_flower",
                code="bad_wild",
                column=parsed.columns.get("flip"),
                given="flip:",
                tile=T.name(parsed.flip),
                tiles=LUOSHAN_TILES,
            )
        kind = wildcard_after(parsed.flip)
        notes.append(said("note.luoshan.flipped", flip=T.name(parsed.flip), wild=T.name(kind)))
        return kind
    if parsed.wild is not None:
        if len(parsed.wild) != 1:
            at = parsed.columns.get("wild", 0)
            raise HandError.of(
                "error.wild.luoshan_one", code="bad_wild", column=at or None, count=len(parsed.wild), at=at
            )
        if T.is_flower(parsed.wild[0]):
            raise HandError.of(
                "error.wild.luoshan_flower",
                code="bad_wild",
                column=parsed.columns.get("wild"),
                given="wild:",
                tile=T.name(parsed.wild[0]),
                tiles=LUOSHAN_TILES,
            )
        return parsed.wild[0]
    notes.append(said("note.luoshan.no_wild"))
    return None


LUOSHAN_TILES = Text("error.tiles.luoshan")  # what Luoshan plays, as messages say it


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
        rule = Text("error.meld.luoshan_rule", seat=seat)
        if wild:
            raise V.wildcard_in_meld(wild[0], meld, Text("error.meld.because", rule=rule))
        odd = min(set(meld.tiles), key=meld.tiles.count)
        held = (
            Text("error.meld.luoshan_wild_is", tile=T.name(wild_kind))
            if wild_kind is not None
            else Text("error.meld.luoshan_no_wild")
        )
        raise HandError.of(
            "error.meld.luoshan_not_meld",
            code="bad_meld",
            column=meld.column or None,
            meld=source,
            at=meld.column,
            tile=T.name(odd),
            held=held,
            rule=rule,
        )
    return I.meld_group(meld)


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
    key = fields[_CONDITION_FIELDS] + fields[_VALUES_FIELD]
    known = _CONDITIONS_SEEN.get(key)
    if known is None:
        V.check_known_conditions(parsed, "Luoshan", CONDITIONS)
        notes: list[str] = []
        wild_kind = named_wild_kind(parsed, notes)
        V.seat_or_dealer(parsed, notes)  # the seat wind's pungs and pair score: a missing seat: is noted
        if len(_CONDITIONS_SEEN) >= 1024:
            _CONDITIONS_SEEN.clear()
        passes = (_win_conditions_pass(parsed, False), _win_conditions_pass(parsed, True))
        known = _CONDITIONS_SEEN[key] = (wild_kind, tuple(notes), passes)
    return known[0], list(known[1]), known[2]


# the fields `_conditions` reads, as slices of the NamedTuple (one C call, where ten field reads cost ten lookups):
# seat, wild, flip, flags, declare; and the values other rule sets declare, refused, but a key must tell them apart
_CONDITION_FIELDS = slice(ParsedHand._fields.index("seat"), ParsedHand._fields.index("declare") + 1)
_VALUES_FIELD = slice(ParsedHand._fields.index("values"), ParsedHand._fields.index("values") + 1)


def _win_conditions_pass(parsed: ParsedHand, winner: bool) -> bool:
    try:
        V.check_win_conditions(parsed, winner, WIN_CONDITIONS, CONFLICTS)
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
                raise V.not_a_tile_of(parsed, kind, "Luoshan", LUOSHAN_TILES)
            # the flipped indicator stays in play: four of every kind can be held
            if counts[kind] > 4:
                raise V.too_many_copies(parsed, kind, counts[kind], 4)

    seat = parsed.seat or "E"
    melds = tuple([_meld_group(m, wild_kind, seat) for m in parsed.melds]) if parsed.melds else ()
    wild_tiles: tuple[int, ...] = ()
    if wild_kind is not None and wild_kind in kinds:
        wild_tiles = (wild_kind,) * kinds.count(wild_kind)
        kinds = kinds.replace(bytes((wild_kind,)), b"")

    size = len(held) + 3 * len(melds)
    winner = parsed.win is not None
    if size != (WIN_SIZE if winner else HAND_SIZE):
        raise V.tile_count_error(parsed, "luoshan", size, HAND_SIZE, winner)

    flags = parsed.flags
    if not win_conditions_pass[winner]:
        V.check_win_conditions(parsed, winner, WIN_CONDITIONS, CONFLICTS)  # raises the error
    if not winner:
        notes.append(said("note.luoshan.non_winner"))
    if "kong-draw" in flags:
        V.check_kong_draw(flags, melds)

    hand = LuoshanHand(
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
