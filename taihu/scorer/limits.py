"""The ranges every input is held to, and a check of JSON text before it is parsed (docs/limits.md).

A hostile input must be refused by a rule, not by what Python runs out of:
a 5,000-digit number passes `json.loads` only to fail on `int()`'s 4,300-digit
limit, and 100,000 nested `[` make the parser recurse until it fails.

`check_json_text` is our own, not a library's: the standard parser enforces
neither bound, and the check must cost next to nothing on a hostile 64 KB
body (it runs on every request body). It is a few passes over the bytes, each
done by C code (`replace`, `split`, `translate`, `find`, `itertools`, a
chunk at a time where a pass is long, so that no one call holds the
interpreter while the server's event loop waits), and none that can go back:
the former single regex restarted its string match at every quote of an
unclosed string of escaped quotes, which made it quadratic (21 s for 64 KB);
now no 64 KB body takes over a few ms (docs/soak.md).
"""

from __future__ import annotations

import re
from itertools import accumulate, count, islice
from operator import sub

from .errors import HandError, Text

MAX_TOTAL = 10**9  # a player's {"total": N}: 0 ≤ N ≤ 10⁹ (a real count is a few hundred)
MAX_OPTION_VALUE = 1000  # every house option today is a tai value, a threshold or a unit of at most 100
MAX_JSON_BYTES = 64 * 1024  # a table is about 1 KB
MAX_JSON_DEPTH = 32  # a table nests 3 levels deep (table → players → {"total": N})
MAX_NUMBER_CHARACTERS = 24  # a number token's length; 10⁹ has 10 digits

_OPENERS = b"[{"
_BRACKETS = b"[]{}"
_NOT_BRACKETS = bytes(b for b in range(256) if b not in _BRACKETS)
_BRACKET = re.compile(rb"[\[\]{}]")
# an opener counts 2 and a closer 0, so the running sum less the count of brackets is the depth
_STEPS = bytes.maketrans(_BRACKETS, b"\x02\x00\x02\x00")
_CHUNK = 1024  # brackets (or bytes) a C call reads at a time in the depth pass, so none holds the interpreter long
# every byte that may stand in a number token as "0", every other as " ": a number is a run of "0"
_NUMBER_BYTES = frozenset(b"0123456789.eE+-")
_AS_RUNS = bytes(0x30 if b in _NUMBER_BYTES else 0x20 for b in range(256))
_TOO_LONG_RUN = b"0" * (MAX_NUMBER_CHARACTERS + 1)
_DIGITS = frozenset(b"0123456789")


JSON_TEXT = Text("error.json.the_json")  # what a JSON text is called where the caller names none
REQUEST_BODY = Text("error.json.the_body")  # an HTTP request's body, as the API's refusals name it
STDIN = Text("error.json.stdin")  # the command line's standard input


def json_file(path: str) -> Text:
    """A JSON file as a refusal names it: its path (in Chinese, 文件 and its path)."""
    return Text("error.json.file", path=path)


def check_json_text(text: str | bytes, what: object = JSON_TEXT) -> None:
    """Refuses JSON text too large, too deeply nested or with too long a number, before it is parsed.

    Malformed text is left to the parser, which names the place; this only
    bounds what the parser would have to do: text that passes makes the
    standard parser either succeed within the bounds or raise its own
    JSONDecodeError (tests/test_json_check.py).
    """
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if len(data) > MAX_JSON_BYTES:
        raise HandError.of("error.json.too_large", code="too_large", what=what, size=len(data), most=MAX_JSON_BYTES)
    if within_bounds_anywhere(data):
        return
    check_outside_strings(data, what)


def within_bounds_anywhere(data: bytes) -> bool:
    """Whether `data` is within both bounds counting the strings' contents too: then what is outside them is.

    An API body is a hand line and a few options: it has fewer brackets than
    the depth limit and no run of number bytes that long, anywhere, so the
    blanking of strings (`_outside_strings`) need not be made for it. A
    sufficient test only: false sends the text to `check_outside_strings`,
    which decides (tests/test_json_check.py holds the two to each other).
    """
    return sum(map(data.count, _OPENERS)) <= MAX_JSON_DEPTH and data.translate(_AS_RUNS).find(_TOO_LONG_RUN) < 0


def check_outside_strings(data: bytes, what: object = JSON_TEXT) -> None:
    """`check_json_text`'s bounds read outside the strings: the depth of the brackets, the numbers' length."""
    outside = _outside_strings(data)
    brackets = outside.translate(None, _NOT_BRACKETS)
    if sum(map(brackets.count, _OPENERS)) > MAX_JSON_DEPTH:
        over = _first_too_deep(brackets)
        if over is not None:
            at = _place_of_bracket(outside, over)
            raise HandError.of(
                "error.json.too_deep", code="too_deep", what=what, most=MAX_JSON_DEPTH, at=at + 1, column=at + 1
            )
    number = _first_long_number(outside)
    if number is not None:
        at, length = number
        raise HandError.of(
            "error.json.long_number",
            code="number_too_long",
            what=what,
            length=length,
            at=at + 1,
            column=at + 1,  # the place in the JSON text, as the message names it
            most=f"{MAX_TOTAL:,}",
        )


def _first_too_deep(brackets: bytes) -> int | None:
    """The index among `brackets` of the first one past MAX_JSON_DEPTH levels, or None.

    The depth moves by one a bracket, so the first bracket over the limit is
    the first at one more; read `_CHUNK` brackets at a time.
    """
    depth = 0
    for start in range(0, len(brackets), _CHUNK):
        chunk = brackets[start : start + _CHUNK]
        # depths[j + 1] is the depth after the chunk's bracket j
        depths = list(map(sub, accumulate(chunk.translate(_STEPS), initial=depth), count()))
        if max(depths) > MAX_JSON_DEPTH:
            return start + depths.index(MAX_JSON_DEPTH + 1) - 1
        depth = depths[-1]
    return None


def _place_of_bracket(outside: bytes, index: int) -> int:
    """The place in `outside` of its bracket number `index` (from 0), read `_CHUNK` bytes at a time."""
    for start in range(0, len(outside), _CHUNK):
        chunk = outside[start : start + _CHUNK]
        in_chunk = len(chunk.translate(None, _NOT_BRACKETS))
        if index < in_chunk:
            return start + next(islice(_BRACKET.finditer(chunk), index, None)).start()
        index -= in_chunk
    raise ValueError(f"no bracket number {index}")


def _first_long_number(outside: bytes) -> tuple[int, int] | None:
    """Where the first number token longer than MAX_NUMBER_CHARACTERS starts, and its length; or None.

    A number is a run of number bytes that starts with a digit or `-` and a
    digit (a run that starts otherwise is not JSON, which the parser refuses).
    """
    runs = outside.translate(_AS_RUNS)
    at = runs.find(_TOO_LONG_RUN)
    while at >= 0:
        end = runs.find(b" ", at)
        end = len(runs) if end < 0 else end
        first = outside[at]
        if first in _DIGITS or (first == 0x2D and at + 1 < end and outside[at + 1] in _DIGITS):
            return at, end - at
        at = runs.find(_TOO_LONG_RUN, end)
    return None


def _outside_strings(data: bytes) -> bytes:
    """`data` with every string's content blanked to NUL bytes, the same length, so places stay as they were.

    Escapes are blanked first (`\\"` and `\\\\` become two NULs), so every
    quote left opens or closes a string; an unclosed string runs to the end.
    """
    parts = data.replace(b"\\\\", b"\0\0").replace(b'\\"', b"\0\0").split(b'"')
    parts[1::2] = [bytes(len(part)) for part in parts[1::2]]
    return b'"'.join(parts)
