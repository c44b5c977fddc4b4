"""The one exception type for bad input."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from taihu.messages import Language


class HandError(ValueError):
    """Bad input: the message names the place and the problem.

    Every error the library raises for a hand, a table or an option is this
    type, so the CLI and the API can turn it into an answer (exit 2, HTTP 422)
    instead of a crash.

    `code` is a stable snake_case id a program can branch on (the message may
    be reworded; the code is not), and `column` the 1-based place in the hand
    string where one is known. Both are keyword-only, so `HandError(message)`
    keeps working everywhere.

    At a table, `seat` names the seat whose hand the error is about and
    `line` is that hand as given (the string `column` counts in), so a shell
    can point at the place as it does for one hand.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str = "bad_input",
        column: int | None = None,
        seat: str | None = None,
        line: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.column = column
        self.seat = seat
        self.line = line

    def message_in(self, lang: Language) -> str:
        """The message in `lang`: the catalog's text for this error where it has one, else the message as raised."""
        return str(self)

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


class ArgumentError(HandError, TypeError):
    """A library call given the wrong type of argument (`rules=["name"]`, `options=[1]`).

    A TypeError naming the argument, as Python's own calls raise; and still a
    HandError, so a shell that passes parsed JSON straight through (the CLI,
    the API) answers it as bad input, not as a crash.
    """


def require(value: object, types: type | tuple[type, ...], argument: str, expected: str) -> None:
    """Raises ArgumentError naming `argument` unless `value` is one of `types`."""
    if not isinstance(value, types):
        raise ArgumentError(f"{argument}: must be {expected}, got {type(value).__name__}")


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
