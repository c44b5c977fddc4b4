"""`check_json_text` against a plain reference, and bounded on hostile 64 KB bodies.

The reference parses with `json.loads`, recording each number token as the
parser reads it, and walks the result for its depth. On valid JSON the check
refuses exactly what the reference finds too deep or too long; on any text
the check passes, the parser either succeeds or raises its own
JSONDecodeError (no RecursionError, no `int()` digit limit).
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taihu.scorer.errors import HandError
from taihu.scorer.limits import (
    MAX_JSON_BYTES,
    MAX_JSON_DEPTH,
    MAX_NUMBER_CHARACTERS,
    check_json_text,
    check_outside_strings,
    within_bounds_anywhere,
)

SETTINGS = settings(
    max_examples=300, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)
HANG_BOUND = 20.0  # seconds for all the hostile bodies together; the quadratic check took 9-21 s for each of three


def depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    return 0


def reference(text: str) -> bool:
    """Whether valid JSON `text` is within the bounds: its depth and the length of its longest number token."""
    longest = 0

    def number(token: str) -> float:
        nonlocal longest
        longest = max(longest, len(token))
        return 0.0

    parsed = json.loads(text, parse_int=number, parse_float=number)
    return depth(parsed) <= MAX_JSON_DEPTH and longest <= MAX_NUMBER_CHARACTERS


def passes(text: str) -> bool:
    try:
        check_json_text(text)
    except HandError:
        return False
    return True


SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.sampled_from('ab"\\[]{}0123456789-e\n\u7532\ud800'), max_size=12)
)
VALUES = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
)


@st.composite
def deep(draw: st.DrawFn) -> Any:
    """A value nested around the limit (25 to 40 levels), lists and objects mixed."""
    value = draw(SCALARS)
    for _ in range(draw(st.integers(MAX_JSON_DEPTH - 7, MAX_JSON_DEPTH + 8))):
        value = [value] if draw(st.booleans()) else {draw(st.text(max_size=3)): value}
    return value


@SETTINGS
@given(value=VALUES | deep(), indent=st.sampled_from([None, 0, 2]), ascii_only=st.booleans())
def test_valid_json_is_refused_exactly_when_the_reference_finds_it_out_of_bounds(
    value: Any, indent: int | None, ascii_only: bool
) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    assert passes(text) == reference(text), text


NOISE = st.text(alphabet=st.sampled_from('[]{}",:\\ 0123456789-+.eEtrunlfas'), max_size=80)


@st.composite
def broken(draw: st.DrawFn) -> str:
    """Valid JSON with a piece cut out or noise put in, or noise alone."""
    if draw(st.booleans()):
        return draw(NOISE)
    text = json.dumps(draw(VALUES | deep()))
    start = draw(st.integers(0, len(text)))
    end = draw(st.integers(start, min(len(text), start + 6)))
    return text[:start] + draw(NOISE) + text[end:]


@SETTINGS
@given(text=broken())
def test_text_that_passes_is_parsed_or_refused_by_the_parser_itself(text: str) -> None:
    if not passes(text):
        return
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError:
        return
    assert reference(json.dumps(parsed)) or reference(text), text


def plain_passes(text: str) -> bool:
    try:
        check_outside_strings(text.encode("utf-8", "surrogatepass"))
    except HandError:
        return False
    return True


@SETTINGS
@given(text=broken() | VALUES.map(json.dumps) | deep().map(json.dumps))
def test_the_quick_pass_passes_only_what_the_plain_check_passes(text: str) -> None:
    if within_bounds_anywhere(text.encode("utf-8", "surrogatepass")):
        assert plain_passes(text), text


@pytest.mark.parametrize(
    ("body", "quick"),
    [
        ({"rules": "lingxi", "hand": "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S"}, True),
        ({"hand": "123m", "options": {"double_at": 10, "base": 2}}, True),
        ({"hand": "[" * MAX_JSON_DEPTH}, False),  # brackets in a string: the plain check reads past them, and passes
        ({"hand": "1" * (MAX_NUMBER_CHARACTERS + 1)}, False),  # a long run of digits in a string, the same
    ],
)
def test_a_body_of_the_api_takes_the_quick_pass_and_strings_full_of_brackets_the_plain_check(
    body: dict[str, Any], quick: bool
) -> None:
    data = json.dumps(body).encode()
    assert within_bounds_anywhere(data) is quick
    assert passes(data.decode()) and plain_passes(data.decode())


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("[" * (MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH + 1),
        ('{"a": "[[[[", "b": ' + "[" * MAX_JSON_DEPTH, 19 + MAX_JSON_DEPTH),  # the { is the first level
        ('["\\"", ' + "1" * 30 + "]", 8),
        ("[-" + "1" * MAX_NUMBER_CHARACTERS + "]", 2),  # the sign is part of the token, as the parser reads it
        ("[" + "e" * 30 + ", -" + "1" * MAX_NUMBER_CHARACTERS + "]", 34),  # a run that is no number is passed over
    ],
)
def test_a_refusal_names_its_character(text: str, place: int) -> None:
    with pytest.raises(HandError, match=f"at character {place};"):
        check_json_text(text)


@pytest.mark.parametrize(
    "text", ["[-" + "1" * (MAX_NUMBER_CHARACTERS - 1) + "]", "[" + "1" * MAX_NUMBER_CHARACTERS + "]"]
)
def test_a_number_at_the_bound_passes(text: str) -> None:
    check_json_text(text)


HOSTILE = [
    b'"' + b'\\"' * (MAX_JSON_BYTES // 2 - 1),  # the body: an unclosed string of escaped quotes
    b'"\\' * (MAX_JSON_BYTES // 2),
    b'["' + b'\\"' * (MAX_JSON_BYTES // 2 - 2) + b"[",
    b'"' * MAX_JSON_BYTES,
    b"[]" * (MAX_JSON_BYTES // 2),
    b"[" * MAX_JSON_BYTES,
    b"-" * MAX_JSON_BYTES,
]


def test_hostile_64_kb_bodies_are_checked_without_a_hang() -> None:
    """In a child process with a bound, since a regex stuck in C cannot be interrupted; not a speed figure."""
    program = (
        "import pickle, sys\nfrom taihu.scorer.limits import check_json_text\n"
        "from taihu.scorer.errors import HandError\n"
        "for body in pickle.load(sys.stdin.buffer):\n"
        "    try:\n        check_json_text(body)\n    except HandError:\n        pass\nprint('done')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], input=pickle.dumps(HOSTILE), capture_output=True, timeout=HANG_BOUND
    )
    assert done.stdout == b"done\n", done.stderr
