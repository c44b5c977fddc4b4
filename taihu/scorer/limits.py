"""The ranges every input is held to, and a check of JSON text before it is parsed (docs/limits.md).

A hostile input must be refused by a rule, not by what Python runs out of:
a 5,000-digit number passes `json.loads` only to fail on `int()`'s 4,300-digit
limit, and 100,000 nested `[` make the parser recurse until it fails.
"""

from __future__ import annotations

import re

from .errors import HandError

MAX_TOTAL = 10**9  # a player's {"total": N}: 0 ≤ N ≤ 10⁹ (a real count is a few hundred)
MAX_OPTION_VALUE = 1000  # every house option today is a tai value, a threshold or a unit of at most 100
MAX_JSON_BYTES = 64 * 1024  # a table is about 1 KB
MAX_JSON_DEPTH = 32  # a table nests 3 levels deep (table → players → {"total": N})
MAX_NUMBER_CHARACTERS = 24  # a number token's length; 10⁹ has 10 digits

# The JSON tokens that matter: strings (skipped whole, so brackets and digits in them do not count),
# brackets, and numbers.
_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[{]|[\]}]|-?[0-9][0-9.eE+-]*')


def check_json_text(text: str | bytes, what: str = "the JSON") -> None:
    """Refuses JSON text too large, too deeply nested or with too long a number, before it is parsed.

    Malformed text is left to the parser, which names the place; this only
    bounds what the parser would have to do.
    """
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if len(data) > MAX_JSON_BYTES:
        raise HandError(f"{what} is {len(data)} bytes; at most {MAX_JSON_BYTES} bytes (64 KB) are accepted")
    depth = 0
    for match in _TOKENS.finditer(data):
        token = match.group()
        first = token[:1]
        if first in b"[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                raise HandError(
                    f"{what} nests deeper than {MAX_JSON_DEPTH} levels at character {match.start() + 1}; "
                    f"a table nests 3 levels deep"
                )
        elif first in b"]}":
            depth -= 1
        elif first != b'"' and len(token) > MAX_NUMBER_CHARACTERS:
            raise HandError(
                f"{what} has a number of {len(token)} characters at character {match.start() + 1}; "
                f"numbers here are at most {MAX_TOTAL:,} (10⁹)"
            )
