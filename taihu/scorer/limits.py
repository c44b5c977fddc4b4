"""The ranges every input is held to, and a check of JSON text before it is parsed (docs/limits.md).

A hostile input must be refused by a rule, not by what Python runs out of:
a 5,000-digit number passes `json.loads` only to fail on `int()`'s 4,300-digit
limit, and 100,000 nested `[` make the parser recurse until it fails.

`check_json_text` is our own, not a library's: the standard parser enforces
neither bound, and the check must cost next to nothing on a hostile 64 KB
body (it runs on every request body). It is a few passes over the bytes, each
done by C code (a regex substitution, `split`, `translate`, `itertools`), and
none that can go back: the former single regex restarted its string match at
every quote of an unclosed string of escaped quotes, which made it quadratic
(21 s for 64 KB); now no 64 KB body takes over a few ms (docs/soak.md).
"""

from __future__ import annotations

import re
from itertools import accumulate, count, islice
from operator import sub

from .errors import HandError

MAX_TOTAL = 10**9  # a player's {"total": N}: 0 ≤ N ≤ 10⁹ (a real count is a few hundred)
MAX_OPTION_VALUE = 1000  # every house option today is a tai value, a threshold or a unit of at most 100
MAX_JSON_BYTES = 64 * 1024  # a table is about 1 KB
MAX_JSON_DEPTH = 32  # a table nests 3 levels deep (table → players → {"total": N})
MAX_NUMBER_CHARACTERS = 24  # a number token's length; 10⁹ has 10 digits

_ESCAPE = re.compile(rb"\\.", re.DOTALL)  # a backslash and the byte it escapes (only valid inside a string)
_OPENERS = b"[{"
_BRACKETS = b"[]{}"
_NOT_BRACKETS = bytes(b for b in range(256) if b not in _BRACKETS)
_BRACKET = re.compile(rb"[\[\]{}]")
# an opener counts 2 and a closer 0, so the running sum less the count of brackets is the depth
_STEPS = bytes.maketrans(_BRACKETS, b"\x02\x00\x02\x00")
_NUMBER_PART = rb"0-9.eE+\-"
_LONG_NUMBER = re.compile(rb"(?<![%s])-?[0-9][%s]{%d,}+" % (_NUMBER_PART, _NUMBER_PART, MAX_NUMBER_CHARACTERS))


def check_json_text(text: str | bytes, what: str = "the JSON") -> None:
    """Refuses JSON text too large, too deeply nested or with too long a number, before it is parsed.

    Malformed text is left to the parser, which names the place; this only
    bounds what the parser would have to do: text that passes makes the
    standard parser either succeed within the bounds or raise its own
    JSONDecodeError (tests/test_json_check.py).
    """
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if len(data) > MAX_JSON_BYTES:
        raise HandError(f"{what} is {len(data)} bytes; at most {MAX_JSON_BYTES} bytes (64 KB) are accepted")
    outside = _outside_strings(data)
    brackets = outside.translate(None, _NOT_BRACKETS)
    if sum(map(brackets.count, _OPENERS)) > MAX_JSON_DEPTH:
        depths = list(map(sub, accumulate(brackets.translate(_STEPS)), count(1)))
        if max(depths) > MAX_JSON_DEPTH:
            # the depth moves by one a bracket, so the first bracket over the limit is the first at one more
            over = depths.index(MAX_JSON_DEPTH + 1)
            at = next(islice(_BRACKET.finditer(outside), over, None)).start()
            raise HandError(
                f"{what} nests deeper than {MAX_JSON_DEPTH} levels at character {at + 1}; a table nests 3 levels deep"
            )
    number = _LONG_NUMBER.search(outside)
    if number is not None:
        raise HandError(
            f"{what} has a number of {len(number.group())} characters at character {number.start() + 1}; "
            f"numbers here are at most {MAX_TOTAL:,} (10⁹)"
        )


def _outside_strings(data: bytes) -> bytes:
    """`data` with every string's content blanked to NUL bytes, the same length, so places stay as they were.

    Escapes are blanked first (`\\"` and `\\\\` become two NULs), so every
    quote left opens or closes a string; an unclosed string runs to the end.
    """
    parts = _ESCAPE.sub(b"\0\0", data).split(b'"')
    parts[1::2] = [bytes(len(part)) for part in parts[1::2]]
    return b'"'.join(parts)
