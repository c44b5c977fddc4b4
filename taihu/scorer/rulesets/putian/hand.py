"""Putian 莆田: the hand as the rules page sees it (`PutianHand`), built and validated by `prepare`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ... import engine as E
from ... import tiles as T
from ...engine import Group
from ...errors import HandError
from ...notation import ParsedHand
from .. import base as B

SETS = 5  # 5 sets + 1 pair
WIN_SIZE, HAND_SIZE = 17, 16
CONDITIONS = frozenset({"seat", "wild", "self", "kong-draw", "rob-kong", "heaven", "declare", "da-jin"})
DECLARES = ("san-jin-dao", "qiang-jin", "you-jin", "san-jin-you")
WIN_CONDITIONS = ("self", "kong-draw", "rob-kong", "heaven")
SELF_DRAWN = ("self", "kong-draw")  # kong-draw is a self-draw with no item of its own (Decision 2026-11-30)
OWN_TURN = (*SELF_DRAWN, "heaven")  # wins on the player's own turn: the only ones a 金 (never discarded) is won by
# Conditions that cannot stand together, with the reason.
CONFLICTS = (
    B.ROB_KONG_NOT_SELF,
    ("rob-kong", "heaven", "天胡 is won on the dealt hand"),
    B.ROB_KONG_OR_KONG_DRAW,
    *B.on_dealt_hand("kong-draw"),
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
    wt = WIN_TYPES[key]
    who = {"each": "each other pays", "discarder": "the discarder pays"}[wt.payers]
    if key == "qiang_gang":
        who = "the kong player pays"
    return f"{who} ×{wt.pays}"


def pay_text(key: str) -> str:
    """`×6: each other pays ×2` — the detail of a winning-type item."""
    return f"×{WIN_TYPES[key].multiplier}: {_who_pays(key)}"


@dataclass
class PutianHand(B.Prepared):
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


def _not_putian(kind: int, where: str) -> HandError:
    what = "a flower" if T.is_flower(kind) else "a wind" if T.is_wind(kind) else "a dragon"
    return HandError(
        f"{T.name(kind)}{where} is {what}, not a Putian tile: Putian plays 112 tiles, "
        f"m/p/s 1–9 and 白 (P), four of each"
    )


def prepare(parsed: ParsedHand, options: dict[str, int]) -> PutianHand:
    B.check_known_conditions(parsed, "Putian", CONDITIONS)
    if parsed.declare is not None and parsed.declare not in DECLARES:
        col = parsed.columns.get("declare", 0)
        raise HandError(
            f"declare:{parsed.declare} at column {col} is not a Putian declared win ({', '.join(DECLARES)})"
        )
    everything = list(parsed.tiles) + [t for m in parsed.melds for t in m.tiles]
    if parsed.win is not None:
        everything.append(parsed.win)
    for kind in everything:
        if not is_putian_tile(kind):
            raise _not_putian(kind, "")
    for kind in sorted(set(everything)):
        if everything.count(kind) > 4:
            raise HandError(f"{T.name(kind)} appears {everything.count(kind)} times; at most 4 exist")

    notes: list[str] = []
    jin: int | None = None
    if parsed.wild is None:
        notes.append("no wild: given — scored with no 金")
    else:
        col = parsed.columns.get("wild", 0)
        at = f" at column {col}" if col else ""
        if len(parsed.wild) != 1:
            raise HandError(f"Putian flips one 金, e.g. wild:5m; got {len(parsed.wild)} tiles{at}")
        jin = parsed.wild[0]
        if not is_putian_tile(jin):
            raise _not_putian(jin, f" (wild:{at})")

    melds: list[Group] = []
    for meld in parsed.melds:
        text = meld.source or meld.text()
        where = "concealed kong" if meld.concealed else "exposed meld"
        if jin is not None and jin in meld.tiles:
            raise HandError(f"金 {T.name(jin)} used in {where} {text}: 金 may not be chowed, punged or melded (打金)")
        if T.WHITE in meld.tiles:
            raise HandError(f"白 is set aside in Putian and never melds: {text}; write each 白 bare (P P)")
        melds.append(B.meld_group(meld))

    jin_tiles = [k for k in parsed.tiles if k == jin]
    naturals = [k for k in parsed.tiles if k != jin and k != T.WHITE]
    whites = parsed.tiles.count(T.WHITE)
    if parsed.win is not None:
        if parsed.win == jin:
            jin_tiles.append(parsed.win)
        elif parsed.win == T.WHITE:
            raise HandError("the winning tile +P is 白, which is set aside in Putian (补牌), never won on")
        else:
            naturals.append(parsed.win)
    if jin == T.WHITE:
        whites = len(jin_tiles)  # 白 is 金: each one held scores as both 白 and 金 (Decision)
    if len(jin_tiles) > 3 and parsed.declare != "qiang-jin":
        raise HandError(
            f"the hand holds {len(jin_tiles)} 金 {T.name(jin or 0)}, but only 3 are in play (the flipped one is "
            f"out); a fourth exists only through 抢金: write declare:qiang-jin, or fix the tiles"
        )
    if len(jin_tiles) == 4:
        notes.append(f"four 金 {T.name(jin or 0)}: the flipped one was taken by 抢金 (Decision)")

    declare = parsed.declare
    winner = parsed.win is not None or declare is not None
    you_jin = declare in ("you-jin", "san-jin-you")
    size = len(jin_tiles) + len(naturals) + 3 * len(melds)
    if you_jin:
        if parsed.win is not None:
            raise HandError(
                f"declare:{declare} is five sets and a lone 金 after the pair's partner was discarded; "
                f"it has no winning tile (+{T.name(parsed.win)})"
            )
        if size != HAND_SIZE:
            raise HandError(f"hand has {size} tiles, a 游金 hand holds 16 (five sets + a lone 金)", code="tile_count")
    elif declare == "san-jin-dao":
        if size not in (HAND_SIZE, WIN_SIZE):
            raise HandError(f"hand has {size} tiles, a declared 三金倒 holds 16 or 17", code="tile_count")
    elif size != (WIN_SIZE if winner else HAND_SIZE):
        raise B.tile_count_error(parsed, "putian", size, HAND_SIZE, winner, set_aside=(T.WHITE,))

    flags = parsed.flags
    seat = B.seat_or_dealer(parsed, notes)
    B.check_win_conditions(parsed, winner, WIN_CONDITIONS, CONFLICTS, declared_wins=True)
    if declare is not None and "rob-kong" in flags:
        raise HandError(f"declare:{declare} is won on the player's own turn; it cannot rob a kong")
    if declare in ("qiang-jin", "you-jin", "san-jin-you") and "heaven" in flags:
        raise HandError(f"declare:{declare} and 'heaven' contradict each other: 天胡 is complete on the dealt hand")
    if "heaven" in flags and seat != "E":
        raise HandError("condition 'heaven' needs seat:E (the dealer)")
    B.check_kong_draw(flags, melds)
    if declare is not None and jin is None:
        raise HandError(f"declare:{declare} needs the 金, e.g. wild:5m")
    if declare == "qiang-jin" and parsed.win != jin:
        raise HandError(
            f"declare:qiang-jin takes the flipped 金 to complete the hand: the winning tile must be +{T.name(jin or 0)}"
        )
    if declare in ("san-jin-dao", "san-jin-you") and len(jin_tiles) < 3:
        raise HandError(f"declare:{declare} needs three 金 held; this hand holds {len(jin_tiles)}")
    if you_jin and not jin_tiles:
        raise HandError(f"declare:{declare} needs a lone 金 held; this hand holds none")
    if parsed.win is not None and parsed.win == jin:
        B.check_won_on_wildcard(parsed, "Putian", OWN_TURN)

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
