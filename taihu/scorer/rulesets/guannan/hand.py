"""Guannan 灌南: the hand as the rules page sees it (`GuannanHand`), built and validated by `prepare`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ... import engine as E
from ... import tiles as T
from ...engine import Group
from ...errors import HandError, Text
from ...notation import ParsedHand
from ...said import said
from .. import interface as I
from .. import validation as V

SETS = 4  # 4 sets + 1 pair, or seven pairs
WIN_SIZE, HAND_SIZE = 14, 13
CONDITIONS = frozenset({"seat", "self", "kong-draw", "rob-kong"})  # how the hand was won decides who pays
WIN_CONDITIONS = ("self", "kong-draw", "rob-kong")
CONFLICTS = (V.ROB_KONG_NOT_SELF, V.ROB_KONG_OR_KONG_DRAW)
NO_WILDCARDS = E.StandIns(pairs=(), sets=())


@dataclass
class GuannanHand(I.Prepared):
    naturals: list[int] = field(default_factory=list)  # count array, winning tile included
    melds: tuple[Group, ...] = ()
    winds: tuple[int, ...] = ()  # winds held in hand: such a hand cannot win


def copies(kind: int) -> int:
    """112 tiles: suited ×4, one of each wind; no dragons, no flowers."""
    return 1 if T.is_wind(kind) else 4


def prepare(parsed: ParsedHand, options: dict[str, int]) -> GuannanHand:
    no_wild = Text("error.condition.guannan_no_wild")
    V.check_known_conditions(parsed, "Guannan", CONDITIONS, {"wild": no_wild, "flip": no_wild})

    everything = list(parsed.tiles) + [t for m in parsed.melds for t in m.tiles]
    if parsed.win is not None:
        everything.append(parsed.win)
    for kind in sorted(set(everything)):
        if T.is_flower(kind) or kind in (T.RED, T.GREEN, T.WHITE):
            what = Text("error.tiles.flower" if T.is_flower(kind) else "error.tiles.dragon", tile=T.name(kind))
            raise HandError.of(
                "error.tiles.guannan",
                code="tile_not_played",
                column=parsed.tile_column(kind),
                hint=Text("error.hint.leave_out", tile=T.said(kind)),
                what=what,
                tile=T.name(kind),
            )
        seen = everything.count(kind)
        if seen > copies(kind):
            if T.is_wind(kind):
                raise HandError.of(
                    "error.tiles.guannan_wind",
                    code="tile_copies",
                    column=parsed.tile_column(kind, copies(kind) + 1),
                    hint=Text("error.hint.fewer_copies", tile=T.said(kind), most=copies(kind)),
                    tile=T.name(kind),
                    count=seen,
                    most=copies(kind),
                )
            raise V.too_many_copies(parsed, kind, seen, 4)

    melds: list[Group] = []
    for meld in parsed.melds:
        melds.append(I.meld_group(meld))
    held = list(parsed.tiles) + ([parsed.win] if parsed.win is not None else [])

    size = len(held) + 3 * len(melds)
    winner = parsed.win is not None
    if size != (WIN_SIZE if winner else HAND_SIZE):
        raise V.tile_count_error(parsed, "guannan", size, HAND_SIZE, winner)

    flags = parsed.flags
    V.check_win_conditions(parsed, winner, WIN_CONDITIONS, CONFLICTS)
    V.check_kong_draw(flags, melds)

    values = ", ".join(f"{name} {value}" for name, value in options.items())  # the house options, in order
    return GuannanHand(
        parsed=parsed,
        winner=winner,
        declared=False,
        options=options,
        notes=[said("note.guannan.house_values", values=values)] if winner else [],
        naturals=E.to_counts(held),
        melds=tuple(melds),
        winds=tuple(k for k in held if T.is_wind(k)),
    )


def readings(hand: GuannanHand) -> Iterable[I.Reading]:
    sets = SETS - len(hand.melds)
    for groups in E.standard_readings(hand.naturals, (), sets, NO_WILDCARDS):
        yield hand.melds + groups
    if not hand.melds:
        yield from E.seven_pairs_readings(hand.naturals, (), NO_WILDCARDS)
