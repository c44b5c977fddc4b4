"""The notation's fast paths give exactly what the careful code gives.

`parse` first tries `_parse_plain` (cached tokens), `to_text` cuts one
translated string; both must match the careful parser and a plain per-tile
printer, down to `columns`, meld sources and the field order.
"""

from __future__ import annotations

import dataclasses
import string
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taihu.scorer import HandError, parse, to_text
from taihu.scorer import notation as N
from taihu.scorer import tiles as T

SETTINGS = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

TYPICAL = [
    "7m 7m 7m 6s 7s 9s 9s 9s S S C C C +5s self wild:1m",
    "1m 2m 3m 4m 6m 5p 5p 5p 4s 5s 6s 8s 8s +5m self wild:7m",
    "123m 456p 789s EE [CCC] +5p seat:S wild:5m,E",
    "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S",
    "[EEE] (CCCC) [999m] 11p FF +1p self flip:5s seat:E",
    "[EEE] [EEE] 東東 (f1f2f3f4) [CC2m] 1z1z +白 declare:sha-zhu\theaven\u3000seat:东",
    "  123m\n456p  789s +5z  ",
]
UNUSUAL = [
    "123m 456p [ E E E ] +5p",  # a meld with spaces inside
    "123m 456p+5p self",  # `+` glued to tiles
    "123m self5m",  # a tile glued to a flag
    "123m +5p +6p",  # a second winning tile
    "123m self self",  # a repeated condition
    "123m seat:S seat:E",
    "123m seat:X",
    "123m [124m]",
    "123m x",
    "",
    " \t ",
]


def fields_of(hand: N.ParsedHand) -> tuple:
    melds = tuple(list(vars(m).items()) for m in hand.melds)
    return list(hand._asdict().items()), melds, list(hand.columns.items())


def careful(text: str) -> tuple:
    try:
        return ("ok", fields_of(N._parse_careful(text)))
    except HandError as e:
        return ("error", str(e))


def fast(text: str) -> tuple:
    try:
        return ("ok", fields_of(parse(text)))
    except HandError as e:
        return ("error", str(e))


@pytest.mark.parametrize("text", TYPICAL)
def test_typical_lines_take_the_fast_path_and_match(text: str) -> None:
    N._TILE_TOKENS.clear()
    N._OTHER_TOKENS.clear()
    for _ in range(2):  # with the token caches cold, then warm
        plain = N._parse_plain(text)
        assert plain is not None
        assert fields_of(plain) == fields_of(N._parse_careful(text))
        assert plain == N._parse_careful(text)
        assert hash(plain) == hash(N._parse_careful(text))


@pytest.mark.parametrize("text", UNUSUAL)
def test_unusual_lines_go_to_the_careful_parser(text: str) -> None:
    assert N._parse_plain(text) is None or fields_of(N._parse_plain(text)) == fields_of(N._parse_careful(text))
    assert fast(text) == careful(text)


def test_fast_hand_is_a_normal_hand() -> None:
    hand = parse(TYPICAL[4])
    assert list(N._NO_FIELDS) == list(N.ParsedHand._fields)
    assert set(N.SHARED_VALUES) <= set(N._NO_FIELDS)  # the shared value conditions are written straight into the fields
    rebuilt = N.ParsedHand(**{name: getattr(hand, name) for name in N.ParsedHand._fields})
    assert rebuilt == hand and hash(rebuilt) == hash(hand) and rebuilt._asdict() == hand._asdict()
    assert hand._replace(seat="N").seat == "N"
    with pytest.raises(AttributeError):
        hand.win = 3  # type: ignore[misc]
    assert [vars(m) for m in hand.melds] == [vars(N.Meld(m.tiles, m.concealed, m.source, m.column)) for m in hand.melds]


def test_tile_tokens_never_look_like_tokens_with_a_column() -> None:
    """`_parse_plain` finds a condition or meld by searching from the previous one: it relies on this."""
    tile_chars = set(string.digits + "mpszf+" + "".join(T.LETTER) + "".join(T.CHINESE))
    for word in N.FLAG_CONDITIONS:
        assert set(word) - tile_chars, word
    assert not tile_chars & set("[]():")


TOKENS = st.sampled_from(
    ["7m", "123m", "99s", "5z", "E", "CCC", "f1", "f9", "0m", "東", "白", "x", "m", "+5s", "+E", "+55m", "+"]
    + ["self", "heaven", "da-jin", "self:x", "seat:S", "seat:北", "seat:Q", "seat", "wild:5m,E", "wild:5m,,E"]
    + ["flip:1m", "flip:12m", "declare:you-jin", "declare:no", "[EEE]", "(EEEE)", "[123m]", "[CC2m]", "[124m]"]
    + ["(f1f2f3f4)", "[f1f2f3f4]", "[EEE", "EEE]", "[E", "E]", "5m+5s", "²m"]
)
SEPARATORS = st.sampled_from([" ", " ", "  ", "\t", "\n", "\u3000", "\x1c", "\x85", "", "\u200b"])


@SETTINGS
@given(st.lists(st.tuples(TOKENS, SEPARATORS), max_size=12), SEPARATORS)
def test_any_line_parses_as_the_careful_parser_reads_it(parts: list[tuple[str, str]], lead: str) -> None:
    text = lead + "".join(token + sep for token, sep in parts)
    assert fast(text) == careful(text)
    assert fast(text) == careful(text)  # again, from the warm token caches


def plain_bare_text(kinds: tuple[int, ...]) -> str:
    """The printer `_bare_parts` replaced: one token per suit, then honors, then flowers."""
    groups: dict[int, list[str]] = {}
    for k in kinds:
        group = k // 9 if k < 27 else 3 if k < T.FIRST_FLOWER else 4
        groups.setdefault(group, []).append(T.name(k)[0] if k < 27 else T.name(k))
    parts = ["".join(groups[g]) + ("mps"[g] if g < 3 else "") for g in sorted(groups)]
    return " ".join(parts)


@SETTINGS
@given(st.lists(st.integers(0, T.KIND_COUNT - 1), max_size=20).map(lambda k: tuple(sorted(k))))
def test_bare_text_matches_a_plain_printer(kinds: tuple[int, ...]) -> None:
    assert " ".join(N._bare_parts(kinds)) == plain_bare_text(kinds)
    hand = N.ParsedHand(kinds, (), None, None, None, None, frozenset(), None)
    assert to_text(hand) == plain_bare_text(kinds)


# ParsedHand is a NamedTuple for speed; it compares as the frozen dataclass it was: every field but `columns`
PlainHand = dataclasses.make_dataclass(
    "PlainHand",
    [(name, Any, dataclasses.field(compare=name != "columns")) for name in N.ParsedHand._fields],
    frozen=True,
)
FEW = st.sampled_from([None, (), (1,), frozenset(), frozenset({"self"}), "S"])  # values that often coincide
HANDS = st.builds(
    N.ParsedHand,
    *[st.just({}) | st.just({"+": 3}) if name == "columns" else FEW for name in N.ParsedHand._fields],
)


@SETTINGS
@given(HANDS, HANDS)
def test_parsed_hands_compare_and_hash_as_the_frozen_dataclass(one: N.ParsedHand, other: N.ParsedHand) -> None:
    plain_one, plain_other = PlainHand(*one), PlainHand(*other)
    assert (one == other) == (plain_one == plain_other)
    assert (one != other) == (plain_one != plain_other)
    assert one == one._replace(columns={"x": 9}) and not one != one._replace(columns={"x": 9})
    if one == other:
        assert hash(one) == hash(other)
    assert one != tuple(one) and tuple(one) != one  # no plain tuple equals a hand
