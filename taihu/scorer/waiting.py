"""What wins for a waiting hand (听牌), and which discard leaves the best waits (何切る).

Every answer comes from the real scorer: each tile kind that could be the
winning tile is added to the hand as `+tile` and scored on a discard and
self-drawn, exactly as `score_hand` would score that line, so `waits` can
never disagree with `score_hand`. `plain_waits` does just that for every
kind; `waits` first drops the kinds that cannot complete any group
(`candidate_kinds`) and reuses the parsed hand, which gives the same answer
(tests/test_waits.py compares the two).

`check`, where given, is called before each tile is scored and each discard
is tried; whatever it raises ends the search there. The server passes a time
budget so (taihu/api/waits.py); the core keeps no clock of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from taihu.messages import Language

from . import tiles as T
from .engine import StandIns, completing_kinds, extra_tile_decompositions
from .errors import HandError, Text, Word
from .models import HandScore
from .notation import FLAG_CONDITIONS, ParsedHand, reject_stand_in_pungs, to_text
from .rulesets import DEFAULT_RULES, get, standing_flags
from .rulesets.base import RuleSet
from .rulesets.interface import Prepared
from .rulesets.validation import MARK_THE_WIN

# Conditions that say how a win happened: `waits` scores every tile both ways itself.
WIN_CONDITIONS = frozenset(FLAG_CONDITIONS) - standing_flags()  # what a waiting line says nothing of


@dataclass(frozen=True)
class WinValue:
    """One way of winning on a tile: its total, whether it is a legal win, the reading that was scored."""

    total: int
    legal: bool
    arrangement: tuple[str, ...]

    @classmethod
    def of(cls, score: HandScore) -> WinValue:
        return cls(score.total, score.legal, tuple(score.arrangement))

    def to_dict(self, lang: Language = "en", *, codes: bool = False) -> dict[str, Any]:
        """Its JSON; a rule set's texts (why a win is not legal) in `lang`, with `codes` by code (`Record.to_dict`)."""
        return {"total": self.total, "legal": self.legal, "arrangement": list(self.arrangement)}


@dataclass(frozen=True)
class Wait:
    """A tile kind that completes the hand.

    `discard` is None where a win on a discard is impossible (a wildcard the
    rule set never lets anyone discard or claim). `covered_by_wildcard`: the
    hand holds a wildcard, and this tile completes it only because a
    wildcard stands for some other tile (with every wildcard playing as its
    own face, the tile would not win).
    """

    tile: str
    unseen: int
    discard: WinValue | None
    self_drawn: WinValue | None
    covered_by_wildcard: bool = False

    def wins(self) -> Iterable[WinValue]:
        return [w for w in (self.discard, self.self_drawn) if w is not None]

    @property
    def legal(self) -> bool:
        """Whether some way of winning on this tile is a legal win."""
        return any(w.legal for w in self.wins())

    @property
    def best_total(self) -> int:
        """The best legal total on this tile (0 when no way is legal)."""
        return max((w.total for w in self.wins() if w.legal), default=0)

    def to_dict(self, lang: Language = "en", *, codes: bool = False) -> dict[str, Any]:
        return {
            "tile": self.tile,
            "unseen": self.unseen,
            "discard": None if self.discard is None else self.discard.to_dict(lang, codes=codes),
            "self": None if self.self_drawn is None else self.self_drawn.to_dict(lang, codes=codes),
            "covered_by_wildcard": self.covered_by_wildcard,
        }


@dataclass(frozen=True)
class Answer:
    """What each answer of `waits` names first: the rule set, and the hand as taihu read it.

    Its JSON ends with `kind` (`waits` or `discards`): which of the two answers it is, for a client to
    tell them apart without looking for their keys (the HTTP document's discriminator)."""

    rules: str
    hand: str


@dataclass(frozen=True)
class Waits(Answer):
    """A waiting hand (no `+` tile): the tiles that complete it, in tile order."""

    waits: tuple[Wait, ...]

    @property
    def ready(self) -> bool:
        return bool(self.waits)

    def to_dict(self, lang: Language = "en", *, codes: bool = False) -> dict[str, Any]:
        waits = [w.to_dict(lang, codes=codes) for w in self.waits]
        return {"rules": self.rules, "hand": self.hand, "ready": self.ready, "waits": waits, "kind": "waits"}


@dataclass(frozen=True)
class Discard:
    """One discard of a hand with a tile too many, and the waits it leaves."""

    tile: str
    waits: tuple[Wait, ...]

    @property
    def unseen_wins(self) -> int:
        """Unseen copies of the tiles that then win legally."""
        return sum(w.unseen for w in self.waits if w.legal)

    @property
    def best_total(self) -> int:
        return max((w.best_total for w in self.waits), default=0)

    def to_dict(self, lang: Language = "en", *, codes: bool = False) -> dict[str, Any]:
        waits = [w.to_dict(lang, codes=codes) for w in self.waits]
        return {"tile": self.tile, "ready": bool(self.waits), "waits": waits}


@dataclass(frozen=True)
class Discards(Answer):
    """A hand just after drawing (one tile too many): each discard and its waits, best first.

    Best: the most unseen copies of tiles that then win legally; ties go to
    the higher best legal total (on a discard or self-drawn), then tile order.
    """

    discards: tuple[Discard, ...]

    def to_dict(self, lang: Language = "en", *, codes: bool = False) -> dict[str, Any]:
        discards = [d.to_dict(lang, codes=codes) for d in self.discards]
        return {"rules": self.rules, "hand": self.hand, "discards": discards, "kind": "discards"}


def _held_wildcards(ruleset: RuleSet, hand: Prepared) -> int:
    """Wildcard tiles held before the win."""
    wild = ruleset.wildcard_kinds(hand)
    return sum(1 for t in hand.parsed.tiles if t in wild)


# -- the waits ---------------------------------------------------------------------------------


Check = Callable[[], None]  # called between the steps of a search; raises to stop it


def no_check() -> None:
    """The default `check`: the search runs to its end."""


Scored = tuple[WinValue, int]  # a win's value and its subtotal, as `score_hand` finds them


class _Scorer:
    """One rule set, options and waiting hand: scores the hand with each winning tile.

    `derive`: read the self-drawn value off the discard score where the
    rule set allows (`RuleSet.self_drawn_from_discard`), instead of scoring the line again;
    and score each line by values alone (no items described), the natural tiles sharing
    the values of their readings' classes (`RuleSet.best_reading_among`).
    """

    def __init__(
        self, ruleset: RuleSet, parsed: ParsedHand, options: Mapping[str, Any] | None, derive: bool = False
    ) -> None:
        self.ruleset = ruleset
        self.parsed = parsed
        self.options = options
        self.resolved = ruleset.resolve_options(options)
        self.quick = self.derive = derive
        self.waiting = waiting = ruleset.prepare(parsed, self.resolved)
        self.wild = ruleset.wildcard_kinds(waiting)
        self.held_wildcards = _held_wildcards(ruleset, waiting)
        self.faces_test = _faces_shape_test(ruleset, waiting) if derive and self.held_wildcards else None
        self.class_values: dict[Any, tuple[bool, int, int]] = {}  # shared by the natural tiles on a discard
        self.same_readings = ruleset.same_readings_self_drawn
        self.readings_on_discard: tuple[int, list[Any]] | None = None  # the last tile scored on a discard
        in_line = list(parsed.tiles) + [t for m in parsed.melds for t in m.tiles]
        self.in_line = {k: in_line.count(k) for k in set(in_line)}

    def won(self, kind: int, self_drawn: bool) -> ParsedHand:
        """The waiting hand won on `kind`."""
        flags = self.parsed.flags | {"self"} if self_drawn else self.parsed.flags
        return self.parsed._replace(win=kind, flags=flags)

    def score(self, kind: int, self_drawn: bool) -> Scored | None:
        """The hand won on `kind`, as `score_hand` scores that line; None where it is no win at all."""
        try:
            if self.quick:
                return self._values(kind, self_drawn)
            score = self.ruleset.score(self.won(kind, self_drawn), self.options)
        except HandError:
            return None
        return WinValue.of(score), score.subtotal

    def _values(self, kind: int, self_drawn: bool) -> Scored | None:
        """`score`'s total, legality and arrangement by the values-first loop alone, as `RuleSet.score` finds
        them for a winner; a natural tile on a discard reads the values of its readings' classes that other
        tiles found (`best_reading_among`): the hands differ only in that tile."""
        ruleset = self.ruleset
        hand = _prepared(ruleset, self.won(kind, self_drawn), self.resolved)
        if self.same_readings:
            chosen = ruleset.best_reading(hand, self._readings(kind, self_drawn, hand))
        elif self_drawn or kind in self.wild:
            chosen = ruleset.best_reading(hand)
        else:
            chosen = ruleset.best_reading_among(hand, self.class_values)
        if chosen is None:
            return None  # no winning shape: `score` raises the error
        _, outcome, reading, _ = chosen
        return WinValue(outcome.total, outcome.legal, tuple(ruleset.arrangement(hand, reading))), outcome.subtotal

    def _readings(self, kind: int, self_drawn: bool, hand: Prepared) -> list[Any]:
        """The hand's readings; self-drawn, those read of the same tile on a discard (`same_readings_self_drawn`)."""
        known = self.readings_on_discard
        if self_drawn and known is not None and known[0] == kind:
            return known[1]
        found = list(self.ruleset.readings(hand))
        if not self_drawn:
            self.readings_on_discard = (kind, found)
        return found

    def wait(self, kind: int) -> Wait | None:
        natural = kind not in self.wild
        on_discard = self.score(kind, False) if natural or self.ruleset.claims_wildcards else None
        if self.quick and natural and on_discard is None:
            return None  # a natural tile's shape is the same both ways: no win on a discard, none at all
        drawn: WinValue | None = None
        if on_discard is not None and natural and self.derive:
            value, subtotal = on_discard
            total = self.ruleset.self_drawn_from_discard(value.total, subtotal, self.resolved)
            if total is not None:
                drawn = value if total == value.total else WinValue(total, value.legal, value.arrangement)
        if drawn is None:
            scored = self.score(kind, True)
            drawn = None if scored is None else scored[0]
        if on_discard is None and drawn is None:
            return None
        return Wait(
            tile=T.name(kind),
            unseen=self.ruleset.copies_in_play(kind, self.parsed) - self.in_line.get(kind, 0),
            discard=None if on_discard is None else on_discard[0],
            self_drawn=drawn,
            covered_by_wildcard=bool(self.held_wildcards) and not self._wins_as_faces(kind),
        )

    def candidates(self) -> list[int]:
        """The kinds to score: `candidate_kinds`, or where `standard_shape_test` applies, the wildcard kinds
        and the natural tiles it shows complete the shape (all found in one pass)."""
        test = standard_shape_test(self.ruleset, self.waiting)
        if test is None:
            return candidate_kinds(self.ruleset, self.parsed, self.wild)
        return [k for k in range(T.KIND_COUNT) if k in self.wild or (k < T.PLAYABLE and test(k))]

    def _wins_as_faces(self, kind: int) -> bool:
        if self.faces_test is not None and kind not in self.wild:
            return self.faces_test(kind)
        prepared = self.ruleset.prepare(self.won(kind, True), self.resolved)
        faces = self.ruleset.as_faces(prepared)
        return faces is not None and any(True for _ in self.ruleset.readings(faces))


def candidate_kinds(ruleset: RuleSet, parsed: ParsedHand, wild: frozenset[int]) -> list[int]:
    """The kinds that might complete the hand: a superset of the waits.

    A natural tile wins only if it joins a pair or a set with tiles held,
    so it lies within two ranks of a held tile of its suit, or is a held
    honor. Not so when the hand holds a wildcard (a lone tile pairs with
    it), for wildcard kinds themselves, and in a rule set with a shape of
    lone tiles (`RuleSet.lone_tiles_win`): there every kind is a candidate.
    """
    held = [t for t in parsed.tiles if not T.is_flower(t)]
    if ruleset.lone_tiles_win or any(t in wild for t in parsed.tiles):
        return list(range(T.KIND_COUNT))
    near: set[int] = set(wild)
    for kind in held:
        if T.is_suited(kind):
            suit = T.suit_of(kind)
            near.update(k for k in range(kind - 2, kind + 3) if T.suit_of(k) == suit and k >= 0)
        else:
            near.add(kind)
    return sorted(near)


def standard_shape_test(
    ruleset: RuleSet, hand: Prepared, kinds: Iterable[int] = range(T.PLAYABLE)
) -> Callable[[int], bool] | None:
    """For a waiting hand that holds no wildcard, in a rule set whose only winning shape is sets + a
    pair (`RuleSet.standard_shape`): whether a natural tile of `kinds` makes that shape of the tiles in
    hand, read suit by suit from the engine's memo (`completing_kinds`, one pass for all of `kinds`) —
    the very search the scorer runs on such a hand, without building the hand or raising the error of a
    tile that does not win. None where it does not apply.
    """
    shape = ruleset.standard_shape(hand)
    if shape is None:
        return None
    naturals, sets = shape
    return set(completing_kinds(bytes(sorted(naturals)), sets, kinds)).__contains__


def _faces_shape_test(ruleset: RuleSet, hand: Prepared) -> Callable[[int], bool] | None:
    """`standard_shape_test` of the hand with every held wildcard playing as its own face: whether a
    natural tile wins so (not `covered_by_wildcard`), without building the hand with that tile. None where
    it does not apply; a face that cannot meld wins with no tile.
    """
    faces = ruleset.as_faces(hand)
    if faces is None:
        return lambda kind: False
    return standard_shape_test(ruleset, faces)


def one_search(ruleset: RuleSet, hand: Prepared, kinds: list[int]) -> set[int]:
    """A hand holding wildcards, with each natural tile of `kinds` added, searched in one sweep
    (`extra_tile_decompositions`) before the tiles are scored, where the rule set says how (`RuleSet.sweep`),
    so each score finds its search done; returns the tiles that make no reading, which need no score.
    A hand without wildcards is read suit by suit and needs no sweep.
    """
    found = ruleset.sweep(hand, kinds)
    if found is None:
        return set()
    return _sweep(*found)


def _sweep(naturals: list[int], jokers: int, sets: int, by_stand_ins: Mapping[StandIns, list[int]]) -> set[int]:
    """Sweeps the tiles of each set of stand-ins; returns those whose hand has no reading."""
    no_reading: set[int] = set()
    for stand_ins, swept in by_stand_ins.items():
        found = extra_tile_decompositions(naturals, jokers, sets, True, stand_ins, swept)
        no_reading.update(kind for kind, decompositions in found.items() if not decompositions)
    return no_reading


def _find_waits(scorer: _Scorer, kinds: Iterable[int], check: Check) -> tuple[Wait, ...]:
    found = []
    for kind in kinds:
        check()
        wait = scorer.wait(kind)
        if wait is not None:
            found.append(wait)
    return tuple(found)


def check_waiting_line(parsed: ParsedHand, text: str, win_conditions: frozenset[str] = WIN_CONDITIONS) -> None:
    """A waiting hand has no winning tile and says nothing of how it wins (`win_conditions`)."""
    if parsed.win is not None:
        at = next((i + 1 for i, ch in enumerate(text) if ch in "+＋"), 0)
        where = Text("error.waits.at_column", at=at) if at else ""
        raise HandError.of(
            "error.waits.winning_tile",
            code="not_for_waits",
            column=at or None,
            hint=Text("error.hint.leave_out", tile=T.said(parsed.win, "+")),
            tile=T.name(parsed.win),
            where=where,
        )
    written = sorted(win_conditions & parsed.flags, key=lambda c: parsed.columns.get(c, 0))
    if written:
        cond = written[0]
        at = parsed.columns.get(cond, 0)
        raise HandError.of(
            "error.waits.condition",
            code="not_for_waits",
            column=at or None,
            hint=Text("error.hint.leave_out", tile=Word(cond)),
            cond=Word(cond),
            at=at,
        )
    if parsed.declare is not None:
        at = parsed.columns.get("declare", 0)
        raise HandError.of(
            "error.waits.declare",
            code="not_for_waits",
            column=at or None,
            hint=Text("error.hint.leave_out", tile=f"declare:{parsed.declare}"),
            declare=parsed.declare,
            at=at,
        )


def _worded_for_waits(error: HandError, ruleset: RuleSet) -> HandError:
    """`score_hand`'s error, but where it tells a hand to mark its winning tile: waits takes no `+`.

    A hand of another rule set's winning size (14 tiles in a 16-tile rule set) is, for
    waits, a hand with one tile too many in that rule set, which waits answers
    with its discards; so the hint names the rule set and the counts waits takes.
    """
    hint = error.hint_text
    if error.code != "tile_count" or not isinstance(hint, Text) or hint.params.get("unmarked") != Text(MARK_THE_WIN):
        return error
    size = ruleset.hand_size
    unmarked = error.with_hint(Text(hint.key, **{**hint.params, "unmarked": ""}))
    return HandError.of(
        "error.waits.tile_count",
        code=error.code,
        column=error.column,
        hint=unmarked.hint_text,
        message=unmarked,
        size=size,
        more=size + 1,
    )


def _validate(ruleset: RuleSet, parsed: ParsedHand, options: Mapping[str, Any] | None) -> None:
    """The checks `score_hand` makes of a non-winning hand (tile counts, melds, conditions)."""
    _prepared(ruleset, parsed, ruleset.resolve_options(options))


def _prepared(ruleset: RuleSet, parsed: ParsedHand, resolved: dict[str, int]) -> Prepared:
    """The hand as `RuleSet.score` prepares it, with its checks (HandError)."""
    if not ruleset.stand_in_pungs:
        reject_stand_in_pungs(parsed)
    return ruleset.prepare(parsed, resolved)


WaitsFinder = Callable[[RuleSet, ParsedHand, Mapping[str, Any] | None, Check], tuple[Wait, ...]]


def plain_waits(
    ruleset: RuleSet, parsed: ParsedHand, options: Mapping[str, Any] | None, check: Check = no_check
) -> tuple[Wait, ...]:
    """The reference: every tile kind scored as the winning tile (a valid waiting hand)."""
    return _find_waits(_Scorer(ruleset, parsed, options), range(T.KIND_COUNT), check)


def quick_waits(
    ruleset: RuleSet, parsed: ParsedHand, options: Mapping[str, Any] | None, check: Check = no_check
) -> tuple[Wait, ...]:
    """`plain_waits`, scoring only the kinds `candidate_kinds` keeps that pass `standard_shape_test`
    where it applies, and each self-drawn win only where the rule set's discard score does not
    already tell it (`RuleSet.self_drawn_from_discard`)."""
    scorer = _Scorer(ruleset, parsed, options, derive=True)
    kinds = scorer.candidates()
    no_reading = one_search(ruleset, scorer.waiting, kinds)
    if no_reading:
        kinds = [kind for kind in kinds if kind not in no_reading]
    return _find_waits(scorer, kinds, check)


def waits(
    hand: str,
    rules: str = DEFAULT_RULES,
    options: Mapping[str, Any] | None = None,
    *,
    finder: WaitsFinder = quick_waits,
    check: Check = no_check,
) -> Waits | Discards:
    """The waits of a hand without `+`; with one tile too many, each discard and its waits, best first.

    Bad input raises HandError, as `score_hand` does. `finder` chooses how the waits are found
    (`plain_waits`: every kind scored, the reference the tests compare `quick_waits` with);
    `check` is called between the steps of the search (the module's docstring).
    """
    ruleset = get(rules)
    own = ruleset.own_waits(hand, options, check)  # a rule set that finds its waits its own way
    if own is not None:
        return own
    parsed = ruleset.read_line(hand)
    check_waiting_line(parsed, hand)
    try:
        _validate(ruleset, parsed, options)  # a tile too many: its error has no hint, as its discards answer it
    except HandError as exc:
        discards = _discards(ruleset, parsed, options, finder, check)
        if discards is None:
            raise _worded_for_waits(exc, ruleset) from None
        return Discards(ruleset.name, to_text(parsed), discards)
    return Waits(ruleset.name, to_text(parsed), finder(ruleset, parsed, options, check))


def _discards(
    ruleset: RuleSet, parsed: ParsedHand, options: Mapping[str, Any] | None, finder: WaitsFinder, check: Check
) -> tuple[Discard, ...] | None:
    """Each discard that leaves a valid waiting hand, best first; None if no discard does (not a tile too many)."""
    ruleset.resolve_options(options)  # an unknown option is the error, not the tile count
    choices = []
    for kind in sorted(set(parsed.tiles)):
        check()
        rest = list(parsed.tiles)
        rest.remove(kind)
        after = parsed._replace(tiles=tuple(rest))
        try:
            _validate(ruleset, after, options)
        except HandError:
            continue
        scorer_wild = ruleset.wildcard_kinds(ruleset.prepare(after, ruleset.resolve_options(options)))
        if kind in scorer_wild and not ruleset.discards_wildcards:
            continue
        choices.append(Discard(T.name(kind), finder(ruleset, after, options, check)))
    if not choices:
        return None
    order = {T.name(k): k for k in range(T.KIND_COUNT)}
    return tuple(sorted(choices, key=lambda d: (-d.unseen_wins, -d.best_total, order[d.tile])))
