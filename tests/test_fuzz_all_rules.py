"""Fuzzing and properties for every rule set (tests/test_lingxi_properties.py covers Lingxi in depth).

For each rule set in RULESETS:
(a) any string, and any option mapping, gives a HandScore or a HandError, never another exception;
(b) any table-shaped dict (fields random or of the wrong type) settles or raises a HandError,
    and a settlement always sums to zero;
(c) a valid winning hand (the rule set's examples, tokens split into single tiles and shuffled)
    scores the same in any order, and its canonical `hand` scores to the same result;
(d) the example tables, hands shuffled the same way, settle to the same zero-sum nets;
(e) through the CLI, the same inputs end in exit 0 or 2 (bad input), never exit 1 (a bug).

"Never another exception" is the library's side of "never a 500 / never exit 1": an
exception other than HandError escapes `outcome` and fails the test.

Runs are bounded and derandomized (the same examples each run) so CI is stable and fast.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rule_set_examples import documented, example_lines
from typer.testing import CliRunner

from taihu.cli.main import app as cli
from taihu.scorer import HandError, HandScore, Settlement, score_hand, settle_table
from taihu.scorer.notation import DECLARED_WINS, FLAG_CONDITIONS
from taihu.scorer.rulesets import RULESETS

SETTINGS = settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
FEWER = settings(SETTINGS, max_examples=40)

ROOT = Path(__file__).resolve().parent.parent
RULE_NAMES = sorted(RULESETS)
SEATS = ("E", "S", "W", "N")


EXAMPLES = {rules: example_lines(rules) for rules in RULE_NAMES}
EXAMPLE_CASES = [(rules, hand) for rules in RULE_NAMES for hand in EXAMPLES[rules]]
TABLE_PATHS = sorted((ROOT / "examples/tables").glob("*.json"))
OPTION_NAMES = {name: [o.name for o in rs.info().options] for name, rs in RULESETS.items()}
EVENT_TYPES = ("false-win", "foul", "liable", "gen-da", "xiao-xiang-gong", "da-jin", "self-drawn", "", "FOUL")

# Every token of every example hand, plus brackets, conditions and near-misses of each.
EXAMPLE_TOKENS = sorted({tok for _, hand in EXAMPLE_CASES for tok in hand.split()})
SOUP_TOKENS = EXAMPLE_TOKENS + [
    "[",
    "]",
    "(",
    ")",
    "[]",
    "()",
    "+",
    "++5m",
    "+[5m]",
    ":",
    ",",
    "0m",
    "10p",
    "5z",
    "8z",
    "0z",
    "f0",
    "f9",
    "x",
    "白",
    "發",
    "東",
    "春",
    "[1m 2m 3m]",
    "[5555p",
    "(f1f2f3f4)",
    "[123m)",
    "[[EEE]]",
    "wild:",
    "wild:,",
    "wild:5m,5m",
    "wild:f1",
    "wild:P",
    "wild:5m,E,C",
    "flip:",
    "flip:f8",
    "flip:P",
    "seat:",
    "seat:X",
    "seat:东",
    "declare:",
    "declare:nope",
    *(f"declare:{d}" for d in DECLARED_WINS),
    *FLAG_CONDITIONS,
    "self:1",
    "SELF",
]
NOTATION_ALPHABET = (
    "0123456789mpszf ESWNCFP[]()+:,-\tselfkongdrawrobtiheavnrthumwdcpz东南西北中发白春夏秋冬梅兰菊竹東發蘭"
)


def outcome(rules: str, text: str, options: dict[str, Any] | None = None) -> HandScore | None:
    """score_hand's answer, or None after a HandError; any other exception fails the test."""
    try:
        result = score_hand(text, rules=rules, options=options)
    except HandError as exc:
        assert str(exc), "a HandError must say what is wrong"
        return None
    assert isinstance(result, HandScore)
    assert result.rules == rules
    return result


# -- (a) strings and options -------------------------------------------------------------------

RULES = st.sampled_from(RULE_NAMES)
ANY_TEXT = st.one_of(
    st.text(max_size=60),  # any unicode, surrogates and controls included
    st.text(alphabet=NOTATION_ALPHABET, max_size=60),
    st.binary(max_size=40).map(lambda b: b.decode("utf-8", errors="surrogateescape")),
    st.binary(max_size=40).map(lambda b: b.decode("latin-1")),
)
TOKEN_SOUP = st.lists(st.sampled_from(SOUP_TOKENS), max_size=18).map(" ".join)


@pytest.mark.parametrize("rules", RULE_NAMES)
@SETTINGS
@given(text=ANY_TEXT)
def test_any_string_raises_only_hand_error(rules: str, text: str) -> None:
    outcome(rules, text)


@pytest.mark.parametrize("rules", RULE_NAMES)
@SETTINGS
@given(text=TOKEN_SOUP)
def test_token_soup_raises_only_hand_error(rules: str, text: str) -> None:
    outcome(rules, text)


@st.composite
def mutated_examples(draw: st.DrawFn, rules: str) -> str:
    """A known hand one or two edits away from valid: a token dropped, doubled, replaced or cut."""
    tokens = draw(st.sampled_from(EXAMPLES[rules])).split()
    for _ in range(draw(st.integers(1, 2))):
        at = draw(st.integers(0, len(tokens) - 1))
        edit = draw(st.sampled_from(("drop", "double", "replace", "cut")))
        if edit == "drop" and len(tokens) > 1:
            del tokens[at]
        elif edit == "double":
            tokens.insert(at, tokens[at])
        elif edit == "replace":
            tokens[at] = draw(st.sampled_from(SOUP_TOKENS))
        elif len(tokens[at]) > 1:
            cut = draw(st.integers(1, len(tokens[at]) - 1))
            tokens[at : at + 1] = [tokens[at][:cut], tokens[at][cut:]]
    return " ".join(tokens)


@pytest.mark.parametrize("rules", RULE_NAMES)
@SETTINGS
@given(data=st.data())
def test_near_miss_hands_raise_only_hand_error(rules: str, data: st.DataObject) -> None:
    outcome(rules, data.draw(mutated_examples(rules)))


JUNK_VALUES = st.one_of(
    st.integers(-(10**6), 10**6),
    st.integers(),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=True),
    st.text(max_size=5),
    st.lists(st.integers(), max_size=2),
)


@pytest.mark.parametrize("rules", RULE_NAMES)
@FEWER
@given(data=st.data())
def test_any_options_raise_only_hand_error(rules: str, data: st.DataObject) -> None:
    keys = st.sampled_from([*OPTION_NAMES[rules], "double_at", "unit", "nope", ""])
    options = data.draw(st.dictionaries(keys, JUNK_VALUES, max_size=3))
    result = outcome(rules, data.draw(st.sampled_from(EXAMPLES[rules])), options)
    if result is not None and result.winner:
        assert result.total >= 0 or result.unit == "points"


# -- (b) tables ---------------------------------------------------------------------------------


@st.composite
def random_players(draw: st.DrawFn, rules: str) -> Any:
    hand = st.one_of(st.sampled_from(EXAMPLES[rules]), st.sampled_from(EXAMPLE_TOKENS), TOKEN_SOUP)
    player = st.one_of(
        hand,
        hand,
        st.fixed_dictionaries({"total": st.integers(-3, 80)}),
        st.fixed_dictionaries({"total": JUNK_VALUES}),
        JUNK_VALUES,
        st.dictionaries(st.sampled_from(["total", "hand", "E"]), JUNK_VALUES, max_size=2),
    )
    seats = draw(st.sampled_from([SEATS, SEATS, SEATS, SEATS[:3], (*SEATS, "X"), ("E", "S", "W", "n")]))
    if draw(st.integers(0, 9)) == 0:
        return draw(JUNK_VALUES)  # not an object at all
    return {seat: draw(player) for seat in seats}


@st.composite
def random_tables(draw: st.DrawFn, rules: str) -> Any:
    seat = st.one_of(st.sampled_from(SEATS), st.none(), JUNK_VALUES)
    event = st.one_of(
        st.fixed_dictionaries({"type": st.sampled_from(EVENT_TYPES), "seat": st.sampled_from(SEATS)}),
        st.dictionaries(st.sampled_from(["type", "seat", "amount"]), JUNK_VALUES | st.sampled_from(SEATS), max_size=3),
        JUNK_VALUES,
    )
    tile = st.sampled_from(["5m", "E", "C", "P", "9s", "3p", "f1", "x", ""])
    fields: dict[str, st.SearchStrategy[Any]] = {
        "rules": st.sampled_from([rules, rules, rules, "mars", ""]) | JUNK_VALUES,
        "wild": st.one_of(st.none(), st.lists(tile, max_size=3), JUNK_VALUES),
        "flip": st.one_of(st.none(), tile, JUNK_VALUES),
        "winner": seat,
        "discarder": seat,
        "players": random_players(rules),
        "events": st.one_of(st.lists(event, max_size=3), JUNK_VALUES),
        "options": st.one_of(
            st.dictionaries(st.sampled_from([*OPTION_NAMES[rules], "nope"]), st.integers(-5, 200), max_size=2),
            JUNK_VALUES,
        ),
        "extra": JUNK_VALUES,
    }
    table: dict[str, Any] = {}
    for name, strategy in fields.items():
        presence = draw(st.integers(0, 9))
        if name == "extra":
            if presence == 0:
                table[name] = draw(strategy)
        elif name == "players" or presence > 1:
            table[name] = draw(strategy)
    # mostly well-typed: a valid rule set, real seats and real events keep most draws past the model checks
    if draw(st.integers(0, 3)):
        table["rules"] = rules
        table["winner"] = draw(st.one_of(st.none(), st.sampled_from(SEATS)))
        table["discarder"] = draw(st.one_of(st.none(), st.sampled_from(SEATS)))
        table["events"] = draw(st.lists(event.filter(lambda e: isinstance(e, dict)), max_size=2))
    return table


def check_settlement(result: Settlement) -> None:
    assert isinstance(result, Settlement)
    assert set(result.net) == set(SEATS)
    # riichi sticks go into and out of the pot, which is no seat (docs/rules/riichi.md); every other rule set sums to 0
    pot = result.extra
    pot_change = 1000 * (pot["pot_before"] - pot["pot_after"]) if pot.get("pot_before") is not None else 0
    assert sum(result.net.values()) == pot_change
    paid = dict.fromkeys(SEATS, 0)
    for payment in result.payments:
        assert payment.amount > 0 and payment.from_ != payment.to
        paid[payment.from_] -= payment.amount
        paid[payment.to] += payment.amount
    if pot.get("pot_before") is None:
        assert paid == result.net
    else:  # riichi: beyond the payments, only whole sticks move, into or out of the pot
        sticks = {seat: result.net[seat] - paid[seat] for seat in SEATS}
        assert all(moved % 1000 == 0 for moved in sticks.values()) and sum(sticks.values()) == pot_change


@pytest.mark.slow  # a second a rule set
@pytest.mark.parametrize("rules", RULE_NAMES)
@SETTINGS
@given(data=st.data())
def test_any_table_settles_or_raises_hand_error(rules: str, data: st.DataObject) -> None:
    table = data.draw(random_tables(rules))
    try:
        result = settle_table(table)
    except HandError as exc:
        assert str(exc)
        return
    check_settlement(result)


# -- (c) valid winning hands: token order and the canonical form --------------------------------

RUN = re.compile(r"^([1-9]+)([mps])$")
HONORS = re.compile(r"^[ESWNCFP]+$")
FLOWER_RUN = re.compile(r"^(?:f[1-8])+$")


def single_tokens(hand: str) -> list[str]:
    """The hand's tokens with bare runs split into single tiles: `123m` -> `1m 2m 3m`, `EEE` -> `E E E`."""
    out: list[str] = []
    for token in hand.split():
        if m := RUN.match(token):
            out += [digit + m.group(2) for digit in m.group(1)]
        elif HONORS.match(token):
            out += list(token)
        elif FLOWER_RUN.match(token):
            out += re.findall(r"f[1-8]", token)
        else:
            out.append(token)
    return out


def summary(result: HandScore) -> dict[str, Any]:
    return result.to_dict()


@pytest.mark.parametrize("rules, hand", EXAMPLE_CASES)
def test_examples_round_trip(rules: str, hand: str) -> None:
    """The base of (c): every example scores (most as winners), and its canonical hand scores the same."""
    result = score_hand(hand, rules=rules)
    if not result.winner:
        assert result.arrangement == []  # (a declared win such as 杀猪 may have no grouping either)
    again = score_hand(result.hand, rules=rules)
    assert summary(again) == summary(result)


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_each_rule_set_has_winning_examples(rules: str) -> None:
    assert sum(score_hand(hand, rules=rules).winner for hand in EXAMPLES[rules]) >= 4


@pytest.mark.parametrize("rules", RULE_NAMES)
@FEWER
@given(data=st.data())
def test_token_order_never_changes_the_score(rules: str, data: st.DataObject) -> None:
    hand = data.draw(st.sampled_from(EXAMPLES[rules]))
    tokens = data.draw(st.sampled_from([hand.split(), single_tokens(hand)]))
    shuffled = " ".join(data.draw(st.permutations(tokens)))
    plain = score_hand(hand, rules=rules)
    mixed = score_hand(shuffled, rules=rules)
    assert summary(mixed) == summary(plain), shuffled
    assert summary(score_hand(mixed.hand, rules=rules)) == summary(mixed), mixed.hand


# -- (d) valid tables: zero-sum, and the same settlement whatever the order of each hand ---------

TABLES = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in TABLE_PATHS}


def test_every_rule_set_has_example_tables() -> None:
    assert {table.get("rules", "lingxi") for table in TABLES.values()} == set(documented())  # examples/tables


@pytest.mark.parametrize("name", sorted(TABLES))
@FEWER
@given(data=st.data())
def test_shuffled_tables_settle_the_same_and_to_zero(name: str, data: st.DataObject) -> None:
    table = TABLES[name]
    shuffled = json.loads(json.dumps(table))
    for seat, player in shuffled["players"].items():
        if isinstance(player, str):
            shuffled["players"][seat] = " ".join(data.draw(st.permutations(single_tokens(player))))
    expected = settle_table(table)
    result = settle_table(shuffled)
    check_settlement(result)
    assert result.net == expected.net and result.next_dealer == expected.next_dealer
    assert payments(result) == payments(expected)


def payments(result: Settlement) -> list[str]:
    return sorted(json.dumps(p.to_dict(), sort_keys=True) for p in result.payments)


# -- (e) the CLI: bad input is exit 2, never exit 1 (docs/api.md, Errors) ----


def cli_exit(args: list[str], stdin: str | None = None) -> int:
    result = CliRunner().invoke(cli, args, input=stdin)
    assert result.exit_code in (0, 2), (args, result.exit_code, result.stderr, result.exception)
    assert "internal error" not in result.stderr and "Traceback" not in result.output
    return result.exit_code


@pytest.mark.parametrize("rules", RULE_NAMES)
@FEWER
@given(data=st.data())
def test_cli_score_never_exits_1(rules: str, data: st.DataObject) -> None:
    text = data.draw(st.one_of(TOKEN_SOUP, mutated_examples(rules), st.text(alphabet=NOTATION_ALPHABET, max_size=40)))
    if data.draw(st.booleans()):
        exit_code = cli_exit(["score", "--rules", rules, "--json", "--", text])
    else:
        exit_code = cli_exit(["score", "--rules", rules, "--", text])
    assert exit_code == (2 if outcome(rules, text) is None else 0)


@pytest.mark.slow  # a second a rule set
@pytest.mark.parametrize("rules", RULE_NAMES)
@FEWER
@given(data=st.data())
def test_cli_settle_never_exits_1(rules: str, data: st.DataObject) -> None:
    table = data.draw(random_tables(rules))
    cli_exit(["settle", "-", "--json"], json.dumps(table))


# every tile, flowers and red fives too, alone, in melds and as the value of a condition that takes a tile:
# a flower given as riichi's dora: once reached the dora table as a KeyError
ANY_TILE = [f"{n}{s}" for s in "mps" for n in range(10)] + list("ESWNCFP") + [f"f{i}" for i in range(1, 9)]
TILE_TOKENS = st.one_of(
    st.sampled_from(ANY_TILE),
    st.sampled_from(ANY_TILE).map(lambda t: f"[{t}{t}{t}]"),
    st.sampled_from(ANY_TILE).map(lambda t: f"({t}{t}{t}{t})"),
    st.tuples(st.sampled_from(("dora", "ura", "wild", "flip", "round", "seat")), st.sampled_from(ANY_TILE)).map(
        lambda pair: f"{pair[0]}:{pair[1]}"
    ),
    st.sampled_from(("riichi", "self", "+5m", "+f1", "+E")),
)


@pytest.mark.parametrize("rules", RULE_NAMES)
@FEWER
@given(tokens=st.lists(TILE_TOKENS, min_size=10, max_size=19))
def test_any_tile_anywhere_is_scored_or_refused_and_waits_too(rules: str, tokens: list[str]) -> None:
    from taihu.scorer.waiting import waits

    line = " ".join(tokens)
    for call in (lambda: score_hand(line, rules=rules), lambda: waits(line.replace("+", ""), rules=rules)):
        try:
            call()
        except HandError:
            pass
