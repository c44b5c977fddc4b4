"""Jinhua 金华: the hand as the rules page sees it (`JinhuaHand`), built and validated by `prepare`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ... import engine as E
from ... import tiles as T
from ...engine import Group
from ...errors import HandError, Text
from ...notation import ParsedHand
from ...said import phrase
from .. import interface as I
from .. import validation as V

JINHUA_NO_WILD_NOTE = phrase("note.jinhua.no_wild")
JINHUA_QUAN_QIU_REN_SELF_NOTE = phrase("note.jinhua.quan_qiu_ren_self")

SETS = 4  # 4 sets + 1 pair
WIN_SIZE, HAND_SIZE = 14, 13
CONDITIONS = frozenset({"seat", "wild", "self", "kong-draw", "last-tile", "heaven", "earth", "human"})
WIN_CONDITIONS = ("self", "kong-draw", "last-tile", "heaven", "earth", "human")
# Won on the player's own draw: no 全求人, and the settlement's "each pays 2X".
SELF_DRAWN = ("self", "kong-draw", "last-tile", "heaven", "human")  # human: `self` may be omitted (Decision)
CONFLICTS = (
    V.KONG_DRAW_NOT_LAST_TILE,
    V.HEAVEN_OR_EARTH,
    ("heaven", "human", "天胡 is the dealer's, 人胡 a non-dealer's"),
    ("earth", "human", "地胡 is won on a discard, 人胡 self-drawn"),
    *V.on_dealt_hand("kong-draw", "last-tile"),
    *V.on_first_discard("self", "kong-draw", "last-tile"),
    ("human", "last-tile", "人胡 is won in the first go-round"),
)
STANDARD, SEVEN_PAIRS, BU_KAO, LUAN_FENG = "4 sets + pair", "seven pairs", "十三不靠/七风", "乱风"
MIN_HONORS_BU_KAO, ALL_HONORS = 5, 7
BU_KAO_GAP = 3  # 至少相隔两张: ranks 1-4-7


class Shape(NamedTuple):
    """One reading of a winning hand.

    `groups` are the melds and the concealed sets + pair (or the seven
    pairs); 不靠 and 乱风 have no sets, so `shown` carries their tiles as
    printed and `honors` the distinct honors of a 不靠.
    """

    name: str
    groups: tuple[Group, ...] = ()
    shown: tuple[str, ...] = ()
    honors: int = 0


@dataclass
class JinhuaHand(I.Prepared):
    wild_kind: int | None = None  # the 财神 kind (`wild:T`)
    face: int | None = None  # what every 白 plays as: the 财神's own face
    wild_tiles: tuple[int, ...] = ()  # 财神 held, the winning tile included
    naturals: list[int] = field(default_factory=list)  # count array, 白 as the face, winning tile included
    whites: int = 0  # 白 held as plain tiles (they may be 白 in a 不靠)
    melds: tuple[Group, ...] = ()
    win_kind: int = -1  # the winning tile as it plays (白 → the face); -1: a 财神 or no win
    self_drawn: bool = False


# -- validation -------------------------------------------------------------


def copies(kind: int, wild: tuple[int, ...] | None) -> int:
    """4 of each kind; the flipped 财神 is out of play, so three remain."""
    return 3 if wild and kind == wild[0] else 4


JINHUA_WILD_OUT = Text("error.tiles.jinhua_wild_out")  # why a 财神 kind has 3 copies, not 4


def _flower_error(parsed: ParsedHand, kind: int) -> HandError:
    return V.not_a_tile_of(parsed, kind, "Jinhua", Text("error.tiles.jinhua"))


def prepare(parsed: ParsedHand, options: dict[str, int]) -> JinhuaHand:
    V.check_known_conditions(parsed, "Jinhua", CONDITIONS, {"flip": Text("error.condition.jinhua_flip")})
    notes: list[str] = []
    wild_kind: int | None = None
    if parsed.wild is None:
        notes.append(JINHUA_NO_WILD_NOTE())
    else:
        if len(parsed.wild) != 1:
            at = parsed.columns.get("wild", 0)
            raise HandError.of(
                "error.wild.jinhua_one", code="bad_wild", column=at or None, count=len(parsed.wild), at=at
            )
        wild_kind = parsed.wild[0]
        if T.is_flower(wild_kind):
            raise _flower_error(parsed, wild_kind)
    face = wild_kind

    everything = list(parsed.tiles) + [t for m in parsed.melds for t in m.tiles]
    if parsed.win is not None:
        everything.append(parsed.win)
    for kind in sorted(set(everything)):
        if T.is_flower(kind):
            raise _flower_error(parsed, kind)
        seen, limit = everything.count(kind), copies(kind, parsed.wild)
        if seen > limit:
            why = JINHUA_WILD_OUT if limit == 3 else ""
            raise V.too_many_copies(parsed, kind, seen, limit, why)

    def plays_as(kind: int) -> int:
        return face if kind == T.WHITE and face is not None else kind

    melds: list[Group] = []
    for meld in parsed.melds:
        if wild_kind in meld.tiles:
            raise V.wildcard_in_meld(wild_kind, meld, key="error.meld.jinhua_wild")
        melds.append(I.meld_group(meld, plays_as(meld.tiles[0])))

    held = list(parsed.tiles) + ([parsed.win] if parsed.win is not None else [])
    wild_tiles = tuple(k for k in held if k == wild_kind)
    naturals = [plays_as(k) for k in held if k != wild_kind]
    size = len(held) + 3 * len(melds)
    winner = parsed.win is not None
    if size != (WIN_SIZE if winner else HAND_SIZE):
        raise V.tile_count_error(parsed, "jinhua", size, HAND_SIZE, winner)

    flags = parsed.flags
    # the seat decides only whether 天胡 is the dealer's: noted when it does
    seat = V.seat_or_dealer(parsed, notes) if "heaven" in parsed.flags else parsed.seat or "E"
    V.check_win_conditions(parsed, winner, WIN_CONDITIONS, CONFLICTS)
    if "heaven" in flags and seat != "E":
        raise V.heaven_needs_dealer(parsed)
    for cond in ("earth", "human"):
        if cond in flags and seat == "E":
            raise V.needs_non_dealer(parsed, cond)
    V.check_kong_draw(flags, melds)
    if parsed.win is not None and parsed.win == wild_kind:
        V.check_won_on_wildcard(parsed, "Jinhua", SELF_DRAWN)

    self_drawn = any(f in flags for f in SELF_DRAWN)
    if winner and self_drawn and quan_qiu_ren_shape(parsed, wild_kind):
        notes.append(JINHUA_QUAN_QIU_REN_SELF_NOTE())
    win_kind = -1 if parsed.win is None or parsed.win == wild_kind else plays_as(parsed.win)
    return JinhuaHand(
        parsed=parsed,
        winner=winner,
        declared=False,
        options=options,
        notes=notes,
        wild_kind=wild_kind,
        face=face,
        wild_tiles=wild_tiles,
        naturals=E.to_counts(naturals),
        whites=held.count(T.WHITE) if face not in (None, T.WHITE) else 0,
        melds=tuple(melds),
        win_kind=win_kind,
        self_drawn=self_drawn,
    )


def quan_qiu_ren_shape(parsed: ParsedHand, wild_kind: int | None) -> bool:
    """One tile left in hand before the win, and not a 财神 (that is 爆头)."""
    return len(parsed.tiles) == 1 and parsed.tiles[0] != wild_kind
