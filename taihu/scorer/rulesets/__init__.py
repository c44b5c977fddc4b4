"""The rule sets by name, each module imported on its first use.

`taihu score -r NAME` loads that rule set's module and no other: `RULESETS` is
a mapping that imports a rule set's module the first time its value is read.
What must be known without importing them (the names, the Chinese names, the
hand sizes of "did you mean --rules …") is one registry line each
(`REGISTRY`), and the notation's words only one rule set reads are the
`words.toml` of its folder, read as data (`Words`); a test checks both against
the modules. The CLI, the API, the page,
the docs generator and the tests take the rule sets from here.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from dataclasses import dataclass
from functools import cached_property
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from taihu.messages import add_rule_set

from .. import memo as M
from ..errors import HandError, Term, Word, quote

if TYPE_CHECKING:
    from .base import RuleSet

V = TypeVar("V")


SHAPES = {"wind": "X", "tiles": "T", "count": "N"}  # a declared value's shape, and the letter lists show it by


@dataclass(frozen=True)
class Value:
    """A condition written with a value that a rule set declares (`[values.NAME]` of its `words.toml`): how the
    parser reads it and how a line prints it, without the rule set loaded.

    `shape` is one of `SHAPES`: a wind (`E`, `南`), comma-separated tiles, or a whole number (≤ 10⁹); `example`
    is what an error suggests writing; `first`: printed right after `seat:` (else after everything else).
    A wind's `error` is the code of a value that is no wind, its message `error.notation.<error>`; the tiles'
    `each` is the catalog text naming one of its tiles in the error of a part that is not one tile.
    """

    name: str
    shape: str
    example: str
    first: bool = False
    error: str = ""
    each: str = ""

    @property
    def letter(self) -> str:
        """How a list of conditions shows the value: `X` a wind, `T` tiles, `N` a number (`word:X`)."""
        return SHAPES[self.shape]

    @property
    def message(self) -> str:
        """The catalog text of a wind's `error`."""
        return f"error.notation.{self.error}"

    @property
    def catalog_keys(self) -> tuple[str, ...]:
        """The catalog texts the declaration names (the scans of the catalog's use read them here)."""
        return tuple(key for key in (self.error and self.message, self.each) if key)


TABLE_SHAPES = ("count", "wind")  # what a table field declared by a rule set may hold


@dataclass(frozen=True)
class TableField:
    """A field of a table (docs/api.md "Table") that a rule set declares and reads (`[table.NAME]` of its
    `words.toml`), any other refusing it: read as data, so every table is read without the rule set loaded.

    `shape` is one of `TABLE_SHAPES`: a whole number from 0 (`count`) or a wind; `word` its Chinese name (what an
    error in Chinese calls it); `leaves` the key of the settlement (`Settlement.extra`) holding the value the
    deal leaves for the next deal's field, which a ledger carries from deal to deal; empty: none is carried.
    """

    name: str
    shape: str
    word: str
    leaves: str = ""


@dataclass(frozen=True)
class Words:
    """The notation's words a rule set reads that not every rule set does, from `words.toml` in its folder: read
    as data, so the parser and the errors of every other rule set know them without importing it.

    `leading` are flags written right after `self` (what a player declares before the win, and what follows
    from it), `flags` the others, written after the shared ones; `standing` those of its flags that say how
    the deal stands rather than how the hand was won (a waiting line may carry them); `values` conditions
    written with a value (`word:value`, each a `Value`); `declared_wins` the wins `declare:` names; `marks`, where
    its notation writes a suit's 5 as `0` (a marked tile: the line keeps which were so written), the name of
    the parsed hand's value that holds where they were written. `players_words` are the
    players' own words for its conditions, each with the notation it is read as: a word
    ending in `:` takes a value (`金:9m` is `wild:9m`), which only this rule set reads so; any other word
    reads the same under every rule set, and the one that has no use for it says so.
    """

    leading: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    standing: tuple[str, ...] = ()
    values: tuple[Value, ...] = ()
    declared_wins: tuple[str, ...] = ()
    marks: str = ""
    players_words: tuple[tuple[str, str], ...] = ()
    table: tuple[TableField, ...] = ()
    settlement: tuple[str, ...] = ()
    field_words: tuple[tuple[str, str], ...] = ()

    @property
    def conditions(self) -> tuple[str, ...]:
        """Every condition word of it: what another rule set names it for."""
        return (*self.leading, *self.flags, *(value.name for value in self.values))


NO_WORDS = Words()


def words_in(folder: Path) -> Words:
    """The words of the rule set in `folder` (its `words.toml`); none where it has no such file."""
    path = folder / "words.toml"
    if not path.exists():
        return NO_WORDS
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    lists = {key: tuple(data.get(key, ())) for key in ("leading", "flags", "standing", "declared_wins")}
    values = tuple(Value(name, **declared) for name, declared in data.get("values", {}).items())
    for value in values:
        if value.shape not in SHAPES:
            raise ValueError(f"{path}: values.{value.name}: shape {value.shape!r} is none of {', '.join(SHAPES)}")
    table = tuple(TableField(name, **declared) for name, declared in data.get("table", {}).items())
    for one in table:
        if one.shape not in TABLE_SHAPES:
            raise ValueError(f"{path}: table.{one.name}: shape {one.shape!r} is none of {', '.join(TABLE_SHAPES)}")
    return Words(
        **lists,
        values=values,
        marks=data.get("marks", ""),
        players_words=tuple(data.get("players_words", {}).items()),
        table=table,
        settlement=tuple(data.get("settlement", ())),
        field_words=tuple(data.get("field_words", {}).items()),
    )


@dataclass(frozen=True)
class Registered:
    """One registry line: what must be known of a rule set without importing it.

    `name` is its folder under taihu/scorer/rulesets/, whose module holds the
    instance `RULE_SET` (`module` names the module instead for one defined
    elsewhere, as the tests' toy); `chinese` its Chinese names, simplified then traditional;
    `hand_size` a non-winning hand's tiles; `size_hint`: named in "did you
    mean --rules …" when a hand's count fits it (a rule set whose hands are the
    same size as another's may not be). Its notation words (`words`) are its folder's `words.toml`.
    """

    name: str
    chinese: tuple[str, ...]
    hand_size: int
    size_hint: bool = True
    module: str = ""

    def rule_set(self) -> RuleSet:
        module = import_module(self.module or f"{__name__}.{self.name}")
        if not self.module:  # its own messages, from its folder
            add_rule_set(Path(module.__file__ or "").parent)
        found: RuleSet = module.RULE_SET
        return found

    @cached_property
    def words(self) -> Words:
        return NO_WORDS if self.module else words_in(Path(__file__).parent / self.name)


# The registry: adding a rule set is its folder plus one line here, in the order they are listed.
REGISTRY: dict[str, Registered] = {
    line.name: line
    for line in (
        Registered("lingxi", ("灵溪", "靈溪"), 16),
        Registered("luoshan", ("螺山",), 13),
        Registered("guannan", ("灌南",), 13),
        Registered("putian", ("莆田",), 16),
        Registered("jinhua", ("金华", "金華"), 13),
        Registered("mcr", ("国标", "國標", "国标麻将", "國標麻將", "竞技麻将", "競技麻將"), 13, size_hint=False),
        Registered("riichi", ("立直",), 13, size_hint=False),
    )
}
DEFAULT_RULES = next(iter(REGISTRY))  # what `score_hand` scores by when no rule set is named


def hand_sizes() -> dict[str, int]:
    """The hand sizes "did you mean --rules …" names, by rule set."""
    return {name: line.hand_size for name, line in REGISTRY.items() if line.size_hint}


def leading_flags() -> tuple[str, ...]:
    """The flags written right after `self`, of every rule set (`Words.leading`)."""
    return tuple(word for line in REGISTRY.values() for word in line.words.leading)


def own_flags() -> tuple[str, ...]:
    """The flags only one rule set reads, written after the shared ones, of every rule set (`Words.flags`)."""
    return tuple(word for line in REGISTRY.values() for word in line.words.flags)


def standing_flags() -> frozenset[str]:
    """The flags that say how the deal stands, not how the hand was won, of every rule set (`Words.standing`)."""
    return frozenset(word for line in REGISTRY.values() for word in line.words.standing)


def declared_wins() -> tuple[str, ...]:
    """The wins `declare:` may name, of every rule set (`Words.declared_wins`)."""
    return tuple(word for line in REGISTRY.values() for word in line.words.declared_wins)


def declared_values() -> dict[str, Value]:
    """The conditions with a value every rule set declares (`Words.values`), by word, in the registry's order; a
    word two rule sets declare is read one way, so they must declare it alike."""
    found: dict[str, Value] = {}
    for name, line in REGISTRY.items():
        for value in line.words.values:
            if found.setdefault(value.name, value) != value:
                raise ValueError(f"{name}'s words.toml declares {value.name}: otherwise than another rule set does")
    return found


def merged(lists: Iterable[Iterable[str]]) -> tuple[str, ...]:
    """The names of several ordered lists once each, every list's order kept where they agree: a name new to
    the merge goes right before the first name after it in its list that is already there (else last)."""
    out: list[str] = []
    for names in lists:
        names = list(names)
        for at, name in enumerate(names):
            if name not in out:
                after = [out.index(later) for later in names[at + 1 :] if later in out]
                out.insert(min(after) if after else len(out), name)
    return tuple(out)


def table_fields() -> dict[str, TableField]:
    """The table fields every rule set declares (`Words.table`), by name, each rule set's order kept; a field two
    rule sets declare is read one way, so they must declare it alike."""
    found: dict[str, TableField] = {}
    for name, line in REGISTRY.items():
        for one in line.words.table:
            if found.setdefault(one.name, one) != one:
                raise ValueError(f"{name}'s words.toml declares table.{one.name}: otherwise than another rule set does")
    return {name: found[name] for name in merged([one.name for one in line.words.table] for line in REGISTRY.values())}


def table_fields_of(rules: str) -> tuple[TableField, ...]:
    """The table fields the rule set `rules` declares (`Words.table`); none for a name not registered."""
    line = REGISTRY.get(rules)
    return line.words.table if line is not None else ()


def settlement_keys() -> tuple[str, ...]:
    """The keys some rule sets add to a settlement (`Words.settlement`, `Settlement.extra`), each rule set's order
    kept: every settlement's JSON has them all, null where its rule set has none."""
    return merged(line.words.settlement for line in REGISTRY.values())


def declared_field_words() -> dict[str, str]:
    """The Chinese words of the keys of a table that rule sets declare: their table fields' and `field_words`."""
    words = {one.name: one.word for one in table_fields().values()}
    for line in REGISTRY.values():
        words.update(line.words.field_words)
    return words


def marks_of(rules: str) -> str:
    """The value under which the rule set `rules` keeps its marked tiles (`Words.marks`); empty: it has none."""
    line = REGISTRY.get(rules)
    return line.words.marks if line is not None else ""


def marks() -> tuple[str, ...]:
    """The names every rule set keeps its marked tiles under (`Words.marks`)."""
    return tuple(dict.fromkeys(line.words.marks for line in REGISTRY.values() if line.words.marks))


def players_words() -> dict[str, tuple[str, str]]:
    """Every rule set's players' words (`Words.players_words`): each word, what it reads as, and its rule set."""
    return {word: (reads_as, name) for name, line in REGISTRY.items() for word, reads_as in line.words.players_words}


def owners_of(word: str) -> tuple[str, ...]:
    """The rule sets whose `words.toml` declare this condition word (one may be several's), in the
    registry's order; none for a word every rule set reads or none does."""
    return tuple(name for name, line in REGISTRY.items() if word in line.words.conditions)


def chinese_names() -> dict[str, str]:
    """Each Chinese name (simplified and traditional) and its rule set: `-r 中文`, rules="中文"."""
    return {chinese: name for name, line in REGISTRY.items() for chinese in line.chinese}


def rules_word(name: str) -> Term:
    """A rule set's name as a message reads it: as written in English, its Chinese name in Chinese."""
    line = REGISTRY.get(name.lower())
    return Term(name, line.chinese[0] if line is not None and line.chinese else name)


def rules_words(names: Iterable[str]) -> Term:
    """Several rule sets' names, joined with ` / `."""
    words = [rules_word(name) for name in names]
    return Term(" / ".join(w.en for w in words), " / ".join(w.zh for w in words))


def condition_word(word: str) -> Word:
    """A condition of the notation (`self`) as a message names it: as typed, with its Chinese name in Chinese."""
    return Word(word)


def register(line: Registered) -> None:
    """Adds a rule set to the registry (a test's, in the `module` its line names), or replaces one of its name."""
    REGISTRY[line.name] = line
    RULESETS.values_made[line.name] = None


def unregister(name: str) -> None:
    del REGISTRY[name]
    del RULESETS.values_made[name]


class Lazy(MutableMapping[str, V]):
    """A mapping of rule-set names whose values are made on first read (`load(name)`), then kept.

    Writable, so a test can add or replace an entry (`monkeypatch.setitem`) as it could in a dict.
    """

    def __init__(self, names: Iterable[str], load: Callable[[str], V]) -> None:
        self.load = load
        self.values_made: dict[str, V | None] = dict.fromkeys(names)

    def __getitem__(self, name: str) -> V:
        found = self.values_made[name]  # KeyError for an unknown name, as a dict
        if found is None:
            found = self.values_made[name] = self.load(name)
        return found

    def __setitem__(self, name: str, value: V) -> None:
        self.values_made[name] = value

    def __delitem__(self, name: str) -> None:
        del self.values_made[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.values_made)

    def __len__(self) -> int:
        return len(self.values_made)

    def __contains__(self, name: object) -> bool:
        return name in self.values_made  # never loads

    def loaded(self) -> list[V]:
        """The values made so far, loading nothing."""
        return [value for value in self.values_made.values() if value is not None]

    def __repr__(self) -> str:
        return f"Lazy({list(self.values_made)})"


RULESETS: Lazy[RuleSet] = Lazy(REGISTRY, lambda name: REGISTRY[name].rule_set())


def get(name: str) -> RuleSet:
    """The rule set by its name in any case, or its Chinese name; the answer's `rules` is the canonical name."""
    if name in RULESETS:
        return RULESETS[name]
    canonical = name.strip().lower()
    canonical = canonical if canonical in RULESETS else chinese_names().get(name.strip(), "")
    if canonical not in RULESETS:
        raise HandError.of(
            "error.rules.unknown", code="unknown_rules", field="rules", name=quote(name), known=", ".join(RULESETS)
        )
    return RULESETS[canonical]


def _item_lines() -> int:
    return sum(len(item.lines) for rule_set in RULESETS.loaded() for item in rule_set.items)


def _clear_item_lines() -> None:
    for rule_set in RULESETS.loaded():
        for item in rule_set.items:
            item.lines.clear()


# each item's ScoreItem per (value, detail) scored so far (base.score_item)
M.register("rulesets.item_lines", _item_lines, _clear_item_lines, bytes_per_entry=700)
