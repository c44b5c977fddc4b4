"""The scoring loop every rule set shares by default: which of its items a hand evaluates, each reading valued
without a detail, the exclusions, and the one reading kept, described.

`RuleSet` (`base.py`) inherits it; a rule set may replace a step (MCR its `best_reading` and `valued`) or the
whole of `RuleSet.score`, keeping the same answers (tests/test_scoring_loop.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..engine import ReadingFacts
from ..models import ScoreItem
from .interface import (
    DECLARED_ONLY,
    EVERY_PLAYER,
    NON_WINNERS,
    WINNER_ONLY,
    Chosen,
    Exclusion,
    Found,
    Item,
    Opened,
    Outcome,
    rank,
)

_NO_FACTS: frozenset[str] = frozenset()


class ScoringLoop:
    """The loop's steps, on the rule set's data and hooks (declared on `RuleSet`)."""

    if TYPE_CHECKING:
        items: tuple[Item, ...]
        exclusions: tuple[Exclusion, ...]

        def readings(self, hand: Any) -> Iterable[Any]: ...
        def finish(self, hand: Any, found: Found) -> Outcome: ...
        def facts_of(self, reading: Any) -> ReadingFacts: ...
        def as_shown(self, hand: Any, reading: Any) -> Any: ...

    @cached_property
    def _plan(self) -> dict[str, tuple[Item, ...]]:
        """The items each kind of hand evaluates, in table order, split once per rule set, not per hand."""
        return {
            DECLARED_ONLY: tuple(i for i in self.items if i.scope == DECLARED_ONLY),
            NON_WINNERS: tuple(i for i in self.items if i.scope in (EVERY_PLAYER, NON_WINNERS)),
            WINNER_ONLY: tuple(i for i in self.items if i.scope in (EVERY_PLAYER, WINNER_ONLY)),
        }

    @cached_property
    def _fixed(self) -> tuple[Item, ...]:
        """A winner's items that read nothing of the reading: found once per hand."""
        return tuple(i for i in self._plan[WINNER_ONLY] if not i.reads)

    @cached_property
    def _opened(self) -> dict[frozenset[str], tuple[tuple[Opened, ...], bool]]:
        """By the gate facts a reading has: the items whose gate is open, in table order, and whether any
        of them can exclude others. Filled as readings come; there are few distinct ones."""
        return {}

    def _open_items(self, present: frozenset[str]) -> tuple[tuple[Opened, ...], bool]:
        fixed = self._fixed
        items = tuple(
            (i, fixed.index(i) if i in fixed else -1, i.plain_rows)
            for i in self._plan[WINNER_ONLY]
            if not i.gate or not present.isdisjoint(i.gate)
        )
        opened = self._opened[present] = (items, any(i.key in self._removes for i, _, _ in items))
        return opened

    @cached_property
    def _gated(self) -> bool:
        """Whether any item has a gate: then each reading's gate facts are looked at."""
        return any(i.gate for i in self.items)

    @cached_property
    def _removes(self) -> dict[str, frozenset[str]]:
        """Exclusions by the key that triggers them."""
        out: dict[str, frozenset[str]] = {}
        for e in self.exclusions:
            out[e.present] = out.get(e.present, frozenset()) | frozenset(e.removes)
        return out

    def _evaluate(self, items: Iterable[Item], hand: Any, facts: ReadingFacts | None) -> Found:
        """Every occurrence of `items`, valued (not described)."""
        options = hand.options
        return [(i, i.points(v, options), d) for i in items for v, d in i.find(hand, facts)]

    def _exclude(self, found: Found) -> Found:
        removes = self._removes
        for item, _, _ in found:  # a loop, not a comprehension: nearly always nothing excludes
            if item.key in removes:
                break
        else:
            return found
        gone = frozenset().union(*[removes[item.key] for item, _, _ in found if item.key in removes])
        return [f for f in found if f[0].key not in gone]

    def _valued(self, hand: Any, facts: ReadingFacts, fixed: list[Found]) -> tuple[Found, Outcome]:
        """One reading's items, valued but not described (`Item.describe`), and its outcome.

        Items that read nothing of the reading come from `fixed` (found once
        per hand); the rest run in table order, each only if the reading has
        a fact its gate names (its gate is open).
        """
        present = facts.present if self._gated else _NO_FACTS
        items, may_exclude = self._opened.get(present) or self._open_items(present)
        options = hand.options
        found: Found = []
        for i, at, rows in items:
            if at >= 0:
                found += fixed[at]
            else:
                for variant, subject in i.find(hand, facts):
                    found.append((i, i.points(variant, options) if rows is None else rows[variant], subject))
        if may_exclude:
            found = self._exclude(found)
        return found, self.finish(hand, found)

    def _fixed_found(self, hand: Any) -> list[Found]:
        """The winner's items that read nothing of the reading, valued once per hand (not described)."""
        options = hand.options
        out: list[Found] = []
        for i in self._fixed:
            found: Found = []
            rows = i.plain_rows
            for variant, subject in i.find(hand, None):
                found.append((i, i.points(variant, options) if rows is None else rows[variant], subject))
            out.append(found)
        return out

    def best_reading(self, hand: Any, readings: Iterable[Any] | None = None) -> Chosen | None:
        """The reading a winner scores, by values alone.

        Each reading is valued without building a detail or a ScoreItem; the
        first of the best by `rank` is kept, and `score` describes it alone.
        The same choice as `plain_best_reading` (tests/test_scoring_loop.py).
        `readings`: the hand's own, where the caller has them already.
        """
        fixed = self._fixed_found(hand)
        facts_of = self.facts_of
        best: tuple[tuple[bool, int, int], Found, Outcome, Any, ReadingFacts] | None = None
        for reading in self.readings(hand) if readings is None else readings:
            facts = reading if reading.__class__ is ReadingFacts else facts_of(reading)
            found, outcome = self._valued(hand, facts, fixed)
            order = (outcome.legal, outcome.total, outcome.subtotal)  # `rank`, inline
            if best is None or order > best[0]:
                best = (order, found, outcome, reading, facts)
        if best is None:
            return None
        _, found, outcome, reading, facts = best
        shown = self.as_shown(hand, reading)
        if shown is not reading:
            # found again on the reading as shown: the same values (tests/test_scoring_loop.py)
            reading, facts = shown, facts_of(shown)
            found, outcome = self._valued(hand, facts, fixed)
        return found, outcome, reading, facts

    def classed_readings(self, hand: Any) -> Iterable[tuple[str, Any]] | None:
        """`readings`, each with its class key, where the rule set's reading classes decide the values of the
        items that read a reading: readings of one key, in hands that differ only in their natural concealed
        tiles, value alike. None (the default) where a rule set cannot say so."""
        return None

    def best_reading_among(self, hand: Any, values: dict[Any, tuple[bool, int, int]]) -> Chosen | None:
        """`best_reading`, valuing each class of reading once (`classed_readings`): `values` keeps the rank of
        each, for `waits` to share between the hands of one waiting hand with each natural tile added (they
        differ only there). The same choice as `best_reading` (tests/test_waits_fast_paths.py)."""
        classed = self.classed_readings(hand)
        if classed is None:
            return self.best_reading(hand)
        fixed = self._fixed_found(hand)
        fixed_values = tuple(tuple(points for _, points, _ in found) for found in fixed)
        best: tuple[tuple[bool, int, int], Any] | None = None
        for key, reading in classed:
            order = values.get((key, fixed_values))
            if order is None:
                _, outcome = self._valued(hand, self.facts_of(reading), fixed)
                order = values[key, fixed_values] = (outcome.legal, outcome.total, outcome.subtotal)  # `rank`
            if best is None or order > best[0]:
                best = (order, reading)
        if best is None:
            return None
        shown = self.as_shown(hand, best[1])
        facts = self.facts_of(shown)
        found, outcome = self._valued(hand, facts, fixed)  # the kept reading's own items: its details
        return found, outcome, shown, facts

    def plain_best_reading(self, hand: Any) -> Chosen | None:
        """`best_reading` the plain way: every item of every reading as shown found and valued, with no gate
        and nothing reused, then ranked."""
        plan = self._plan[WINNER_ONLY]
        best: tuple[tuple[bool, int, int], Found, Outcome, Any, ReadingFacts] | None = None
        for searched in self.readings(hand):
            reading = self.as_shown(hand, searched)
            facts = self.facts_of(reading)
            found = self._exclude([f for i in plan for f in self._evaluate([i], hand, facts if i.reads else None)])
            outcome = self.finish(hand, found)
            if best is None or rank(outcome) > best[0]:
                best = (rank(outcome), found, outcome, reading, facts)
        return None if best is None else best[1:]


def score_item(item: Item, value: int, detail: str) -> ScoreItem:
    """One shared instance per line (ScoreItem is frozen), so a recurring line is not validated again."""
    line = item.lines.get((value, detail))
    if line is None:
        if len(item.lines) > 2_000:
            item.lines.clear()
        line = item.lines[value, detail] = ScoreItem(
            key=item.key, name=item.name, name_en=item.name_en, value=value, unit=item.kind.unit, detail=detail
        )
    return line
