"""Lingxi 灵溪 — the table of docs/docs/rules/lingxi.md as data.

Read top to bottom like the rules page: the hand as Lingxi sees it
(`LingxiHand`, built and validated by `prepare`), then the items, the
exclusions, the house options, doubling.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from ... import engine as E
from ... import tiles as T
from ...engine import CHOW, KONG, PAIR, PUNG, WILD_SET, Group, ReadingFacts
from ...errors import HandError
from ...notation import ParsedHand
from .. import base as B
from ..base import (
    ALL,
    BASE_TAI,
    BONUS_TAI,
    DECLARED,
    DECLARED_WIN,
    FOUND,
    LOSER,
    NONE,
    ONE,
    WINNER,
    Exclusion,
    Item,
    Option,
    Variant,
    flag_item,
    once,
)

SETS = 5  # 1 pair + 5 sets
WIN_SIZE, HAND_SIZE = 17, 16
FLOWER_GROUPS = (("seasons", (34, 35, 36, 37)), ("plants", (38, 39, 40, 41)), ("whites", (T.WHITE,)))
CONDITIONS = frozenset({"seat", "wild", "self", "kong-draw", "rob-kong", "last-tile", "heaven", "earth", "declare"})
DECLARES = {"sha-zhu", "hua-hu"}
# Conditions that cannot stand together, with the reason.
CONFLICTS = (
    B.ROB_KONG_NOT_SELF,
    B.ROB_KONG_OR_KONG_DRAW,
    ("rob-kong", "last-tile", "last-tile is a win on a draw; robbing a kong is not"),
    B.KONG_DRAW_NOT_LAST_TILE,
    B.HEAVEN_OR_EARTH,
    *B.on_dealt_hand("rob-kong", "kong-draw", "last-tile"),
    *B.on_first_discard("self", "kong-draw", "rob-kong", "last-tile"),
)
WIN_CONDITIONS = ("self", "kong-draw", "rob-kong", "last-tile", "heaven", "earth")


@dataclass(frozen=True)
class WildFamily:
    """The tiles one revealed wildcard makes wild (a kind, or the rest of a flower group)."""

    kinds: frozenset[int]
    label: str
    honor_like: bool  # wind/dragon/flower kind: 3/7/11 instead of 2/5/8


@dataclass
class LingxiHand(B.Prepared):
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
    B.check_known_conditions(parsed, "Lingxi", CONDITIONS)
    if parsed.declare is not None and parsed.declare not in DECLARES:
        col = parsed.columns.get("declare", 0)
        raise HandError(f"declare:{parsed.declare} at column {col} is not a Lingxi declared win (sha-zhu, hua-hu)")
    notes: list[str] = []
    revealed: tuple[int, ...] = ()
    families: tuple[WildFamily, ...] = ()
    same = False
    if parsed.wild is None:
        notes.append("no wild: given — scored with no wildcards")
    else:
        revealed = parsed.wild
        if len(revealed) != 2:
            raise HandError(
                f"Lingxi reveals two wildcard tiles, e.g. wild:5m,E; got {len(revealed)} "
                f"at column {parsed.columns.get('wild', 0)}"
            )
        for kind in set(revealed):
            if revealed.count(kind) > copies(kind, ()):
                raise HandError(
                    f"wild: reveals {T.name(kind)} {revealed.count(kind)} times at column "
                    f"{parsed.columns.get('wild', 0)}; only {copies(kind, ())} {T.name(kind)} exists"
                )
        families, same = _families(revealed)
    wild_kinds = frozenset(k for f in families for k in f.kinds)

    everything = list(parsed.tiles) + [t for m in parsed.melds for t in m.tiles]
    if parsed.win is not None:
        everything.append(parsed.win)
    for kind in sorted(set(everything)):
        seen, limit = everything.count(kind), copies(kind, revealed)
        if seen > limit:
            why = "" if limit == (1 if T.is_flower(kind) else 4) else " (revealed wildcard tiles are out of play)"
            raise HandError(f"{T.name(kind)} appears {seen} times; at most {limit} exist{why}")

    seat = B.seat_or_dealer(parsed, notes)
    melds: list[Group] = []
    from_deal: set[str] = set()
    set_aside: dict[str, list[int]] = {name: [] for name, _ in FLOWER_GROUPS}
    for meld in parsed.melds:
        wild_in = [t for t in meld.tiles if t in wild_kinds]
        where = "concealed kong" if meld.concealed else "exposed meld"
        if wild_in:
            raise HandError(f"wildcard {T.name(wild_in[0])} used in {where} {meld.source or meld.text()}")
        if meld.is_flower_set or (meld.tiles[0] == T.WHITE):
            if not meld.concealed:
                raise HandError(
                    f"白 is a flower in Lingxi and never melds: {meld.source or meld.text()}; "
                    f"write 白 collected in play bare (P P P P), or (PPPP) if held from the deal"
                )
            group = _flower_group(meld.tiles[0])
            from_deal.add(group)
            set_aside[group].extend(meld.tiles)
            continue
        melds.append(B.meld_group(meld))

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
            raise HandError(
                f"the winning tile +{T.name(parsed.win)} is a flower in Lingxi; flowers are set aside, never won on"
            )
        else:
            naturals.append(parsed.win)

    size = len(wild_tiles) + len(naturals) + 3 * len(melds)
    declared = parsed.declare is not None
    winner = parsed.win is not None or declared
    if declared:
        if size not in (HAND_SIZE, WIN_SIZE):
            raise HandError(f"hand has {size} tiles, a declared Lingxi win holds 16 or 17 (相公)", code="tile_count")
    elif size != (WIN_SIZE if winner else HAND_SIZE):
        raise B.tile_count_error(parsed, "lingxi", size, HAND_SIZE, winner, set_aside=(T.WHITE,))

    flags = parsed.flags
    B.check_win_conditions(parsed, winner, WIN_CONDITIONS, CONFLICTS, declared_wins=True)
    if "heaven" in flags and seat != "E":
        raise HandError("condition 'heaven' needs seat:E (the dealer)")
    if "earth" in flags and seat == "E":
        raise HandError("condition 'earth' is for a non-dealer: it needs seat S, W or N")
    B.check_kong_draw(flags, melds)

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
    if parsed.declare == "sha-zhu" and not _sha_zhu_holding(hand):
        raise HandError(
            "declare:sha-zhu needs AAA+B wildcards held (three of one wildcard kind and one of the "
            f"other, or both when the kinds are the same); this hand holds {_held_text(hand) or 'none'}"
        )
    if parsed.declare == "hua-hu" and not _all_flowers(hand):
        raise HandError("declare:hua-hu needs all eight flowers f1–f8 set aside")
    return hand


def _flower_group(kind: int) -> str:
    return FLOWER_GROUPS[2 if kind == T.WHITE else (kind - T.FIRST_FLOWER) // 4][0]


def _held(hand: LingxiHand) -> list[tuple[WildFamily, list[int]]]:
    return [(f, [t for t in hand.wild_tiles if t in f.kinds]) for f in hand.families]


def _held_text(hand: LingxiHand) -> str:
    return ", ".join(f"{f.label} ×{len(tiles)}" for f, tiles in _held(hand) if tiles)


def _sha_zhu_holding(hand: LingxiHand) -> int:
    """How many wildcards make the 杀猪 holding (0: none)."""
    held = [len(tiles) for _, tiles in _held(hand)]
    if hand.same_kind:
        return held[0] if held and held[0] >= 2 else 0
    if len(held) == 2 and max(held) == 3 and min(held) >= 1:
        return sum(held)
    return 0


def _all_flowers(hand: LingxiHand) -> bool:
    aside = set(hand.set_aside.get("seasons", [])) | set(hand.set_aside.get("plants", []))
    return len(aside) == 8


# -- the readings ------------------------------------------------------------


def group_class(group: Group) -> tuple[object, ...]:
    """What Lingxi's items see of a concealed group.

    Honors by kind (风刻, 箭刻, 四风齐 — with the wildcards in a wind group
    counted, since a wind wildcard counts for 四风齐 only as itself), suited
    tiles by suit alone (混一色/清一色), and chow or not (对对胡, 平胡).
    """
    if group.shape == WILD_SET:
        return (WILD_SET,)
    if T.is_wind(group.kind):
        return (group.shape, group.kind, len(group.slots))
    if T.is_honor(group.kind):
        return (group.shape, group.kind)
    return (group.shape, -1 - T.suit_of(group.kind))


NO_WILDCARDS = E.JokerOptions((), (), classify=group_class)

SI_FENG_QI_TILES = 11  # three wind pungs and a wind pair: fewer wind tiles and wildcards cannot make 四风齐
# the coarse classes, orderable against each other (the search sorts a reading's classes):
COARSE_WILD_SET = (0,)  # 财神汇
SEAT_WIND_PUNG = (1,)  # 风刻 +1
DRAGON_PUNG = (2,)  # a pung of 中 or 发: 箭刻 +1
HONOR = (3,)  # any other honor group: it only makes honors present
SUITED = 4  # (SUITED, chow or not, suit)


def _coarse_class(seat_wind: int) -> Callable[[Group], tuple[object, ...]]:
    """What Lingxi's items see of a group when 四风齐 is out of reach: coarser than `group_class`.

    With no 四风齐 to make, a wind is no more than an honor unless it is the
    seat wind: a pung of the seat wind scores 风刻, one of 中 or 发 箭刻; any
    other honor group only makes honors present (混一色/清一色). A suited
    group counts by suit and by being a chow or not (对对胡); 财神汇 by its
    wild set. So readings that differ only in which honor or which suited
    tile an all-wildcard group stands for are one class (docs/architecture.md: value-
    exact classes). `ping_hu` needs no wildcard, and this class is used only
    with wildcards held.
    """

    def coarse_class(group: Group) -> tuple[object, ...]:
        kind = group.kind
        if group.shape == WILD_SET:
            return COARSE_WILD_SET
        if kind >= T.EAST:
            if group.shape != PUNG:
                return HONOR
            if kind == seat_wind:
                return SEAT_WIND_PUNG
            return DRAGON_PUNG if kind in (T.RED, T.GREEN) else HONOR
        return (SUITED, group.shape == CHOW, T.suit_of(kind))

    return coarse_class


# one per seat wind, made once: JokerOptions with the same function share the search's memo table
_COARSE_CLASSES = {wind: _coarse_class(wind) for wind in T.SEAT_WIND.values()}


def _si_feng_qi_in_reach(hand: LingxiHand) -> bool:
    """Whether the wind tiles held, in melds and wildcards together could make 四风齐 (11 tiles)."""
    winds = sum(hand.naturals[T.EAST : T.NORTH + 1]) + sum(len(g.kinds) for g in hand.melds if T.is_wind(g.kind))
    return winds + len(hand.wild_tiles) >= SI_FENG_QI_TILES


def _joker_options(hand: LingxiHand) -> E.JokerOptions:
    """Representatives for all-wildcard groups (docs/architecture.md): what can change the tai."""
    if not hand.wild_tiles:
        return NO_WILDCARDS
    present = {T.suit_of(k) for k in range(27) if hand.naturals[k]}
    present |= {T.suit_of(g.kind) for g in hand.melds if T.is_suited(g.kind)}
    suits = present or {0, 1, 2}
    kinds = [s * 9 + 4 for s in sorted(suits)] + [T.EAST, T.SOUTH, T.WEST, T.NORTH, T.RED, T.GREEN]
    classify = group_class if _si_feng_qi_in_reach(hand) else _COARSE_CLASSES[hand.seat_wind]
    return E.JokerOptions(
        pairs=tuple(kinds),
        sets=tuple([(WILD_SET, -1)] + [(PUNG, k) for k in kinds]),
        classify=classify,
    )


def readings(hand: LingxiHand) -> Iterable[B.Reading]:
    """With 四风齐 out of reach, no value depends on which wildcard stands where (only 四风齐 tells a wind
    wildcard from another), so the wildcards are placed on the reading shown only (`Lingxi.as_shown`)."""
    sets = SETS - len(hand.melds)
    placed = _si_feng_qi_in_reach(hand)
    for groups in E.standard_readings(hand.naturals, hand.wild_tiles, sets, _joker_options(hand), placed):
        yield hand.melds + groups


# -- items ---------------------------------------------------------------------


def _groups(hand: LingxiHand, facts: ReadingFacts | None) -> B.Reading:
    """The reading, or for a non-winner its melds and concealed natural triples."""
    if facts is not None:
        return facts.groups
    triples = tuple(Group(PUNG, k) for k in (hand.seat_wind, T.RED, T.GREEN) if hand.naturals[k] >= 3)
    return hand.melds + triples


def _pungs(hand: LingxiHand, facts: ReadingFacts | None, kinds: tuple[int, ...]) -> list[tuple[Variant, str]]:
    return [(ONE, g.text()) for g in _groups(hand, facts) if g.shape == PUNG and g.kind in kinds]


def feng_ke(hand: LingxiHand, facts: ReadingFacts | None) -> list[tuple[Variant, str]]:
    return _pungs(hand, facts, (hand.seat_wind,))


def jian_ke(hand: LingxiHand, facts: ReadingFacts | None) -> list[tuple[Variant, str]]:
    return _pungs(hand, facts, (T.RED, T.GREEN))


HONORED_KONG = 1  # a kong of the seat wind, 中 or 发 scores this much more
KONG_VALUE_TEXT = "{plain}, +{honored} if seat wind/中/发"


def _kongs(concealed: bool) -> B.Finder:
    def find(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
        out: list[tuple[Variant, str]] = []
        for g in hand.melds:
            if g.shape == KONG and g.concealed_kong == concealed:
                if g.kind in (hand.seat_wind, T.RED, T.GREEN):
                    out.append((("plain", "honored"), f"{g.text()} +{HONORED_KONG}"))
                else:
                    out.append(("plain", g.text()))
        return out

    return find


def _kong_item(key: str, name: str, name_en: str, plain: int, concealed: bool) -> Item:
    """明杠 and 暗杠 differ only in the plain value: either scores +HONORED_KONG more of the seat wind, 中 or 发."""
    value = {"plain": plain, "honored": HONORED_KONG}
    return Item(key, name, name_en, value, BASE_TAI, ALL, _kongs(concealed), text=KONG_VALUE_TEXT)


HUA_ROWS = ("one", "two", "three", "four")  # the row of a flower group by how many of its tiles are held


def hua(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
    out: list[tuple[Variant, str]] = []
    for group, _ in FLOWER_GROUPS:
        tiles = hand.set_aside.get(group, [])
        if not tiles:
            continue
        text = " ".join(T.name(t) for t in sorted(tiles))
        if group in hand.from_deal:
            out.append(("deal", f"({''.join(T.name(t) for t in sorted(tiles))}) held from the deal"))
        else:
            out.append((HUA_ROWS[len(tiles) - 1], text + (" collected in play" if len(tiles) == 4 else "")))
    return out


def cai_shen(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
    out: list[tuple[Variant, str]] = []
    for family, tiles in _held(hand):
        n = len(tiles)
        if not n:
            continue
        kind = "same" if hand.same_kind else "honor" if family.honor_like else "suited"
        detail = f"{family.label} ×{n}" if len(family.kinds) == 1 else " ".join(T.name(t) for t in sorted(tiles))
        out.append((f"{kind}{n}", detail))
    return out


def cai_shen_ke(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
    """Pairs first (one wildcard each), then singles (two each)."""
    kinds = [k for k in (hand.seat_wind, T.RED, T.GREEN) if k not in hand.wild_kinds]
    pairs = [k for k in kinds if hand.naturals[k] == 2]
    singles = [k for k in kinds if hand.naturals[k] == 1]
    spare = len(hand.wild_tiles)
    out: list[tuple[Variant, str]] = []
    for k in pairs:
        if spare >= 1:
            spare -= 1
            out.append((ONE, f"{T.name(k)}{T.name(k)} + 1 wildcard"))
    for k in singles:
        if spare >= 2:
            spare -= 2
            out.append((ONE, f"{T.name(k)} + 2 wildcards"))
    return out


def zi_mo(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
    """kong-draw and last-tile are self-drawn by nature (Decision)."""
    self_drawn = hand.has("self") or hand.has("kong-draw") or hand.has("last-tile")
    return FOUND if self_drawn else NONE


def hun_yi_se(hand: LingxiHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    return once(ONE, f"{facts.suit} + honors") if facts.suit and facts.honors else NONE


def qing_yi_se(hand: LingxiHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    return once(ONE, f"all {facts.one_suit}") if facts.one_suit else NONE


def dui_dui_hu(hand: LingxiHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    return NONE if facts.chows else FOUND


def ying_da_ying(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
    return NONE if hand.wild_tiles else FOUND


def cai_shen_hui(hand: LingxiHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    """Counts once even when six wildcards make two such sets (Decision)."""
    wild_sets = facts.wild_sets
    return once(ONE, wild_sets[0].text()) if wild_sets else NONE


def dan_diao(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
    if len(hand.before_win) != 1:
        return NONE
    tile = hand.before_win[0]
    if tile in hand.wild_kinds:
        return once("wildcard", f"waiting on wildcard {T.name(tile)}")
    return once("natural", f"waiting on {T.name(tile)}")


def _wind_of(group: Group) -> int:
    """The wind a group counts as for 四风齐, or -1.

    A wind that is a wildcard kind counts only where it stands for itself
    (Decision); any other wildcard may stand for a wind.
    """
    if not T.is_wind(group.kind) or group.shape == CHOW:
        return -1
    if any(T.is_wind(w) and w != k for w, k in group.wilds):
        return -1
    return group.kind


def si_feng_qi(hand: LingxiHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    triplets = {_wind_of(g) for _, g in facts.pungs} | {_wind_of(g) for g in facts.kongs}
    triplets.discard(-1)
    pairs = {_wind_of(g) for g in facts.pairs} - {-1}
    if len(triplets) == 4 or (len(triplets) == 3 and pairs - triplets):
        return FOUND
    return NONE


def ping_hu(hand: LingxiHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    """No pung, no kong, no flower/白, no wildcard: a fixed 13 (Decision)."""
    if hand.wild_tiles or hand.set_aside or hand.from_deal:
        return NONE
    return NONE if facts.pungs or facts.kongs or facts.wild_sets else FOUND


def sha_zhu_hu(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
    n = _sha_zhu_holding(hand)
    if not n:
        return NONE
    return once({5: "five", 6: "six"}.get(n, "held"), _held_text(hand))


def hua_hu(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
    return once(ONE, "f1–f8") if _all_flowers(hand) else NONE


def sha_zhu(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
    return once(ONE, _held_text(hand)) if hand.parsed.declare == "sha-zhu" else NONE


def declared_hua_hu(hand: LingxiHand, facts: None) -> list[tuple[Variant, str]]:
    return once(ONE, "declared, f1–f8") if hand.parsed.declare == "hua-hu" else NONE


BASE, BONUS = BASE_TAI, BONUS_TAI
PLUS = "+{}"  # a bonus added to the tai
ITEMS = (
    # Base tai — every player
    Item("feng_ke", "风刻", "Seat-wind pung", 1, BASE, ALL, feng_ke, reads=("groups",)),
    Item("jian_ke", "箭刻", "Dragon pung (中/发)", 1, BASE, ALL, jian_ke, reads=("groups",)),
    _kong_item("ming_gang", "明杠", "Open kong", 3, concealed=False),
    _kong_item("an_gang", "暗杠", "Concealed kong", 4, concealed=True),
    Item(
        "hua",
        "花",
        "Flowers (per group)",
        {"one": 1, "two": 3, "three": 5, "four": 10, "deal": 13},
        BASE,
        ALL,
        hua,
        text="{one}/{two}/{three}; four: {four} in play, {deal} from the deal",
    ),
    Item(
        "cai_shen",
        "财神",
        "Wildcards held",
        {"suited1": 2, "suited2": 5, "suited3": 8, "honor1": 3, "honor2": 7, "honor3": 11, "same1": 7, "same2": 15},
        BASE,
        ALL,
        cai_shen,
        text="{suited1}/{suited2}/{suited3} suited; {honor1}/{honor2}/{honor3} honor/flower; {same1}/{same2} same kind",
    ),
    Item("cai_shen_ke", "财神刻", "Wildcard-completable pung", 1, BASE, LOSER, cai_shen_ke, text="{} each"),
    # Bonus tai — the winner
    Item("zi_mo", "自摸", "Self-drawn", 1, BONUS, WINNER, zi_mo, text=PLUS),
    Item("gang_kai", "杠开", "Win on a kong replacement", 3, BONUS, WINNER, flag_item("kong-draw"), text=PLUS),
    Item("qiang_gang", "抢杠", "Robbing a kong", 3, BONUS, WINNER, flag_item("rob-kong"), text=PLUS),
    Item("hai_di", "海底捞月", "Last tile", 3, BONUS, WINNER, flag_item("last-tile"), text=PLUS),
    Item(
        "hun_yi_se", "混一色", "One suit with honors", 7, BONUS, WINNER, hun_yi_se, text=PLUS, reads=("suit", "honors")
    ),
    Item("dui_dui_hu", "对对胡", "All pungs", 7, BONUS, WINNER, dui_dui_hu, text=PLUS, reads=("chows",)),
    Item("qing_yi_se", "清一色", "One suit", 13, BONUS, WINNER, qing_yi_se, text=PLUS, reads=("one_suit",)),
    Item("ying_da_ying", "硬打硬", "No wildcard held", 7, BONUS, WINNER, ying_da_ying, text=PLUS),
    Item(
        "cai_shen_hui",
        "财神汇",
        "Three wildcards as a set",
        7,
        BONUS,
        WINNER,
        cai_shen_hui,
        text=PLUS,
        reads=("wild_sets",),
    ),
    Item(
        "dan_diao",
        "单钓将",
        "Single-tile wait",
        {"wildcard": 7, "natural": 13},
        BONUS,
        WINNER,
        dan_diao,
        text="+{wildcard} wildcard / +{natural}",
    ),
    Item(
        "si_feng_qi",
        "四风齐",
        "All four winds",
        13,
        BONUS,
        WINNER,
        si_feng_qi,
        text=PLUS,
        reads=("pungs", "kongs", "pairs"),
    ),
    Item("ping_hu", "平胡", "Plain hand", 13, BONUS, WINNER, ping_hu, reads=("pungs", "kongs", "wild_sets")),
    Item("tian_hu", "天胡", "Heavenly hand", 13, BONUS, WINNER, flag_item("heaven"), text=PLUS),
    Item("di_hu", "地胡", "Earthly hand", 13, BONUS, WINNER, flag_item("earth"), text=PLUS),
    Item(
        "sha_zhu_hu",
        "杀猪胡",
        "Win holding AAA+B wildcards",
        {"held": 1, "five": 2, "six": 4},
        BONUS,
        WINNER,
        sha_zhu_hu,
        option="sha_zhu_hu",
        text="+{held} / 5 held +{five} / 6 held +{six}",
    ),
    Item("hua_hu", "花胡", "Win holding all eight flowers", 1, BONUS, WINNER, hua_hu, option="hua_hu", text=PLUS),
    # Declared wins — nothing else counts
    Item("sha_zhu", "杀猪", "Declared: AAA+B wildcards", 13, DECLARED_WIN, DECLARED, sha_zhu),
    Item("hua_hu", "花胡", "Declared: all eight flowers", 1, DECLARED_WIN, DECLARED, declared_hua_hu, option="hua_hu"),
)

EXCLUSIONS = (
    Exclusion("gang_kai", ("zi_mo",)),
    Exclusion("hai_di", ("zi_mo",)),
    Exclusion("qing_yi_se", ("hun_yi_se",)),
    Exclusion("ping_hu", ("ying_da_ying",)),
)

OPTIONS = (
    Option("double_at", 13, (10,), "the winner's total at or above this is doubled"),
    Option("sha_zhu_hu", 13, (20,), "杀猪胡 bonus (5 wildcards ×2, 6 ×4)"),
    Option("hua_hu", 52, (100,), "花胡 value, won or declared"),
)

ZI_MO = next(item for item in ITEMS if item.key == "zi_mo")  # what a self-drawn win adds (`self_drawn_from_discard`)


def doubles(subtotal: int, options: Mapping[str, int]) -> bool:
    """翻: a winner's total at or over `double_at` doubles."""
    return subtotal >= options["double_at"]


class Lingxi(B.RuleSet):
    name = "lingxi"
    chinese = "灵溪"
    unit = "tai"
    items = ITEMS
    exclusions = EXCLUSIONS
    options = OPTIONS

    conditions = CONDITIONS
    discards_wildcards = False  # discarding one is 诈胡
    claims_wildcards = False

    prepare = staticmethod(prepare)
    readings = staticmethod(readings)

    def finish(self, hand: LingxiHand, found: B.Found) -> B.Outcome:
        subtotal = sum(v for _, v, _ in found)  # base, bonus and declared tai all add up
        doubled = hand.winner and doubles(subtotal, hand.options)
        return B.Outcome(subtotal, doubled, subtotal * 2 if doubled else subtotal)

    def copies_in_play(self, kind: int, parsed: ParsedHand) -> int:
        return copies(kind, parsed.wild or ())

    def wildcard_kinds(self, hand: LingxiHand) -> frozenset[int]:
        return hand.wild_kinds

    def as_faces(self, hand: LingxiHand) -> LingxiHand | None:
        """A wildcard flower or 白 is no meldable tile as itself."""
        if any(T.is_flower(t) or t == T.WHITE for t in hand.wild_tiles):
            return None
        naturals = B.with_tiles(hand.naturals, hand.wild_tiles)
        return dataclasses.replace(hand, wild_tiles=(), wild_kinds=frozenset(), naturals=naturals)

    def standard_shape(self, hand: LingxiHand) -> tuple[list[int], int] | None:
        return None if hand.wild_tiles else (B.tiles_of(hand.naturals), SETS - len(hand.melds))

    def self_drawn_from_discard(self, total: int, subtotal: int, options: Mapping[str, int]) -> int | None:
        """The same reading + 自摸: no other item reads how the hand was won (bar the conditions waits
        refuses), and adding it to every reading keeps the best one best, as the doubling only grows."""
        subtotal += ZI_MO.points(ONE, options)
        return subtotal * 2 if doubles(subtotal, options) else subtotal

    def sweep(self, hand: LingxiHand, kinds: list[int]) -> B.Sweep | None:
        """The tiles are swept together by the search options their hands get (the suits present and
        whether 四风齐 is in reach change with the tile)."""
        if not hand.wild_tiles:
            return None
        by_options: dict[E.JokerOptions, list[int]] = {}
        for kind in kinds:
            if kind < T.PLAYABLE and kind != T.WHITE and kind not in hand.wild_kinds:
                won = dataclasses.replace(hand, naturals=B.with_tiles(hand.naturals, (kind,)))
                by_options.setdefault(_joker_options(won), []).append(kind)
        return hand.naturals, len(hand.wild_tiles), SETS - len(hand.melds), by_options

    def no_shape_message(self, hand: LingxiHand) -> str:
        return "no winning shape: the tiles do not form 1 pair + 5 sets (Lingxi has no special shapes)"

    def classed_readings(self, hand: LingxiHand) -> Iterable[tuple[str, B.Reading]] | None:
        """With wildcards and 四风齐 out of reach, the coarse classes decide every item that reads a reading
        (`_coarse_class`), and the melds are the hand's: the signature is the key."""
        if not hand.wild_tiles or _si_feng_qi_in_reach(hand):
            return None
        sets = SETS - len(hand.melds)
        found = E.classed_readings(hand.naturals, hand.wild_tiles, sets, _joker_options(hand))
        return ((signature, hand.melds + groups) for signature, groups in found)

    def as_shown(self, hand: LingxiHand, reading: B.Reading) -> B.Reading:
        if not hand.wild_tiles or _si_feng_qi_in_reach(hand):
            return reading  # placed by the search
        return hand.melds + E.place_wildcards(reading[len(hand.melds) :], hand.wild_tiles)

    def arrangement(self, hand: LingxiHand, reading: B.Reading) -> list[str]:
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
