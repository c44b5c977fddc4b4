"""The notation's fast paths give exactly what the careful code gives.

`parse` first tries `_parse_plain` (cached tokens and tails), `to_text` cuts one
translated string; both must match the careful parser and a plain per-tile
printer, down to `columns`, meld sources and the field order. Every rule set's
`read_line` is compared with `parse_generally`, the same reading without the
fast path, on lines made of that rule set's words and tiles.
"""

from __future__ import annotations

import dataclasses
import gc
import string
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taihu.scorer import HandError, parse, to_text
from taihu.scorer import notation as N
from taihu.scorer import tiles as T
from taihu.scorer.rulesets import RULESETS, marks_of, players_words

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
    columns = hand.columns
    written = (getattr(columns, "line", None), getattr(columns, "read_as", ()))  # unset: nothing read otherwise
    values = list(hand.values.items())
    return list(hand._asdict().items()), melds, list(columns.items()), written, values, type(columns)


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
    N._TAILS.clear()
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
    assert N._PLAIN_FIELDS == N.ParsedHand._fields
    assert set(N.SHARED_VALUES) <= set(N._Tail._fields)  # the shared value conditions are kept as the fields are
    rebuilt = N.ParsedHand(**{name: getattr(hand, name) for name in N.ParsedHand._fields})
    assert rebuilt == hand and hash(rebuilt) == hash(hand) and rebuilt._asdict() == hand._asdict()
    assert hand._replace(seat="N").seat == "N"
    with pytest.raises(AttributeError):
        hand.win = 3  # type: ignore[misc]
    assert [vars(m) for m in hand.melds] == [vars(N.Meld(m.tiles, m.concealed, m.source, m.column)) for m in hand.melds]


def test_tile_tokens_never_look_like_tokens_with_a_column() -> None:
    """`_parse_plain` finds a tail, and a condition or meld in it, by searching from the previous one: it
    relies on this."""
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


# -- every rule set's lines: `read_line` (the fast path first) against `parse_generally` -------------------

RULES = list(RULESETS)  # asked of the registry: no rule set is named here


def generally(rules: str, text: str) -> tuple:
    """What the general code reads from `text` as `rules` reads a line, or its error's code, message and column."""
    conditions, label = RULESETS[rules]._reader
    try:
        return ("ok", fields_of(N.parse_generally(text, conditions, label, rules=rules)))
    except HandError as e:
        return ("error", e.code, str(e), e.column)


def as_read(rules: str, text: str) -> tuple:
    try:
        return ("ok", fields_of(RULESETS[rules].read_line(text)))
    except HandError as e:
        return ("error", e.code, str(e), e.column)


# a suit's digits and its letter, well formed or not (`0` is a marked five where a rule set has them)
DIGITS = st.text(alphabet="123456789", min_size=1, max_size=5) | st.text(alphabet="0123456789", min_size=1, max_size=3)
SUITED = st.tuples(DIGITS, st.sampled_from("mmppsszz") | st.sampled_from(["M", "Z", "", "x"])).map("".join)
SEGMENTS = SUITED | st.sampled_from(["E", "S", "W", "N", "C", "F", "P", "CC", "ESWN", "f1", "f8", "f9", "東", "白"])
TILE_TOKENS = st.lists(SEGMENTS, min_size=1, max_size=4).map("".join)
# and well formed only, as most lines are
GOOD_SUITED = st.tuples(st.text(alphabet="123456789", min_size=1, max_size=5), st.sampled_from("mps")).map("".join)
GOOD_SEGMENTS = (
    GOOD_SUITED
    | st.text(alphabet="1234567", min_size=1, max_size=3).map(lambda digits: digits + "z")
    | st.sampled_from(["E", "S", "W", "N", "C", "F", "P", "CCC", "ESWN", "f1", "f4", "f8"])
)
GOOD_TILE_TOKENS = st.lists(GOOD_SEGMENTS, min_size=1, max_size=4).map("".join)


@SETTINGS
@given(TILE_TOKENS | GOOD_TILE_TOKENS | st.text(alphabet="0123456789mpszESWNCFPf東白+:x", max_size=12))
def test_a_tokens_kinds_read_as_the_general_decoder_reads_them(token: str) -> None:
    """`_run_kinds` (a run in the printed order at once, any other through `_decode_run`) against `_decode_run`
    alone, on the runs `_RUN` takes; None for anything else."""
    general = bytes(kind for kind, _ in N._decode_run(token)) if N._RUN.fullmatch(token) else None
    assert N._run_kinds(token) == general


def well_written(word: str) -> str:
    """A condition as a line would write it (a value as the notation's examples give it)."""
    return word if word in N.FLAG_CONDITIONS else f"{word}:{N._EXAMPLE[word]}"


def written_well(rules: str) -> list[str]:
    """Each condition of the rule set, as a line would write it."""
    return [well_written(word) for word in sorted(RULESETS[rules].conditions)]


def condition_tokens(rules: str) -> st.SearchStrategy[str]:
    """The rule set's condition words written well (its values, as the notation's examples give them) and not,
    the other rule sets' words, and the players' words this rule set reads."""
    known = sorted(RULESETS[rules].conditions)
    words = written_well(rules)
    others = [word if word in N.FLAG_CONDITIONS else f"{word}:{N._EXAMPLE[word]}" for word in N.CONDITION_ORDER]
    players = [word for word, (_, name) in players_words().items() if name == rules]
    wrong = [f"{word}:" for word in known] + [f"{word}:x" for word in known] + ["zimo", "Self", "seat:Q", "self:x"]
    return (
        st.sampled_from(words)
        | st.sampled_from(others)
        | st.sampled_from(wrong)
        | st.sampled_from(["seat:S", "seat:北", "wild:5m,E", "flip:1m", "+5s", "+E", "+0m", "+55m", "+"])
        | (st.sampled_from(players) if players else st.nothing())
    )


MELDS = st.sampled_from(["[EEE]", "(EEEE)", "[123m]", "[055p]", "[CC2m]", "[124m]", "(f1f2f3f4)", "[EEE", "E]"])
PLAIN_SEPARATORS = st.sampled_from([" ", " ", "  ", "\t"])


@st.composite
def rule_set_lines(draw: st.DrawFn) -> tuple[str, str]:
    """A rule set and a line for it: most of them well formed, tile tokens then a tail of the `+` tile and the
    rule set's conditions (as lines are mostly written); the others of any tokens, in any order."""
    rules = draw(st.sampled_from(RULES))
    if draw(st.integers(0, 3)):
        tail = draw(st.permutations(written_well(rules)))[: draw(st.integers(0, 6))]
        tail += draw(st.lists(st.sampled_from(["+5s", "+E", "+f2", "[EEE]", "(CCCC)", "[345p]"]), max_size=2))
        tokens = draw(st.lists(GOOD_TILE_TOKENS, min_size=1, max_size=13)) + draw(st.permutations(tail))
        separators = draw(st.lists(PLAIN_SEPARATORS, min_size=len(tokens), max_size=len(tokens)))
        return rules, "".join(token + sep for token, sep in zip(tokens, separators, strict=True))
    examples = [example["hand"] for example in RULESETS[rules].examples]
    head = draw(st.lists(TILE_TOKENS | (st.sampled_from(examples) if examples else st.nothing()), max_size=8))
    tail = draw(st.lists(condition_tokens(rules) | MELDS | TILE_TOKENS, max_size=6))
    tokens = head + tail if draw(st.booleans()) else draw(st.permutations(head + tail))
    separators = draw(st.lists(PLAIN_SEPARATORS | SEPARATORS, min_size=len(tokens), max_size=len(tokens)))
    return rules, draw(SEPARATORS) + "".join(token + sep for token, sep in zip(tokens, separators, strict=True))


@SETTINGS
@given(rule_set_lines())
def test_every_rule_sets_lines_read_as_the_general_code_reads_them(line: tuple[str, str]) -> None:
    rules, text = line
    expected = generally(rules, text)
    assert as_read(rules, text) == expected
    assert as_read(rules, text) == expected  # again, from the warm caches


@pytest.mark.parametrize("rules", RULES)
def test_every_rule_sets_examples_take_the_fast_path_and_match(rules: str) -> None:
    """Each rule set's example hands (and the same with their tokens one space apart) are read alike both
    ways, and those in plain ASCII are read by the fast path: the property above is no test of it otherwise."""
    lines = [example["hand"] for example in RULESETS[rules].examples]
    lines += [" ".join(line.split()) for line in lines]
    lines += ["1m 2m 3m 456p 789s EE +E self", "3345678m44466s +3m seat:S"]  # words every rule set knows
    words = written_well(rules)
    lines += ["123m 456p 789s EE +E " + " ".join(words), " ".join(["[EEE]", *reversed(words), "11s", "+1s"])]
    N._TILE_TOKENS.clear()
    N._OTHER_TOKENS.clear()
    N._TAILS.clear()
    for text in lines * 2:  # the caches cold, then warm
        assert as_read(rules, text) == generally(rules, text), text
        if text.isascii() and "0" not in text:
            assert N._parse_plain(text) is not None, text


@SETTINGS
@given(
    st.dictionaries(st.sampled_from([*N.DECLARED_VALUES, *N.MARKS, "x"]), st.integers(0, 3), max_size=4),
    st.sampled_from([*N.DECLARED_VALUES, *N.MARKS, "x", 1]),
)
def test_values_answer_as_the_dict_they_hold(held: dict[str, int], word: Any) -> None:
    """`Values` has the dict's own `in` and `get` (`Mapping`'s ask `__getitem__` and catch a KeyError)."""
    values = N.Values(held)
    assert (word in values) == (word in held)
    assert values.get(word) == held.get(word) and values.get(word, "none") == held.get(word, "none")
    assert dict(values) == held and list(values) == list(held) and len(values) == len(held)


@st.composite
def lines_of_any_conditions(draw: st.DrawFn) -> tuple[str, str]:
    """A rule set and a line for it, well formed, of any conditions (each rule set reads them all, and refuses
    those not its own only later) and tiles with marked fives where the rule set has them."""
    rules = draw(st.sampled_from(RULES))
    tail = draw(st.permutations([well_written(word) for word in N.CONDITION_ORDER]))[: draw(st.integers(0, 8))]
    marked = st.sampled_from(["0m", "40p", "[055s]", "+0p"] if marks_of(rules) else ["5m"])
    tokens = draw(st.lists(GOOD_TILE_TOKENS | marked, min_size=1, max_size=8)) + ["+E", *tail]
    return rules, " ".join(tokens)


@SETTINGS
@given(rule_set_lines() | lines_of_any_conditions())
def test_conditions_and_text_of_every_rule_sets_hands(line: tuple[str, str]) -> None:
    """`conditions`, `declared_values` and the canonical text, each against a plain version of it."""
    rules, text = line
    try:
        hand = RULESETS[rules].read_line(text)
    except HandError:
        return
    written = [("seat", hand.seat), ("wild", hand.wild), ("flip", hand.flip)]
    plain = [name for name, value in written if value is not None]
    plain += [name for name in N.DECLARED_VALUES if name in dict(hand.values)]
    plain += [flag for flag in N.FLAG_CONDITIONS if flag in hand.flags]
    plain += ["declare"] if hand.declare is not None else []
    assert hand.conditions == plain
    assert hand.declared_values == any(word in N.DECLARED_VALUES for word in dict(hand.values))
    assert RULESETS[rules].read_line(to_text(hand)) == hand


def test_the_fast_paths_caches_are_no_work_for_the_garbage_collector() -> None:
    """What `_parse_plain` keeps (tokens' kinds and readings, tails) is made of str, int and plain tuples,
    which a collection stops tracking: the caches add nothing to later collections."""
    for text in TYPICAL[:5] + ["3345678m44466s +3m seat:S round:E", "1m 2m 3m +5m dora:3m,E riichi (1111p)"]:
        assert N._parse_plain(text) is not None, text
    for _ in range(4):  # a tuple is untracked once what it holds is: a level of nesting a collection at worst
        gc.collect()
    for cache in (N._TILE_TOKENS, N._OTHER_TOKENS, N._TAILS):
        assert cache
        assert not [entry for entry in cache.items() if gc.is_tracked(entry[1])]
