"""Riichi 立直 (日本麻将): han, fu, points and payments of rules/riichi.md.

The yaku are data (`yaku.YAKU`), fu and points are functions of one reading
(`fu`); this module reads the hand every way it groups, scores each reading
and keeps the best by the page's tie-break. The core works on plain values;
the HandScore is made once, at the end.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ... import tiles as T
from ...engine import PAIR, Group, JokerOptions, standard_readings, win_places
from ...errors import HandError
from ...models import FuItem, HandScore, ItemInfo, RuleSetInfo, ScoreItem
from ...notation import ParsedHand, reject_stand_in_pungs, to_text
from ..base import Outcome, RuleSet
from .fu import FuLine, basic_points, fu_lines, paid, payments, rounded
from .hand import OPTIONS, RiichiHand, prepare
from .yaku import BY_KEY, ORPHANS, REMOVES, SEVEN_PAIRS, STANDARD, THIRTEEN_ORPHANS, YAKU, View, Yaku

NO_WILDCARDS = JokerOptions(pairs=(), sets=())
NO_YAKU_NOTE = "役なし: no yaku (dora are not yaku)"
FURITEN_NOTE = "振听: a furiten hand wins only by self-draw"
DORA = (
    ("dora", "宝牌", "Dora"),
    ("aka_dora", "赤宝牌", "Red fives"),
    ("ura_dora", "里宝牌", "Ura dora"),
)
DORA_NAMES = {key: (name, name_en) for key, name, name_en in DORA}

Line = tuple[str, int, str]  # (item key, han, detail)


@dataclass
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


def views(hand: RiichiHand) -> Iterator[View]:
    """Every reading with every place the winning tile can take in it."""
    counts = hand.held
    if not hand.melds:
        kinds = [k for k, c in enumerate(counts) if c]
        if all(c == 2 for k, c in enumerate(counts) if c) and len(kinds) == 7:
            pairs = tuple(Group(PAIR, k) for k in kinds)
            yield View(hand, SEVEN_PAIRS, pairs, kinds.index(hand.win))
        if set(kinds) == set(ORPHANS):
            yield View(hand, THIRTEEN_ORPHANS, (), -1)
    for groups in standard_readings(counts, (), 4 - len(hand.melds), NO_WILDCARDS):
        full = hand.melds + groups
        for index in dict.fromkeys(at for at, _ in win_places(full, hand.win, False)):
            yield View(hand, STANDARD, full, index)


def yaku_lines(view: View) -> list[tuple[Yaku, str]]:
    found = [(y, d) for y in YAKU if (d := y.check(view)) is not None]
    gone = frozenset().union(*[REMOVES[y.key] for y, _ in found if y.key in REMOVES])
    if gone:
        found = [(y, d) for y, d in found if y.key not in gone]
    return found


def _is_yakuman(yaku: Yaku, options: dict[str, int]) -> bool:
    return yaku.yakuman or bool(yaku.yakuman_option and options[yaku.yakuman_option])


def _han(yaku: Yaku, hand: RiichiHand) -> tuple[int, str]:
    """The han of a yaku in this hand, and the detail saying why."""
    if _is_yakuman(yaku, hand.options):
        if yaku.double and hand.options["double_yakuman"]:
            return 26, "yakuman ×2"
        return 13, "yakuman"
    if hand.closed or yaku.open is None:
        return yaku.closed, "closed"
    return yaku.open, "open" if yaku.open == yaku.closed else f"open (−{yaku.closed - yaku.open})"


def _dora_lines(hand: RiichiHand) -> list[Line]:
    lines = []
    for key, pointed in (("dora", hand.dora), ("ura_dora", hand.ura)):
        held = [(kind, hand.counts[kind] * times) for kind, times in sorted(pointed.items()) if hand.counts[kind]]
        if held:
            detail = ", ".join(f"{T.name(kind)} ×{n}" for kind, n in held)
            lines.append((key, sum(n for _, n in held), detail))
        if key == "dora" and hand.aka:
            lines.append(("aka_dora", hand.aka, f"red five ×{hand.aka}"))
    return lines


def score_view(view: View) -> Scored:
    hand = view.hand
    found = yaku_lines(view)
    yakuman = [(y, d) for y, d in found if _is_yakuman(y, hand.options)]
    if yakuman:
        found = yakuman
        if not hand.options["yakuman_stacking"]:
            found = [max(yakuman, key=lambda yd: _han(yd[0], hand)[0])]
    lines: list[Line] = []
    for yaku, detail in found:
        han, how = _han(yaku, hand)
        lines.append((yaku.key, han, detail or how))
    han = sum(h for _, h, _ in lines)
    yakuman_han = min(han, 78) if yakuman else 0
    if lines and not yakuman:
        lines += _dora_lines(hand)
        han = sum(h for _, h, _ in lines)
    fus = fu_lines(view, pinfu=any(key == "pinfu" for key, _, _ in lines))
    raw = sum(f for _, f, _ in fus)
    fu = 0 if view.shape == THIRTEEN_ORPHANS else rounded(raw, view.shape)
    if not lines:
        return Scored((-1, False, 0, fu, raw), [], 0, fu, fus, "", {}, 0, view)
    basic, limit = basic_points(han, fu, yakuman_han, hand.options)
    payment = payments(basic, hand.dealer, hand.tsumo, hand.parsed.honba or 0)
    total = paid(payment) + 1000 * (hand.parsed.sticks or 0)
    return Scored((total, bool(yakuman), han, fu, raw), lines, han, fu, fus, limit, payment, total, view)


def best(hand: RiichiHand) -> Scored:
    chosen: Scored | None = None
    for view in views(hand):
        scored = score_view(view)
        if chosen is None or scored.rank > chosen.rank:
            chosen = scored
    if chosen is None:
        raise HandError("the tiles form no winning riichi shape: 4 sets + a pair, seven different pairs, or 13 orphans")
    return chosen


class Riichi(RuleSet):
    name = "riichi"
    chinese = "立直"
    unit = "points"
    options = OPTIONS
    red_fives = True

    def score(self, parsed: ParsedHand, options: Mapping[str, Any] | None = None) -> HandScore:
        reject_stand_in_pungs(parsed)
        hand = prepare(parsed, self.resolve_options(options))
        if not hand.winner:
            return _hand_score(hand, None, Outcome(0, False, 0), [])
        scored = best(hand)
        notes = list(hand.notes)
        values = ", ".join(f"{o.name} {hand.options[o.name]}" for o in OPTIONS if o.name != "noten_bappu")
        notes.append(f"house options used: {values}")
        if not scored.lines:
            notes.append(NO_YAKU_NOTE)
            return _hand_score(hand, scored, Outcome(0, False, 0, legal=False), notes)
        legal = True
        if hand.has("furiten") and not hand.tsumo:
            legal = False
            notes.append(FURITEN_NOTE)
        return _hand_score(hand, scored, Outcome(scored.han, False, scored.total, legal=legal), notes)

    def info(self) -> RuleSetInfo:
        items = [
            ItemInfo(key=y.key, name=y.name, name_en=y.name_en, value=_value_text(y), scope="winner") for y in YAKU
        ]
        items += [
            ItemInfo(key=key, name=name, name_en=name_en, value="1 han each", scope="winner (bonus, not a yaku)")
            for key, name, name_en in DORA
        ]
        return RuleSetInfo(
            name=self.name,
            chinese=self.chinese,
            unit=self.unit,
            items=items,
            options=[o for o in super().info().options],
            exclusions=[f"{present} excludes {', '.join(sorted(gone))}" for present, gone in REMOVES.items()]
            + ["any yakuman excludes every other yaku and the dora"],
        )


def _value_text(yaku: Yaku) -> str:
    if yaku.yakuman:
        return "yakuman ×2" if yaku.double else "yakuman"
    opened = "closed only" if yaku.open is None else f"open {yaku.open}"
    extra = f"; yakuman with {yaku.yakuman_option}=1" if yaku.yakuman_option else ""
    return f"{yaku.closed} han, {opened}{extra}"


_ITEMS: dict[Line, ScoreItem] = {}


def _score_item(line: Line) -> ScoreItem:
    item = _ITEMS.get(line)
    if item is None:
        key, han, detail = line
        name, name_en = (BY_KEY[key].name, BY_KEY[key].name_en) if key in BY_KEY else DORA_NAMES[key]
        if len(_ITEMS) > 4000:
            _ITEMS.clear()
        item = _ITEMS[line] = ScoreItem(key=key, name=name, name_en=name_en, value=han, detail=detail)
    return item


def _hand_score(hand: RiichiHand, scored: Scored | None, outcome: Outcome, notes: list[str]) -> HandScore:
    """The HandScore of a riichi hand, made once from the plain values."""
    legal_win = scored is not None and bool(scored.lines)
    arrangement = _arrangement(scored.view) if scored is not None else []
    return HandScore.from_core(
        {
            "rules": "riichi",
            "hand": to_text(hand.parsed),
            "winner": hand.winner,
            "legal": outcome.legal,
            "items": [_score_item(line) for line in scored.lines] if legal_win and scored else [],
            "subtotal": outcome.subtotal,
            "doubled": False,
            "total": outcome.total,
            "unit": "points",
            "arrangement": arrangement,
            "notes": notes,
            "fu": (0 if scored.rank[1] else scored.fu) if scored else None,
            "fu_details": [FuItem(key=k, value=v, detail=d) for k, v, d in scored.fu_lines] if scored else None,
            "limit": scored.limit if scored else None,
            "payments": dict(scored.payments) if legal_win and scored else None,
        }
    )


def _arrangement(view: View) -> list[str]:
    if view.shape == THIRTEEN_ORPHANS:
        return [" ".join(T.name(k) for k in ORPHANS) + " +" + T.name(view.hand.win)]
    melds = [g for g in view.groups if g.exposed or g.concealed_kong]
    sets = sorted((g for g in view.groups if not (g.exposed or g.concealed_kong) and g.shape != PAIR), key=_by_kind)
    pairs = [g for g in view.groups if g.shape == PAIR and not g.exposed]
    return [g.text() for g in (*melds, *sets, *pairs)]


def _by_kind(group: Group) -> tuple[int, str]:
    return group.kind, group.shape


def is_ready(parsed: ParsedHand) -> bool:
    """听牌: a tile the hand holds fewer than four of completes a winning shape (13 tiles, melds included)."""
    hand = prepare(parsed, RIICHI.resolve_options({"aka_dora": 1}))
    for kind in range(T.PLAYABLE):
        if hand.counts[kind] >= 4:
            continue
        held = list(hand.held)
        held[kind] += 1
        trial = RiichiHand(**{**hand.__dict__, "held": held, "win": kind, "winner": True})
        if next(views(trial), None) is not None:
            return True
    return False


RIICHI = Riichi()
__all__ = ["RIICHI", "Riichi", "is_ready"]
