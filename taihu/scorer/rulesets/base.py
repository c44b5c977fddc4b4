"""What a rule set is made of, and the one scoring loop they all share.

A rule set module declares its items (key, names, value, kind, a finder
and the reading facts it reads), its exclusions and its house options as
data; `score()` below does the rest: validation through the rule set's
`prepare`, the search over readings (each read once into `ReadingFacts`),
the exclusions, and the rule set's own way of turning items into a total,
grouped by the items' kinds.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import tiles as T
from ..engine import CHOW, GATE_FACTS, KONG, PAIR, PUNG, Group, ReadingFacts, StandIns, group_text
from ..errors import HandError, Term, Text, quote
from ..limits import MAX_OPTION_VALUE
from ..models import ExclusionKeys, HandScore, ItemInfo, OptionInfo, RuleSetInfo, ScoreItem, Settlement, Table
from ..notation import (
    Meld,
    ParsedHand,
    notation_error,
    parse,
    parse_red_fives,
    reject_stand_in_pungs,
    to_text,
)
from ..said import Said, phrase, said, said_from
from . import REGISTRY, condition_word, owner_of, rules_word, rules_words

NO_WINNING_TILE_NOTE = phrase("note.no_winning_tile", "tile")
NO_SEAT_NOTE = phrase("note.no_seat")

if TYPE_CHECKING:
    from ..waits import Check, Discards, Waits

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


class RuleSet:
    """Base of a rule set; subclasses set the data and `prepare`/`readings`/`finish`.

    Everything the shared machinery (the scoring loop, settlement, the waits
    search, the arithmetic) knows of a rule set it asks here: a rule set's
    folder under `rulesets/` overrides what differs (docs/architecture.md).
    """

    name: str = ""
    chinese: str = ""
    unit: str = "tai"  # what a hand's total counts (`HandScore.unit`): a unit the message catalog names
    conditions: frozenset[str] = frozenset()  # the conditions its hands may be written with
    declared_wins: Collection[str] = ()  # the wins `declare:` may name
    items: tuple[Item, ...] = ()
    exclusions: tuple[Exclusion, ...] = ()
    options: tuple[Option, ...] = ()
    stand_in_pungs: bool = False  # 花碰 `[CC2m]` allowed; else it is no meld
    red_fives: bool = False  # `0m 0p 0s` read as red fives; else they are an error
    single_wild_kind: bool = False  # the one wildcard kind is the kind `wild:` names (`holds_wildcard`)
    # -- what the page offers (GET /palette.json): the tiles it plays, in the page's order, and how many
    # wildcard kinds a hand of it names
    tiles: tuple[str, ...] = (*SUITED_TILES, *HONOUR_TILES)
    wild_kinds: int = 0
    wild_name: str = ""  # what the page calls the wildcard, where not 财神
    events: tuple[str, ...] = ()  # the side events its settlement takes (a table's `events`)
    # the API's examples (its OpenAPI document): score requests ({"hand", "options"}), a /settle table and a
    # waiting line whose /waits answer is the document's example answer
    examples: tuple[Mapping[str, Any], ...] = ()
    example_table: Mapping[str, Any] | None = None
    example_waits: str = ""
    # -- a table (settlement)
    table_fields: frozenset[str] = frozenset()  # the table's own fields it reads (honba, pot, round); else refused
    tenpai_seats: bool = False  # a drawn deal's seat may be {"tenpai": ...}
    pot_stick: str = "stick"  # what a stick in the pot is called, where the table carries one (`table_fields`)
    subtotal_unit: str = ""  # what the subtotal counts, where not the unit
    # -- the waits search
    discards_wildcards: bool = True  # a player may discard a wildcard (a 何切る then offers it)
    claims_wildcards: bool = True  # a discarded wildcard can be won on
    lone_tiles_win: bool = False  # a shape wins with lone tiles (十三不靠): every kind may complete a hand
    same_readings_self_drawn: bool = False  # its readings do not depend on how the hand was won
    # -- the search's contract (its folder's search.py): for each item that reads a reading, the facts its
    # representatives and reading classes keep exact; None: its search classes nothing away (no wildcards).
    # Checked when the class is made (`check_search_contract`).
    search_keeps: Mapping[str, tuple[str, ...]] | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        check_rule_data(cls)
        check_search_contract(cls)

    @property
    def hand_size(self) -> int:
        """A non-winning hand's tile count, as the registry line says it."""
        return REGISTRY[self.name].hand_size

    def settle(self, table: Table) -> Settlement:
        """Who pays whom at a table of this rule set: `settle` of the `settlement` module in its folder."""
        where = f"{type(self).__module__}.settlement"
        try:
            settlement = import_module(where)
        except ModuleNotFoundError as exc:
            if exc.name != where:
                raise
            raise HandError.of("error.rules.no_settlement", code="no_settlement", rules=rules_word(self.name)) from None
        settle: Callable[[Table], Settlement] = settlement.settle
        return settle(table)

    def ledger_round(self, deal: int) -> str | None:
        """The prevalent wind a ledger gives its `deal`-th deal (from 1) where the table does not, for a rule set
        whose tables read one by a rule of the house (`table_fields` with `round`); None: the table's own."""
        return None

    def arithmetic(self, score: HandScore) -> list[str]:
        """How this rule set reached the total of `score`: `lines` of the `arithmetic` module in its folder."""
        lines: Callable[[HandScore], list[str]] = import_module(f"{type(self).__module__}.arithmetic").lines
        return lines(score)

    # -- what the waits search asks (taihu/scorer/waits.py) ---------------

    def own_waits(self, line: str, options: Mapping[str, Any] | None, check: Check) -> Waits | Discards | None:
        """The waits of a line, where a rule set finds them its own way (one may score through its own
        pipeline, not `prepare`), calling `check` between its steps; None (the default): the shared
        search finds them."""
        return None

    def copies_in_play(self, kind: int, parsed: ParsedHand) -> int:
        """The tiles of a kind in play (a revealed wildcard out of play or not)."""
        return 4

    def wildcard_kinds(self, hand: Any) -> frozenset[int]:
        """The kinds that are wildcards in a prepared hand."""
        return frozenset()

    def holds_wildcard(self, parsed: ParsedHand) -> bool:
        """Whether a line read by this rule set may hold a wildcard tile: its search is then the wildcard
        search, whose cost grows with the wildcards held (the API scores such a hand in a worker thread).

        False where the line names no wildcard (no `wild:` nor `flip:`), or where the rule set makes the one
        kind `wild:` names the wildcard (`single_wild_kind`) and no tile of the line is of it; True
        otherwise, a line the scoring will refuse included."""
        if parsed.wild is None and parsed.flip is None:
            return False
        if self.single_wild_kind and parsed.flip is None and parsed.wild is not None and len(parsed.wild) == 1:
            return holds_kind(parsed, parsed.wild[0])
        return True

    def as_faces(self, hand: Any) -> Any:
        """The prepared hand with every wildcard tile playing only as its own face; None if a face cannot meld."""
        return hand

    def standard_shape(self, hand: Any) -> tuple[list[int], int] | None:
        """For a prepared hand without wildcards whose only winning shape is sets + a pair: its natural
        concealed kinds (one entry a tile) and the sets they must make; None where that does not apply."""
        return None

    def self_drawn_from_discard(self, total: int, subtotal: int, options: Mapping[str, int]) -> int | None:
        """The self-drawn total of a natural winning tile read off its total and subtotal on a discard, where
        the rule set allows it (the same reading wins both ways); None: the self-drawn line is scored."""
        return None

    def sweep(self, hand: Any, kinds: list[int]) -> Sweep | None:
        """A waiting hand holding wildcards, to be searched with each natural tile of `kinds` added in one
        sweep before the tiles are scored; None where the hands are searched one by one."""
        return None

    def prepare(self, parsed: ParsedHand, options: dict[str, int]) -> Prepared:
        raise NotImplementedError

    def readings(self, hand: Any) -> Iterable[Any]:
        """The ways to read a winning hand; a rule set chooses what a reading is (groups, or groups and more)."""
        raise NotImplementedError

    def finish(self, hand: Any, found: Found) -> Outcome:
        raise NotImplementedError

    def facts_of(self, reading: Any) -> ReadingFacts:
        """The facts the items read of a reading: a reading of groups is wrapped; one that has them is kept."""
        return reading if isinstance(reading, ReadingFacts) else ReadingFacts(reading)

    def as_shown(self, hand: Any, reading: Any) -> Any:
        """The reading as it is described and shown; a rule set whose readings leave what changes no value
        undone (the wildcards on their slots) does it here, for the one reading kept."""
        return reading

    def no_shape_error(self, hand: Any) -> HandError:
        """The error of a winner's hand that no reading makes a win; a rule set names its shapes."""
        return HandError.of("error.shape.none", code="no_winning_shape", shape=self.chinese)

    def no_wild_said_first(self, hand: Any, error: HandError) -> HandError:
        """No winning shape (`error`); where the rule set has wildcards and the line names none, that is said
        first, as a hand holding them is most often no win only because `wild:` was left out."""
        parsed: ParsedHand = hand.parsed
        named = "wild" in self.conditions or "flip" in self.conditions
        if not named or parsed.wild is not None or parsed.flip is not None:
            return error
        how = Text("error.notation.how.wild_or_flip" if "flip" in self.conditions else "error.notation.how.wild")
        return notation_error("error.notation.no_wild_no_shape", code="no_winning_shape", how=how, shape=error)

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
        sets.sort(key=BY_KIND)
        return list(map(group_text, (*melds, *sets, *pairs)))  # the memo, called from C

    # -- shared machinery -------------------------------------------------

    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, int]:
        if not given:
            return self._defaults.copy()
        known = {o.name: o for o in self.options}
        resolved = self._defaults.copy()
        for key, value in given.items():
            if key not in known:
                names = ", ".join(known) or Text("error.option.none")
                raise HandError.of(
                    "error.option.unknown",
                    code="unknown_option",
                    field=f"options.{key}" if isinstance(key, str) else "options",
                    option=quote(key),
                    rules=rules_word(self.name),
                    names=names,
                )
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise HandError.of(
                    "error.option.not_whole", code="bad_option", field=f"options.{key}", option=key, got=quote(value)
                )
            if value > known[key].maximum:
                raise HandError.of(
                    "error.option.too_large",
                    code="bad_option",
                    field=f"options.{key}",
                    option=key,
                    most=known[key].maximum,
                    got=quote(value),
                )
            resolved[key] = value
        return resolved

    def info(self) -> RuleSetInfo:
        return RuleSetInfo(
            name=self.name,
            chinese=self.chinese,
            unit=self.unit,
            items=[
                ItemInfo(
                    key=i.key,
                    name=i.name,
                    name_en=i.name_en,
                    value=i.shown(self._defaults),
                    scope=scope_text(i.scope),
                    unit=i.kind.unit,
                )
                for i in self.items
            ],
            options=[
                OptionInfo(
                    name=o.name,
                    default=o.default,
                    alternatives=list(o.seed_alternatives),
                    description=said(o.description, **o.params),
                )
                for o in self.options
            ],
            exclusions=[excludes(e.present, e.removes) for e in self.exclusions],
            exclusion_rules=[e.rule for e in self.exclusions],
            exclusion_keys=[ExclusionKeys(present=[e.present], removes=list(e.removes)) for e in self.exclusions],
        )

    def item_units(self) -> dict[str, str]:
        """The kinds of this rule set's items, in table order, and the unit each kind's items count in."""
        return {i.kind: i.kind.unit for i in self.items}

    @cached_property
    def _defaults(self) -> dict[str, int]:
        return {o.name: o.default for o in self.options}

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

    def score_line(self, line: str, options: Mapping[str, Any] | None = None) -> HandScore:
        """A hand line read and scored by itself (`score_hand`, once the rule set is found)."""
        return self.score(self.read_line(line), options, alone=True)

    def read_line(self, line: str) -> ParsedHand:
        """A hand line read as this rule set reads it (red fives, where it reads them), its errors naming its
        conditions."""
        read, conditions, label = self._reader
        return read(line, conditions, label, rules=self.name)

    @cached_property
    def _reader(self) -> tuple[Callable[..., ParsedHand], frozenset[str], str]:
        """The parser for this rule set's lines, and what its errors name: the conditions known, the rule set
        (its name also picks the players' words only it reads, `金:`)."""
        return (parse_red_fives if self.red_fives else parse), self.conditions, self.name.capitalize()

    def score(self, parsed: ParsedHand, options: Mapping[str, Any] | None = None, *, alone: bool = False) -> HandScore:
        """The hand's score; `alone`: scored by itself, not at a table, where a missing `+` is noted.

        At a table the winner is named and the others lose on purpose; a hand
        scored alone with no `+` may be a win whose `+` was left out.
        """
        if not self.stand_in_pungs:
            reject_stand_in_pungs(parsed)
        hand = self.prepare(parsed, self.resolve_options(options))
        arrangement: list[str] = []
        facts: ReadingFacts | None = None
        if hand.declared or not hand.winner:
            found = self._evaluate(self._plan[DECLARED_ONLY if hand.declared else NON_WINNERS], hand, None)
            if not hand.declared:
                found = self._exclude(found)
            outcome = self.finish(hand, found)
        else:
            chosen = self.best_reading(hand)
            if chosen is None:
                raise self.no_wild_said_first(hand, self.no_shape_error(hand))
            found, outcome, reading, facts = chosen
            arrangement = self.arrangement(hand, reading)
        lines = []
        for i, v, d in found:
            if i.describe is not None:  # the detail, built for the reading kept only
                d = i.describe(hand, facts, d)
            lines.append(i.lines.get((v, d)) or score_item(i, v, d))  # most lines are known
        scored = new_instance(HandScore)
        HandScore.__init__(
            scored,
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
            notes=[
                *getattr(parsed.columns, "read_as", ()),  # what was read otherwise than typed (input_slips)
                *(no_winning_tile_notes(parsed) if alone and not hand.winner else []),
                *hand.notes,
                *outcome.notes,
            ],
        )
        return scored


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


# An instance made bare, to be filled by its class's own `__init__` called by keywords: half the cost of calling
# the class by keywords, which first gathers them in a dict and then matches them to the parameters again.
new_instance = object.__new__


def rank(outcome: Outcome) -> tuple[bool, int, int]:
    """How readings compare: a legal win first (a player claims the reading that lets them win), then the most
    points; ties: the higher subtotal (ruling of 2026-11-30). The first reading of the best rank is scored."""
    return outcome.legal, outcome.total, outcome.subtotal


_NO_FACTS: frozenset[str] = frozenset()


# a group's kind, then its shape: read by index, as a NamedTuple's fields by name cost several times more
BY_KIND = itemgetter(Group._fields.index("kind"), Group._fields.index("shape"))


def no_winning_tile_notes(parsed: ParsedHand) -> list[str]:
    """First among the notes of a non-winner scored alone: a hand typed without its `+` scores as a loser's, and
    says so, with a tile of the hand as the example of the `+` to write (`likely_wait`)."""
    return [NO_WINNING_TILE_NOTE(likely_wait(parsed))]


def likely_wait(parsed: ParsedHand) -> str:
    """The tile of the hand a winner would most likely have won on (`likely_wait_kind`); a hand of flowers only
    gets its first tile."""
    kind = likely_wait_kind(parsed)
    if kind is None:
        return T.name(parsed.tiles[0]) if parsed.tiles else ""
    return T.name(kind)


def likely_wait_kind(parsed: ParsedHand, set_aside: Collection[int] = ()) -> int | None:
    """A tile of the hand a winner would most likely have won on, found without a search (the note is on every
    non-winner scored alone; `slips.suggested_mark`, the search for a winner's count, falls back on it): what
    is left once pungs and chows are taken out, lowest first — a pair's tile (a pair waits on its third), else
    a single's (a single wait) —, else a pair's of the whole hand, else its highest tile. Never a flower nor a
    kind of `set_aside`; None where the hand holds no other."""
    kinds = sorted(kind for kind in parsed.tiles if not T.is_flower(kind) and kind not in set_aside)
    if not kinds:
        return None
    left = {kind: kinds.count(kind) for kind in kinds}
    for kind in sorted(left):
        while left[kind] >= 3:
            left[kind] -= 3
        chow = (kind, kind + 1, kind + 2)
        while T.is_suited(kind) and all(left.get(k, 0) and T.suit_of(k) == T.suit_of(kind) for k in chow):
            for k in chow:
                left[k] -= 1
    rest = [kind for kind, count in left.items() if count] or list(left)
    counts = left if any(left.values()) else {kind: kinds.count(kind) for kind in left}
    return max(rest, key=lambda kind: (counts[kind] == 2, kind))


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


def check_rule_data(rule_set: type[RuleSet]) -> None:
    """Every key a row of the rule set's data names is one of its own, checked when the class is made.

    A key is a plain string: a misspelt one in an exclusion would exclude nothing (or keep what the rule
    removes) without a sound, and one in an item's `option` would fail on the first hand that scores it.
    So an item key is declared once for whom it counts (a won and a declared item may share theirs), an
    exclusion and the search's contract (`search_keeps`) name items, an item's `option` names a house option,
    and an option is declared once; the error names the file, the line and the row.
    """
    problems: list[str] = []
    keys: set[str] = set()
    scoped: set[tuple[str, str]] = set()
    for item in rule_set.items:
        if (item.key, item.scope) in scoped:
            problems.append(f"{item.written_at}: Item({item.key!r}, …): item '{item.key}' is declared twice")
        keys.add(item.key)
        scoped.add((item.key, item.scope))
    options: dict[str, Option] = {}
    for option in rule_set.options:
        if option.name in options:
            problems.append(
                f"{option.written_at}: Option({option.name!r}, …): option '{option.name}' is declared twice"
            )
        options.setdefault(option.name, option)
    for item in rule_set.items:
        if item.option and item.option not in options:
            known = ", ".join(options) or "none"
            problems.append(
                f"{item.written_at}: Item({item.key!r}, …, option={item.option!r}): no house option "
                f"'{item.option}' (its options: {known})"
            )
    problems += exclusion_problems(rule_set.exclusions, keys)
    keeps = rule_set.search_keeps or {}
    for key in keeps:
        if key not in keys:
            declared_by = next(c for c in rule_set.__mro__ if "search_keeps" in c.__dict__)
            where = f"{declared_by.__module__.replace('.', '/')}/search.py"
            problems.append(f"{where}: KEPT_FOR_ITEMS[{key!r}]: no item '{key}'")
    if problems:
        raise TypeError(f"the rule data of {rule_set.name or rule_set.__name__}: " + "; ".join(problems))


def exclusion_problems(exclusions: Iterable[Exclusion], keys: Collection[str]) -> list[str]:
    """Each key an exclusion names that is none of `keys` (the rule set's items), with the row naming it."""
    return [
        f"{e.written_at}: {e.row()}: no item '{key}'"
        for e in exclusions
        for key in (e.present, *e.removes)
        if key not in keys
    ]


def check_search_contract(rule_set: type[RuleSet]) -> None:
    """An item reading a fact of a reading that the rule set's search does not declare it keeps is an error.

    The wildcard search tries an all-wildcard group only as the representatives the rule set gives
    and merges readings whose groups are of one class (docs/architecture.md, the wildcard search): an
    item reading what those erase (a "terminal pung" reading ranks of suited pungs) would score
    wrong without a sound. So the declaration beside the classes (`search_keeps`) names the facts kept
    for each item, and an item reading more is refused here, naming the declaration to fix.
    """
    keeps = rule_set.search_keeps
    if keeps is None:
        return
    declared_by = next(c for c in rule_set.__mro__ if "search_keeps" in c.__dict__)
    where = f"{declared_by.__module__.replace('.', '/')}/search.py"
    for item in rule_set.items:
        erased = [fact for fact in item.reads if fact not in keeps.get(item.key, ())]
        if erased:
            raise TypeError(
                f"{rule_set.name} item '{item.key}' reads {', '.join(erased)} of a reading, which its search "
                f"does not declare it keeps: all-wildcard groups are tried only as the representatives of "
                f"`stand_ins` and readings of one class are merged (the class functions of {where}). "
                f"Make those keep what '{item.key}' reads, then add it to `KEPT_FOR_ITEMS` in {where}"
            )


def check_known_conditions(
    parsed: ParsedHand, rule_set: str, known: frozenset[str], hints: Mapping[str, Text] | None = None
) -> None:
    """A condition another rule set uses is an error naming it and this rule set."""
    if (
        parsed.flags <= known
        and (parsed.seat is None or "seat" in known)
        and (parsed.wild is None or "wild" in known)
        and (parsed.flip is None or "flip" in known)
        and (parsed.declare is None or "declare" in known)
        and not parsed.deal_values
    ):
        return  # all known: the common case, without listing the conditions
    for cond in parsed.conditions:
        if cond not in known:
            col = parsed.columns.get(cond, 0)
            hint: Text | str = (hints or {}).get(cond, "")
            owner = owner_of(cond)
            if not hint and owner is not None:
                hint = Text("error.condition.owner", owner=owner, name=rules_word(owner))
            raise HandError.of(
                "error.condition.not_used",
                code="unknown_condition",
                column=col or None,
                cond=condition_word(quote(cond)),
                at=col,
                rules=rules_word(rule_set),
                hint_part=hint,
            )


def seat_or_dealer(parsed: ParsedHand, notes: list[str]) -> str:
    """The seat written, or E with a note: for rule sets whose score depends on the seat, as a missing wild: is."""
    if parsed.seat is not None:
        return parsed.seat
    notes.append(NO_SEAT_NOTE())
    return "E"


def tile_count_error(
    parsed: ParsedHand, rule_set: str, size: int, hand_size: int, winner: bool, set_aside: Collection[int] = ()
) -> HandError:
    """The wrong-count error of every rule set's `prepare`, with the likely slip named and its fix.

    `size` is the count as the rule set counts it (a kong as 3), `hand_size`
    a non-winner's (13 or 16); `set_aside` the kinds written bare that are not
    counted (白 where it is a flower). The hints, most particular first: four
    alike left unmarked (a kong); for a winner with a tile too many, the tile
    whose removal leaves the best win (`slips`: the winning tile written twice
    only if it is that tile), for one a tile short the tile that completes it;
    a winner's count with no `+` (a tile of the hand as the `+` to write); and
    a count that fits another rule set.
    """
    name = rules_word(rule_set.capitalize())
    needed = hand_size + 1 if winner else hand_size
    if winner:
        problem = Text("error.tile_count.winner", size=size, rules=name, needed=needed, hand_size=hand_size)
    else:
        problem = Text("error.tile_count.non_winner", size=size, rules=name, hand_size=hand_size)
    fours = sorted({k for k in parsed.tiles if k not in set_aside and parsed.tiles.count(k) >= 4})
    if fours and size - needed == len(fours):
        first = T.name(fours[0])[0] * 4 + T.name(fours[0])[1:]
        return HandError.of(
            "error.tile_count.unmarked_kong",
            code="unmarked_kong",
            column=parsed.tile_column(fours[0]),
            hint=Text("error.hint.write_kong", kong=first),
            problem=problem,
            tiles=" ".join(T.name(k) for k in fours),
        )
    from .. import slips  # the search for the slip: loaded with the first count error only

    # one tile too many for a winner: the tile whose removal leaves a win is named, the `+` tile only if it is one
    strays = slips.removals_that_win(parsed, rule_set, set_aside) if winner and size - 1 == needed else []
    if winner and parsed.win is not None and parsed.win in strays:
        return HandError.of(
            "error.tile_count.winning_tile_twice",
            code="winning_tile_twice",
            column=parsed.columns.get("+"),
            hint=Text("error.hint.winning_tile_once"),
            problem=problem,
            tile=T.name(parsed.win),
        )
    if strays:
        return stray_tile_error(problem, parsed, strays)
    # one tile short of a win: the tile that makes the best win, where one does
    missing = slips.additions_that_win(parsed, rule_set) if winner and size + 1 == needed else []
    if missing:
        return notation_error("error.notation.missing_tile", code="tile_count", problem=problem, tiles=either(missing))
    if not winner and size == hand_size + 1:
        mark = slips.suggested_mark(parsed, rule_set, set_aside)
        return HandError.of(
            "error.tile_count.no_winning_tile",
            code="no_winning_tile",
            hint=Text("error.hint.mark_the_win.tile", tile=T.said(13 if mark is None else mark)),  # 13: 5p
            problem=problem,
            size=size,
        )
    others = [other for other, other_size in hand_sizes().items() if other_size != hand_size]
    other_size = hand_sizes()[others[0]] if others else 0
    if others and size in (other_size + winner, other_size + 1):
        unmarked = "" if winner or size == other_size else Text(MARK_THE_WIN)
        return HandError.of(
            "error.tile_count.other_rules",
            code="tile_count",
            hint=Text("error.hint.other_rules", names=" / ".join(others), unmarked=unmarked),
            problem=problem,
            size=size,
            others=rules_words([o.capitalize() for o in others]),
        )
    return HandError.of("error.tile_count.plain", code="tile_count", problem=problem)


# a winning size of another rule set, typed without +: the hint says to mark the win (waits leaves it out)
MARK_THE_WIN = "error.hint.other_rules.mark_the_win"


def stray_tile_error(problem: Text, parsed: ParsedHand, strays: list[int]) -> HandError:
    """A winner's tile too many, named: the tiles whose removal leaves the best winning hand (`slips`), where the
    `+` tile's kind is none of them; a wind may be a seat word left among the tiles. It points at the last copy
    of the tile it names first (the wind, where it names one)."""
    wind = next((k for k in strays if T.is_wind(k)), None) if parsed.seat is None else None
    return notation_error(
        "error.notation.stray_tile" if wind is None else "error.notation.stray_tile.seat",
        code="stray_tile",
        column=parsed.tile_column(strays[0] if wind is None else wind, -1),
        problem=problem,
        tiles=either(strays),
        wind=None if wind is None else T.name(wind),
        chinese=None if wind is None else T.CHINESE_NAME[wind],
    )


def either(kinds: list[int]) -> Text:
    """Up to three tiles as alternatives: `1s or one 4s`."""
    names = [T.said(k) for k in kinds[:3]]
    return Text(EITHER[len(names) - 1], **dict(zip("abc", names, strict=False)))


EITHER = ("error.notation.either.1", "error.notation.either.2", "error.notation.either.3")


def hand_sizes() -> dict[str, int]:
    """Each rule set's non-winning hand size; looked up when an error is built, as the rule sets import this module."""
    from . import hand_sizes

    return hand_sizes()


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
                alternative = Text("error.condition.or_declared") if declared_wins else ""
                raise HandError.of(
                    "error.condition.needs_winning_tile",
                    code="needs_winning_tile",
                    column=parsed.columns.get(cond),
                    cond=condition_word(cond),
                    alternative=alternative,
                )
    for a, b, why in conflicts:
        if a in flags and b in flags:
            raise HandError.of(
                "error.condition.contradict",
                code="conditions_contradict",
                column=parsed.columns.get(b),
                first=condition_word(a),
                second=condition_word(b),
                why=Text(why),
            )


def not_a_declared_win(parsed: ParsedHand, rules: str, known: Iterable[str]) -> HandError:
    """A `declare:` of a win the rule set does not know; `known` are those it does. Another rule set's declared
    win names that rule set, as another rule set's condition does."""
    col = parsed.columns.get("declare", 0)
    reading = f"declare:{parsed.declare}"
    owner = next((name for name, line in REGISTRY.items() if reading in dict(line.words.players_words).values()), None)
    return HandError.of(
        "error.declare.not_of",
        code="unknown_declare",
        column=col or None,
        declare=declared_win_word(str(parsed.declare)),
        at=col,
        rules=rules_word(rules),
        known=declared_wins_word(known),
        owner=""
        if owner is None or owner == rules.lower()
        else Text(DECLARE_OWNER, name=rules_word(owner.capitalize()), owner=owner),
    )


DECLARE_OWNER = "error.declare.owner"  # `; it is a NAME declared win: score the hand with --rules NAME`


def declared_wins_word(known: Iterable[str]) -> Term:
    """Declared wins as a message lists them, by their keys; in Chinese each with the name players write first
    (the first players' word of the registry that reads as it)."""
    names = _declared_names()
    keys = list(known)
    return Term(", ".join(keys), "、".join(f"{names[key]} {key}" if key in names else key for key in keys))


def declared_win_word(key: str) -> Term:
    """One declared win as a message names it: its key; in Chinese `KEY（NAME）`, NAME the players' word for it."""
    name = _declared_names().get(key)
    return Term(key, key if name is None else f"{key}（{name}）")


def _declared_names() -> dict[str, str]:
    """Each declared win's key and the first players' word of the registry that reads as it."""
    prefix = "declare:"
    found: dict[str, str] = {}
    for line in REGISTRY.values():
        for word, reads_as in line.words.players_words:
            if reads_as.startswith(prefix):
                found.setdefault(reads_as.removeprefix(prefix), word)
    return found


def too_many_copies(parsed: ParsedHand, kind: int, seen: int, limit: int, why: Text | str = "") -> HandError:
    """A hand holding more of a tile than exist (`why`: the rule set's reason for a lower limit), pointing at the
    first copy over the limit ("1m appears 5 times": the fifth)."""
    return HandError.of(
        "error.tiles.too_many",
        code="tile_copies",
        column=parsed.tile_column(kind, limit + 1),
        hint=Text("error.hint.fewer_copies", tile=T.said(kind), most=limit),
        tile=T.name(kind),
        count=seen,
        most=limit,
        why=why,
    )


def heaven_needs_dealer(parsed: ParsedHand) -> HandError:
    """天胡 is the dealer's win."""
    return HandError.of(
        "error.condition.heaven_seat",
        code="condition_not_met",
        column=parsed.columns.get("heaven"),
        cond=condition_word("heaven"),
    )


def needs_non_dealer(parsed: ParsedHand, cond: str) -> HandError:
    """地胡 / 人胡 are a non-dealer's wins."""
    return HandError.of(
        "error.condition.non_dealer",
        code="condition_not_met",
        column=parsed.columns.get(cond),
        cond=condition_word(cond),
    )


def meld_place(meld: Meld) -> Text:
    """What a meld is, as an error names it: a concealed kong or an exposed meld."""
    return Text("error.meld.concealed_kong" if meld.concealed else "error.meld.exposed")


def holds_kind(parsed: ParsedHand, kind: int) -> bool:
    """Whether a tile of `kind` is anywhere in a line: in hand, in a meld, or the winning tile."""
    return kind in parsed.tiles or parsed.win == kind or any(kind in meld.tiles for meld in parsed.melds)


def wildcard_in_meld(kind: int, meld: Meld, why: Text | str = "", key: str = "error.meld.wildcard") -> HandError:
    """A wildcard written inside a meld, where the rule set lets none (`why`: its rule; `key`: a rule set's own
    wording, with the parameters `tile`, `where`, `meld`)."""
    return HandError.of(
        key,
        code="wild_in_meld",
        column=meld.column or None,
        tile=T.name(kind),
        where=meld_place(meld),
        meld=meld.source or meld.text(),
        why=why,
    )


def not_a_tile_of(parsed: ParsedHand, kind: int, rules: str, what: Text) -> HandError:
    """A tile the rule set does not play (a flower where there are none), pointing at its first copy; `what`
    says what the set is."""
    return HandError.of(
        "error.tiles.not_played",
        code="tile_not_played",
        column=parsed.tile_column(kind),
        hint=Text("error.hint.leave_out", tile=T.said(kind)),
        tile=T.name(kind),
        rules=rules_word(rules),
        what=what,
    )


def check_won_on_wildcard(parsed: ParsedHand, rule_set: str, self_drawn: Collection[str]) -> None:
    """Where a wildcard is never discarded nor claimed (`claims_wildcards` False), a win on one is on the
    player's own turn (one of `self_drawn`): a line won on one with none of them is an error naming `self`.
    Called by the rule set's `prepare`, so the score and the settlement (which scores each hand) say what
    `waits` says, which lists such a tile self-drawn only."""
    if parsed.declare is not None or not parsed.flags.isdisjoint(self_drawn) or parsed.win is None:
        return
    column = parsed.columns.get("+")
    raise notation_error(
        "error.notation.wildcard_on_discard.at" if column else "error.notation.wildcard_on_discard",
        code="wildcard_won_on_discard",
        column=column,
        tile=T.name(parsed.win),
        at=column,
        rules=rules_word(rule_set),
    )


def check_kong_draw(flags: Iterable[str], melds: Iterable[Group]) -> None:
    """杠开 is won on a kong's replacement tile, so the hand must show a kong."""
    if "kong-draw" in flags and not any(g.shape == KONG for g in melds):
        raise HandError.of(
            "error.condition.kong_draw_needs_kong",
            code="condition_not_met",
            hint=Text("error.hint.write_kong", kong="5555p"),
            cond=condition_word("kong-draw"),
        )


# Conditions that cannot stand together, with the reason (its msgid in the catalog), as several rule sets word them.
Conflict = tuple[str, str, str]
ROB_KONG_NOT_SELF: Conflict = ("rob-kong", "self", "error.conflict.rob_kong_self")
ROB_KONG_OR_KONG_DRAW: Conflict = (
    "rob-kong",
    "kong-draw",
    "error.conflict.rob_kong_kong_draw",
)
KONG_DRAW_NOT_LAST_TILE: Conflict = ("kong-draw", "last-tile", "error.conflict.kong_draw_last_tile")
HEAVEN_OR_EARTH: Conflict = ("heaven", "earth", "error.conflict.heaven_earth")


def on_dealt_hand(*others: str) -> tuple[Conflict, ...]:
    """天胡 is won on the dealt hand, so with none of `others`."""
    return tuple(("heaven", other, "error.conflict.on_dealt_hand") for other in others)


def on_first_discard(*others: str) -> tuple[Conflict, ...]:
    """地胡 is won on the dealer's first discard, so with none of `others`."""
    return tuple(("earth", other, "error.conflict.on_first_discard") for other in others)


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
