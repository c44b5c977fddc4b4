"""What a rule set is made of, and the one scoring loop they all share.

A rule set module declares its items (key, names, value, a finder), its
exclusions and its house options as data; `score()` below does the rest:
validation through the rule set's `prepare`, the search over readings, the
exclusions, and the rule set's own way of turning items into a total.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter
from typing import Any

from ..engine import KONG, PAIR, Group, group_text
from ..errors import HandError, quote
from ..limits import MAX_OPTION_VALUE
from ..models import HandScore, ItemInfo, OptionInfo, RuleSetInfo, ScoreItem, Unit
from ..notation import RIICHI_CONDITIONS, ParsedHand, reject_stand_in_pungs, to_text

# Who an item is for.
ALL = "base"  # every player, winner or not
LOSER = "non-winner"  # non-winners only
WINNER = "bonus"  # the winner only
DECLARED = "declared"  # a declared win: nothing else counts

Reading = tuple[Group, ...]
Found = list[tuple["Item", int, str]]  # (item, value, detail)
# (hand, reading) -> occurrences; each rule set narrows both types, hence the `...`
Finder = Callable[..., Iterable[tuple[int, str]]]


@dataclass(frozen=True)
class Item:
    """One scoring item of a rules table.

    `find(hand, reading)` yields one (value, detail) per occurrence; reading
    is None for a non-winner. `per_reading` marks items whose answer depends
    on the grouping, so the others are computed once per hand. `needs` is a
    set of facts of a reading, as bits of the reading's `tags`, of which the
    item needs one to apply at all: a reading with none of them skips the
    finder, so most readings call a few finders, not every one (the answer
    is the same either way, as tests/test_gates.py checks). An item with
    `needs` is per reading.
    """

    key: str
    name: str
    name_en: str
    value: str
    scope: str
    find: Finder
    per_reading: bool = False
    needs: int = 0  # bits of the reading's tags; 0: every reading
    # the ScoreItem of each (value, detail) scored so far: the same few lines recur hand after hand
    lines: dict[tuple[int, str], ScoreItem] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class Exclusion:
    """When `present` is scored, `removes` are not (the table's "no X" notes)."""

    present: str
    removes: tuple[str, ...]


@dataclass(frozen=True)
class Option:
    name: str
    default: int
    alternatives: tuple[int, ...]
    description: str
    maximum: int = MAX_OPTION_VALUE  # the range is 0..maximum (docs/limits.md)


@dataclass
class Outcome:
    subtotal: int
    doubled: bool
    total: int
    legal: bool = True
    notes: list[str] = field(default_factory=list)


@dataclass
class Prepared:
    """What every rule set's `prepare` hands to the scoring loop."""

    parsed: ParsedHand
    winner: bool
    declared: bool
    options: dict[str, int]
    notes: list[str] = field(default_factory=list)

    def has(self, flag: str) -> bool:
        """Whether the hand was written with this condition (`self`, `kong-draw`, …)."""
        return flag in self.parsed.flags


class RuleSet:
    """Base of a rule set; subclasses set the data and `prepare`/`readings`/`finish`."""

    name: str = ""
    chinese: str = ""
    unit: Unit = "tai"
    items: tuple[Item, ...] = ()
    exclusions: tuple[Exclusion, ...] = ()
    options: tuple[Option, ...] = ()
    stand_in_pungs: bool = False  # 花碰 `[CC2m]` allowed (Luoshan); else it is no meld
    red_fives: bool = False  # `0m 0p 0s` read as red fives (riichi); else they are an error

    def prepare(self, parsed: ParsedHand, options: dict[str, int]) -> Prepared:
        raise NotImplementedError

    def readings(self, hand: Any) -> Iterable[Any]:
        """The ways to read a winning hand; a rule set chooses what a reading is (groups, or groups and more)."""
        raise NotImplementedError

    def finish(self, hand: Any, found: Found) -> Outcome:
        raise NotImplementedError

    def no_shape_message(self, hand: Any) -> str:
        return f"the tiles form no winning {self.chinese} shape"

    def arrangement(self, hand: Any, reading: Any) -> list[str]:
        """Melds on the table first, then the sets by kind, the pair last — as players lay a hand out."""
        melds: list[Group] = []
        sets: list[Group] = []
        pairs: list[Group] = []
        for g in reading:
            if g.exposed or g.concealed_kong:
                melds.append(g)
            elif g.shape == PAIR:
                pairs.append(g)
            else:
                sets.append(g)
        sets.sort(key=_BY_KIND)
        return list(map(group_text, (*melds, *sets, *pairs)))  # the memo, called from C

    # -- shared machinery -------------------------------------------------

    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, int]:
        if not given:
            return self._defaults.copy()
        known = {o.name: o for o in self.options}
        resolved = self._defaults.copy()
        for key, value in given.items():
            if key not in known:
                names = ", ".join(known) or "none"
                raise HandError(f"unknown option '{quote(key)}' for {self.name}; known options: {names}")
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise HandError(f"option '{key}' must be a whole number ≥ 0, got {quote(value)}")
            if value > known[key].maximum:
                raise HandError(f"option '{key}' must be at most {known[key].maximum}, got {quote(value)}")
            resolved[key] = value
        return resolved

    def info(self) -> RuleSetInfo:
        return RuleSetInfo(
            name=self.name,
            chinese=self.chinese,
            unit=self.unit,
            items=[
                ItemInfo(key=i.key, name=i.name, name_en=i.name_en, value=i.value, scope=i.scope) for i in self.items
            ],
            options=[
                OptionInfo(
                    name=o.name,
                    default=o.default,
                    alternatives=list(o.alternatives),
                    description=o.description,
                )
                for o in self.options
            ],
            exclusions=[f"{e.present} excludes {', '.join(e.removes)}" for e in self.exclusions],
        )

    @cached_property
    def _defaults(self) -> dict[str, int]:
        return {o.name: o.default for o in self.options}

    @cached_property
    def _plan(self) -> dict[str, tuple[Item, ...]]:
        """The items each kind of hand evaluates, in table order, split once per rule set, not per hand."""
        return {
            DECLARED: tuple(i for i in self.items if i.scope == DECLARED),
            LOSER: tuple(i for i in self.items if i.scope in (ALL, LOSER)),
            WINNER: tuple(i for i in self.items if i.scope in (ALL, WINNER)),
        }

    @cached_property
    def _fixed(self) -> tuple[Item, ...]:
        """A winner's items whose answer does not depend on the grouping: found once per hand."""
        return tuple(i for i in self._plan[WINNER] if not (i.per_reading or i.needs))

    @cached_property
    def _opened(self) -> dict[int, tuple[tuple[tuple[Item, int], ...], bool]]:
        """By a reading's tags: the items whose gate is open, in table order, each with its place in
        `_fixed` (-1: found per reading), and whether any of them can exclude others. Filled as tags
        come; there are few."""
        return {}

    def _open_items(self, tags: int) -> tuple[tuple[tuple[Item, int], ...], bool]:
        fixed = self._fixed
        items = tuple(
            (i, fixed.index(i) if i in fixed else -1) for i in self._plan[WINNER] if not i.needs or i.needs & tags
        )
        opened = self._opened[tags] = (items, any(i.key in self._removes for i, _ in items))
        return opened

    @cached_property
    def _gated(self) -> bool:
        """Whether any item needs reading tags: then each reading has `tags`."""
        return any(i.needs for i in self.items)

    @cached_property
    def _removes(self) -> dict[str, frozenset[str]]:
        """Exclusions by the key that triggers them."""
        out: dict[str, frozenset[str]] = {}
        for e in self.exclusions:
            out[e.present] = out.get(e.present, frozenset()) | frozenset(e.removes)
        return out

    def _evaluate(self, items: Iterable[Item], hand: Any, reading: Reading | None) -> Found:
        return [(i, v, d) for i in items for v, d in i.find(hand, reading)]

    def _exclude(self, found: Found) -> Found:
        removes = self._removes
        for item, _, _ in found:  # a loop, not a comprehension: nearly always nothing excludes
            if item.key in removes:
                break
        else:
            return found
        gone = frozenset().union(*[removes[item.key] for item, _, _ in found if item.key in removes])
        return [f for f in found if f[0].key not in gone]

    def score(self, parsed: ParsedHand, options: Mapping[str, Any] | None = None) -> HandScore:
        if not self.stand_in_pungs:
            reject_stand_in_pungs(parsed)
        hand = self.prepare(parsed, self.resolve_options(options))
        arrangement: list[str] = []
        plan = self._plan
        if hand.declared or not hand.winner:
            found = self._evaluate(plan[DECLARED if hand.declared else LOSER], hand, None)
            if not hand.declared:
                found = self._exclude(found)
            outcome = self.finish(hand, found)
        else:
            # items that do not depend on the grouping are found once; the rest per reading, in table order,
            # each only if the reading has a fact it needs (its gate is open)
            fixed = []
            for item in self._fixed:
                fixed.append(list(item.find(hand, None)))
            opened = self._opened
            best: tuple[tuple[bool, int, int], Found, Outcome, Any] | None = None
            gated = self._gated
            tags = 0
            for reading in self.readings(hand):
                if gated:
                    tags = reading.tags
                items, may_exclude = opened.get(tags) or self._open_items(tags)
                candidate = []
                for i, at in items:
                    for v, d in i.find(hand, reading) if at < 0 else fixed[at]:
                        candidate.append((i, v, d))
                if may_exclude:
                    candidate = self._exclude(candidate)
                outcome = self.finish(hand, candidate)
                # a legal win first (a player claims the reading that lets them win), then the most points,
                # ties: the higher subtotal
                rank = (outcome.legal, outcome.total, outcome.subtotal)
                if best is None or rank > best[0]:
                    best = (rank, candidate, outcome, reading)
            if best is None:
                raise HandError(self.no_shape_message(hand))
            _, found, outcome, reading = best
            arrangement = self.arrangement(hand, reading)
        lines = []
        for i, v, d in found:
            lines.append(i.lines.get((v, d)) or score_item(i, v, d))  # most lines are known
        return HandScore(
            rules=self.name,
            hand=to_text(parsed),
            winner=hand.winner,
            legal=outcome.legal,
            items=lines,
            subtotal=outcome.subtotal,
            doubled=outcome.doubled,
            total=outcome.total,
            unit=self.unit,
            arrangement=arrangement,
            notes=hand.notes + outcome.notes,
        )


_BY_KIND = attrgetter("kind", "shape")


def score_item(item: Item, value: int, detail: str) -> ScoreItem:
    """One shared instance per line (ScoreItem is frozen), so a recurring line is not validated again."""
    line = item.lines.get((value, detail))
    if line is None:
        if len(item.lines) > 2_000:
            item.lines.clear()
        line = item.lines[value, detail] = ScoreItem(
            key=item.key, name=item.name, name_en=item.name_en, value=value, detail=detail
        )
    return line


def check_known_conditions(
    parsed: ParsedHand, rule_set: str, known: frozenset[str], hints: Mapping[str, str] | None = None
) -> None:
    """A condition another rule set uses is an error naming it and this rule set."""
    if (
        parsed.flags <= known
        and (parsed.seat is None or "seat" in known)
        and (parsed.wild is None or "wild" in known)
        and (parsed.flip is None or "flip" in known)
        and (parsed.declare is None or "declare" in known)
        and not parsed.riichi_values
    ):
        return  # all known: the common case, without listing the conditions
    for cond in parsed.conditions:
        if cond not in known:
            col = parsed.columns.get(cond, 0)
            hint = (hints or {}).get(cond, "")
            if not hint and cond in RIICHI_CONDITIONS:
                hint = " (it is a riichi condition: score the hand with --rules riichi)"
            raise HandError(f"condition '{quote(cond)}' at column {col} is not used in {rule_set}{hint}")


def check_win_conditions(
    parsed: ParsedHand,
    winner: bool,
    win_conditions: Iterable[str],
    conflicts: Iterable[tuple[str, str, str]],
    declared_wins: bool = False,
) -> None:
    """How-it-was-won conditions need a win, and some cannot stand together."""
    flags = parsed.flags
    if not winner:
        for cond in win_conditions:
            if cond in flags:
                alternative = " or a declared win" if declared_wins else ""
                raise HandError(f"condition '{cond}' needs a winning tile (+tile){alternative}")
    for a, b, why in conflicts:
        if a in flags and b in flags:
            raise HandError(f"conditions '{a}' and '{b}' contradict each other: {why}")


def check_kong_draw(flags: Iterable[str], melds: Iterable[Group]) -> None:
    """杠开 is won on a kong's replacement tile, so the hand must show a kong."""
    if "kong-draw" in flags and not any(g.shape == KONG for g in melds):
        raise HandError("condition 'kong-draw' needs a kong in the hand ([5555p] or (5555p))")


# Conditions that cannot stand together, with the reason, as several rule sets word them.
Conflict = tuple[str, str, str]
ROB_KONG_NOT_SELF: Conflict = ("rob-kong", "self", "robbing a kong is a win on another player's tile, not self-drawn")
ROB_KONG_OR_KONG_DRAW: Conflict = (
    "rob-kong",
    "kong-draw",
    "a hand wins either on a kong replacement or by robbing a kong",
)
KONG_DRAW_NOT_LAST_TILE: Conflict = ("kong-draw", "last-tile", "no kong is declared among the last tiles")
HEAVEN_OR_EARTH: Conflict = ("heaven", "earth", "天胡 is the dealer's, 地胡 a non-dealer's")


def on_dealt_hand(*others: str) -> tuple[Conflict, ...]:
    """天胡 is won on the dealt hand, so with none of `others`."""
    return tuple(("heaven", other, "天胡 is won on the dealt hand") for other in others)


def on_first_discard(*others: str) -> tuple[Conflict, ...]:
    """地胡 is won on the dealer's first discard, so with none of `others`."""
    return tuple(("earth", other, "地胡 is won on the dealer's first discard") for other in others)


def flag_item(condition: str, value: int) -> Finder:
    """An item that is just a condition of the win: `kong-draw` gives 杠开, `heaven` 天胡."""

    def find(hand: Prepared, reading: object) -> list[tuple[int, str]]:
        return [(value, "")] if hand.has(condition) else []

    return find


def once(value: int, detail: str = "") -> list[tuple[int, str]]:
    return [(value, detail)]


NONE: list[tuple[int, str]] = []
