"""The hand notation of docs/notation.md: parser and canonical printer.

The parser knows tiles, brackets and condition words, but no rule set: what
a tile *means* (白 as a flower, a wildcard kind, a legal hand size) is
decided later by the rule set, so every rule set shares one grammar.
"""

from __future__ import annotations

import copy
import re
from bisect import bisect_left
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from . import memo as M
from . import tiles as T
from .errors import HandError, Text, nearest, quote
from .limits import MAX_TOTAL
from .rulesets import (
    Value,
    condition_word,
    declared_values,
    declared_wins,
    leading_flags,
    marks,
    marks_of,
    own_flags,
    rules_word,
)

if TYPE_CHECKING:  # the players' forms (五万, full-width) are read only for a line that is not ASCII
    from .forms import Folded

# The flags in canonical order: the shared ones, with those only one rule set reads where its words put them
# (right after `self`, or last: `rulesets.Words`).
FLAG_CONDITIONS = (
    "self",
    *leading_flags(),
    "kong-draw",
    "rob-kong",
    "last-tile",
    "heaven",
    "earth",
    "human",
    *own_flags(),
)
# the conditions with a value that rule sets declare in their words (`rulesets.Value`), by word, kept in
# `ParsedHand.values`; the shared ones are fields of it
DECLARED_VALUES = declared_values()
SHARED_VALUES = ("seat", "wild", "flip", "declare")
VALUE_CONDITIONS = SHARED_VALUES + tuple(DECLARED_VALUES)
MARKS = marks()  # the names rule sets keep their marked fives under (`rulesets.Words.marks`)
DECLARED_WINS = declared_wins()  # every rule set's, each its own (`rulesets.Words.declared_wins`)
# the declared values printed right after `seat:`, and those printed last
_FIRST_VALUES = tuple(word for word, value in DECLARED_VALUES.items() if value.first)
_LAST_VALUES = tuple(word for word, value in DECLARED_VALUES.items() if not value.first)
CONDITION_ORDER = ("seat", *_FIRST_VALUES, "wild", "flip") + FLAG_CONDITIONS + ("declare", *_LAST_VALUES)
# What players write for a condition, from other games and romanisations: the nearest match names the condition.
CONDITION_ALIASES = {
    "zimo": "self",
    "tsumo": "self",
    "self-draw": "self",
    "self-drawn": "self",
    "selfdraw": "self",
    "haidi": "last-tile",
    "haitei": "last-tile",
    "gangkai": "kong-draw",
    "rinshan": "kong-draw",
    "qianggang": "rob-kong",
    "chankan": "rob-kong",
    "tianhu": "heaven",
    "tenhou": "heaven",
    "dihu": "earth",
    "chiihou": "earth",
    "renhu": "human",
    "dealer": "seat",
    "wildcard": "wild",
    "joker": "wild",
}


# the fix a notation error's message implies, as its `hint`: (the hint's catalog entry, the error's parameters it names)
_FIXES: dict[str, tuple[str, tuple[str, ...]]] = {
    "error.notation.suit_letter": ("error.hint.suit_letter", ()),
    "error.notation.no_red_fives": ("error.hint.red_five", ("suit",)),
    "error.notation.never_closed": ("error.hint.close_group", ("closer",)),
    "error.notation.never_opened": ("error.hint.open_group", ("char",)),
    "error.notation.unexpected_in_group": ("error.hint.close_group_first", ("char",)),
    "error.notation.two_winning_tiles": ("error.hint.one_winning_tile", ()),
    "error.notation.plus_one_tile": ("error.hint.one_tile_after_plus", ()),
    "error.notation.repeated_condition": ("error.hint.condition_once", ("word",)),
    "error.notation.takes_no_value": ("error.hint.condition_alone", ("word",)),
    "error.notation.needs_value": ("error.hint.condition_value", ("word", "example")),
    "error.notation.bad_seat": ("error.hint.a_wind", ("word",)),
    "error.notation.one_tile": ("error.hint.one_tile", ()),
}
_FIX_WORDS = {"error.notation.bad_seat": "seat"}


def notation_error(msgid: str, /, *, code: str, column: int | None = None, **params: Any) -> HandError:
    """The notation's error `msgid` (`error.notation.…`) with its parameters, `{at}` its column.

    The catalog's text and parameters are kept and rendered per language on asking (`HandError.of`);
    the fix its message implies is its hint (`_FIXES`), unless one is given.
    """
    fix = _FIXES.get(msgid)
    if fix is not None and params.get("hint") is None:
        named = {"word": _FIX_WORDS.get(msgid)} | {name: params.get(name) for name in fix[1] if name in params}
        params["hint"] = Text(fix[0], **named)
    return HandError.of(msgid, code=code, column=column, **params)


TILE_LETTERS = Text("error.notation.tile_letters")
# The likely meaning of a character that is no tile, where one stands out: its catalog text.
_TILE_HINTS = {
    "G": Text("error.notation.tile_hint.G"),
    "R": Text("error.notation.tile_hint.R"),
    "D": Text("error.notation.tile_hint.D"),
    "B": Text("error.notation.tile_hint.B"),
    "H": Text("error.notation.tile_hint.H"),
    "z": Text("error.notation.tile_hint.z"),
    "m": Text("error.notation.tile_hint.m"),
    "p": Text("error.notation.tile_hint.p"),
    "f": Text("error.notation.tile_hint.f"),
    "风": Text("error.notation.tile_hint.wind"),
    "風": Text("error.notation.tile_hint.wind_traditional"),
    **{letter.lower(): Text("error.notation.tile_hint.capital", letter=letter) for letter in "ESWNC"},
}


@dataclass(frozen=True)
class Meld:
    """A group on the table or a declared concealed group.

    `concealed` is True for `( )` groups: concealed kongs, and flower groups
    held from the deal.
    """

    tiles: tuple[int, ...]
    concealed: bool
    source: str = field(default="", compare=False)
    column: int = field(default=0, compare=False)

    @property
    def is_kong(self) -> bool:
        return len(self.tiles) == 4 and len(set(self.tiles)) == 1

    @property
    def is_chow(self) -> bool:
        return len(set(self.tiles)) == 3

    @property
    def is_flower_set(self) -> bool:
        return all(T.is_flower(t) for t in self.tiles)

    @property
    def is_stand_in_pung(self) -> bool:
        """Two alike and one other (`[CC2m]`): a pung completed by a wildcard.

        Only a rule set that allows it (`RuleSet.stand_in_pungs`) accepts one; the others
        reject it through `reject_stand_in_pungs`.
        """
        return len(self.tiles) == 3 and len(set(self.tiles)) == 2

    def text(self) -> str:
        return _meld_text(self.tiles, self.concealed)

    def _compose_text(self) -> str:
        if self.is_flower_set:
            body = "".join(T.name(t) for t in self.tiles)
        elif self.is_stand_in_pung:
            pair = max(set(self.tiles), key=self.tiles.count)
            odd = next(t for t in self.tiles if t != pair)
            body = T.group_text([pair, pair]) + T.name(odd)
        else:
            body = T.group_text(self.tiles)
        return f"({body})" if self.concealed else f"[{body}]"


@M.lru_cache("notation.meld_text", maxsize=1024, bytes_per_entry=300)
def _meld_text(tiles: tuple[int, ...], concealed: bool) -> str:
    """`Meld.text`, cached: the same melds recur in every printed hand and reading."""
    return Meld(tiles, concealed)._compose_text()


_NO_COLUMNS: Mapping[str, int] = MappingProxyType({})  # a default no one can write to


class WrittenAt(dict[str, int]):
    """A parsed hand's `columns`: where each condition, meld and the `+` were written, and the line itself.

    A tile's place is read from `line` only when an error names the tile (`ParsedHand.tile_column`): the
    parse leaves it out, as finding every tile's column would cost each parse more than its errors ever do.
    """

    __slots__ = ("line", "read_as")

    line: str
    # what was read otherwise than typed (a slip, a decoration left out), as notes; set () where nothing was, as
    # `getattr(columns, "read_as", ())` of a slot left unset raises and catches an AttributeError, a cost of its own
    read_as: tuple[str, ...]


class Values(Mapping[str, Any]):
    """A parsed hand's declared values (`word:value` of a rule set's words, and its marked tiles), by word:
    immutable, and equal and
    hashed by what it holds, as the hand that holds it is."""

    __slots__ = ("_held",)

    def __init__(self, held: Mapping[str, Any] | Iterable[tuple[str, Any]] | None = None) -> None:
        self._held: dict[str, Any] = dict(held or {})

    def __getitem__(self, word: str) -> Any:
        return self._held[word]

    # the dict's own: `Mapping`'s ask `__getitem__` and catch its KeyError, a raise for each word not held
    def __contains__(self, word: object) -> bool:
        return word in self._held

    def get(self, word: str, default: Any = None) -> Any:
        return self._held.get(word, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._held)

    def __len__(self) -> int:
        return len(self._held)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Values) and self._held == other._held

    def __hash__(self) -> int:
        return hash(frozenset(self._held.items()))

    def __repr__(self) -> str:
        return f"Values({self._held!r})"


NO_VALUES = Values()


class ParsedHand(NamedTuple):
    """One player's hand as written, before any rule set reads it.

    Immutable, and a NamedTuple rather than a frozen dataclass: the
    generated `__init__` of a frozen dataclass pays an `object.__setattr__`
    call per field, which costs about 5% of a Luoshan score (docs/performance.md,
    "The parsed hand as a NamedTuple"). Compared and hashed as a dataclass would be: by every field but `columns`
    (where each condition was written). `hand._replace(win=…)` is a copy
    with fields changed.
    """

    tiles: tuple[int, ...]  # bare tiles in hand, sorted (flowers and 白 included)
    melds: tuple[Meld, ...]  # sorted by canonical text
    win: int | None  # the `+` tile
    seat: str | None  # None: not written (the rule set defaults to E)
    wild: tuple[int, ...] | None
    flip: int | None
    flags: frozenset[str]
    declare: str | None
    # where each condition, meld and the `+` were written; read from a line, a `WrittenAt`, which has the line
    columns: Mapping[str, int] = _NO_COLUMNS
    # the values of the conditions rule sets declare (`DECLARED_VALUES`: a wind, tiles, a number), read by
    # those whose conditions name them, every other refusing them; and where the line wrote marked tiles,
    # under the name their rule set's words give them (`rulesets.Words.marks`): a set of ("hand", suit),
    # ("win", suit), (value word, suit), ("meld", tiles, concealed), at most one a suit
    values: Values = NO_VALUES

    def __eq__(self, other: object) -> bool:
        """Equal to another hand alone (a plain tuple of the same fields is none), whatever its `columns`."""
        if other.__class__ is not ParsedHand:
            return False
        return self[:_COLUMNS] == other[:_COLUMNS] and self[_COLUMNS + 1 :] == other[_COLUMNS + 1 :]

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash((self[:_COLUMNS], self[_COLUMNS + 1 :]))

    def with_values(self, **changed: object) -> ParsedHand:
        """A copy with these declared values (or marked fives) set, as if written; None or empty: not written."""
        held = {**self.values, **changed}
        kept = {word: value for word, value in held.items() if value is not None and value != frozenset()}
        return self._replace(values=Values(kept) if kept else NO_VALUES)

    def tile_column(self, kind: int, nth: int = 1) -> int | None:
        """The column of the `nth` copy of `kind` as the line wrote it (-1: the last), for an error about that
        tile ("1m appears 5 times" points at the fifth); None for a hand not read from a line."""
        columns = self.columns
        return _copy_column(columns.line, kind, nth) if isinstance(columns, WrittenAt) else None

    @property
    def declared_values(self) -> bool:
        """Whether any condition a rule set declares (`DECLARED_VALUES`) is written."""
        return not _DECLARED_WORDS.isdisjoint(self.values)

    @property
    def conditions(self) -> list[str]:
        """Names of the conditions written, as the user wrote them."""
        _, _, _, seat, wild, flip, flags, declare, _, values = self  # unpacked: fields by name cost more each
        out = []
        if seat is not None:
            out.append("seat")
        if wild is not None:
            out.append("wild")
        if flip is not None:
            out.append("flip")
        if values:
            held = values._held  # this module's own class: a dict's lookups, not `Mapping`'s calls
            out += [name for name in DECLARED_VALUES if name in held]
        if flags:
            out += [f for f in FLAG_CONDITIONS if f in flags]
        if declare is not None:
            out.append("declare")
        return out


_COLUMNS = ParsedHand._fields.index("columns")  # the one field equality and the hash leave out
_DECLARED_WORDS = frozenset(DECLARED_VALUES)


def _tile_error(token: str, column: int) -> HandError:
    """An unknown tile, with the letters there are and, where one stands out, what was likely meant."""
    key = "z" if len(token) > 1 and token.endswith("z") else token[:1] if len(token) == 1 or token[:1] == "f" else ""
    hint = _TILE_HINTS.get(key)
    return notation_error(
        "error.notation.unknown_tile" if hint is None else "error.notation.unknown_tile.hinted",
        code="unknown_tile",
        column=column,
        tile=quote(token),
        at=column,
        hint=hint,
        letters=TILE_LETTERS,
    )


def _condition_error(word: str, column: int, conditions: Collection[str] | None, rule_set: str) -> HandError:
    """An unknown condition: the nearest one this rule set knows (`zimo` → `self`) and the list of them."""
    known = [c for c in CONDITION_ORDER if conditions is None or c in conditions]
    guess = nearest(word, known, CONDITION_ALIASES)
    shown = quote(word)
    if guess is not None and guess == word.lower():
        problem = Text("error.notation.condition.lower_case", word=shown, at=column, guess=condition_word(guess))
    elif guess:
        problem = Text("error.notation.condition.unknown_guess", word=shown, at=column, guess=condition_word(guess))
    else:
        problem = Text("error.notation.condition.unknown", word=shown, at=column)
    if not known:  # where no condition belongs (a table's `wild` entry): no list of them
        return notation_error(
            "error.notation.condition.alone", code="unknown_condition", column=column, problem=problem
        )
    names = ", ".join(f"{c}:{_VALUE_SHAPE[c]}" if c in _VALUE_SHAPE else c for c in known)
    return notation_error(
        "error.notation.condition.listed" if rule_set else "error.notation.condition.listed_any",
        code="unknown_condition",
        column=column,
        problem=problem,
        rules=rules_word(rule_set),
        names=names,
    )


_VALUE_SHAPE = {
    "seat": "X",
    "wild": "T",
    "flip": "T",
    "declare": "NAME",
    **{word: value.letter for word, value in DECLARED_VALUES.items()},
}


def _is_digit(ch: str) -> bool:
    """ASCII 0–9 only: `str.isdigit` also takes ² and ١, which are no tiles."""
    return len(ch) == 1 and "0" <= ch <= "9"


class _Scanner:
    """Reads tiles from `text`; `origin` is where `text` starts in the hand line, for columns."""

    def __init__(self, text: str, origin: int = 0, marks: bool = False) -> None:
        self.text = text
        self.pos = 0
        self.origin = origin
        self.marks = marks  # `0m` is a marked 5m (the rule set's words declare `marks`)
        self.marked: list[tuple[int, int]] = []  # (suit, column) of each marked five read

    @property
    def column(self) -> int:
        return self.pos + 1 + self.origin

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def tiles(self, stop: str = "") -> list[tuple[int, int]]:
        """Tiles from here up to whitespace, a bracket, `+` or `stop`.

        Returns (kind, column) pairs. A run of well-formed tiles is read in
        one regular-expression match; anything else goes character by
        character, which also finds the exact column of a problem.
        """
        text = self.text
        run = _RUN.match(text, self.pos)
        if run:
            decoded = _decode_run(run.group())
            after = text[run.end() : run.end() + 1]
            if not after or after.isspace() or after in "[]()+" or (stop and after in stop):
                base = self.pos + 1 + self.origin
                self.pos = run.end()
                return [(kind, base + offset) for kind, offset in decoded]
        out: list[tuple[int, int]] = []
        while self.pos < len(text):
            ch = text[self.pos]
            col = self.column
            if ch.isspace() or ch in "[]()+" or (stop and ch in stop):
                break
            if _is_digit(ch):
                start = self.pos
                while self.pos < len(text) and _is_digit(text[self.pos]):
                    self.pos += 1
                digits = text[start : self.pos]
                suit = text[self.pos] if self.pos < len(text) else ""
                if suit in ("M", "P", "S", "Z"):  # `123M`: no tile follows digits, so a capital is the suit
                    suit = suit.lower()
                if suit not in ("m", "p", "s", "z"):
                    shown = digits + (suit if suit and not suit.isspace() else "")
                    raise notation_error(
                        "error.notation.suit_letter", code="suit_letter_missing", column=col, tiles=quote(shown), at=col
                    )
                self.pos += 1
                for offset, digit in enumerate(digits):
                    value = int(digit)
                    dcol = start + offset + 1 + self.origin
                    if value == 0:
                        if not self.marks or suit == "z":
                            raise notation_error(
                                "error.notation.no_red_fives", code="no_red_fives", column=dcol, suit=suit, at=dcol
                            )
                        self.marked.append(("mps".index(suit), dcol))
                        value = 5
                    if suit == "z":
                        if value > 7:
                            raise _tile_error(f"{value}z", dcol)
                        out.append((T.HONOR_DIGITS[value], dcol))
                    else:
                        out.append(("mps".index(suit) * 9 + value - 1, dcol))
            elif ch == "f":
                nxt = text[self.pos + 1] if self.pos + 1 < len(text) else ""
                if "1" <= nxt <= "8" and len(nxt) == 1:
                    out.append((T.FIRST_FLOWER + int(nxt) - 1, col))
                    self.pos += 2
                else:
                    raise _tile_error("f" + nxt if nxt and not nxt.isspace() else "f", col)
            elif ch in T.LETTER:
                out.append((T.LETTER[ch], col))
                self.pos += 1
            elif ch in T.CHINESE:
                out.append((T.CHINESE[ch], col))
                self.pos += 1
            else:
                raise _tile_error(ch, col)
        return out


_RUN = re.compile(r"(?:[1-9]+[mps]|[1-7]+z|f[1-8]|[ESWNCFP东東南西北中发發白春夏秋冬梅兰蘭菊竹])+")
_RUN_PART = re.compile(r"([1-9]+)([mpsz])|f([1-8])|(.)")


_RUNS = re.compile(_RUN.pattern + r"(?:\s+" + _RUN.pattern + r")*")


def _bare_tiles(scanner: _Scanner) -> list[int]:
    """Tile kinds from here: a stretch of runs split by spaces at once, else one run the careful way."""
    text = scanner.text
    stretch = _RUNS.match(text, scanner.pos)
    if stretch:
        after = text[stretch.end() : stretch.end() + 1]
        if not after or after.isspace() or after in "[]()+":
            kinds = [kind for run in stretch.group().split() for kind, _ in _decode_run(run)]
            scanner.pos = stretch.end()
            return kinds
    return [kind for kind, _ in scanner.tiles()]


@M.lru_cache("notation.decode_run", maxsize=4096, bytes_per_entry=400)
def _decode_run(run: str) -> tuple[tuple[int, int], ...]:
    """(kind, offset in the run) of each tile of a well-formed run; runs like `123m` recur."""
    out: list[tuple[int, int]] = []
    for part in _RUN_PART.finditer(run):
        digits, suit, flower, single = part.groups()
        start = part.start()
        if digits:
            for offset, digit in enumerate(digits):
                value = int(digit)
                kind = T.HONOR_DIGITS[value] if suit == "z" else "mps".index(suit) * 9 + value - 1
                out.append((kind, start + offset))
        elif flower:
            out.append((T.FIRST_FLOWER + int(flower) - 1, start))
        else:
            out.append((T.LETTER.get(single) or T.CHINESE[single], start))
    return tuple(out)


def _condition_word(scanner: _Scanner) -> tuple[str, str | None, int, int]:
    """Reads `word` or `word:value`; returns (word, value, column, value column)."""
    text = scanner.text
    start = scanner.pos
    while scanner.pos < len(text) and (text[scanner.pos].isalpha() or text[scanner.pos] == "-"):
        if not text[scanner.pos].isascii():
            break
        scanner.pos += 1
    word = text[start : scanner.pos]
    value = None
    value_col = 0
    if scanner.peek() == ":":
        scanner.pos += 1
        scanner.skip_space()  # `wild: 9s`, as `门风: 西` always was
        value_col = scanner.column
        vstart = scanner.pos
        while True:
            while scanner.pos < len(text) and not text[scanner.pos].isspace():
                scanner.pos += 1
            after = scanner.pos
            scanner.skip_space()
            # `wild:9s, N` and `wild:9s ,N`: a comma carries the value on over the spaces
            if scanner.pos < len(text) and (text[after - 1] == "," or text[scanner.pos] == ","):
                continue
            scanner.pos = after
            break
        value = text[vstart : scanner.pos]
    return word, value, start + 1, value_col


def _single_tile(text: str, column: int, what: Text, marked: list[tuple[int, int]] | None = None) -> int:
    """One tile; with `marked` given, a marked five `0m` is read and its (suit, column) added there."""
    scanner = _Scanner(text, origin=column - 1, marks=marked is not None)
    found = scanner.tiles()
    if scanner.pos != len(text) or len(found) != 1:
        raise notation_error(
            "error.notation.one_tile", code="not_one_tile", column=column, what=what, at=column, got=quote(text)
        )
    if marked is not None:
        marked += scanner.marked
    return found[0][0]


def _parse_meld(scanner: _Scanner) -> Meld:
    opener = scanner.peek()
    closer = "]" if opener == "[" else ")"
    column = scanner.column
    scanner.pos += 1
    found: list[tuple[int, int]] = []
    while True:
        scanner.skip_space()
        ch = scanner.peek()
        if ch == closer:
            scanner.pos += 1
            break
        if ch == "":
            raise notation_error(
                "error.notation.never_closed",
                code="group_not_closed",
                column=column,
                opener=opener,
                at=column,
                closer=closer,
            )
        if ch in "[]()+":
            raise notation_error(
                "error.notation.unexpected_in_group",
                code="unexpected_in_group",
                column=scanner.column,
                char=ch,
                at=scanner.column,
                opened_at=column,
            )
        found.extend(scanner.tiles(stop=closer))
    source = scanner.text[column - 1 : scanner.pos]
    kinds = tuple(k for k, _ in found)
    concealed = opener == "("
    meld = Meld(tuple(sorted(kinds)), concealed, source, column)
    flowers = [k for k in kinds if T.is_flower(k)]
    if flowers:
        if not concealed:
            bare = " ".join(T.name(k) for k in kinds)
            held = _held_from_the_deal(kinds)
            raise notation_error(
                "error.notation.flowers_melded.held" if held else "error.notation.flowers_melded",
                code="flowers_melded",
                column=column,
                group=quote(source),
                at=column,
                bare=bare,
                held=held,
            )
        groups = {(k - T.FIRST_FLOWER) // 4 for k in kinds if T.is_flower(k)}
        if len(kinds) != 4 or len(flowers) != 4 or len(groups) != 1 or len(set(kinds)) != 4:
            raise notation_error(
                "error.notation.flower_group", code="bad_flower_group", column=column, group=quote(source), at=column
            )
        return meld
    if concealed:
        if len(kinds) != 4 or len(set(kinds)) != 1:
            raise notation_error(
                "error.notation.concealed_group",
                code="bad_concealed_group",
                column=column,
                group=quote(source),
                at=column,
            )
        return meld
    ordered = sorted(kinds)
    if len(kinds) == 4 and len(set(kinds)) == 1:
        return meld
    if len(kinds) == 3 and len(set(kinds)) <= 2:
        return meld  # a pung, or one completed by a wildcard (checked by the rule set)
    if (
        len(kinds) == 3
        and all(T.is_suited(k) for k in ordered)
        and T.suit_of(ordered[0]) == T.suit_of(ordered[2])
        and ordered[1] == ordered[0] + 1
        and ordered[2] == ordered[0] + 2
    ):
        return meld
    raise not_a_meld(source, column)


def _held_from_the_deal(kinds: tuple[int, ...]) -> str:
    """`(f5f6f7f8)` where `kinds` are four different flowers of one group, else empty."""
    groups = {(k - T.FIRST_FLOWER) // 4 for k in kinds if T.is_flower(k)}
    if len(kinds) == 4 and len(set(kinds)) == 4 and all(T.is_flower(k) for k in kinds) and len(groups) == 1:
        return "(" + "".join(T.name(k) for k in sorted(kinds)) + ")"
    return ""


def not_a_meld(source: str, column: int) -> HandError:
    return notation_error(
        "error.notation.not_a_meld", code="not_a_meld", column=column or None, group=quote(source), at=column
    )


def _copy_column(line: str, kind: int, nth: int) -> int | None:
    """The 1-based column of the `nth` copy of `kind` as written in `line` (-1: the last), among its tiles,
    melds and `+` tile, or None when the line holds fewer (or a form this plain reading does not follow).
    Conditions (`wild:1m`) are no copies."""
    seen, last = 0, None
    for token in re.finditer(r"[^\s\[\]()+]+", line):
        if ":" in token.group() or "：" in token.group():
            continue
        try:
            found = _Scanner(token.group(), token.start()).tiles()
        except HandError:
            continue  # a condition word (`self`), not tiles
        for written, column in found:
            if written == kind:
                seen, last = seen + 1, column
                if seen == nth:
                    return column
    return last if nth == -1 else None


def reject_stand_in_pungs(hand: ParsedHand) -> None:
    """The parser's own check for rule sets with no 花碰: `[CC2m]` is no meld."""
    for meld in hand.melds:
        if meld.is_stand_in_pung:
            raise not_a_meld(meld.source or meld.text(), meld.column)


def parse(text: str, conditions: Collection[str] | None = None, rule_set: str = "", *, rules: str = "") -> ParsedHand:
    """Parses one hand line; raises HandError naming the column of any problem.

    `conditions` and `rule_set` (its name as written) only shape the message for an
    unknown condition, which lists what that rule set knows; `rules`, the rule
    set's name, decides the players' words only one rule set reads (`金:`), and
    whether `0m` is a marked five (its words' `marks`; elsewhere an error).
    """
    if type(text) is str:
        hand = _parse_plain(text)  # a marked five is never a plain token: such lines are read carefully
        if hand is not None:
            return hand
        if not text.isascii():
            return _parse_players_forms(text, conditions, rule_set, marks_of(rules), rules=rules)
    return _parse_careful(text, conditions, rule_set, marks_of(rules))


def parse_generally(
    text: str, conditions: Collection[str] | None = None, rule_set: str = "", *, rules: str = ""
) -> ParsedHand:
    """`parse` by its general code alone, never its fast path (`_parse_plain`): what that is tested against."""
    if type(text) is str and not text.isascii():
        return _parse_players_forms(text, conditions, rule_set, marks_of(rules), rules=rules, plain=False)
    return _parse_careful(text, conditions, rule_set, marks_of(rules))


def _parse_players_forms(
    text: str,
    conditions: Collection[str] | None = None,
    rule_set: str = "",
    marks: str = "",
    rules: str = "",
    plain: bool = True,
) -> ParsedHand:
    """A line with Chinese or full-width forms: parsed as its ASCII fold, columns counted in the line as typed;
    `plain`: the fold tried on the fast path first."""
    from .forms import at_the_wrong_character, fold

    folded = fold(text, rules)
    try:
        if folded.text == text:
            return _parse_careful(text, conditions, rule_set, marks)
        read = _parse_plain(folded.text) if plain else None
        hand = read or _parse_careful(folded.text, conditions, rule_set, marks)
    except HandError as exc:
        if folded.stand_ins:
            raise _stand_in_error(folded, None) from None
        raise at_the_wrong_character(_in_typed_columns(exc, folded), text) from None
    if folded.stand_ins:
        raise _stand_in_error(folded, hand)
    # the rule set's errors name these columns too (`declare:… at column N`, a meld's place)
    melds = tuple(replace(m, column=folded.column(m.column)) for m in hand.melds)
    typed = WrittenAt({k: folded.column(v) for k, v in hand.columns.items()})
    typed.line = text  # a tile's column is counted in the line as typed, as these are
    typed.read_as = folded.notes
    return hand._replace(melds=melds, columns=typed)


def _in_typed_columns(exc: HandError, folded: Folded) -> HandError:
    """The same error, its columns counted in the line as the player typed it: the parameters that are columns
    (`at`, `first_at`, `opened_at`) of an error of the catalog (errors.py's `HandError.of`), else the columns
    its message names."""
    params: dict[str, object] = getattr(exc, "params", {})
    if getattr(exc, "text", None) is not None:
        moved: HandError = exc.replaced(**_typed_columns(params, folded))
    else:
        moved = copy.copy(exc)
        moved.args = (_COLUMN.sub(lambda m: f"column {folded.column(int(m.group(1)))}", str(exc)),)
    if exc.column is not None:
        moved.column = folded.column(exc.column)
    return moved


def _typed_columns(params: Mapping[str, object], folded: Folded) -> dict[str, object]:
    """Parameters with each column counted in the typed line, those of a part (`Text`) of the message too."""
    out: dict[str, object] = {}
    for name, value in params.items():
        if isinstance(value, Text):
            out[name] = Text(value.key, **_typed_columns(value.params, folded))
        elif name in COLUMN_PARAMS and isinstance(value, int):
            out[name] = folded.column(value)
        else:
            out[name] = value
    return out


_COLUMN = re.compile(r"column (\d+)")
COLUMN_PARAMS = ("at", "first_at", "opened_at")  # the parameters of the notation's errors that are columns


def _stand_in_error(folded: Folded, rest: ParsedHand | None) -> HandError:
    """`财神财神财神` in the hand: a wildcard held is written as its kind, which `wild:` names (`rest`, the
    line without the words, where it parses)."""
    first = folded.stand_ins[0]
    n = first.times
    rewrite: Text
    if rest is not None and rest.wild:
        kinds = list(dict.fromkeys(rest.wild))
        wild = ",".join(T.name(k) for k in rest.wild)
        if len(kinds) == 1:
            rewrite = Text("error.notation.stand_in.one", tiles=T.group_text([kinds[0]] * n), wild=wild)
        else:
            first_kind, second = (T.group_text([k] * n) for k in kinds)
            rewrite = Text("error.notation.stand_in.two", first=first_kind, second=second, wild=wild)
    elif rest is not None and rest.flip is not None:
        rewrite = Text("error.notation.stand_in.flip", flip=T.name(rest.flip), count=n)
    else:
        rewrite = Text("error.notation.stand_in.none", count=n, example=T.group_text([4] * n))  # 5m
    return notation_error(
        "error.notation.stand_in",
        code="wildcard_word_as_tile",
        column=first.column,
        typed=quote(first.typed.strip()),
        at=first.column,
        rewrite=rewrite,
    )


def _parse_careful(
    text: str, conditions: Collection[str] | None = None, rule_set: str = "", marks: str = ""
) -> ParsedHand:
    """The parser proper: reads anything, and finds the exact column of every problem. `marks`: the value
    that keeps where marked fives (`0m`) were written; empty where they are an error."""
    if not isinstance(text, str):
        raise notation_error("error.notation.not_a_string", code="bad_input")
    if not text.strip():
        raise notation_error("error.notation.empty", code="empty_hand")
    scanner = _Scanner(text, marks=bool(marks))
    marked: list[tuple[tuple[Any, ...], int]] = []  # (where, column) of each marked five
    bare: list[int] = []
    melds: list[Meld] = []
    win: int | None = None
    seen = WrittenAt()
    seen.line = text
    seen.read_as = ()
    values: dict[str, object] = {}
    flags: set[str] = set()
    while True:
        scanner.skip_space()
        ch = scanner.peek()
        if ch == "":
            break
        col = scanner.column
        read_before = len(scanner.marked)
        if ch in "[(":
            melds.append(_parse_meld(scanner))
            marked += [(("meld", melds[-1].tiles, melds[-1].concealed), c) for _, c in scanner.marked[read_before:]]
        elif ch in "])":
            raise notation_error("error.notation.never_opened", code="group_not_opened", column=col, char=ch, at=col)
        elif ch == "+":
            scanner.pos += 1
            found = scanner.tiles()
            if win is not None:
                raise notation_error("error.notation.two_winning_tiles", code="two_winning_tiles", column=col, at=col)
            if len(found) != 1:
                raise notation_error("error.notation.plus_one_tile", code="bad_winning_tile", column=col, at=col)
            win = found[0][0]
            seen["+"] = col  # for errors about the winning tile (written twice)
            marked += [(("win", suit), c) for suit, c in scanner.marked[read_before:]]
        elif (
            ch.isascii()
            and ch.islower()
            and not (ch == "f" and _is_digit(scanner.text[scanner.pos + 1 : scanner.pos + 2]))
        ):
            word, value, wcol, vcol = _condition_word(scanner)
            if word not in FLAG_CONDITIONS and word not in VALUE_CONDITIONS:
                if len(word) <= 1:
                    raise _tile_error(word or ch, wcol)
                raise _condition_error(word, wcol, conditions, rule_set)
            if word in seen:
                raise notation_error(
                    "error.notation.repeated_condition",
                    code="repeated_condition",
                    column=wcol,
                    word=word,
                    at=wcol,
                    first_at=seen[word],
                )
            seen[word] = wcol
            if word in FLAG_CONDITIONS:
                if value is not None:
                    raise notation_error(
                        "error.notation.takes_no_value",
                        code="condition_takes_no_value",
                        column=wcol,
                        word=word,
                        at=wcol,
                    )
                flags.add(word)
                continue
            if not value:
                raise notation_error(
                    "error.notation.needs_value",
                    code="condition_needs_value",
                    column=wcol,
                    word=word,
                    at=wcol,
                    example=_EXAMPLE[word],
                )
            value_marked: list[tuple[int, int]] | None = [] if marks else None
            values[word] = _condition_value(word, value, vcol, value_marked)
            marked += [((word, suit), c) for suit, c in value_marked or ()]
        else:
            try:
                bare.extend(_bare_tiles(scanner))
            except HandError as exc:
                raise _condition_in_capitals(exc, text, col, conditions, rule_set) or exc from None
            marked += [(("hand", suit), c) for suit, c in scanner.marked[read_before:]]
    declared = {word: values.pop(word) for word in DECLARED_VALUES if word in values}
    if marked:
        seen.update(_marked_columns(marked))
        declared[marks] = frozenset(where for where, _ in marked)
    return ParsedHand(
        tiles=tuple(sorted(bare)),
        melds=tuple(sorted(melds, key=_meld_order)),
        win=win,
        seat=values.get("seat"),  # type: ignore[arg-type]
        wild=values.get("wild"),  # type: ignore[arg-type]
        flip=values.get("flip"),  # type: ignore[arg-type]
        flags=frozenset(flags),
        declare=values.get("declare"),  # type: ignore[arg-type]
        columns=seen,
        values=Values(declared) if declared else NO_VALUES,
    )


def _condition_in_capitals(
    exc: HandError, text: str, column: int, conditions: Collection[str] | None, rule_set: str
) -> HandError | None:
    """`SELF`, `Seat:S`, `ZIMO`: read as tiles (S, E…) until a letter that is none; really a condition."""
    if exc.code != "unknown_tile":
        return None
    token = text[column - 1 :].split(maxsplit=1)[0]
    word = token.partition(":")[0]
    lower = word.lower()
    if lower not in FLAG_CONDITIONS and lower not in VALUE_CONDITIONS and lower not in CONDITION_ALIASES:
        return None
    return _condition_error(word, column, conditions, rule_set)


def _marked_columns(marked: list[tuple[tuple[Any, ...], int]]) -> dict[str, int]:
    """The column of each suit's marked five (`0m` …, for the errors); a second one of a suit is an error."""
    columns: dict[str, int] = {}
    for where, column in sorted(marked, key=lambda r: r[1]):
        suit = "mps"[T.suit_of(where[1][0]) if where[0] == "meld" else where[1]]
        if f"0{suit}" in columns:
            raise notation_error(
                "error.notation.second_red_five",
                code="second_red_five",
                column=column,
                suit=suit,
                at=column,
                first_at=columns[f"0{suit}"],
            )
        columns[f"0{suit}"] = column
    return columns


def _meld_order(meld: Meld) -> tuple[bool, tuple[int, ...]]:
    return meld.concealed, meld.tiles


# -- the fast path for plain lines -------------------------------------------------------
#
# Nearly every line is tile tokens, then a tail of the `+` tile and
# conditions seen before: `3345678m44466s +3m seat:S round:E`,
# `7m 7m 7m … C C +5s self wild:1m`. `_parse_plain` reads the tile tokens
# through a cache of each token's kinds (a token new to it, as an MCR line's
# one token for the whole hand mostly is, has each suit's digits translated at
# once, `_run_kinds`), and the tail at once through a cache of tails (`_TAILS`):
# what the careful code reads from the tail standing alone, its columns
# counted from the tail's start. A tail new to that cache is read token by
# token (`_read_tail`) through a cache of each token's reading. Anything else
# (a token that is wrong or not whole on its own, a repeated condition, a
# second `+`) goes to `_parse_careful`, which gives the same result or the
# error (tests/test_notation_fast.py: both ways, on every rule set's lines).

# `123m`, `EE`, `f1`: the kinds; `+5s`, `self`, any token that is no run of tiles: ()
_TILE_TOKENS: dict[str, tuple[int, ...]] = {}
# ("+", kind), ("flag", word), ("value", word, value) or ("meld", tiles, concealed)
_OTHER_TOKENS: dict[str, tuple[Any, ...]] = {}


class _Tail(NamedTuple):
    """What a line's tail (from its first token that is no tiles to the end) reads as, standing alone: only
    str, int, None and tuples of them. Cached as a plain tuple of these fields, which the garbage collector
    stops tracking (it never does a NamedTuple's)."""

    tiles: tuple[int, ...]  # tile tokens written among the conditions
    melds: tuple[tuple[tuple[int, ...], bool, str, int], ...]  # (tiles, concealed, source, column), sorted
    win: int | None
    seat: str | None
    wild: tuple[int, ...] | None
    flip: int | None
    flags: tuple[str, ...]
    declare: str | None
    values: tuple[tuple[str, object], ...]  # the declared values, in `DECLARED_VALUES` order
    names: tuple[str, ...]  # what `columns` holds, in the order written
    columns: tuple[int, ...]  # 1-based, counted from the tail's start


_TAILS: dict[str, tuple[Any, ...]] = {}  # `_Tail`s as plain tuples
_CACHE_SIZE = 4096  # each cache is emptied when full, so lines of distinct junk cannot grow it without bound
M.register("notation.tile_tokens", _TILE_TOKENS.__len__, _TILE_TOKENS.clear, bytes_per_entry=200)
M.register("notation.other_tokens", _OTHER_TOKENS.__len__, _OTHER_TOKENS.clear, bytes_per_entry=300)
M.register("notation.tails", _TAILS.__len__, _TAILS.clear, bytes_per_entry=900)

# A run in the order a hand's text is printed in (`T.group_text`: characters, dots, bamboos, then honors as
# letters), as nearly every tile token is: each suit's digits are one group, translated to kinds at once. Read
# as bytes (a token is ASCII when it is such a run), whose translation is a table's lookup per character.
_CANONICAL_RUN = re.compile(rb"(?:([1-9]+)m)?(?:([1-9]+)p)?(?:([1-9]+)s)?([ESWNCFP]*)")
# for `bytes.translate`, each character to the byte that is its tile's kind
_CHARACTERS, _DOTS, _BAMBOOS = (
    bytes.maketrans(b"123456789", bytes(range(suit * 9, suit * 9 + 9))) for suit in range(3)
)
_HONOR_LETTERS = bytes.maketrans("".join(T.LETTER).encode(), bytes(T.LETTER.values()))


def _run_kinds(token: str) -> bytes | None:
    """The kinds of `token` if it is a well-formed run of tiles (`_RUN`), in the order written; else None.

    A run in the printed order (`_CANONICAL_RUN`) is read without a step per tile: its groups are
    translated, each to the bytes of its kinds. Any other run (`1z`, `f1`, `東`, `5p1m`) is read by
    `_decode_run`, as the careful parser reads it.
    """
    if token.isascii():
        canonical = _CANONICAL_RUN.fullmatch(token.encode())
        if canonical is not None and token:  # (the empty token matches, and is no run)
            characters, dots, bamboos, honors = canonical.groups(b"")
            return (
                characters.translate(_CHARACTERS)
                + dots.translate(_DOTS)
                + bamboos.translate(_BAMBOOS)
                + honors.translate(_HONOR_LETTERS)
            )
    if _RUN.fullmatch(token) is None:
        return None
    return bytes(kind for kind, _ in _decode_run(token))


def _new_tile_token(token: str) -> tuple[int, ...]:
    """The kinds of a token not in `_TILE_TOKENS`, cached there; () if it is no run of tiles (a tail's first
    token is looked up there too)."""
    run = _run_kinds(token)
    kinds = () if run is None else tuple(run)  # a list takes a tuple's ints in one step, and bytes' one by one
    _remember(_TILE_TOKENS, token, kinds)
    return kinds


def _read_token(token: str) -> tuple[Any, ...] | None:
    """Caches and returns what the careful parser reads from `token`, no tiles, standing alone (an entry of
    `_OTHER_TOKENS`); None if that is no plain token."""
    head = token[0]
    entry: tuple[Any, ...] | None = None
    try:
        if head in "[(":
            scanner = _Scanner(token)
            meld = _parse_meld(scanner)
            entry = ("meld", meld.tiles, meld.concealed) if scanner.pos == len(token) else None
        elif head == "+":
            won = _run_kinds(token[1:])
            entry = ("+", won[0]) if won is not None and len(won) == 1 else None
        else:
            word, colon, value = token.partition(":")
            if not colon and word in FLAG_CONDITIONS:
                entry = ("flag", word)
            elif value and word in VALUE_CONDITIONS:
                entry = ("value", word, _condition_value(word, value, 1))
    except HandError:
        return None
    if entry is not None:
        _remember(_OTHER_TOKENS, token, entry)
    return entry


def _remember(cache: dict[str, Any], token: str, entry: object) -> None:
    if len(cache) >= _CACHE_SIZE:
        cache.clear()
    cache[token] = entry


def _read_tail(tail: str) -> tuple[Any, ...] | None:
    """Caches and returns what the careful parser reads from `tail` standing alone; None if it is not all
    plain tokens, each whole on its own, with no condition and no `+` twice.

    Columns are found only for the tokens that record one (condition words,
    melds, the `+` tile), by searching the tail from the end of the previous
    one: what lies between is whitespace and tile tokens, and these never hold
    a bracket, a `:`, a `+` or a condition word's other letters (as
    tests/test_notation_fast.py checks), so the first match is the token itself.
    """
    kinds: list[int] = []
    melds: list[tuple[tuple[int, ...], bool, str, int]] = []
    shared: dict[str, Any] = {}  # the shared value conditions, and the `+` tile under "win"
    flags: list[str] = []
    declared: dict[str, object] = {}
    columns: dict[str, int] = {}
    end = 0
    for token in tail.split():  # splits where str.isspace(), like the scanner
        tiles = _TILE_TOKENS.get(token)
        if tiles is None:
            tiles = _new_tile_token(token)
        if tiles:
            kinds += tiles
            continue
        entry = _OTHER_TOKENS.get(token) or _read_token(token)
        if entry is None:
            return None
        start = tail.find(token, end)
        end = start + len(token)
        tag = entry[0]
        if tag == "meld":
            melds.append((entry[1], entry[2], token, start + 1))
            continue
        word = "+" if tag == "+" else entry[1]
        if word in columns:
            return None
        columns[word] = start + 1
        if tag == "+":
            shared["win"] = entry[1]
        elif tag == "flag":
            flags.append(word)
        elif word in DECLARED_VALUES:
            declared[word] = entry[2]
        else:
            shared[word] = entry[2]  # the shared value conditions are named as the fields
    read = _Tail(
        tiles=tuple(kinds),
        melds=tuple(sorted(melds, key=_written_meld_order)),
        win=shared.get("win"),
        seat=shared.get("seat"),
        wild=shared.get("wild"),
        flip=shared.get("flip"),
        flags=tuple(flags),
        declare=shared.get("declare"),
        values=tuple((word, declared[word]) for word in DECLARED_VALUES if word in declared),
        names=tuple(columns),
        columns=tuple(columns.values()),
    )
    _remember(_TAILS, tail, tuple(read))
    return read


def _written_meld_order(meld: tuple[tuple[int, ...], bool, str, int]) -> tuple[bool, tuple[int, ...]]:
    """A tail's meld (tiles, concealed, source, column) in the order of `_meld_order`."""
    return meld[1], meld[0]


def _parse_plain(text: str) -> ParsedHand | None:
    """`_parse_careful(text)` for a line of known-good tokens; None for any other line.

    The tile tokens up to the first token that is none are looked up one by
    one; from that token on, the line is its tail (`_read_tail`). That token
    is found in the line by searching from its start: a token that a tail can
    begin with (a meld, the `+` tile, a condition) is never found inside a
    tile token (as tests/test_notation_fast.py checks), and any other makes
    the tail unreadable wherever it is found.
    """
    bare: list[int] = []
    tile_kinds = _TILE_TOKENS.get
    for token in text.split():  # splits where str.isspace(), like the scanner
        kinds = tile_kinds(token)
        if kinds is None:
            kinds = _new_tile_token(token)
        if not kinds:
            break
        bare += kinds
    else:  # tiles alone, or an empty line
        if not bare:
            return None
        bare.sort()
        columns = WrittenAt()
        columns.line = text
        columns.read_as = ()
        return _new_tuple(ParsedHand, (tuple(bare), (), None, None, None, None, _NO_FLAGS, None, columns, NO_VALUES))
    start = text.find(token)
    tail_text = text[start:]
    tail = _TAILS.get(tail_text) or _read_tail(tail_text)
    if tail is None:
        return None
    more, melds, win, seat, wild, flip, flags, declare, declared, names, at = tail  # unpacked: fields by name
    # are not specialised in Python 3.11, and cost three times as much each
    if more:
        bare += more
    bare.sort()
    columns = WrittenAt()
    for name, column in zip(names, at, strict=True):  # sooner than `dict(zip(…))` for a few
        columns[name] = start + column
    columns.line = text
    columns.read_as = ()
    if declared:
        values = _DECLARED.get(declared)
        if values is None:
            values = _declared_values(declared)
    else:
        values = NO_VALUES
    # in field order, as `_PLAIN_FIELDS` names them (tests/test_notation_fast.py); `_make` is this call and a
    # length check in a Python frame of its own
    return _new_tuple(
        ParsedHand,
        (
            tuple(bare),
            tuple([Meld(tiles, concealed, source, start + column) for tiles, concealed, source, column in melds])
            if melds
            else (),
            win,
            seat,
            wild,
            flip,
            frozenset(flags) if flags else _NO_FLAGS,
            declare,
            columns,
            values,
        ),
    )


# the declared values of each tail read (`_Tail.values`), one `Values` shared by the hands written with them, as
# it is immutable: a few objects the garbage collector tracks, for one made per hand
_DECLARED: dict[tuple[tuple[str, object], ...], Values] = {}
M.register("notation.declared", _DECLARED.__len__, _DECLARED.clear, bytes_per_entry=400)


def _declared_values(declared: tuple[tuple[str, object], ...]) -> Values:
    values = Values(declared)
    if len(_DECLARED) >= _CACHE_SIZE:
        _DECLARED.clear()
    _DECLARED[declared] = values
    return values


_new_tuple = tuple.__new__
_NO_FLAGS: frozenset[str] = frozenset()
# the fields in the order `_parse_plain` gives them (tests/test_notation_fast.py)
_PLAIN_FIELDS = ("tiles", "melds", "win", "seat", "wild", "flip", "flags", "declare", "columns", "values")


_EXAMPLE = {
    "seat": "S",
    "wild": "5m,E",
    "flip": "1m",
    "declare": next(iter(DECLARED_WINS), "NAME"),
    **{word: value.example for word, value in DECLARED_VALUES.items()},
}
_SEAT_NAMES = {"E": "E", "S": "S", "W": "W", "N": "N", "东": "E", "東": "E", "南": "S", "西": "W", "北": "N"}


def _condition_value(word: str, value: str, column: int, marked: list[tuple[int, int]] | None = None) -> object:
    if word == "seat":
        if value not in _SEAT_NAMES:
            raise notation_error(
                "error.notation.bad_seat", code="bad_seat", column=column, value=quote(value), at=column
            )
        return _SEAT_NAMES[value]
    if word == "wild":
        what = Text("error.notation.one_tile.wild")
        return tuple(_single_tile(part, at, what) for part, at in _parts(value, column))
    if word == "flip":
        return _single_tile(value, column, Text("error.notation.one_tile.flip"))
    declared = DECLARED_VALUES.get(word)
    if declared is not None:
        return _declared_value(declared, value, column, marked)
    # `declare:` then a players' word for a declared win, which already reads as `declare:KEY`: its value comes here so
    value = value.removeprefix("declare:")
    if value not in DECLARED_WINS:
        raise notation_error(
            "error.notation.unknown_declared_win",
            code="unknown_declared_win",
            column=column,
            value=quote(value),
            at=column,
            known=", ".join(DECLARED_WINS),
        )
    return value


def _declared_value(declared: Value, value: str, column: int, marked: list[tuple[int, int]] | None) -> object:
    """A value of a condition a rule set declares, read by its shape; `marked` collects the marked fives of
    its tiles, where the line's rule set reads them."""
    word = declared.name
    if declared.shape == "wind":
        if value not in _SEAT_NAMES:
            raise notation_error(
                declared.message,
                code=declared.error,
                column=column,
                value=quote(value),
                at=column,
                hint=Text("error.hint.a_wind", word=word),
            )
        return _SEAT_NAMES[value]
    if declared.shape == "count":
        if not value.isascii() or not value.isdigit():
            raise notation_error(
                "error.notation.whole_number",
                code="bad_number",
                column=column,
                word=word,
                value=quote(value),
                at=column,
            )
        if len(value) > len(str(MAX_TOTAL)) or int(value) > MAX_TOTAL:
            raise notation_error(
                "error.notation.number_too_large",
                code="number_too_large",
                column=column,
                word=word,
                value=quote(value),
                at=column,
                most=f"{MAX_TOTAL:,}",
            )
        return int(value)
    what = Text(declared.each, word=word)
    return tuple(_single_tile(part, at, what, marked) for part, at in _parts(value, column))


def _parts(value: str, column: int) -> list[tuple[str, int]]:
    """The comma-separated parts of a value (`9s, N`), each without its spaces, with its column."""
    out = []
    offset = 0
    for part in value.split(","):
        lead = len(part) - len(part.lstrip())
        out.append((part.strip(), column + offset + lead))
        offset += len(part) + 1
    return out


_NAMES = tuple(T.name(k) for k in range(T.KIND_COUNT))
# for bytes.translate, by kind: the digit of a suited tile or flower, the letter of an honor
_CHAR_OF = bytes(ord(name[0] if kind < 27 else name[-1]) for kind, name in enumerate(_NAMES)).ljust(256, b"?")


def _bare_parts(kinds: tuple[int, ...]) -> list[str]:
    """Sorted tiles as one token per suit, then honors, then flowers: `123m 456p EE f1f2`.

    Maps every kind to its character at once and cuts that string where the
    suits change (found by bisection, so `kinds` must be sorted, as
    `ParsedHand.tiles` is): a loop over the tiles would cost more than all
    the rest of `to_text`.
    """
    chars = bytes(kinds).translate(_CHAR_OF).decode()
    p = bisect_left(kinds, 9)
    s = bisect_left(kinds, 18, p)
    z = bisect_left(kinds, 27, s)
    parts = []
    if p:
        parts.append(chars[:p] + "m")
    if s > p:
        parts.append(chars[p:s] + "p")
    if z > s:
        parts.append(chars[s:z] + "s")
    if z < len(chars):
        if kinds[-1] < T.FIRST_FLOWER:
            parts.append(chars[z:])
            return parts
        f = bisect_left(kinds, T.FIRST_FLOWER, z)
        if f > z:
            parts.append(chars[z:f])
        parts.append("f" + "f".join(chars[f:]))
    return parts


def to_text(hand: ParsedHand) -> str:
    """The canonical notation: parse(to_text(h)) == h."""
    tiles, melds, win, seat, wild, flip, flags, declare, _, values = hand  # unpacked: fields by name cost more
    parts = _bare_parts(tiles)
    if melds:
        parts += [m.text() for m in melds]
    held = values._held  # this module's own class: a dict's lookups, not `Mapping`'s calls
    if held:  # declared values or marked fives
        marked = _marked(values)
        if marked:
            parts = _with_marks(parts, hand, marked)
            parts.append(_values_tail(hand, marked))
        else:
            parts.append(_declared_tail(win, seat, wild, flip, flags, declare, tuple(held.items())))
        return " ".join(parts)
    tail = _tail_text(win, seat, wild, flip, flags, declare)
    if tail:
        parts.append(tail)
    return " ".join(parts)


@M.lru_cache("notation.tail_text", maxsize=4096, bytes_per_entry=500)
def _tail_text(
    win: int | None,
    seat: str | None,
    wild: tuple[int, ...] | None,
    flip: int | None,
    flags: frozenset[str],
    declare: str | None,
) -> str:
    """The `+` tile and the conditions; cached, as these few fields take few values between them."""
    parts = []
    if win is not None:
        parts.append("+" + T.name(win))
    if seat is not None:
        parts.append(f"seat:{seat}")
    if wild is not None:
        parts.append("wild:" + ",".join(T.name(k) for k in wild))
    if flip is not None:
        parts.append("flip:" + T.name(flip))
    parts.extend(f for f in FLAG_CONDITIONS if f in flags)
    if declare is not None:
        parts.append(f"declare:{declare}")
    return " ".join(parts)


def _marked_five(text: str) -> str:
    """The first 5 of a tile text written as a marked five: `34556m` → `34056m`, `[555p]` → `[055p]`."""
    return text.replace("5", "0", 1)


def _marked(values: Values) -> frozenset[tuple[Any, ...]]:
    """Where a hand's marked fives were written (under the name its rule set's words give them), if any."""
    held = values._held
    for word in MARKS:
        if word in held:
            found: frozenset[tuple[Any, ...]] = held[word]
            return found
    return _NO_MARKS


_NO_MARKS: frozenset[tuple[Any, ...]] = frozenset()


def _with_marks(parts: list[str], hand: ParsedHand, marked: frozenset[tuple[Any, ...]]) -> list[str]:
    """The hand's tiles and melds with its marked fives shown as `0`."""
    out = []
    bare = len(parts) - len(hand.melds)
    for index, part in enumerate(parts):
        if index < bare:
            mark = part[-1] in "mps" and ("hand", "mps".index(part[-1])) in marked
        else:
            meld = hand.melds[index - bare]
            mark = ("meld", meld.tiles, meld.concealed) in marked and not any(
                m == meld for m in hand.melds[: index - bare]
            )
        out.append(_marked_five(part) if mark else part)
    return out


@M.lru_cache("notation.indicators", maxsize=4096, bytes_per_entry=300)
def _tiles_text(word: str, kinds: tuple[int, ...], marked: frozenset[tuple[Any, ...]]) -> str:
    """A declared value of tiles as written (`word:3m,E`), its marked fives shown as `0`."""
    names = [T.name(k) for k in kinds]
    for suit in range(3):
        if (word, suit) in marked:
            at = names.index(f"5{'mps'[suit]}")
            names[at] = _marked_five(names[at])
    return f"{word}:" + ",".join(names)


def _value_text(word: str, value: Any, marked: frozenset[tuple[Any, ...]]) -> str:
    if DECLARED_VALUES[word].shape == "tiles":
        return _tiles_text(word, value, marked)
    return f"{word}:{value}"


@M.lru_cache("notation.flags_text", maxsize=1024, bytes_per_entry=300)
def _flags_text(flags: frozenset[str]) -> str:
    """The flags in canonical order; the few sets written recur line after line."""
    return " ".join(f for f in FLAG_CONDITIONS if f in flags)


@M.lru_cache("notation.declared_tail", maxsize=4096, bytes_per_entry=600)
def _declared_tail(
    win: int | None,
    seat: str | None,
    wild: tuple[int, ...] | None,
    flip: int | None,
    flags: frozenset[str],
    declare: str | None,
    declared: tuple[tuple[str, Any], ...],
) -> str:
    """`_values_tail` of a line with declared values and no marked fives (a line of MCR's, `round:E`), cached,
    as its fields take few values between them: its tiles are not among them."""
    hand = ParsedHand((), (), win, seat, wild, flip, flags, declare, values=Values(declared))
    return _values_tail(hand, _NO_MARKS)


def _values_tail(hand: ParsedHand, marked: frozenset[tuple[Any, ...]]) -> str:
    """The `+` tile and the conditions of a line with declared values: seat, the values printed first, wild,
    flip, the flags, declare, the other values.

    Cached whole only without marked fives (`_declared_tail`): with them, a winning tile, seat and tiles of
    values together rarely recur; its parts that do recur (a value's tiles, flags) are cached each.
    """
    _, _, win, seat, wild, flip, flags, declare, _, values = hand  # unpacked: fields by name cost more each
    held = values._held  # this module's own class: a dict's lookups, not `Mapping`'s calls
    parts = []
    if win is not None:
        name = T.name(win)
        mark = marked and T.is_suited(win) and ("win", T.suit_of(win)) in marked
        parts.append("+" + (_marked_five(name) if mark else name))
    if seat is not None:
        parts.append("seat:" + seat)
    parts += [_value_text(word, held[word], marked) for word in _FIRST_VALUES if word in held]
    if wild is not None:
        parts.append("wild:" + ",".join(T.name(k) for k in wild))
    if flip is not None:
        parts.append("flip:" + T.name(flip))
    if flags:
        parts.append(_flags_text(flags))
    if declare is not None:
        parts.append(f"declare:{declare}")
    parts += [_value_text(word, held[word], marked) for word in _LAST_VALUES if word in held]
    return " ".join(parts)
