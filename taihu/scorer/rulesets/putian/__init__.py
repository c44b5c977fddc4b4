"""Putian 莆田 — the 底分 and winning types of docs/rules/putian.md as data.

A Putian hand scores no pattern: its `total` is the player's 底分
(底 + 分), and the winning type is a multiplier the settlement applies.
So the winning type is an item whose value is its multiplier, and `finish`
leaves it out of the sum (`total` stays the 底分). Nothing here depends on
the grouping, so the search only has to prove a winning shape exists.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from ... import engine as E
from ... import tiles as T
from ...engine import KONG, PAIR, PUNG, Group
from ...errors import HandError
from ...notation import ParsedHand
from .. import base as B
from ..base import ALL, DI, FEN, MULTIPLIER, NONE, ONE, WINNER, Item, Variant, once

SETS = 5  # 5 sets + 1 pair
WIN_SIZE, HAND_SIZE = 17, 16
CONDITIONS = frozenset({"seat", "wild", "self", "kong-draw", "rob-kong", "heaven", "declare", "da-jin"})
DECLARES = ("san-jin-dao", "qiang-jin", "you-jin", "san-jin-you")
WIN_CONDITIONS = ("self", "kong-draw", "rob-kong", "heaven")
SELF_DRAWN = ("self", "kong-draw")  # kong-draw is a self-draw with no item of its own (Decision 2026-11-30)
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


# -- the readings ------------------------------------------------------------


def _display_class(jin: int) -> Callable[[Group], tuple[int, bool]]:
    """What `_stand_ins` sees of a group: its 金 standing for another tile, and whether it mixes 金 and tiles.

    Nothing scored depends on the grouping, only the display choice does, so
    the search keeps one decomposition per display class (docs/architecture.md: prune
    what cannot differ) instead of placing the 金 on every one of them.
    """

    def display_class(group: Group) -> tuple[int, bool]:
        slots = group.slots
        return sum(kind != jin for kind in slots), 0 < len(slots) < len(group.kinds)

    return display_class


# one per 金 kind, made once: JokerOptions with the same function share the search's memo table
_DISPLAY_CLASSES = {kind: _display_class(kind) for kind in range(T.PLAYABLE)}


def _jokers(hand: PutianHand) -> E.JokerOptions:
    """All-金 groups stand for the 金 itself: nothing scored depends on what they stand for."""
    kind = hand.jin if hand.jin is not None else 4
    return E.JokerOptions(pairs=(kind,), sets=((PUNG, kind),), classify=_DISPLAY_CLASSES[kind])


def readings(hand: PutianHand) -> Iterable[B.Reading]:
    """One winning reading: no Putian item depends on the grouping, so only its display is chosen.

    游金 sets one 金 aside as the pair's half and needs the rest as sets only;
    a declared 三金倒 ignores the shape (one reading of just the melds).
    """
    sets = SETS - len(hand.melds)
    if hand.shapeless:
        yield hand.melds
        return
    if hand.you_jin:
        kind = hand.jin_tiles[0]
        lone = Group(PAIR, kind, (kind,), wilds=((kind, kind),))  # shown by `arrangement`, not as a pair
        for groups in E.set_readings(hand.naturals, hand.jin_tiles[1:], sets, _jokers(hand)):
            yield hand.melds + groups + (lone,)
            return
        return
    found = list(E.standard_readings(hand.naturals, hand.jin_tiles, sets, _jokers(hand)))
    if found:
        yield hand.melds + min(found, key=_stand_ins)


def _stand_ins(groups: B.Reading) -> tuple[int, int]:
    """Orders readings for display: 金 standing for themselves first, then fewer slots in natural groups."""
    moved = sum(w != k for g in groups for w, k in g.wilds)
    mixed = sum(1 for g in groups if g.wilds and len(g.wilds) < len(g.kinds))
    return moved, mixed


# -- items ---------------------------------------------------------------------


def di(hand: PutianHand, facts: None) -> list[tuple[Variant, str]]:
    """A continuing dealer still has 底 2 (seed: 連莊莊家"底"仍為2分)."""
    return once("dealer", "dealer") if hand.seat == "E" else once("other", "non-dealer")


def bai(hand: PutianHand, facts: None) -> list[tuple[Variant, str]]:
    n = hand.whites
    if not n:
        return NONE
    as_jin = " (白 is 金)" if hand.jin == T.WHITE else ""
    return once("four" if n == 4 else ("each",) * n, f"白 ×{n}{as_jin}" + (": all four" if n == 4 else ""))


def jin(hand: PutianHand, facts: None) -> list[tuple[Variant, str]]:
    n = len(hand.jin_tiles)
    return once((ONE,) * n, f"{T.name(hand.jin or 0)} ×{n}") if n else NONE


def _kongs(concealed: bool) -> B.Finder:
    def find(hand: PutianHand, facts: None) -> list[tuple[Variant, str]]:
        kongs = [g for g in hand.melds if g.shape == KONG and g.concealed_kong == concealed]
        return once((ONE,) * len(kongs), " ".join(g.text() for g in kongs)) if kongs else NONE

    return find


def winning_type(hand: PutianHand) -> tuple[str, str]:
    """The one winning type that pays, by the seed's priority, with why it applies."""
    held = len(hand.jin_tiles)
    flags = hand.parsed.flags
    if hand.you_jin:
        return ("san_jin_you", f"游金 with {held} 金") if held >= 3 else ("you_jin", "游金")
    if held >= 3:
        return "san_jin_dao", f"{held} 金 held"
    if "heaven" in flags:
        return "tian_hu", "dealer complete on the dealt hand"
    if hand.parsed.declare == "qiang-jin":
        return "qiang_jin", "莊家搶金" if hand.seat == "E" else "閒家搶金"
    if any(f in flags for f in SELF_DRAWN):
        return "zi_mo", ""
    if "rob-kong" in flags:
        return "qiang_gang", ""
    return "ping_hu", ""


def _win_type(key: str) -> B.Finder:
    def find(hand: PutianHand, facts: None) -> list[tuple[Variant, str]]:
        found, why = winning_type(hand)
        if found != key:
            return NONE
        return once(ONE, pay_text(key) + (f" ({why})" if why else ""))

    return find


EACH = "{} each"
ITEMS = (
    # 底分 = 底 + 分 — every player
    Item("di", "底", "Base", {"dealer": 2, "other": 1}, DI, ALL, di, text="dealer {dealer}, others {other}"),
    Item("bai", "白", "白 set aside", {"each": 1, "four": 5}, FEN, ALL, bai, text="{each} each; all four {four}"),
    Item("jin", "金", "金 held", 1, FEN, ALL, jin, text=EACH),
    Item("ming_gang", "明槓", "Open or added kong", 1, FEN, ALL, _kongs(False), text=EACH),
    Item("an_gang", "暗槓", "Concealed kong", 2, FEN, ALL, _kongs(True), text=EACH),
    # The winning type — the winner only; value is the multiplier, not added to 底分
    *(
        Item(
            key, wt.name, wt.name_en, wt.multiplier, MULTIPLIER, WINNER, _win_type(key), text=f"×{{}}: {_who_pays(key)}"
        )
        for key, wt in WIN_TYPES.items()
    ),
)
KONG_KEYS = ("ming_gang", "an_gang")  # counted for the winner and a false win only


DA_JIN = "not a legal win: 打金 — a player who discarded or melded a 金 cannot win this deal (condition da-jin)"


def _copies_in_play(kind: int, parsed: ParsedHand) -> int:
    """The flipped 金 is out of play (a fourth is only taken by the declared 抢金)."""
    return 3 if parsed.wild and kind == parsed.wild[0] else copies(kind)


def _as_faces(hand: PutianHand) -> PutianHand | None:
    """A 白 that is 金 is no meldable tile as itself."""
    if hand.jin == T.WHITE and hand.jin_tiles:
        return None
    return dataclasses.replace(hand, jin_tiles=(), jin=None, naturals=B.with_tiles(hand.naturals, hand.jin_tiles))


def _standard_shape(hand: PutianHand) -> tuple[list[int], int] | None:
    return None if hand.jin_tiles else (B.tiles_of(hand.naturals), SETS - len(hand.melds))


def _sweep(hand: PutianHand, kinds: list[int]) -> B.Sweep | None:
    """One sweep over the suited tiles (the only natural ones that can win), whose hands all get the same
    search options (those of the 金)."""
    if not hand.jin_tiles:
        return None
    swept = [kind for kind in kinds if T.is_suited(kind) and kind != hand.jin]
    return hand.naturals, len(hand.jin_tiles), SETS - len(hand.melds), {_jokers(hand): swept}


class Putian(B.RuleSet):
    name = "putian"
    chinese = "莆田"
    unit = "fen"
    items = ITEMS
    exclusions = ()
    options = ()

    conditions = CONDITIONS
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

    def finish(self, hand: PutianHand, found: B.Found) -> B.Outcome:
        """`total` is the 底分: the winning type's multiplier is applied in settlement, not added."""
        base = sum(v for item, v, _ in found if item.kind != MULTIPLIER)  # 底 + 分
        if hand.winner and hand.has("da-jin"):
            return B.Outcome(base, False, base, legal=False, notes=[DA_JIN])
        return B.Outcome(base, False, base)

    def no_shape_message(self, hand: PutianHand) -> str:
        if hand.you_jin:
            return (
                f"declare:{hand.parsed.declare}: without one 金 the tiles do not form five sets "
                f"(游金 is five sets + a lone 金)"
            )
        hint = "; a hand holding three 金 can declare:san-jin-dao (shape ignored)" if len(hand.jin_tiles) >= 3 else ""
        return f"no winning shape: the tiles do not form 1 pair + 5 sets{hint}"

    def arrangement(self, hand: PutianHand, reading: B.Reading) -> list[str]:
        melds = [g.text() for g in reading[: len(hand.melds)]]
        rest = reading[len(hand.melds) :]
        if hand.shapeless:
            held = sorted(hand.jin_tiles + tuple(k for k in range(27) for _ in range(hand.naturals[k])))
            return melds + [T.group_text(held) + " (三金倒: shape ignored)"]
        if hand.you_jin:
            lone, rest = rest[-1], rest[:-1]
            sets = sorted(rest, key=lambda g: g.kind)
            return melds + [g.text() for g in sets] + [f"{T.name(lone.kind)} (游金: lone 金, partner discarded)"]
        pair = [g for g in rest if g.shape == PAIR]
        sets = sorted((g for g in rest if g.shape != PAIR), key=lambda g: g.kind)
        return melds + [g.text() for g in sets + pair]


PUTIAN = Putian()


def copies(kind: int) -> int:
    """Four of every kind; of the 金 kind too, since 抢金 can take the flipped one (Decision).

    A tile Putian does not play is reported by `prepare`, with a better message.
    """
    return 4


RULE_SET = PUTIAN
