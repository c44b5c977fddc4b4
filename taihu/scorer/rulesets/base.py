"""What a rule set is: the `RuleSet` class, every question the shared machinery (the scoring loop, settlement,
the waits search, the arithmetic) asks a rule set, with its default answer.

A rule set module declares its data as rows (`interface.py`: items, exclusions, house options); `score` runs
the shared loop (`scoring_loop.py`) by default, after validation through the rule set's `prepare`
(`validation.py`), and a rule set may replace it with its own.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from functools import cached_property
from importlib import import_module
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ..engine import GROUP_TEXTS, PAIR, Group, ReadingFacts
from ..errors import HandError, Text, quote
from ..models import ExclusionKeys, HandScore, ItemInfo, OptionInfo, RuleSetInfo, Settlement, Table
from ..notation import ParsedHand, notation_error, parse, reject_stand_in_pungs, to_text
from ..said import said
from . import REGISTRY, rules_word
from .heuristics import no_winning_tile_notes
from .hints import with_hint
from .interface import (
    DECLARED_ONLY,
    HONOUR_TILES,
    NON_WINNERS,
    SUITED_TILES,
    Exclusion,
    Found,
    Item,
    Option,
    Outcome,
    Prepared,
    Sweep,
    excludes,
    scope_text,
)
from .rule_data import check_rule_data, check_search_contract
from .scoring_loop import ScoringLoop, score_item
from .validation import TileCountError

if TYPE_CHECKING:
    from ..waiting import Check, Discards, Waits

# a group's kind, then its shape: read by index, as a NamedTuple's fields by name cost several times more
BY_KIND = itemgetter(Group._fields.index("kind"), Group._fields.index("shape"))


class RuleSet(ScoringLoop):
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
    # -- what the page offers (GET /palette.json): the tiles it plays, in the page's order, and how many
    # wildcard kinds a hand of it names
    tiles: tuple[str, ...] = (*SUITED_TILES, *HONOUR_TILES)
    wild_kinds: int = 0
    wild_name: str = ""  # what the page calls the wildcard, where not 财神
    events: tuple[str, ...] = ()  # the side events its settlement takes (a table's `events`)
    # the API's examples (its OpenAPI document): score requests ({"hand", "options"}) and a /settle table
    examples: tuple[Mapping[str, Any], ...] = ()
    example_table: Mapping[str, Any] | None = None
    # -- a table (settlement)
    tenpai_seats: bool = False  # a drawn deal's seat may be {"tenpai": ...}
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
    def table_fields(self) -> frozenset[str]:
        """The table's own fields it reads, as its `words.toml` declares them (`TableField`); others refuse them."""
        line = REGISTRY.get(self.name)
        return frozenset(one.name for one in line.words.table) if line is not None else frozenset()

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
        whose tables read one by a rule of the house (a `round` among its `table_fields`); None: the table's own."""
        return None

    def arithmetic(self, score: HandScore) -> list[str]:
        """How this rule set reached the total of `score`: `lines` of the `arithmetic` module in its folder."""
        lines: Callable[[HandScore], list[str]] = import_module(f"{type(self).__module__}.arithmetic").lines
        return lines(score)

    # -- what the waits search asks (taihu/scorer/waiting.py) ---------------

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
        return list(map(GROUP_TEXTS.__getitem__, (*melds, *sets, *pairs)))

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

    def score_line(self, line: str, options: Mapping[str, Any] | None = None) -> HandScore:
        """A hand line read and scored by itself (`score_hand`, once the rule set is found)."""
        return self.score(self.read_line(line), options, alone=True)

    def read_line(self, line: str) -> ParsedHand:
        """A hand line read as this rule set reads it (marked fives, where its words declare them), its errors
        naming its conditions."""
        conditions, label = self._reader
        return parse(line, conditions, label, rules=self.name)

    @cached_property
    def _reader(self) -> tuple[frozenset[str], str]:
        """What the errors of this rule set's lines name: the conditions known, the rule set (its name also picks
        the players' words and the marks only it reads, `金:`, `0m`)."""
        return self.conditions, self.name.capitalize()

    def score(
        self, parsed: ParsedHand, options: Mapping[str, Any] | None = None, *, alone: bool = False, hints: bool = True
    ) -> HandScore:
        """The hand's score; `alone`: scored by itself, not at a table, where a missing `+` is noted.

        At a table the winner is named and the others lose on purpose; a hand
        scored alone with no `+` may be a win whose `+` was left out.

        The extension point of scoring: this default is the shared loop
        (`prepare`, then `best_reading` over `readings`, the exclusions and
        `finish`); a rule set that scores its own way overrides it,
        keeping this signature. `hints`: a wrong tile count's error names its
        likely slip (`hints.with_hint`, a search that scores candidate hands
        with `hints=False`, so it never starts another).
        """
        if parsed.melds and not self.stand_in_pungs:
            reject_stand_in_pungs(parsed)
        resolved = self.resolve_options(options)
        try:
            hand = self.prepare(parsed, resolved)
        except TileCountError as error:
            if not hints:
                raise
            raise with_hint(error) from None
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
        scored = HandScore(
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
