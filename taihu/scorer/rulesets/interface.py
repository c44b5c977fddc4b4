"""What a rule set's data is written with: its items, exclusions and house options, the kinds and scopes they
name, the tiles a rule set plays, and the values the scoring loop passes around (`Outcome`, `Prepared`).

A rule set module declares its items (key, names, value, kind, a finder and the reading facts it reads), its
exclusions and its house options as these rows; the `RuleSet` class (`base.py`) holds them and the scoring
loop (`scoring_loop.py`) scores with them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..engine import CHOW, GATE_FACTS, KONG, PUNG, Group, ReadingFacts, StandIns
from ..limits import MAX_OPTION_VALUE
from ..models import ScoreItem
from ..notation import Meld, ParsedHand
from ..said import Said, said, said_from

# Who an item is for (`Item.scope`). The strings are the answers' `scope` (docs/api.md) and stay as they are;
# the names say who, the words (`SCOPE_WORDS`) say it on the rules pages.
EVERY_PLAYER = "base"  # every player, winner or not
NON_WINNERS = "non-winner"  # non-winners only
WINNER_ONLY = "bonus"  # the winner only
DECLARED_ONLY = "declared"  # a declared win: nothing else counts
VALUE_CODE = "value."  # an item's `text` that is a catalog code, not a template of numbers alone
# each scope as the answers give it (`ItemInfo.scope`): the string itself in English, a word in Chinese
SCOPE_TEXTS = {
    EVERY_PLAYER: "scope.base",
    NON_WINNERS: "scope.non_winner",
    WINNER_ONLY: "scope.bonus",
    DECLARED_ONLY: "scope.declared",
}
SCOPE_WORDS = {
    EVERY_PLAYER: "every player",
    NON_WINNERS: "non-winners",
    WINNER_ONLY: "the winner",
    DECLARED_ONLY: "a declared win",
}


class Kind(str):
    """How an item counts (`Item.kind`), as its rule set's page names its table, and what its items' values
    count (`ScoreItem.unit`): each rule set's `finish` groups its items by kind, and the unit is said once a
    kind, so no item states a unit by hand. A rule set declares its own (`Kind("base tai", "tai")`)."""

    unit: str

    def __new__(cls, name: str, unit: str) -> Kind:
        kind = super().__new__(cls, name)
        kind.unit = unit
        return kind


Reading = tuple[Group, ...]
# (item, points, detail); for an item with `describe`, until `score` describes it, what the finder yielded
Found = list[tuple["Item", int, Any]]
# Which row(s) of an item's value table apply: a row's name, or several (each counted once per mention).
Variant = str | tuple[str, ...]
# (hand, reading facts or None) -> (variant, detail) per occurrence, or (variant, subject) for an item with
# `describe`; each rule set narrows the types, hence `...`
Finder = Callable[..., Iterable[tuple[Variant, Any]]]
ONE = ""  # the variant of an item with a single value
# An item the scoring loop evaluates: the item, its place among those found once per hand (-1: found per
# reading), and its value rows when a row's number is the points (no house option)
Opened = tuple["Item", int, "Rows | None"]
# The reading a winner scores: its items valued (not described), its outcome, the reading and its facts
Chosen = tuple[Found, "Outcome", Any, ReadingFacts]


class Rows(dict[Variant, int]):
    """An item's value table: a row by its name, or several rows (a tuple of names) summed."""

    def __missing__(self, rows: Variant) -> int:
        if isinstance(rows, str):
            raise KeyError(rows)
        n = self[rows] = sum([self[r] for r in rows])  # the few tuples a finder yields, kept
        return n


@dataclass(frozen=True)
class Item:
    """One scoring item of a rules table: the one place its value, kind and gate are written.

    `value` is the number scored (an int) or a table of them by variant
    (`{"simple": 2, "terminal": 4}`); with `option` set it is a factor of that
    house option's value. `find(hand, facts)` yields one (variant, detail)
    per occurrence — which row applies, never a number. `text` is how the
    rules table shows the value, a template filled from the value data (`{}`
    is an int value, `{row}` a row, each at the default options), so the two
    cannot disagree. `kind` is how the rule set's `finish` counts the item.

    `reads` names the facts of a reading (`engine.ReadingFacts`) the finder
    reads; an item reading none is found once per hand, with facts None, so
    a finder that reads a fact it did not declare fails instead of scoring
    nothing. `gate` names facts of which a reading needs one for the item to
    apply at all: a reading with none skips the finder (the answer is the
    same either way, as tests/test_gates.py checks).

    `describe`, when set, builds the detail from what the finder yielded in
    its place (a group, a tile…), so a reading that does not score best
    costs no detail text.
    """

    key: str
    name: str
    name_en: str
    value: int | Mapping[str, int]
    kind: Kind
    scope: str
    find: Finder
    text: str = "{}"
    option: str = ""  # the house option `value` multiplies
    reads: tuple[str, ...] = ()
    gate: tuple[str, ...] = ()
    # (hand, facts, subject) -> the detail, when the finder yields a subject (a group, …) in the detail's place:
    # then only the reading that scores best is described (`RuleSet.score`)
    describe: Callable[..., str] | None = None
    text_params: Mapping[str, object] = field(default_factory=dict)  # more parameters of a `text` code
    # the ScoreItem of each (value, detail) scored so far: the same few lines recur hand after hand
    lines: dict[tuple[int, str], ScoreItem] = field(default_factory=dict, compare=False, repr=False)
    written_at: str = field(default="", init=False, compare=False, repr=False)  # `file:line`, as Exclusion's

    def __post_init__(self) -> None:
        object.__setattr__(self, "written_at", caller_line())
        if not isinstance(self.kind, Kind):  # a kind with no unit would fail on the first hand that scores it
            raise ValueError(f"item {self.key}: kind {self.kind!r} is no Kind (a name and its unit)")
        if self.gate and not self.reads:
            raise ValueError(f"item {self.key}: a gated item reads the reading; name what it reads")
        if not GATE_FACTS.issuperset(self.gate):  # a misspelt fact would shut the gate on every reading
            raise ValueError(
                f"item {self.key}: gate facts {sorted(set(self.gate) - GATE_FACTS)} are none of {sorted(GATE_FACTS)}"
            )

    @cached_property
    def rows(self) -> Rows:
        """The value table by variant; an int value is the one row `ONE`."""
        return Rows({ONE: self.value} if isinstance(self.value, int) else self.value)

    @cached_property
    def plain_rows(self) -> Rows | None:
        """`rows`, where they are the points; None where a house option scales them (`points` then)."""
        return None if self.option else self.rows

    def points(self, variant: Variant, options: Mapping[str, int]) -> int:
        n = self.rows[variant]
        return n * options[self.option] if self.option else n

    def shown(self, defaults: Mapping[str, int]) -> str:
        """The value column of the rules table, rendered from the value data at the default options; a `text`
        with words is a catalog code (`value.…`, its number as `{value}`), shown as a `Said`."""
        factor = defaults[self.option] if self.option else 1
        if self.text.startswith(VALUE_CODE):
            rows = {ONE: self.value} if isinstance(self.value, int) else self.value
            numbers = {"value": self.value * factor} if isinstance(self.value, int) else {}
            values = {**defaults, **self.text_params, "key": self.key, **numbers}
            return said_from(self.text, values | {row: n * factor for row, n in rows.items()})
        if isinstance(self.value, int):
            return self.text.format(self.value * factor, **defaults)
        fields = {row: n * factor for row, n in self.value.items()}
        return self.text.format(**{**defaults, **fields})


@dataclass(frozen=True)
class Exclusion:
    """When `present` is scored, `removes` are not (the table's "no X" notes). `rule` is the sentence it comes
    from: the rule's source in its own words where it says so, else the rules page's statement of it, so a
    reader can check the row against the rule; the rules page and the rules answer show it."""

    present: str
    removes: tuple[str, ...]
    rule: str
    # where the row is written (`file:line`), for the error naming it when a key of it names no item
    written_at: str = field(default="", init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "written_at", caller_line())
        if not self.rule.strip():
            raise ValueError(f"{self.written_at}: {self.row()}: no rule sentence")

    def row(self) -> str:
        """The row as it is written, its sentence left out: `Exclusion('gang_kai', ('zi_mo',), …)`."""
        return f"Exclusion({self.present!r}, {self.removes!r}, …)"


@dataclass(frozen=True)
class Option:
    """A house option. `seed_alternatives` are the values the rule's seed names besides the default (the
    answers' `alternatives`): a suggestion, not a restriction, since houses vary; any whole number from 0 to
    `maximum` is accepted."""

    name: str
    default: int
    seed_alternatives: tuple[int, ...]
    description: str  # its catalog code (`option.…`)
    # its Chinese name, what a Chinese reader calls it (`-o` takes `name`); its description in Chinese opens with it
    chinese: str = ""
    maximum: int = MAX_OPTION_VALUE  # the range is 0..maximum (docs/limits.md)
    params: Mapping[str, object] = field(default_factory=dict)  # the description's parameters
    written_at: str = field(default="", init=False, compare=False, repr=False)  # `file:line`, as Exclusion's

    def __post_init__(self) -> None:
        object.__setattr__(self, "written_at", caller_line())


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


# A sweep of a waiting hand's tiles (`RuleSet.sweep`): the natural tiles' counts, the wildcards, the sets to
# find, and the tiles to add by the stand-ins their hands get
Sweep = tuple[list[int], int, int, Mapping[StandIns, list[int]]]


# The tiles a rule set may play, by family, as the notation names them: the page offers a rule set's `tiles`.
SUITED_TILES = tuple(f"{n}{suit}" for suit in "mps" for n in range(1, 10))
HONOUR_TILES = ("E", "S", "W", "N", "C", "F", "P")
FLOWER_TILES = tuple(f"f{n}" for n in range(1, 9))


def scope_text(scope: str) -> str:
    """An item's scope as the answers give it: its code's text (the scope itself in English)."""
    return said(SCOPE_TEXTS[scope]) if scope in SCOPE_TEXTS else scope


def excludes(present: str, removes: Iterable[str]) -> Said:
    """An exclusion as the rules answer says it: `peng_peng_he excludes ping_pai`."""
    return said("value.excludes", present=present, removes=", ".join(removes))


def with_tiles(counts: list[int], extra: tuple[int, ...]) -> list[int]:
    """A count array with the tiles of `extra` added (a new list)."""
    out = list(counts)
    for kind in extra:
        out[kind] += 1
    return out


def tiles_of(counts: list[int]) -> list[int]:
    """A count array as its tiles, one entry a tile, in kind order."""
    return [kind for kind, count in enumerate(counts) for _ in range(count)]


def rank(outcome: Outcome) -> tuple[bool, int, int]:
    """How readings compare: a legal win first (a player claims the reading that lets them win), then the most
    points; ties: the higher subtotal (ruling of 2026-11-30). The first reading of the best rank is scored."""
    return outcome.legal, outcome.total, outcome.subtotal


ROOT = Path(__file__).resolve().parents[3]  # the project's folder: the rows' files are named from it


def caller_line() -> str:
    """Where the row being made is written, `file:line` from the project's folder: the first frame outside this
    module and the dataclass's own `__init__` (a row may be made by a helper of its rule set: its line then)."""
    frame = sys._getframe(1)
    while frame.f_back is not None and (frame.f_code.co_filename == __file__ or frame.f_code.co_filename[:1] == "<"):
        frame = frame.f_back
    path = Path(frame.f_code.co_filename)
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    return f"{shown.as_posix()}:{frame.f_lineno}"


def flag_item(condition: str) -> Finder:
    """An item that is just a condition of the win: `kong-draw` gives 杠开, `heaven` 天胡."""

    def find(hand: Prepared, facts: None) -> list[tuple[Variant, str]]:
        return FOUND if hand.has(condition) else NONE

    return find


def once(variant: Variant = ONE, detail: str = "") -> list[tuple[Variant, str]]:
    return [(variant, detail)]


NONE: list[tuple[Variant, str]] = []
FOUND: list[tuple[Variant, str]] = [(ONE, "")]  # the item applies once, with no detail


def meld_group(meld: Meld, kind: int | None = None) -> Group:
    """A written meld as the group it scores as: a kong (exposed or concealed), else an exposed chow or pung.

    `kind` is what its first tile plays as when that is not the tile itself (白 as the 财神's face).
    """
    kind = meld.tiles[0] if kind is None else kind
    if meld.is_kong:
        return Group(KONG, kind, exposed=not meld.concealed, concealed_kong=meld.concealed)
    return Group(CHOW if meld.is_chow else PUNG, kind, exposed=True)
