"""Jinhua 金华 — the multiplier (倍) table of docs/rules/jinhua.md as data.

Read top to bottom like the rules page: the hand as Jinhua sees it
(`JinhuaHand`: one 财神 kind, 白 turned into the 财神's face), the shapes a
hand can be read as (`Shape`: sets + pair, seven pairs, 十三不靠/七风, 乱风),
the items, the exclusions; `finish` multiplies every item that applies.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from math import prod
from typing import NamedTuple

from ... import engine as E
from ... import memo as M
from ... import tiles as T
from ...engine import CHOW, KONG, PAIR, PUNG, Group, ReadingFacts
from ...errors import HandError
from ...notation import ParsedHand
from .. import base as B
from ..base import FOUND, MULTIPLIER, NONE, ONE, WINNER, Exclusion, Item, Option, Variant, flag_item, once

SETS = 4  # 4 sets + 1 pair
WIN_SIZE, HAND_SIZE = 14, 13
CONDITIONS = frozenset({"seat", "wild", "self", "kong-draw", "last-tile", "heaven", "earth", "human"})
WIN_CONDITIONS = ("self", "kong-draw", "last-tile", "heaven", "earth", "human")
# Won on the player's own draw: no 全求人, and the settlement's "each pays 2X".
SELF_DRAWN = ("self", "kong-draw", "last-tile", "heaven", "human")  # human: `self` may be omitted (Decision)
CONFLICTS = (
    B.KONG_DRAW_NOT_LAST_TILE,
    B.HEAVEN_OR_EARTH,
    ("heaven", "human", "天胡 is the dealer's, 人胡 a non-dealer's"),
    ("earth", "human", "地胡 is won on a discard, 人胡 self-drawn"),
    *B.on_dealt_hand("kong-draw", "last-tile"),
    *B.on_first_discard("self", "kong-draw", "last-tile"),
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
class JinhuaHand(B.Prepared):
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


def _flower_error(kind: int) -> HandError:
    return HandError(f"flower {T.name(kind)} is not a Jinhua tile: Jinhua plays 136 tiles (no flowers)")


def prepare(parsed: ParsedHand, options: dict[str, int]) -> JinhuaHand:
    B.check_known_conditions(parsed, "Jinhua", CONDITIONS, {"flip": ": give the 财神 as wild:T"})
    notes: list[str] = []
    wild_kind: int | None = None
    if parsed.wild is None:
        notes.append("no wild: given — scored with no 财神, 白 as itself")
    else:
        if len(parsed.wild) != 1:
            raise HandError(
                f"Jinhua flips one 财神 tile, e.g. wild:3m; got {len(parsed.wild)} "
                f"at column {parsed.columns.get('wild', 0)}"
            )
        wild_kind = parsed.wild[0]
        if T.is_flower(wild_kind):
            raise _flower_error(wild_kind)
    face = wild_kind

    everything = list(parsed.tiles) + [t for m in parsed.melds for t in m.tiles]
    if parsed.win is not None:
        everything.append(parsed.win)
    for kind in sorted(set(everything)):
        if T.is_flower(kind):
            raise _flower_error(kind)
        seen, limit = everything.count(kind), copies(kind, parsed.wild)
        if seen > limit:
            why = " (the flipped 财神 is out of play)" if limit == 3 else ""
            raise HandError(f"{T.name(kind)} appears {seen} times; at most {limit} exist{why}")

    def plays_as(kind: int) -> int:
        return face if kind == T.WHITE and face is not None else kind

    melds: list[Group] = []
    for meld in parsed.melds:
        if wild_kind in meld.tiles:
            where = "concealed kong" if meld.concealed else "exposed meld"
            raise HandError(
                f"财神 {T.name(wild_kind)} used in {where} {meld.source or meld.text()}: a 财神 never melds in Jinhua"
            )
        melds.append(B.meld_group(meld, plays_as(meld.tiles[0])))

    held = list(parsed.tiles) + ([parsed.win] if parsed.win is not None else [])
    wild_tiles = tuple(k for k in held if k == wild_kind)
    naturals = [plays_as(k) for k in held if k != wild_kind]
    size = len(held) + 3 * len(melds)
    winner = parsed.win is not None
    if size != (WIN_SIZE if winner else HAND_SIZE):
        raise B.tile_count_error(parsed, "jinhua", size, HAND_SIZE, winner)

    flags = parsed.flags
    # the seat decides only whether 天胡 is the dealer's: noted when it does
    seat = B.seat_or_dealer(parsed, notes) if "heaven" in parsed.flags else parsed.seat or "E"
    B.check_win_conditions(parsed, winner, WIN_CONDITIONS, CONFLICTS)
    if "heaven" in flags and seat != "E":
        raise HandError("condition 'heaven' needs seat:E (the dealer)")
    for cond in ("earth", "human"):
        if cond in flags and seat == "E":
            raise HandError(f"condition '{cond}' is for a non-dealer: it needs seat S, W or N")
    B.check_kong_draw(flags, melds)

    self_drawn = any(f in flags for f in SELF_DRAWN)
    if winner and self_drawn and _quan_qiu_ren_shape(parsed, wild_kind):
        notes.append("全求人 self-drawn counts ×1 (ping_hu only)")
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


def _quan_qiu_ren_shape(parsed: ParsedHand, wild_kind: int | None) -> bool:
    """One tile left in hand before the win, and not a 财神 (that is 爆头)."""
    return len(parsed.tiles) == 1 and parsed.tiles[0] != wild_kind


# -- the readings ------------------------------------------------------------


HONORS = 3  # a group's suit place in its class when it is of honors


@M.lru_cache("jinhua.group_classes", maxsize=2048, bytes_per_entry=400)
def _group_class(wild_kind: int, win_kind: int) -> Callable[[Group], tuple[int, ...]]:
    """What Jinhua's items see of a group of a standard reading, given the 财神 kind and the winning kind.

    Its shape (碰碰胡: chows; 财神头/爆头: the pair), its suit or honors
    (清一色, 清风), how many 财神 stand in it and whether they all stand for
    themselves filling it (财神头, 三财一刻), and whether it is of the winning
    kind (爆头: the winning tile paired with a 财神). Readings that differ
    only in which tiles of a suit a group holds are one class (docs/architecture.md:
    value-exact classes). One function per pair of kinds, made once, so the
    search's memo table is shared by the hands that have them.
    """

    def group_class(group: Group) -> tuple[int, ...]:
        kind, slots = group.kind, group.slots
        as_themselves = len(slots) == len(group.kinds) and all(k == wild_kind for k in slots)
        suit = T.suit_of(kind) if T.is_suited(kind) else HONORS
        return (_SHAPES[group.shape], suit, len(slots), as_themselves, kind == win_kind)

    return group_class


_SHAPES = {PAIR: 0, PUNG: 1, KONG: 1, CHOW: 2}  # a kong is a pung to every Jinhua item


def _joker_options(hand: JinhuaHand) -> E.JokerOptions:
    """Representatives for all-财神 groups (docs/architecture.md): the 财神 as itself
    (财神头, 三财一刻), one tile per suit held (清一色) and one honor (清风);
    a chow of 财神 never beats their pung, so only pungs are offered."""
    suits = {T.suit_of(k) for k in range(27) if hand.naturals[k]}
    suits |= {T.suit_of(g.kind) for g in hand.melds if T.is_suited(g.kind)}
    kinds = [s * 9 + 4 for s in sorted(suits)] + [T.EAST]
    if hand.wild_kind is not None:
        kinds = [hand.wild_kind] + [k for k in kinds if k != hand.wild_kind]
    classify = _group_class(-1 if hand.wild_kind is None else hand.wild_kind, hand.win_kind)
    return E.JokerOptions(pairs=tuple(kinds), sets=tuple((PUNG, k) for k in kinds), classify=classify)


def readings(hand: JinhuaHand) -> Iterator[Shape]:
    options = _joker_options(hand)
    for groups in E.standard_readings(hand.naturals, hand.wild_tiles, SETS - len(hand.melds), options):
        yield Shape(STANDARD, hand.melds + groups)
    if not hand.melds:
        for groups in E.seven_pairs_readings(hand.naturals, hand.wild_tiles, options):
            yield Shape(SEVEN_PAIRS, groups)
        yield from _bu_kao(hand)
    yield from _luan_feng(hand)


def _bu_kao(hand: JinhuaHand) -> Iterator[Shape]:
    """十三不靠/七风: distinct honors, spaced suited tiles; a 财神 fills only a
    suited place, and a 白 may be 白 itself here (Decision: the seed's "wind
    财神 needs two 白 for 七风" — one as the wind, one as 白)."""
    for as_bai in range(min(hand.whites, 1) + 1):
        counts = list(hand.naturals[: T.PLAYABLE])
        if as_bai:
            counts[hand.face] -= 1  # type: ignore[index]
            counts[T.WHITE] += 1
        honors = counts[27:34]
        if max(honors) > 1 or sum(honors) < MIN_HONORS_BU_KAO:
            continue
        fill = E.spaced_fill(tuple(counts[:27]), len(hand.wild_tiles), BU_KAO_GAP)
        if fill is None:
            continue
        shown = _tiles_shown(hand, counts)
        shown += [f"{T.name(w)}={T.name(k)}" for w, k in zip(hand.wild_tiles, fill, strict=False)]
        yield Shape(BU_KAO, shown=tuple(shown), honors=sum(honors))


def _tiles_shown(hand: JinhuaHand, counts: list[int]) -> list[str]:
    """Concealed natural tiles one by one; a 白 playing the face shows as `P=3m`.

    Every natural tile of the face kind is a 白: the face's own tiles are 财神.
    """
    shown = []
    for kind in range(T.PLAYABLE):
        text = f"P={T.name(kind)}" if kind == hand.face and kind != T.WHITE else T.name(kind)
        shown += [text] * counts[kind]
    return shown


def _luan_feng(hand: JinhuaHand) -> Iterator[Shape]:
    """乱风 needs no shape: every tile an honor, each 财神 standing for one."""
    if any(hand.naturals[:27]) or any(T.is_suited(g.kind) for g in hand.melds):
        return
    wilds = [f"{T.name(w)}=honor" for w in hand.wild_tiles]
    yield Shape(LUAN_FENG, hand.melds, tuple(_tiles_shown(hand, hand.naturals[: T.PLAYABLE]) + wilds))


# -- items ---------------------------------------------------------------------


class ShapeFacts(ReadingFacts):
    """The facts of a reading, and its shape (sets + pair, seven pairs, 不靠, 乱风)."""

    __slots__ = ("shape",)

    def __init__(self, shape: Shape) -> None:
        super().__init__(shape.groups)
        self.shape = shape


def _kinds(facts: ShapeFacts) -> list[int]:
    return [k for g in facts.groups for k in g.kinds]


def _all_honors(facts: ShapeFacts) -> bool:
    name = facts.shape.name
    if name == LUAN_FENG:
        return True
    return name != BU_KAO and all(T.is_honor(k) for k in _kinds(facts))


def _shape_is(name: str) -> B.Finder:
    def find(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
        return FOUND if facts.shape.name == name else NONE

    return find


def ping_hu(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    return once(ONE, facts.shape.name)


def peng_peng_hu(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    return FOUND if facts.shape.name == STANDARD and not facts.chows else NONE


def quan_qiu_ren(hand: JinhuaHand, facts: None) -> list[tuple[Variant, str]]:
    """Won on a discard only: self-drawn it counts ×1 (a note says so)."""
    if hand.self_drawn or not _quan_qiu_ren_shape(hand.parsed, hand.wild_kind):
        return NONE
    return once(ONE, f"waiting on {T.name(hand.parsed.tiles[0])}")


def qing_qi_dui(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    return FOUND if facts.shape.name == SEVEN_PAIRS and not hand.wild_tiles else NONE


def _bao_tou(hand: JinhuaHand, facts: ShapeFacts) -> bool:
    """Before the win a 财神 stood alone and the rest was complete (敲响).

    In a reading that is: the winning tile pairs with one 财神 standing for
    it, or a winning 财神 pairs with another. Tiles of one kind are
    interchangeable, so any such pair means the 财神 waited alone.
    """
    for g in facts.pairs:
        if g.exposed:
            continue
        if hand.win_kind < 0 and hand.wild_tiles and len(g.slots) == 2:
            return True
        if hand.win_kind >= 0 and g.kind == hand.win_kind and len(g.slots) == 1:
            return True
    return False


def qi_dui_bao_tou(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    if facts.shape.name != SEVEN_PAIRS or not _bao_tou(hand, facts):
        return NONE
    return once(ONE, "six pairs + a lone 财神")


def bao_tou(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    if facts.shape.name != STANDARD or not _bao_tou(hand, facts):
        return NONE
    return once(ONE, "four sets + a lone 财神")


def gang_bao(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    if not hand.has("kong-draw") or not bao_tou(hand, facts):
        return NONE
    return once(ONE, "bao_tou ×2 × gang_kai ×2")


def shi_san_bu_kao(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    shape = facts.shape
    return once(ONE, f"{shape.honors} honors") if shape.name == BU_KAO else NONE


def qi_feng(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    shape = facts.shape
    return once(ONE, "all 7 honors") if shape.name == BU_KAO and shape.honors == ALL_HONORS else NONE


def qing_yi_se(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    """One suit once the 财神 are assigned; 2 with a 财神 held, 4 without."""
    if facts.shape.name not in (STANDARD, SEVEN_PAIRS) or not facts.one_suit:
        return NONE
    suit = facts.one_suit
    return once("wild", f"all {suit}, with 财神") if hand.wild_tiles else once("plain", f"all {suit}, no 财神")


def luan_feng(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    return FOUND if _all_honors(facts) else NONE


def qing_feng(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    return FOUND if facts.shape.name == STANDARD and _all_honors(facts) else NONE


def _as_themselves(group: Group, size: int) -> bool:
    """`size` 财神 in the group, each standing for its own kind (no stand-in role)."""
    return len(group.wilds) == size == len(group.kinds) and all(w == k for w, k in group.wilds)


def cai_shen_tou(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    if facts.shape.name != STANDARD:
        return NONE
    pairs = [g for g in facts.pairs if _as_themselves(g, 2)]
    return once(ONE, pairs[0].text()) if pairs else NONE


def san_cai_yi_ke(hand: JinhuaHand, facts: ShapeFacts) -> list[tuple[Variant, str]]:
    if facts.shape.name != STANDARD:
        return NONE
    pungs = [g for _, g in facts.pungs if _as_themselves(g, 3)]
    return once(ONE, pungs[0].text()) if pungs else NONE


TIMES = "×{}"
SHAPE = ("shape",)  # what most items read: the reading's shape
ITEMS = (
    Item("ping_hu", "平胡", "Any winning hand (the base)", 1, MULTIPLIER, WINNER, ping_hu, TIMES, reads=SHAPE),
    Item("peng_peng_hu", "碰碰胡", "No chows", 2, MULTIPLIER, WINNER, peng_peng_hu, TIMES, reads=(*SHAPE, "chows")),
    Item(
        "quan_qiu_ren",
        "全求人",
        "One tile left, won on a discard",
        2,
        MULTIPLIER,
        WINNER,
        quan_qiu_ren,
        "×{} (self-drawn ×1)",
    ),
    Item("qi_dui", "七对子", "Seven pairs", 2, MULTIPLIER, WINNER, _shape_is(SEVEN_PAIRS), TIMES, reads=SHAPE),
    Item("qing_qi_dui", "清七对", "Seven pairs without 财神", 4, MULTIPLIER, WINNER, qing_qi_dui, TIMES, reads=SHAPE),
    Item(
        "qi_dui_bao_tou",
        "七对子爆头",
        "Six pairs + a lone 财神",
        8,
        MULTIPLIER,
        WINNER,
        qi_dui_bao_tou,
        TIMES,
        reads=(*SHAPE, "pairs"),
    ),
    Item(
        "shi_san_bu_kao",
        "十三不靠",
        "≥5 honors + spaced suited tiles",
        1,
        MULTIPLIER,
        WINNER,
        shi_san_bu_kao,
        TIMES,
        reads=SHAPE,
    ),
    Item("qi_feng", "七风", "All 7 honors + spaced suited tiles", 2, MULTIPLIER, WINNER, qi_feng, TIMES, reads=SHAPE),
    Item("gang_kai", "杠上开花", "Won on a kong replacement", 2, MULTIPLIER, WINNER, flag_item("kong-draw"), TIMES),
    Item(
        "qing_yi_se",
        "清一色",
        "One suit",
        {"wild": 2, "plain": 4},
        MULTIPLIER,
        WINNER,
        qing_yi_se,
        "×{wild} with 财神 / ×{plain} without",
        reads=(*SHAPE, "one_suit"),
    ),
    Item(
        "luan_feng", "乱风", "All honors, any shape", 8, MULTIPLIER, WINNER, luan_feng, TIMES, reads=(*SHAPE, "groups")
    ),
    Item(
        "qing_feng",
        "清风",
        "All honors in 4 sets + pair",
        16,
        MULTIPLIER,
        WINNER,
        qing_feng,
        TIMES,
        reads=(*SHAPE, "groups"),
    ),
    Item(
        "cai_shen_tou",
        "财神头",
        "Two 财神 as the pair, as themselves",
        4,
        MULTIPLIER,
        WINNER,
        cai_shen_tou,
        TIMES,
        reads=(*SHAPE, "pairs"),
    ),
    Item(
        "san_cai_yi_ke",
        "三财一刻",
        "Three 财神 as a pung, as themselves",
        8,
        MULTIPLIER,
        WINNER,
        san_cai_yi_ke,
        TIMES,
        reads=(*SHAPE, "pungs"),
    ),
    Item(
        "bao_tou",
        "爆头",
        "Four sets + a lone 财神, any tile wins (敲响)",
        2,
        MULTIPLIER,
        WINNER,
        bao_tou,
        TIMES,
        reads=(*SHAPE, "pairs"),
    ),
    Item(
        "gang_bao",
        "杠爆",
        "Kong while waiting 爆头, won on it",
        4,
        MULTIPLIER,
        WINNER,
        gang_bao,
        "bao_tou × gang_kai (×{})",
        reads=(*SHAPE, "pairs"),
    ),
    Item("tian_hu", "天胡", "Heavenly hand", 2, MULTIPLIER, WINNER, flag_item("heaven"), TIMES),
    Item("di_hu", "地胡", "Earthly hand", 2, MULTIPLIER, WINNER, flag_item("earth"), TIMES),
    Item(
        "ren_hu",
        "人胡",
        "Non-dealer self-draw in the first go-round",
        2,
        MULTIPLIER,
        WINNER,
        flag_item("human"),
        TIMES,
    ),
    Item(
        "hai_di",
        "海底捞月",
        "Self-drawn among the last four tiles",
        2,
        MULTIPLIER,
        WINNER,
        flag_item("last-tile"),
        TIMES,
    ),
)

EXCLUSIONS = (
    Exclusion("qing_qi_dui", ("qi_dui",)),
    Exclusion("qi_dui_bao_tou", ("qi_dui",)),
    Exclusion("qi_feng", ("shi_san_bu_kao",)),
    Exclusion("qing_feng", ("luan_feng", "peng_peng_hu")),
    Exclusion("gang_bao", ("bao_tou", "gang_kai")),
)

OPTIONS = (Option("unit", 1, (2, 5, 10), "X = unit × multiplier: what one 倍 is worth at the table"),)

BAO_TOU_HAI_DI = (
    "爆头 + 海底: the seed says 爆头的海捞 is 八倍; the product rule stands (Decision): bao_tou ×2 × hai_di ×2 = 4"
)


class Jinhua(B.RuleSet):
    name = "jinhua"
    chinese = "金华"
    unit = "bei"
    items = ITEMS
    exclusions = EXCLUSIONS
    options = OPTIONS

    conditions = CONDITIONS
    claims_wildcards = False  # a 财神 is never claimed
    lone_tiles_win = True  # 十三不靠/七风 and 乱风

    prepare = staticmethod(prepare)

    def copies_in_play(self, kind: int, parsed: ParsedHand) -> int:
        return copies(kind, parsed.wild)

    def wildcard_kinds(self, hand: JinhuaHand) -> frozenset[int]:
        return frozenset(() if hand.wild_kind is None else (hand.wild_kind,))

    def as_faces(self, hand: JinhuaHand) -> JinhuaHand:
        return dataclasses.replace(hand, wild_tiles=(), naturals=B.with_tiles(hand.naturals, hand.wild_tiles))

    readings = staticmethod(readings)

    def facts_of(self, reading: Shape) -> ShapeFacts:
        return ShapeFacts(reading)

    def finish(self, hand: JinhuaHand, found: B.Found) -> B.Outcome:
        """The multipliers multiply (Decision); a non-winner counts 0."""
        if not hand.winner:
            return B.Outcome(0, False, 0)
        total = prod(v for item, v, _ in found if item.kind == MULTIPLIER)
        keys = {item.key for item, _, _ in found}
        notes = [BAO_TOU_HAI_DI] if {"bao_tou", "hai_di"} <= keys else []
        return B.Outcome(total, False, total, notes=notes)

    def no_shape_message(self, hand: JinhuaHand) -> str:
        return "no winning shape: the tiles form none of 4 sets + pair, seven pairs, 十三不靠/七风 or 乱风 (all honors)"

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
