"""Lingxi 灵溪: the hand as the rules page sees it (`LingxiHand`), built and validated by `prepare`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ... import engine as E
from ... import tiles as T
from ...engine import Group
from ...errors import HandError, Text
from ...notation import ParsedHand
from ...said import phrase
from .. import interface as I
from .. import validation as V
from .. import words_in

NO_WILD_NOTE = phrase("note.no_wild")

SETS = 5  # 1 pair + 5 sets
WIN_SIZE, HAND_SIZE = 17, 16
FLOWER_GROUPS = (("seasons", (34, 35, 36, 37)), ("plants", (38, 39, 40, 41)), ("whites", (T.WHITE,)))
CONDITIONS = frozenset({"seat", "wild", "self", "kong-draw", "rob-kong", "last-tile", "heaven", "earth", "declare"})
DECLARES = frozenset(words_in(Path(__file__).parent).declared_wins)  # words.toml, beside this module
# Conditions that cannot stand together, with the reason.
CONFLICTS = (
    V.ROB_KONG_NOT_SELF,
    V.ROB_KONG_OR_KONG_DRAW,
    ("rob-kong", "last-tile", "last-tile is a win on a draw; robbing a kong is not"),
    V.KONG_DRAW_NOT_LAST_TILE,
    V.HEAVEN_OR_EARTH,
    *V.on_dealt_hand("rob-kong", "kong-draw", "last-tile"),
    *V.on_first_discard("self", "kong-draw", "rob-kong", "last-tile"),
)
WIN_CONDITIONS = ("self", "kong-draw", "rob-kong", "last-tile", "heaven", "earth")
# wins on the player's own turn: the only ones a wildcard (never discarded) can be won by
OWN_TURN = ("self", "kong-draw", "last-tile", "heaven")


@dataclass(frozen=True)
class WildFamily:
    """The tiles one revealed wildcard makes wild (a kind, or the rest of a flower group)."""

    kinds: frozenset[int]
    label: str
    honor_like: bool  # wind/dragon/flower kind: 3/7/11 instead of 2/5/8


@dataclass
class LingxiHand(I.Prepared):
    seat_wind: int = T.EAST
    families: tuple[WildFamily, ...] = ()
    same_kind: bool = False  # both revealed tiles of one kind
    wild_kinds: frozenset[int] = frozenset()
    wild_tiles: tuple[int, ...] = ()  # held wildcard tiles, the winning tile included
    naturals: list[int] = field(default_factory=list)  # count array, winning tile included
    melds: tuple[Group, ...] = ()  # exposed melds and concealed kongs as groups
    set_aside: dict[str, list[int]] = field(default_factory=dict)  # flower group -> tiles
    from_deal: set[str] = field(default_factory=set)  # flower groups held four from the deal
    before_win: tuple[int, ...] = ()  # tiles in hand before the winning tile


# -- validation -------------------------------------------------------------


def _families(revealed: tuple[int, ...]) -> tuple[tuple[WildFamily, ...], bool]:
    def group_of(kind: int) -> tuple[int, ...]:
        if T.is_flower(kind):
            return FLOWER_GROUPS[(kind - T.FIRST_FLOWER) // 4][1]
        return (kind,)

    groups = [group_of(k) for k in revealed]
    same = groups[0] == groups[1]
    families = []
    for members in dict.fromkeys(groups):
        kinds = frozenset(k for k in members if k not in revealed or not T.is_flower(k))
        label = T.name(members[0]) if len(members) == 1 else "/".join(T.name(k) for k in sorted(kinds))
        families.append(WildFamily(kinds, label, not T.is_suited(members[0])))
    return tuple(families), same


def copies(kind: int, revealed: tuple[int, ...]) -> int:
    """4 of a kind, 1 of a flower; a revealed wildcard tile is out of play."""
    base = 1 if T.is_flower(kind) else 4
    return base - revealed.count(kind)


def prepare(parsed: ParsedHand, options: dict[str, int]) -> LingxiHand:
    V.check_known_conditions(parsed, "Lingxi", CONDITIONS)
    if parsed.declare is not None and parsed.declare not in DECLARES:
        raise V.not_a_declared_win(parsed, "Lingxi", ("sha-zhu", "hua-hu"))
    notes: list[str] = []
    revealed: tuple[int, ...] = ()
    families: tuple[WildFamily, ...] = ()
    same = False
    if parsed.wild is None:
        notes.append(NO_WILD_NOTE())
    else:
        revealed = parsed.wild
        if len(revealed) != 2:
            at = parsed.columns.get("wild", 0)
            raise HandError.of("error.wild.lingxi_two", code="bad_wild", column=at or None, count=len(revealed), at=at)
        for kind in set(revealed):
            if revealed.count(kind) > copies(kind, ()):
                at = parsed.columns.get("wild", 0)
                raise HandError.of(
                    "error.wild.revealed_too_often",
                    code="bad_wild",
                    column=at or None,
                    tile=T.name(kind),
                    count=revealed.count(kind),
                    at=at,
                    most=copies(kind, ()),
                )
        families, same = _families(revealed)
    wild_kinds = frozenset(k for f in families for k in f.kinds)

    everything = list(parsed.tiles) + [t for m in parsed.melds for t in m.tiles]
    if parsed.win is not None:
        everything.append(parsed.win)
    for kind in sorted(set(everything)):
        seen, limit = everything.count(kind), copies(kind, revealed)
        if seen > limit:
            why = "" if limit == (1 if T.is_flower(kind) else 4) else Text("error.tiles.wildcards_out")
            raise V.too_many_copies(parsed, kind, seen, limit, why)

    seat = V.seat_or_dealer(parsed, notes)
    melds: list[Group] = []
    from_deal: set[str] = set()
    set_aside: dict[str, list[int]] = {name: [] for name, _ in FLOWER_GROUPS}
    for meld in parsed.melds:
        wild_in = [t for t in meld.tiles if t in wild_kinds]
        if wild_in:
            raise V.wildcard_in_meld(wild_in[0], meld)
        if meld.is_flower_set or (meld.tiles[0] == T.WHITE):
            if not meld.concealed:
                raise HandError.of(
                    "error.meld.lingxi_white",
                    code="bad_meld",
                    column=meld.column or None,
                    hint=Text("error.hint.lingxi_white"),
                    meld=meld.source or meld.text(),
                )
            group = _flower_group(meld.tiles[0])
            from_deal.add(group)
            set_aside[group].extend(meld.tiles)
            continue
        melds.append(I.meld_group(meld))

    wild_tiles: list[int] = []
    naturals: list[int] = []
    for kind in parsed.tiles:
        if kind in wild_kinds:
            wild_tiles.append(kind)
        elif T.is_flower(kind) or kind == T.WHITE:
            set_aside[_flower_group(kind)].append(kind)
        else:
            naturals.append(kind)
    before_win = tuple(wild_tiles + naturals)
    if parsed.win is not None:
        if parsed.win in wild_kinds:
            wild_tiles.append(parsed.win)
        elif T.is_flower(parsed.win) or parsed.win == T.WHITE:
            raise HandError.of(
                "error.win.lingxi_flower",
                code="bad_winning_tile",
                column=parsed.columns.get("+"),
                tile=T.name(parsed.win),
            )
        else:
            naturals.append(parsed.win)

    size = len(wild_tiles) + len(naturals) + 3 * len(melds)
    declared = parsed.declare is not None
    winner = parsed.win is not None or declared
    if declared:
        if size not in (HAND_SIZE, WIN_SIZE):
            raise HandError.of("error.tile_count.lingxi_declared", code="tile_count", size=size)
    elif size != (WIN_SIZE if winner else HAND_SIZE):
        raise V.tile_count_error(parsed, "lingxi", size, HAND_SIZE, winner, set_aside=(T.WHITE,))

    flags = parsed.flags
    V.check_win_conditions(parsed, winner, WIN_CONDITIONS, CONFLICTS, declared_wins=True)
    if "heaven" in flags and seat != "E":
        raise V.heaven_needs_dealer(parsed)
    if "earth" in flags and seat == "E":
        raise V.needs_non_dealer(parsed, "earth")
    V.check_kong_draw(flags, melds)
    if parsed.win in wild_kinds:
        V.check_won_on_wildcard(parsed, "Lingxi", OWN_TURN)

    hand = LingxiHand(
        parsed=parsed,
        winner=winner,
        declared=declared,
        options=options,
        notes=notes,
        seat_wind=T.SEAT_WIND[seat],
        families=families,
        same_kind=same,
        wild_kinds=wild_kinds,
        wild_tiles=tuple(wild_tiles),
        naturals=E.to_counts(naturals),
        melds=tuple(melds),
        set_aside={k: v for k, v in set_aside.items() if v},
        from_deal=from_deal,
        before_win=before_win,
    )
    if parsed.declare == "sha-zhu" and not sha_zhu_holding(hand):
        held = held_text(hand) or Text("error.declare.none_held")
        raise HandError.of("error.declare.sha_zhu", code="declare_not_met", held=held)
    if parsed.declare == "hua-hu" and not all_flowers(hand):
        raise HandError.of("error.declare.hua_hu", code="declare_not_met")
    return hand


def _flower_group(kind: int) -> str:
    return FLOWER_GROUPS[2 if kind == T.WHITE else (kind - T.FIRST_FLOWER) // 4][0]


def held_wildcards(hand: LingxiHand) -> list[tuple[WildFamily, list[int]]]:
    return [(f, [t for t in hand.wild_tiles if t in f.kinds]) for f in hand.families]


def held_text(hand: LingxiHand) -> str:
    return ", ".join(f"{f.label} ×{len(tiles)}" for f, tiles in held_wildcards(hand) if tiles)


def sha_zhu_holding(hand: LingxiHand) -> int:
    """How many wildcards make the 杀猪 holding (0: none)."""
    held = [len(tiles) for _, tiles in held_wildcards(hand)]
    if hand.same_kind:
        return held[0] if held and held[0] >= 2 else 0
    if len(held) == 2 and max(held) == 3 and min(held) >= 1:
        return sum(held)
    return 0


def all_flowers(hand: LingxiHand) -> bool:
    aside = set(hand.set_aside.get("seasons", [])) | set(hand.set_aside.get("plants", []))
    return len(aside) == 8
