"""The one exception type for bad input."""

from __future__ import annotations

import copy
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from taihu.messages import Language


class Localized(Protocol):
    """A piece of a message that reads differently by language: a catalog text, a rule set's name, an error."""

    def in_lang(self, lang: Language, /) -> str: ...


class Text:
    """A catalog message (its msgid, `error.tile_count.winner`) and its parameters, rendered when asked.

    A parameter that is itself `Localized` (a rule set's name, another Text,
    a wrapped error) is rendered in the same language; any other value is
    shown as it is (a quoted piece of the input stays as typed).
    """

    __slots__ = ("key", "params")

    def __init__(self, key: str, /, **params: object) -> None:
        self.key = key
        self.params = params

    def in_lang(self, lang: Language, /, **more: object) -> str:
        """The text in `lang`; a parameter the text names but was not given shows as `{name}`, never a crash."""
        from taihu.messages import catalog

        values = _Lenient({name: rendered(value, lang) for name, value in {**self.params, **more}.items()})
        template = catalog(lang).gettext(self.key)
        try:
            return template.format_map(values)
        except (ValueError, IndexError, AttributeError):  # a malformed field (`{0}`, `{a.b}`): the text as it is
            return template

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Text) and (self.key, self.params) == (other.key, other.params)

    def __hash__(self) -> int:
        return hash(self.key)

    def __str__(self) -> str:
        return self.in_lang("en")

    def __repr__(self) -> str:
        return f"Text({self.key!r}, **{self.params!r})"


class _Lenient(dict[str, object]):
    def __missing__(self, name: str) -> str:
        return "{" + name + "}"


@dataclass(frozen=True, slots=True)
class Term:
    """A word a person reads, with its Chinese: a rule set's name and its Chinese name."""

    en: str
    zh: str

    def in_lang(self, lang: Language) -> str:
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True, slots=True)
class Word:
    """A word of the notation (a condition, `self`) as a message names it: as typed in English; in another
    language with its name there beside it where the catalog has one (`self（自摸）`, msgid `error.word.self`)."""

    word: str

    def in_lang(self, lang: Language) -> str:
        from taihu.messages import known, text

        code = f"{WORD_PREFIX}{self.word}"
        return text(code, lang) if lang != "en" and known(code, lang) else self.word


WORD_PREFIX = "error.word."  # the msgids of the notation's words, `error.word.self`


def rendered(value: object, lang: Language) -> object:
    """A parameter as it is shown in `lang`: a Localized one in that language, any other as it is."""
    in_lang = getattr(value, "in_lang", None)
    return in_lang(lang) if callable(in_lang) else value


@dataclass(frozen=True, slots=True)
class Joined:
    """Several pieces of one message, `a; b` (`a；b` in Chinese), each in the message's language, each once."""

    parts: tuple[object, ...]

    def __init__(self, parts: Iterable[object]) -> None:
        object.__setattr__(self, "parts", tuple(dict.fromkeys(parts)))

    def in_lang(self, lang: Language) -> str:
        return ("；" if lang == "zh" else "; ").join(str(rendered(part, lang)) for part in self.parts)


class Field(str):
    """An input field's path (`players.S`, `events[0].seat`, `wild`) as a message names the place: in English the
    path as written; in Chinese the place as a player reads it (东家, 第 1 个事件的座位, 财神), since a key's
    name is data (the error's `field`), not words of a Chinese sentence. A `str`, so it compares and joins as
    the path it is. `wild` is the rule set's word for its wildcard where it has its own (Putian's 金, its
    `wild_name`): the Chinese of the key `wild`, 财神 otherwise; a Field made from a Field keeps it."""

    wild: str

    def __new__(cls, path: str, wild: str = "") -> Field:
        made = super().__new__(cls, path)
        made.wild = wild or getattr(path, "wild", "")
        return made

    def in_lang(self, lang: Language, /) -> str:
        return self if lang == "en" else field_words(self, self.wild)


SEAT_WORDS = {"E": "东家", "S": "南家", "W": "西家", "N": "北家"}
# the Chinese of every key a request or a table may name (the request models' fields, the table's and events'),
# with those of the table fields and seats some rule sets declare (`declared_field_words` of the registry)
FIELD_WORDS = {
    "deal": "这局",
    "discarder": "放炮的人",
    "events": "事件",
    "expires_in_hours": "有效时长",
    "flip": "翻出的牌",
    "hand": "手牌",
    "options": "规则选项",
    "players": "玩家",
    "rules": "规则",
    "seat": "座位",
    "title": "标题",
    "total": "总分",
    "type": "类型",
    "wild": "财神",
    "winner": "和牌的人",
    "number": "编号",
    "arrangement": "座次",
    "seats": "座位",
    "device": "设备",
    "role": "身份",
    "dealer": "庄家",
    "name": "名字",
    "hands": "手牌",
    "table": "牌桌",
    "tables": "牌桌",
}
_STEP = re.compile(r"\[(\d+)\]|([^.\[]+)")


def field_words(path: str, wild: str = "") -> str:
    """`path` in Chinese: a seat as 东家/南家/西家/北家 or the player's name as written, an item of a list by its
    place (第 1 个事件, counting from 1), a key by its Chinese word (`wild`: the rule set's own word for its
    wildcard, if given), a key the client made up quoted as written."""
    from .rulesets import declared_field_words  # the registry imports this module: asked when an error is said

    known = FIELD_WORDS | declared_field_words() | ({"wild": wild} if wild else {})
    steps = [(int(index), None) if index else (None, key) for index, key in _STEP.findall(path)]
    words: list[str] = []
    for at, (index, key) in enumerate(steps):
        before = steps[at - 1][1] if at else None
        if index is not None:
            words.append(f"第 {index + 1} 个{known.get(before or '', '') or '项'}")
            if words[:-1] and before is not None:
                words.pop(-2)  # `events[0]`: 第 1 个事件, not 事件的第 1 个事件
        elif before == "players" and at == 1:
            words[-1] = SEAT_WORDS.get(key or "", key or "")
        else:
            words.append(known.get(key or "", f"'{key}'"))
    return "的".join(words) if words else path


PLACE = ("column", "seat", "player", "field", "line")  # where a HandError's problem is: its own attributes


class HandError(ValueError):
    """Bad input: the message names the place and the problem.

    Every error the library raises for a hand, a table or an option is this
    type, so the CLI and the API can turn it into an answer (exit 2, HTTP 422)
    instead of a crash.

    `code` is a stable snake_case id a program can branch on (the message may
    be reworded; the code is not), and `column` the 1-based place in the hand
    string where one is known. All but the message are keyword-only, so
    `HandError(message)` keeps working everywhere.

    The message's text lives once, in the catalog (taihu/messages/): an error
    made with `HandError.of(msgid, code=..., **params)` keeps its msgid and
    parameters, `str(err)` is its English and `message_in(lang)` its text in
    a language; `hint` is the fix alone (`hint_in(lang)`), which the message's
    text may hold as its parameter `{hint}`. Nothing is rendered until asked
    for, so an error caught on the way (a waits search tries many) costs no lookup.

    At a table, `seat` names the seat whose hand the error is about and
    `line` is that hand as given (the string `column` counts in), so a shell
    can point at the place as it does for one hand; `player` is the player's
    name where the client named one, `field` the input field the problem is in
    (`players.S`, `events[0]`, `options`). `seat_params` are the message's
    parameters that hold that seat's wind (`winner`, `seat_word`), declared
    where the error is raised, so a ledger whose deal named its players shows
    the player's name there instead.
    """

    def __init__(
        self,
        message: str | None = None,
        *,
        code: str = "bad_input",
        text: Text | None = None,
        hint: Localized | None = None,
        column: int | None = None,
        seat: str | None = None,
        player: str | None = None,
        field: str | None = None,
        line: str | None = None,
        seat_params: tuple[str, ...] = (),
    ) -> None:
        if (message is None) == (text is None):
            raise TypeError("HandError takes a message or a catalog text, one of them")
        super().__init__(message if message is not None else text.key)  # type: ignore[union-attr]
        self.code = code
        self.text = text
        self.hint_text = hint
        self.column = column
        self.seat = seat
        self.player = player
        self.field = field
        self.line = line
        self.seat_params = seat_params
        # the message's parameters (`{"size": 13}`); one that is a word a person reads renders by language
        self.params: dict[str, object] = dict(text.params) if text is not None else {}
        self._english: str | None = None

    @classmethod
    def of(
        cls,
        key: str,
        /,
        *,
        code: str,
        hint: Localized | None = None,
        seat_params: tuple[str, ...] = (),
        **params: Any,
    ) -> HandError:
        """The error whose message is the catalog's `key` with `params` (its English is `str(err)`); the
        parameters named as the error's place (`column`, `seat`, `player`, `field`, `line`) are that too;
        `seat_params`: which of `params` hold the seat's wind."""
        place = {name: params.pop(name) for name in PLACE if name in params}
        return cls(code=code, text=Text(key, **params), hint=hint, seat_params=seat_params, **place)

    @classmethod
    def at_seat(
        cls, key: str, seat: str, /, *, code: str, named: str, hint: Localized | None = None, **params: Any
    ) -> HandError:
        """The error of one seat of a table (`HandError.of`): its `seat`, its field `players.<seat>`, and the
        message's parameter `named` holding the seat's wind, its `seat_params` (the one a ledger renames)."""
        return cls.of(
            key,
            code=code,
            hint=hint,
            seat_params=(named,),
            seat=seat,
            field=f"players.{seat}",
            **{named: seat},
            **params,
        )

    @property
    def key(self) -> str | None:
        """The message's msgid in the catalog; None for an error raised with a message only."""
        return self.text.key if self.text is not None else None

    @property
    def hint(self) -> str | None:
        """The fix alone, in English (`hint_in` for another language); None where the error has none."""
        return self.hint_in("en")

    def __str__(self) -> str:
        if self.text is None:
            return super().__str__()
        if self._english is None:
            self._english = self.text.in_lang("en", hint=self.hint_in("en") or "")
        return self._english

    def message_in(self, lang: Language) -> str:
        """The message in `lang`: the catalog's text for this error where it has one, else the message as raised."""
        if self.text is None or lang == "en":
            return str(self)
        return self.text.in_lang(lang, hint=self.hint_in(lang) or "")

    def hint_in(self, lang: Language) -> str | None:
        """The fix in `lang`, where the error has one (`write the kong as [5555m]`)."""
        return self.hint_text.in_lang(lang) if self.hint_text is not None else None

    def in_lang(self, lang: Language) -> str:
        """An error as a parameter of another's message (`players.S: …`) reads in the same language."""
        return self.message_in(lang)

    def with_hint(self, hint: Localized | None) -> HandError:
        """The same error with another fix (the message's `{hint}` reads it too)."""
        changed = copy.copy(self)
        changed.hint_text = hint
        changed._english = None
        return changed

    def replaced(self, **params: object) -> HandError:
        """The same error with some of its message's parameters changed (a column counted anew, a part left out)."""
        assert self.text is not None, "only an error of the catalog has parameters"
        changed = copy.copy(self)
        changed.text = Text(self.text.key, **{**self.text.params, **params})
        changed.params = dict(changed.text.params)
        changed._english = None
        return changed

    def as_dict(self) -> dict[str, Any]:
        """The answer the API's 422 and `taihu score --json` give: `{"detail", "code", "column"}`."""
        return {"detail": str(self), "code": self.code, "column": self.column}

    def caret(self, line: str) -> str:
        """Two lines pointing at the place in `line` (the hand as typed): the line, then `^` under `column`.

        Empty when the error has no column. A column is hard to count on a
        phone; a caret is not. Wide characters (五万, full-width ５) take two
        cells of a terminal, so the caret is indented by cells, not characters;
        a long line is cut to a window around the place.
        """
        if self.column is None or not 1 <= self.column <= len(line) + 1:
            return ""
        index = self.column - 1
        start = max(0, index - CARET_WINDOW // 2)
        end = min(len(line), start + CARET_WINDOW)
        shown = [printable(ch) for ch in line[start:end]]
        lead = "… " if start else ""
        cells = len(lead) + sum(_cells(text) for text in shown[: index - start])
        return f"  {lead}{''.join(shown)}{' …' if end < len(line) else ''}\n  {' ' * cells}^"


CARET_WINDOW = 36  # characters of the hand shown above a caret: fits a 40-column phone terminal
QUOTE_LIMIT = 40  # characters of the input a message quotes: enough to find the place, never the whole input


def printable(text: str) -> str:
    """`text` with every character a terminal or UTF-8 cannot show escaped (`\\x00`, `\\ud800`).

    A message that quotes input must always print and encode: a lone
    surrogate from JSON (`"\\ud800"`) would otherwise make the message itself fail.
    """
    if text.isprintable():
        return text  # the common case; a lone surrogate is not printable, so it never takes this path
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def quote(text: object, limit: int = QUOTE_LIMIT) -> str:
    """The part of an input a message echoes: at most `limit` characters, escaped with `printable`."""
    if isinstance(text, int) and text.bit_length() > 4 * limit:  # repr() refuses ints of over 4,300 digits
        return f"a number of about {int(text.bit_length() * 0.30103) + 1} digits"
    shown = text if isinstance(text, str) else repr(text)
    if len(shown) > limit:
        return f"{printable(shown[:limit])}… ({len(shown)} characters)"
    return printable(shown)


def problems_error(problems: Iterable[Text], code: str) -> HandError:
    """One error for every problem of an input found at once (`players.S: …; events[0]: …`), each once."""
    return HandError.of("error.problems", code=code, problems=Joined(problems))


class ArgumentError(HandError, TypeError):
    """A library call given the wrong type of argument (`rules=["name"]`, `options=[1]`).

    A TypeError naming the argument, as Python's own calls raise; and still a
    HandError, so a shell that passes parsed JSON straight through (the CLI,
    the API) answers it as bad input, not as a crash.
    """


TYPE_PREFIX = "error.type."  # the msgids of the JSON types a message names (`error.type.NoneType`)
JSON_TYPES = frozenset({"NoneType", "str", "int", "float", "bool", "list", "dict"})


def type_word(value: object) -> Text | str:
    """The type of `value` as a message names it: Python's name in English (`NoneType`, `list`), as it always
    read; for a JSON type, its word in the catalog's other languages (空值 null, 列表)."""
    name = type(value).__name__
    return Text(TYPE_PREFIX + name) if name in JSON_TYPES else name


def require(value: object, types: type | tuple[type, ...], argument: str, expected: str) -> None:
    """Raises ArgumentError naming `argument` unless `value` is one of `types`; `expected` is the catalog's
    msgid of what it must be (`error.argument.json_object`)."""
    if not isinstance(value, types):
        raise ArgumentError.of(
            "error.argument.wrong_type",
            code="bad_argument",
            field=argument,
            argument=argument,
            expected=Text(expected),
            type=type_word(value),
        )


def _cells(text: str) -> int:
    """Terminal cells `text` takes: two for a wide (CJK, full-width) character, none for a combining one."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def nearest(word: str, known: Iterable[str], aliases: Mapping[str, str] | None = None) -> str | None:
    """The known word `word` most likely meant: an alias players use (`zimo` → `self`), else the closest spelling."""
    choices = list(known)
    alias = (aliases or {}).get(word.lower())
    if alias in choices:
        return alias
    if word.lower() in choices:
        return word.lower()
    import difflib  # only when a word is not known: a start-up without errors does without it

    close = difflib.get_close_matches(word.lower(), choices, n=1, cutoff=0.6)
    return close[0] if close else None
