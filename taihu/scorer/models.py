"""The core's answers and its settlement input: plain frozen dataclasses with the JSON shapes of docs/api.md.

`to_dict()` is the docs/api.md JSON of every record, fields in declaration order,
so a new optional field is one line (`flip: str | None = None`) and shows in
the JSON at once. `Table.from_dict` reads a table given as a dict, with one
small checker per field (`TABLE_FIELDS`, and those the rule sets declare), so a bad table gets one sentence
naming each place that is wrong. No pydantic here: it lives at the HTTP
boundary only (`taihu.api.schemas`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal, cast

from taihu.messages import Language

from . import memo as M
from .errors import Field, Joined, Text, problems_error, quote, require, type_word
from .limits import MAX_TOTAL
from .rulesets import DEFAULT_RULES, settlement_keys, table_fields
from .said import Said
from .tiles import SEATS

Seat = Literal["E", "S", "W", "N"]  # the HTTP schemas' seat; the core keeps seats as str, checked on input
MAX_HAND_LENGTH = 256  # a hand line is ~60 characters; far longer is not a hand but abuse
JSON_NAMES = {"from_": "from"}  # fields named after a Python keyword, and their JSON names


@M.lru_cache("models.json_fields", maxsize=64, bytes_per_entry=300)  # one entry per record class
def _json_fields(cls: type) -> tuple[tuple[str, str], ...]:
    """(attribute, JSON key) of a record's fields, in declaration order."""
    return tuple((f.name, JSON_NAMES.get(f.name, f.name)) for f in fields(cls))


TEXT: Mapping[str, bool] = {
    "text": True
}  # a field's metadata: it holds texts a person reads (`Said`s, taihu/scorer/said.py)


@M.lru_cache("models.text_fields", maxsize=64, bytes_per_entry=200)
def _text_fields(cls: type) -> frozenset[str]:
    """The attributes of a record that hold texts (marked `TEXT`): rendered in a language, given a code."""
    return frozenset(f.name for f in fields(cls) if f.metadata.get("text"))


def plain(value: Any, lang: Language = "en", codes: bool = False) -> Any:
    """`value` as JSON data: records through their `to_dict`, lists and dicts item by item; a text (`Said`)
    in `lang` (English: the text itself). `codes`: each record's texts also by code (`Record.to_dict`)."""
    if lang == "en" and not codes:
        return _plain(value)
    if isinstance(value, Record):
        return value.to_dict(lang, codes=codes)
    if isinstance(value, list | tuple):
        return [plain(v, lang, codes) for v in value]
    if isinstance(value, dict):
        return {k: plain(v, lang, codes) for k, v in value.items()}
    return value.in_lang(lang) if isinstance(value, Said) else value


def _plain(value: Any) -> Any:
    """`plain` in English without codes: the path every answer takes, kept to its few steps."""
    if isinstance(value, Record):
        return value.to_dict()
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def text_code(value: Any) -> Any:
    """A text field's code as JSON: `{"code", "params"}` of a `Said`, a list of them for a list, None for a
    text with no code (a detail of tiles only, an empty one)."""
    if isinstance(value, list | tuple):
        return [text_code(v) for v in value]
    return value.as_code() if isinstance(value, Said) else None


class Record:
    """What every record shares: its JSON (`to_dict`)."""

    __slots__ = ()

    def to_dict(self, lang: Language = "en", *, codes: bool = False) -> dict[str, Any]:
        """The JSON of docs/api.md, its texts in `lang`; with `codes`, beside each text field X an `X_code`
        (its code and parameters, docs/api.md), the same keys in every language."""
        if lang == "en" and not codes:  # the common answer: its texts are their English already
            return {key: _plain(getattr(self, name)) for name, key in _json_fields(type(self))}
        out = {}
        texts = _text_fields(type(self)) if codes else frozenset()
        for name, key in _json_fields(type(self)):
            value = getattr(self, name)
            out[key] = plain(value, lang, codes)
            if name in texts:
                out[f"{key}_code"] = text_code(value)
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreItem(Record):
    """One line of a score. Frozen: one instance is shared by every hand that scores the same line."""

    key: str  # stable item key from rules/<rule set>.md
    name: str  # Chinese name
    name_en: str  # English name
    value: int  # value in the item's unit
    unit: str  # what `value` counts: its item's kind's (`rulesets.interface.Kind`)
    detail: str = field(default="", metadata=TEXT)


@dataclass(frozen=True, slots=True, kw_only=True)
class FuItem(Record):
    """One line of a hand's fu (符), in rule sets that count fu: a key of the Fu table, its fu and why."""

    key: str
    value: int
    detail: str = field(default="", metadata=TEXT)


@dataclass(slots=True, kw_only=True)
class HandScore(Record):
    """One scored hand. Not frozen: a frozen `__init__` pays a call per field, a tenth of a score
    (`make bench`); nothing shares a HandScore, so nothing needs it frozen."""

    rules: str
    hand: str  # the hand in canonical notation
    winner: bool
    legal: bool = True
    items: list[ScoreItem]
    subtotal: int
    doubled: bool
    total: int
    unit: str  # what `total` counts: the rule set's unit
    arrangement: list[str] = field(default_factory=list, metadata=TEXT)  # the grouping scored; a wildcard: 2m=C
    notes: list[str] = field(default_factory=list, metadata=TEXT)
    # what the rule set adds to its answer, filled by it alone: each key in the JSON in this place (`to_dict`)
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self, lang: Language = "en", *, codes: bool = False) -> dict[str, Any]:
        """`Record.to_dict`, with `extra`'s keys in its place: those of `ANSWER_EXTRAS` in every answer (null
        where the rule set leaves one out), then the rule set's own."""
        out: dict[str, Any] = {}
        texts = _text_fields(type(self)) if codes else frozenset()
        for name, key in _json_fields(type(self)):
            if name == "extra":
                for extra, value in ({**ANSWER_EXTRAS_NULL, **self.extra}).items():
                    out[extra] = plain(value, lang, codes)
                    if codes and (ANSWER_EXTRAS.get(extra) or isinstance(value, Said)):
                        out[f"{extra}_code"] = text_code(value)
                continue
            value = getattr(self, name)
            out[key] = plain(value, lang, codes)
            if name in texts:
                out[f"{key}_code"] = text_code(value)
        return out


# The keys of docs/api.md's HandScore that some rule sets add (`HandScore.extra`): each in every answer, null
# where a rule set has no use for it, so every answer has the same keys; True marks a text (its `_code` beside
# it, as a text field's).
ANSWER_EXTRAS: Mapping[str, bool] = {"fu": False, "fu_details": False, "limit": True, "payments": False}
ANSWER_EXTRAS_NULL: Mapping[str, None] = dict.fromkeys(ANSWER_EXTRAS)


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemInfo(Record):
    key: str
    name: str
    name_en: str
    value: str = field(metadata=TEXT)
    scope: str = field(metadata=TEXT)
    unit: str  # what `value` counts, as a scored line of this item says (`ScoreItem.unit`)


@dataclass(frozen=True, slots=True, kw_only=True)
class OptionInfo(Record):
    name: str
    default: int
    alternatives: list[int]
    description: str = field(metadata=TEXT)


@dataclass(frozen=True, slots=True, kw_only=True)
class ExclusionKeys(Record):
    """One exclusion by item keys, for a reader that links items: when any of `present` is scored, none of
    `removes` is. Most exclusions have one key present; a rule over a class of items (any yakuman) lists the class."""

    present: list[str]
    removes: list[str]


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleSetInfo(Record):
    name: str
    chinese: str
    unit: str
    items: list[ItemInfo]
    options: list[OptionInfo]
    exclusions: list[str] = field(metadata=TEXT)
    # the sentence of the rule each of `exclusions` comes from, in their order: the source's own words
    # (Chinese where the source is), the same in every language
    exclusion_rules: list[str]
    exclusion_keys: list[ExclusionKeys]  # each of `exclusions` by the keys it names, in their order


# -- settlement (docs/api.md "Table" and "Settlement") ------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerTotal(Record):
    """A player known only by the count (in the rule set's unit), not by the hand."""

    total: int  # the player's count in the rule set's unit, ≥ 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Event(Record):
    """A side event of the deal: false-win, foul, liable (or a rule set's own)."""

    type: str
    seat: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerTenpai(Record):
    """A drawn deal, in rule sets with tenpai seats (`RuleSet.tenpai_seats`): a seat known only by whether it
    was ready (听牌)."""

    tenpai: bool  # the seat was ready (听牌) when the deal was drawn


@dataclass(frozen=True, slots=True, kw_only=True)
class TenpaiTotal(PlayerTotal):
    """A drawn deal with tenpai seats: in `scores`, a seat given as `{"tenpai": ...}`: it counts 0 and keeps
    whether it was ready.

    A PlayerTotal (its `total` is what is settled, as for any seat known without its hand) with the
    `tenpai` the table gave, so the answer shows who was ready."""

    tenpai: bool


Player = str | PlayerTotal | PlayerTenpai


@dataclass(frozen=True, slots=True, kw_only=True)
class Table(Record):
    """One finished deal at a four-player table: the input of settle_table."""

    rules: str = DEFAULT_RULES
    wild: list[str] | None = None  # revealed wildcard tiles, for every hand
    flip: str | None = None  # flipped indicator, for every hand
    winner: str | None = None  # None: a drawn hand
    discarder: str | None = None  # None: self-drawn (or a drawn hand)
    players: dict[str, Player]  # E S W N: a hand string, a PlayerTotal, or (a drawn deal) a PlayerTenpai
    events: list[Event] = field(default_factory=list)
    options: dict[str, int] = field(default_factory=dict)  # house options of the rule set
    # the fields some rule sets declare (`TableField`, the registry's `table_fields`) that are given, by name:
    # each in the JSON in this place (`to_dict`); the rule sets that declare none refuse them
    extra: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: object) -> Table:
        """A Table from its JSON; every place that is wrong is named, in one HandError."""
        require(data, Mapping, "table", "error.argument.json_object")  # an ArgumentError (TypeError and HandError)
        problems: list[Text] = []
        declared = {name: (optional(SHAPE_CHECKS[one.shape]), False) for name, one in table_fields().items()}
        values = read_fields(cast(Mapping[Any, Any], data), TABLE_FIELDS | declared, "", problems)
        if problems:
            raise problems_error(problems, "bad_table")
        extra = {name: values.pop(name) for name in declared if name in values}
        return cls(**values, extra={name: value for name, value in extra.items() if value is not None})

    def to_dict(self, lang: Language = "en", *, codes: bool = False) -> dict[str, Any]:
        """`Record.to_dict`, with `extra`'s fields in its place (the JSON `from_dict` reads)."""
        out = Record.to_dict(self, lang, codes=codes)
        del out["extra"]
        return out | {name: plain(value, lang, codes) for name, value in self.extra.items()}


@dataclass(frozen=True, slots=True, kw_only=True)
class Payment(Record):
    """One transfer of the settlement; `from` in JSON (a Python keyword, hence `from_`)."""

    from_: str
    to: str
    amount: int  # > 0
    reason: str = field(metadata=TEXT)


@dataclass(frozen=True, slots=True, kw_only=True)
class Settlement(Record):
    rules: str
    # `total` is the count settled (0 after a foul, a declared win, a draw); a TenpaiTotal is a PlayerTotal
    scores: dict[str, HandScore | PlayerTotal]
    payments: list[Payment]
    net: dict[str, int]  # what each seat wins (+) or pays (−); sums to 0
    next_dealer: str
    # what the rule set adds to its settlement (its declared `settlement` keys), filled by it alone: in the JSON
    # in this place, every key some rule set declares in every settlement (null where it has none; `to_dict`)
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self, lang: Language = "en", *, codes: bool = False) -> dict[str, Any]:
        """`Record.to_dict`, with the rule sets' declared keys (`settlement_keys`) in `extra`'s place."""
        out = Record.to_dict(self, lang, codes=codes)
        del out["extra"]
        return out | {key: plain(self.extra.get(key), lang, codes) for key in settlement_keys()}


# -- reading a table given as JSON ---------------------------------------------
# A check takes (value, path, problems): it returns the value to keep, or
# notes a problem (a catalog Text "path: what is wrong") and returns None. The English wording is
# the one the HTTP API's schema errors use, so both say the same.

Check = Callable[[Any, str, list[Text]], Any]
_WHOLE = re.compile(r"\s*[+-]?[0-9]+\s*")
MAX_WHOLE_TEXT = 1000  # int() refuses strings of over 4,300 digits; no count is near this long


def _at(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def read_fields(
    data: Mapping[Any, Any], checks: Mapping[str, tuple[Check, bool]], path: str, problems: list[Text]
) -> dict[str, Any]:
    """The fields of an object, each through its check; missing required and unknown fields are problems."""
    values: dict[str, Any] = {}
    for name, (check, required) in checks.items():
        if name in data:
            values[name] = check(data[name], _at(path, name), problems)
        elif required:
            problems.append(Text("error.field.required", path=Field(_at(path, name))))
    extra = [name for name in data if name not in checks]
    problems.extend(Text("error.field.extra", path=Field(_at(path, quote(name)))) for name in extra)
    return values


def text(value: Any, path: str, problems: list[Text]) -> str | None:
    if isinstance(value, str):
        return value
    problems.append(Text("error.field.string", path=Field(path)))
    return None


def seat(value: Any, path: str, problems: list[Text]) -> str | None:
    if isinstance(value, str) and value in SEATS:
        return value
    problems.append(Text("error.field.seat", path=Field(path)))
    return None


def whole_number(value: Any, path: str, problems: list[Text]) -> int | None:
    """An int, or what JSON readers take for one: 10.0, "10" (as the HTTP schema does); never a bool, which
    Python counts among the ints but JSON's `true` is no number."""
    if isinstance(value, bool):
        problems.append(Text("error.field.integer", path=Field(path), why=Text("error.field.boolean")))
        return None
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and len(value) <= MAX_WHOLE_TEXT and _WHOLE.fullmatch(value):
        return int(value)
    why = {float: Text("error.field.fraction"), str: Text("error.field.not_integer_text")}
    problems.append(Text("error.field.integer", path=Field(path), why=why.get(type(value), "")))
    return None


def count(value: Any, path: str, problems: list[Text]) -> int | None:
    """A whole number from 0 to MAX_TOTAL (a table field of the shape `count`)."""
    whole = whole_number(value, path, problems)
    if whole is not None and whole < 0:
        problems.append(Text("error.field.negative", path=Field(path)))
        return None
    if whole is not None and whole > MAX_TOTAL:
        problems.append(Text("error.field.too_large", path=Field(path), most=MAX_TOTAL))
        return None
    return whole


def optional(check: Check) -> Check:
    return lambda value, path, problems: None if value is None else check(value, path, problems)


def list_of(check: Check) -> Check:
    def read(value: Any, path: str, problems: list[Text]) -> list[Any] | None:
        if not isinstance(value, list | tuple):
            problems.append(Text("error.field.list", path=Field(path)))
            return None
        return [check(v, f"{path}[{i}]", problems) for i, v in enumerate(value)]

    return read


def options(value: Any, path: str, problems: list[Text]) -> dict[str, int] | None:
    if not isinstance(value, Mapping):
        problems.append(Text("error.field.dictionary", path=Field(path)))
        return None
    out: dict[str, int] = {}
    for name, number in value.items():
        if not isinstance(name, str):
            problems.append(Text("error.field.option_name", path=Field(path), name=quote(name)))
            continue
        whole = whole_number(number, _at(path, quote(name)), problems)
        if whole is not None:
            out[name] = whole
    return out


EVENT_FIELDS: dict[str, tuple[Check, bool]] = {"type": (text, True), "seat": (seat, True)}


def event(value: Any, path: str, problems: list[Text]) -> Event | None:
    if not isinstance(value, Mapping):
        problems.append(Text("error.field.event", path=Field(path)))
        return None
    before = len(problems)
    values = read_fields(value, EVENT_FIELDS, path, problems)
    return Event(**values) if len(problems) == before else None


def players(value: Any, path: str, problems: list[Text]) -> dict[str, Player] | None:
    """Exactly the four seats, each a hand string, {"total": N} or (rule sets with tenpai seats) {"tenpai": bool}.

    One sentence, not a union's error list."""
    problem = players_problem_text(value)
    if problem:
        problems.append(Text("error.field.at", path=Field(path), problem=problem))
        return None
    return {s: _player(p) for s, p in value.items()}


def _player(player: Any) -> Player:
    """A seat's player as read: a hand string, a PlayerTotal, or (rule sets with tenpai seats) a PlayerTenpai."""
    if isinstance(player, str | PlayerTotal | PlayerTenpai):
        return player
    if "tenpai" in player:
        return PlayerTenpai(tenpai=player["tenpai"])
    return PlayerTotal(total=player["total"])


def players_problem_text(value: Any) -> Text | None:
    """What is wrong with a table's players (the library's and the HTTP schema's check), or None."""
    if not isinstance(value, Mapping):
        return Text("error.players.not_object")
    keys = list(value)
    if set(keys) != set(SEATS):
        extra = [k for k in keys if k not in SEATS]
        missing = [s for s in SEATS if s not in keys]
        parts = []
        if missing:
            parts.append(Text("error.players.missing", seats=", ".join(missing)))
        if extra:
            parts.append(Text("error.players.unknown_seat", seats=", ".join(f"'{quote(k)}'" for k in extra)))
        return Text("error.players.seats", parts=Joined(parts))
    for where, player in value.items():
        if isinstance(player, str):
            if len(player) > MAX_HAND_LENGTH:
                return Text("error.players.hand_too_long", seat=where, length=len(player), most=MAX_HAND_LENGTH)
        elif isinstance(player, PlayerTotal | PlayerTenpai):
            continue
        elif isinstance(player, Mapping) and set(player) == {"tenpai"}:
            if not isinstance(player["tenpai"], bool):
                return Text("error.players.tenpai", seat=where)
        elif isinstance(player, Mapping):
            total = player.get("total")
            if set(player) != {"total"} or isinstance(total, bool) or not isinstance(total, int) or total < 0:
                return Text("error.players.total", seat=where)
            if total > MAX_TOTAL:
                return Text("error.players.total_too_large", seat=where, total=quote(total), most=f"{MAX_TOTAL:,}")
        else:
            return Text("error.players.wrong_type", seat=where, type=type_word(player))
    return None


# Table's fields as they are read: (check, required). A new input field is one row here and one in Table.
TABLE_FIELDS: dict[str, tuple[Check, bool]] = {
    "rules": (text, False),
    "wild": (optional(list_of(text)), False),
    "flip": (optional(text), False),
    "winner": (optional(seat), False),
    "discarder": (optional(seat), False),
    "players": (players, True),
    "events": (list_of(event), False),
    "options": (options, False),
}
# The check of each shape a rule set's table field may have (`TableField.shape`).
SHAPE_CHECKS: dict[str, Check] = {"count": count, "wind": seat}
