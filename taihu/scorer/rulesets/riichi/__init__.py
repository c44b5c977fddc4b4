"""Riichi 立直 (日本麻将): han, fu, points and payments of docs/rules/riichi.md.

The yaku are data (`yaku.YAKU`), fu and points are functions of one reading
(`fu`); this module reads the hand every way it groups, scores each reading
and keeps the best by the page's tie-break. The core works on plain values;
the HandScore is made once, at the end.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ... import memo as M
from ... import tiles as T
from ...engine import CHOW, PAIR, Group, kinds_readings
from ...errors import HandError
from ...models import ExclusionKeys, FuItem, HandScore, ItemInfo, RuleSetInfo, ScoreItem
from ...notation import ParsedHand, reject_stand_in_pungs, to_text
from ...said import phrase, said, said_from
from ..base import RuleSet
from ..heuristics import no_winning_tile_notes
from ..hints import prepared_with_hint
from ..interface import Kind, Outcome, excludes
from .fu import FuLine, basic_points, fu_lines, limit_text, paid, payments, rounded
from .hand import CONDITIONS, OPTIONS, ORPHANS, RiichiHand, check_options, deal_of, prepare
from .yaku import (
    BY_KEY,
    EXCLUSIONS,
    PER_HAND,
    PER_READING,
    REMOVES,
    SEVEN_PAIRS,
    STANDARD,
    THIRTEEN_ORPHANS,
    YAKU,
    YAKUMAN_RULE,
    View,
    Yaku,
)

HAN = Kind("han", "han")  # how its items count: every yaku and dora counts han

if TYPE_CHECKING:
    from ...waiting import Check

NO_YAKU_NOTE, FURITEN_NOTE = "note.riichi.no_yaku", "note.riichi.furiten"  # the notes of a win that is not legal
NO_YAKU, FURITEN = phrase(NO_YAKU_NOTE), phrase(FURITEN_NOTE)
DORA = (
    ("dora", "宝牌", "Dora"),
    ("aka_dora", "赤宝牌", "Red fives"),
    ("ura_dora", "里宝牌", "Ura dora"),
)
DORA_NAMES = {key: (name, name_en) for key, name, name_en in DORA}

Line = tuple[str, int, str]  # (item key, han, detail)


@dataclass(slots=True)
class Scored:
    """One reading scored: what the best-interpretation tie-break compares, and what is shown."""

    rank: tuple[int, bool, int, int, int]  # points, real yakuman, han, fu, fu before rounding
    lines: list[Line]
    han: int
    fu: int
    fu_lines: list[FuLine]
    limit: str
    payments: dict[str, int]
    total: int
    view: View


PINFU: Line = ("pinfu", BY_KEY["pinfu"].closed, "closed")  # its one line: closed only, no detail of its own


def views(hand: RiichiHand) -> Iterator[View]:
    """Every reading with every place the winning tile can take in it."""
    counts = hand.held
    if not hand.melds:
        if counts.count(2) == 7:  # seven different pairs (four alike are not two)
            kinds = [k for k, c in enumerate(counts) if c]
            pairs = tuple(Group(PAIR, k) for k in kinds)
            yield View(hand, SEVEN_PAIRS, pairs, kinds.index(hand.win))
        if hand.orphans == hand.size and all(counts[k] for k in ORPHANS):
            yield View(hand, THIRTEEN_ORPHANS, (), -1)
    kinds = list(hand.parsed.tiles)  # sorted, as the parser keeps them; the engine reads sorted kinds
    insort(kinds, hand.win)
    melds = hand.melds
    for groups in kinds_readings(bytes(kinds), 4 - len(melds), True):
        full = melds + groups if melds else groups
        for index in win_indexes(full, len(melds), hand.win):
            yield View(hand, STANDARD, full, index)


def win_indexes(reading: tuple[Group, ...], melds: int, win: int) -> list[int]:
    """Where the winning tile can sit in a reading whose first `melds` groups are the melds: the groups
    after them holding a tile of its kind (the engine's `win_places` without wildcards, at a glance)."""
    places = []
    for at in range(melds, len(reading)):
        group = reading[at]
        if group.kind == win or (group.shape == CHOW and group.kind < win <= group.kind + 2):
            places.append(at)
    return places


# facts -> the yaku of a pool whose need is among them, in table order: a few dozen sets of facts recur,
# so each reading (PER_READING, by `View.has`) and hand (PER_HAND, by `RiichiHand.facts`) tries only the
# yaku it can have; tests/test_riichi_fast_paths.py scores against trying every yaku
_CANDIDATES: dict[tuple[int, frozenset[str]], tuple[Yaku, ...]] = {}
M.register("riichi.candidates", _CANDIDATES.__len__, _CANDIDATES.clear, bytes_per_entry=600)


def _candidates(pool: tuple[Yaku, ...], facts: frozenset[str]) -> tuple[Yaku, ...]:
    key = (id(pool), facts)
    known = _CANDIDATES.get(key)
    if known is None:
        if len(_CANDIDATES) > 2048:
            _CANDIDATES.clear()
        known = _CANDIDATES[key] = tuple(y for y in pool if y.needs in facts)
    return known


def reading_candidates(has: frozenset[str]) -> tuple[Yaku, ...]:
    """The yaku of a reading worth checking: those whose `needs` the reading has."""
    return _candidates(PER_READING, has)


def hand_candidates(facts: frozenset[str]) -> tuple[Yaku, ...]:
    """The yaku found once per hand worth checking: those whose `needs` the hand's facts hold."""
    return _candidates(PER_HAND, facts)


def yaku_lines(view: View, fixed: list[tuple[Yaku, str]]) -> list[tuple[Yaku, str]]:
    """The yaku of a reading: those of the hand (`fixed`, found once) and its own, exclusions applied."""
    found = list(fixed)
    for yaku in reading_candidates(view.has):  # loops, not comprehensions (a call each in Python 3.11)
        detail = yaku.check(view)
        if detail is not None:
            found.append((yaku, detail))
    for yaku, _ in found:  # nearly always nothing excludes
        if yaku.key in REMOVES:
            break
    else:
        return found
    gone = frozenset().union(*[REMOVES[y.key] for y, _ in found if y.key in REMOVES])
    return [(y, d) for y, d in found if y.key not in gone]


def _is_yakuman(yaku: Yaku, options: dict[str, int]) -> bool:
    return yaku.yakuman or bool(yaku.yakuman_option and options[yaku.yakuman_option])


def _han(yaku: Yaku, hand: RiichiHand) -> tuple[int, str]:
    """The han of a yaku in this hand, and the detail saying why."""
    if _is_yakuman(yaku, hand.options):
        if yaku.double and hand.options["double_yakuman"]:
            return 26, said("detail.riichi.double_yakuman")
        return 13, said("detail.riichi.yakuman")
    if hand.closed or yaku.open is None:
        return yaku.closed, said("detail.riichi.closed")
    if yaku.open == yaku.closed:
        return yaku.open, said("detail.riichi.open")
    return yaku.open, said("detail.riichi.open_less", less=yaku.closed - yaku.open)


def _dora_lines(hand: RiichiHand) -> list[Line]:
    """The dora items of a hand: one line per kind of dora (dora, aka_dora, ura_dora), its han and the tiles."""
    lines = []
    if hand.dora:
        lines += _pointed_line("dora", hand.dora, hand.counts)
    if hand.aka:
        lines.append(("aka_dora", hand.aka, said("detail.riichi.red_fives", count=hand.aka)))
    if hand.ura:
        lines += _pointed_line("ura_dora", hand.ura, hand.counts)
    return lines


def _pointed_line(key: str, pointed: dict[int, int], counts: list[int]) -> list[Line]:
    """The line of the kinds some indicators point at that the hand holds (none if it holds none)."""
    han, shown = 0, []
    for kind, times in sorted(pointed.items()):  # a loop: a comprehension is a call in Python 3.11
        if counts[kind]:
            han += counts[kind] * times
            shown.append(f"{T.name(kind)} ×{counts[kind] * times}")
    return [(key, han, ", ".join(shown))] if han else []


# (closed, double_yakuman, renhou_yakuman) -> (yaku, detail) -> (the item line, whether it counts as a yakuman)
_LINES: dict[tuple[bool, int, int], dict[tuple[Yaku, str], tuple[Line, bool]]] = {}
M.register("riichi.lines", lambda: sum(map(len, _LINES.values())), _LINES.clear, bytes_per_entry=400)


class Lines:
    """What a hand's yaku are worth in it (han, detail, yakuman or not); the same few lines recur hand after hand."""

    def __init__(self, hand: RiichiHand) -> None:
        self.hand = hand
        context = (hand.closed, hand.options["double_yakuman"], hand.options["renhou_yakuman"])
        self.known = _LINES.get(context) or _LINES.setdefault(context, {})
        self.dora = _dora_lines(hand)

    def line(self, yaku: Yaku, detail: str) -> tuple[Line, bool]:
        found = self.known.get((yaku, detail))
        if found is None:
            if len(self.known) > 1000:
                self.known.clear()
            han, how = _han(yaku, self.hand)
            found = self.known[yaku, detail] = ((yaku.key, han, detail or how), _is_yakuman(yaku, self.hand.options))
        return found


def score_view(view: View, fixed: list[tuple[Yaku, str]], values: Lines, detailed: bool = False) -> Scored:
    """One reading scored; `detailed` writes the fu details (only the chosen reading needs them)."""
    hand = view.hand
    known = values.known
    lines: list[Line] = []
    yakuman: list[Line] = []
    for found in yaku_lines(view, fixed):  # plain loops: a comprehension is a call in Python 3.11
        line, is_yakuman = known.get(found) or values.line(*found)
        lines.append(line)
        if is_yakuman:
            yakuman.append(line)
    pinfu = False
    if yakuman:
        lines = yakuman if hand.options["yakuman_stacking"] else [max(yakuman, key=lambda line: line[1])]
    elif lines:
        pinfu = PINFU in lines
        lines += values.dora
    han = 0
    for _, value, _ in lines:
        han += value
    yakuman_han = min(han, 78) if yakuman else 0
    fus = fu_lines(view, pinfu, detailed)
    raw = 0
    for _, value, _ in fus:
        raw += value
    fu = 0 if view.shape == THIRTEEN_ORPHANS else rounded(raw, view.shape)
    if not lines:
        return Scored((-1, False, 0, fu, raw), [], 0, fu, fus, "", {}, 0, view)
    basic, limit = basic_points(han, fu, yakuman_han, hand.options)
    deal = deal_of(hand.parsed)
    payment = payments(basic, hand.dealer, hand.tsumo, deal.honba or 0)
    total = paid(payment) + 1000 * (deal.sticks or 0)
    return Scored((total, bool(yakuman), han, fu, raw), lines, han, fu, fus, limit, payment, total, view)


def best(hand: RiichiHand) -> Scored:
    """The reading worth most, by the page's tie-break (points, real yakuman, han, fu, fu before rounding)."""
    readings = list(views(hand))
    if not readings:
        raise HandError.of("error.shape.riichi", code="no_winning_shape")
    fixed = []  # the yaku of the tiles and conditions alone: found once per hand
    for yaku in hand_candidates(hand.facts):
        detail = yaku.check(readings[0])
        if detail is not None:
            fixed.append((yaku, detail))
    values = Lines(hand)
    if len(readings) == 1:  # the common case: nothing to choose between
        return score_view(readings[0], fixed, values, detailed=True)
    chosen = score_view(readings[0], fixed, values)
    for view in readings[1:]:  # the first of the best, as max() keeps it
        scored = score_view(view, fixed, values)
        if scored.rank > chosen.rank:
            chosen = scored
    chosen.fu_lines = fu_lines(chosen.view, PINFU in chosen.lines, detailed=True)
    return chosen


class Riichi(RuleSet):
    name = "riichi"
    chinese = "立直"
    unit = "points"
    events = ("riichi", "liable", "false-win", "foul")  # the side events its settlement takes
    subtotal_unit = "han"  # the subtotal is the han
    options = OPTIONS
    conditions = CONDITIONS
    tenpai_seats = True

    def own_waits(self, line: str, options: Mapping[str, Any] | None, check: Check) -> Any:
        """Scored through its own pipeline, not `prepare`: waits.py of this folder."""
        from .waits import riichi_waits

        return riichi_waits(line, options, check)

    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, int]:
        resolved = RuleSet.resolve_options(self, given)  # not super(): a call less on every hand
        return check_options(resolved) if given else resolved

    def score(
        self, parsed: ParsedHand, options: Mapping[str, Any] | None = None, *, alone: bool = False, hints: bool = True
    ) -> HandScore:
        """Riichi's own loop (`RuleSet.score` is the extension point): the hand's views, each valued by yaku and
        fu (`best`), the best kept."""
        reject_stand_in_pungs(parsed)
        resolved = self.resolve_options(options)
        hand = prepared_with_hint(prepare, parsed, resolved) if hints else prepare(parsed, resolved)
        if not hand.winner:
            return _hand_score(hand, None, Outcome(0, False, 0), no_winning_tile_notes(parsed) if alone else [])
        scored = best(hand)
        notes = [*hand.notes, _options_note(tuple(hand.options.values()))]
        if not scored.lines:
            notes.append(NO_YAKU())
            return _hand_score(hand, scored, Outcome(0, False, 0, legal=False), notes)
        legal = True
        if "furiten" in hand.parsed.flags and not hand.tsumo:
            legal = False
            notes.append(FURITEN())
        return _hand_score(hand, scored, Outcome(scored.han, False, scored.total, legal=legal), notes)

    def item_units(self) -> dict[str, str]:
        """Every yaku and dora counts han (the yaku are not `Item`s, so they are of one kind)."""
        return {HAN: HAN.unit}

    def info(self) -> RuleSetInfo:
        items = [
            ItemInfo(
                key=y.key,
                name=y.name,
                name_en=y.name_en,
                value=_value_text(y),
                scope=said("scope.winner"),
                unit=HAN.unit,
            )
            for y in YAKU
        ]
        items += [
            ItemInfo(
                key=key,
                name=name,
                name_en=name_en,
                value=said("value.riichi.dora"),
                scope=said("scope.riichi.dora"),
                unit=HAN.unit,
            )
            for key, name, name_en in DORA
        ]
        return RuleSetInfo(
            name=self.name,
            chinese=self.chinese,
            unit=self.unit,
            items=items,
            options=[o for o in super().info().options],
            exclusions=[
                *(excludes(e.present, sorted(e.removes)) for e in EXCLUSIONS),
                said("value.riichi.yakuman_excludes"),
            ],
            exclusion_rules=[*(e.rule for e in EXCLUSIONS), YAKUMAN_RULE],
            exclusion_keys=[
                *(ExclusionKeys(present=[e.present], removes=sorted(e.removes)) for e in EXCLUSIONS),
                # a yakuman leaves only yakuman: every other yaku and every dora is removed
                ExclusionKeys(
                    present=[y.key for y in YAKU if y.yakuman],
                    removes=[*(y.key for y in YAKU if not y.yakuman), *(key for key, _, _ in DORA)],
                ),
            ],
        )


@M.lru_cache("riichi.options_note", maxsize=256, bytes_per_entry=300)
def _options_note(values: tuple[int, ...]) -> str:
    """The note that lists the house options used (the page: a table states its options), by their values in order."""
    used = [f"{o.name} {value}" for o, value in zip(OPTIONS, values, strict=True) if o.name != "noten_bappu"]
    return said("note.riichi.house_options", options=", ".join(used))


@M.lru_cache("riichi.fu_item", maxsize=1024, bytes_per_entry=300)
def _fu_item(line: FuLine) -> FuItem:
    key, value, detail = line
    return FuItem(key=key, value=value, detail=detail)


def _value_text(yaku: Yaku) -> str:
    if yaku.yakuman:
        return said("value.riichi.double_yakuman" if yaku.double else "value.riichi.yakuman")
    code = VALUE_TEXTS[yaku.open is not None, bool(yaku.yakuman_option)]
    return said_from(code, {"closed": yaku.closed, "open": yaku.open, "option": yaku.yakuman_option})


# (open allowed, a yakuman under an option) -> the value's code in the rules table
VALUE_TEXTS = {
    (False, False): "value.riichi.han",
    (True, False): "value.riichi.han_open",
    (False, True): "value.riichi.han_option",
    (True, True): "value.riichi.han_open_option",
}


_ITEMS: dict[Line, ScoreItem] = {}
M.register("riichi.items", _ITEMS.__len__, _ITEMS.clear, bytes_per_entry=500)


def _score_item(line: Line) -> ScoreItem:
    item = _ITEMS.get(line)
    if item is None:
        key, han, detail = line
        name, name_en = (BY_KEY[key].name, BY_KEY[key].name_en) if key in BY_KEY else DORA_NAMES[key]
        if len(_ITEMS) > 4000:
            _ITEMS.clear()
        item = _ITEMS[line] = ScoreItem(key=key, name=name, name_en=name_en, value=han, unit=HAN.unit, detail=detail)
    return item


def _hand_score(hand: RiichiHand, scored: Scored | None, outcome: Outcome, notes: list[str]) -> HandScore:
    """The HandScore of a riichi hand, made once from the plain values."""
    legal_win = scored is not None and bool(scored.lines)
    arrangement = _arrangement(scored.view) if scored is not None else []  # as every rule set lays a hand out
    return HandScore(
        rules="riichi",
        hand=to_text(hand.parsed),
        winner=hand.winner,
        legal=outcome.legal,
        items=list(map(_score_item, scored.lines)) if legal_win and scored else [],
        subtotal=outcome.subtotal,
        doubled=False,
        total=outcome.total,
        unit="points",
        arrangement=arrangement,
        notes=notes,
        extra={
            "fu": (0 if scored.rank[1] else scored.fu) if scored else None,
            "fu_details": list(map(_fu_item, scored.fu_lines)) if scored else None,
            "limit": limit_text(scored.limit) if scored else None,
            "payments": dict(scored.payments) if legal_win and scored else None,
        },
    )


def _arrangement(view: View) -> list[str]:
    if view.shape == THIRTEEN_ORPHANS:
        return [" ".join(T.name(k) for k in ORPHANS) + " +" + T.name(view.hand.win)]
    return RIICHI.arrangement(view.hand, view.groups)


def is_ready(parsed: ParsedHand) -> bool:
    """听牌: a tile the hand holds fewer than four of completes a winning shape (13 tiles, melds included)."""
    options = RIICHI.resolve_options({"aka_dora": 1})
    hand = prepared_with_hint(prepare, parsed, options)  # its error is the seat's at a drawn table: with the hint
    for kind in range(T.PLAYABLE):
        if hand.counts[kind] >= 4:
            continue  # waiting on a tile the hand holds all four of is no wait
        try:
            trial = prepare(parsed._replace(win=kind), options)
        except HandError:
            continue  # the fifth one counting an indicator: it cannot be drawn
        if next(views(trial), None) is not None:
            return True
    return False


RIICHI = Riichi()
RULE_SET = RIICHI
__all__ = ["CONDITIONS", "RIICHI", "RULE_SET", "Riichi", "is_ready"]
