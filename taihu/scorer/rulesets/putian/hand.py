"""Putian 莆田: the hand as the rules page sees it (`PutianHand`), built and validated by `prepare`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ... import engine as E
from ... import tiles as T
from ...engine import Group
from ...errors import HandError, Text
from ...notation import ParsedHand
from ...said import phrase, said
from .. import condition_word, words_in
from .. import interface as I
from .. import validation as V

PUTIAN_NO_WILD_NOTE = phrase("note.putian.no_wild")

SETS = 5  # 5 sets + 1 pair
WIN_SIZE, HAND_SIZE = 17, 16
CONDITIONS = frozenset({"seat", "wild", "self", "kong-draw", "rob-kong", "heaven", "declare", "da-jin"})
DECLARES = words_in(Path(__file__).parent).declared_wins  # words.toml, beside this module
WIN_CONDITIONS = ("self", "kong-draw", "rob-kong", "heaven")
SELF_DRAWN = ("self", "kong-draw")  # kong-draw is a self-draw with no item of its own (Decision 2026-11-30)
OWN_TURN = (*SELF_DRAWN, "heaven")  # wins on the player's own turn: the only ones a 金 (never discarded) is won by
# Conditions that cannot stand together, with the reason.
CONFLICTS = (
    V.ROB_KONG_NOT_SELF,
    ("rob-kong", "heaven", "天胡 is won on the dealt hand"),
    V.ROB_KONG_OR_KONG_DRAW,
    *V.on_dealt_hand("kong-draw"),
)


class WinType(NamedTuple):
    """A winning type: what the winner's 底分 is multiplied by, and who pays how much."""

    name: str
    name_en: str
    multiplier: int  # the winner gets 底分 × this
    pays: int  # each payer pays 底分 × this
    payers: str  # "discarder" (ping_hu, qiang_gang: the robbed kong player) or "each"


# Highest priority first (seed: 游金/三金游 > 三金倒 > 天胡 > 閒家搶金 > 莊家搶金 > 自摸/平胡/搶槓胡).
WIN_TYPES: dict[str, WinType] = {
    "san_jin_you": WinType("三金游", "游金 holding three 金", 12, 4, "each"),
    "you_jin": WinType("游金", "Five sets and a lone 金", 9, 3, "each"),
    "san_jin_dao": WinType("三金倒", "Three 金 held", 9, 3, "each"),
    "tian_hu": WinType("天胡", "Heavenly hand", 9, 3, "each"),
    "qiang_jin": WinType("搶金", "Took the flipped 金", 9, 3, "each"),
    "zi_mo": WinType("自摸", "Self-drawn", 6, 2, "each"),
    "qiang_gang": WinType("搶槓胡", "Robbed a kong", 6, 6, "discarder"),
    "ping_hu": WinType("平胡", "Won on a discard", 1, 1, "discarder"),
}


def _who_pays(key: str) -> str:
    """`each other pays ×2` — who pays the winner of this type, how much."""
    return "value.putian.kong_player" if key == "qiang_gang" else WHO_PAYS[WIN_TYPES[key].payers]


WHO_PAYS = {"each": "value.putian.each", "discarder": "value.putian.discarder"}


def pay_text(key: str) -> str:
    """`×6: each other pays ×2` — the detail of a winning-type item, as its value in the rules table."""
    return said(_who_pays(key), value=WIN_TYPES[key].multiplier, pays=WIN_TYPES[key].pays)


@dataclass
class PutianHand(I.Prepared):
    seat: str = "E"
    jin: int | None = None  # the 金 kind (wild:T)
    jin_tiles: tuple[int, ...] = ()  # 金 held, the winning tile included
    naturals: list[int] = field(default_factory=list)  # count array of suited non-金 tiles, win included
    melds: tuple[Group, ...] = ()  # exposed melds and concealed kongs as groups
    whites: int = 0  # 白 held: set aside, or held as 金 when 白 is 金
    you_jin: bool = False  # 游金 shape: five sets + a lone 金
    shapeless: bool = False  # declare:san-jin-dao: the shape is ignored


# -- validation -------------------------------------------------------------


def is_putian_tile(kind: int) -> bool:
    return T.is_suited(kind) or kind == T.WHITE


def _not_putian(kind: int, where: Text | str, column: int | None = None) -> HandError:
    what = (
        "error.tiles.a_flower"
        if T.is_flower(kind)
        else "error.tiles.a_wind"
        if T.is_wind(kind)
        else "error.tiles.a_dragon"
    )
    return HandError.of(
        "error.tiles.putian", code="tile_not_played", column=column, tile=T.name(kind), where=where, what=Text(what)
    )


def prepare(parsed: ParsedHand, options: dict[str, int]) -> PutianHand:
    V.check_known_conditions(parsed, "Putian", CONDITIONS)
    if parsed.declare is not None and parsed.declare not in DECLARES:
        raise V.not_a_declared_win(parsed, "Putian", DECLARES)
    everything = list(parsed.tiles) + [t for m in parsed.melds for t in m.tiles]
    if parsed.win is not None:
        everything.append(parsed.win)
    for kind in everything:
        if not is_putian_tile(kind):
            raise _not_putian(kind, "", parsed.tile_column(kind))
    for kind in sorted(set(everything)):
        if everything.count(kind) > 4:
            raise V.too_many_copies(parsed, kind, everything.count(kind), 4)

    notes: list[str] = []
    jin: int | None = None
    if parsed.wild is None:
        notes.append(PUTIAN_NO_WILD_NOTE())
    else:
        col = parsed.columns.get("wild", 0)
        at = Text("error.waits.at_column", at=col) if col else ""
        if len(parsed.wild) != 1:
            raise HandError.of(
                "error.wild.putian_one", code="bad_wild", column=col or None, count=len(parsed.wild), at=at
            )
        jin = parsed.wild[0]
        if not is_putian_tile(jin):
            raise _not_putian(jin, Text("error.tiles.putian_wild", at=at), col or parsed.tile_column(jin))

    melds: list[Group] = []
    for meld in parsed.melds:
        text = meld.source or meld.text()
        if jin is not None and jin in meld.tiles:
            raise V.wildcard_in_meld(jin, meld, key="error.meld.putian_jin")
        if T.WHITE in meld.tiles:
            raise HandError.of(
                "error.meld.putian_white",
                code="bad_meld",
                column=meld.column or None,
                hint=Text("error.hint.putian_white"),
                meld=text,
            )
        melds.append(I.meld_group(meld))

    jin_tiles = [k for k in parsed.tiles if k == jin]
    naturals = [k for k in parsed.tiles if k != jin and k != T.WHITE]
    whites = parsed.tiles.count(T.WHITE)
    if parsed.win is not None:
        if parsed.win == jin:
            jin_tiles.append(parsed.win)
        elif parsed.win == T.WHITE:
            raise HandError.of("error.win.putian_white", code="bad_winning_tile", column=parsed.columns.get("+"))
        else:
            naturals.append(parsed.win)
    if jin == T.WHITE:
        whites = len(jin_tiles)  # 白 is 金: each one held scores as both 白 and 金 (Decision)
    if len(jin_tiles) > 3 and parsed.declare != "qiang-jin":
        raise HandError.of(
            "error.wild.putian_four",
            code="tile_copies",
            column=parsed.tile_column(jin or 0, 4),  # the fourth
            hint=Text("error.hint.qiang_jin"),
            count=len(jin_tiles),
            most=3,  # the copies a hand holds without 抢金
            tile=T.name(jin or 0),
        )
    if len(jin_tiles) == 4:
        notes.append(said("note.putian.four_jin", tile=T.name(jin or 0)))

    declare = parsed.declare
    winner = parsed.win is not None or declare is not None
    you_jin = declare in ("you-jin", "san-jin-you")
    size = len(jin_tiles) + len(naturals) + 3 * len(melds)
    if you_jin:
        if parsed.win is not None:
            raise HandError.of(
                "error.declare.you_jin_win",
                code="declare_not_met",
                column=parsed.columns.get("+"),
                declare=declare,
                tile=T.name(parsed.win),
            )
        if size != HAND_SIZE:
            raise HandError.of("error.tile_count.you_jin", code="tile_count", size=size)
    elif declare == "san-jin-dao":
        if size not in (HAND_SIZE, WIN_SIZE):
            raise HandError.of("error.tile_count.san_jin_dao", code="tile_count", size=size)
    elif size != (WIN_SIZE if winner else HAND_SIZE):
        raise V.tile_count_error(parsed, "putian", size, HAND_SIZE, winner, set_aside=(T.WHITE,))

    flags = parsed.flags
    seat = V.seat_or_dealer(parsed, notes)
    V.check_win_conditions(parsed, winner, WIN_CONDITIONS, CONFLICTS, declared_wins=True)
    if declare is not None and "rob-kong" in flags:
        raise HandError.of("error.declare.rob_kong", code="conditions_contradict", declare=declare)
    if declare in ("qiang-jin", "you-jin", "san-jin-you") and "heaven" in flags:
        raise HandError.of(
            "error.declare.heaven", code="conditions_contradict", declare=declare, cond=condition_word("heaven")
        )
    if "heaven" in flags and seat != "E":
        raise V.heaven_needs_dealer(parsed)
    V.check_kong_draw(flags, melds)
    if declare is not None and jin is None:
        raise HandError.of("error.declare.needs_jin", code="declare_not_met", declare=declare)
    if declare == "qiang-jin" and parsed.win != jin:
        raise HandError.of("error.declare.qiang_jin", code="declare_not_met", tile=T.name(jin or 0))
    if declare in ("san-jin-dao", "san-jin-you") and len(jin_tiles) < 3:
        raise HandError.of("error.declare.three_jin", code="declare_not_met", declare=declare, count=len(jin_tiles))
    if you_jin and not jin_tiles:
        raise HandError.of("error.declare.lone_jin", code="declare_not_met", declare=declare)
    if parsed.win is not None and parsed.win == jin:
        V.check_won_on_wildcard(parsed, "Putian", OWN_TURN)

    return PutianHand(
        parsed=parsed,
        winner=winner,
        declared=False,  # a declared Putian win still scores its 底分; see `readings`
        options=options,
        notes=notes,
        seat=seat,
        jin=jin,
        jin_tiles=tuple(jin_tiles),
        naturals=E.to_counts(naturals),
        melds=tuple(melds),
        whites=whites,
        you_jin=you_jin,
        shapeless=declare == "san-jin-dao",
    )


def copies(kind: int) -> int:
    """Four of every kind; of the 金 kind too, since 抢金 can take the flipped one (Decision).

    A tile Putian does not play is reported by `prepare`, with a better message.
    """
    return 4
