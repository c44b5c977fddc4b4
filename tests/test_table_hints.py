"""Errors that teach at a table: a seat's hand gets the hints `score` gives.

A hand inside `taihu settle` / `POST /settle` is parsed with its rule set's
conditions (the nearest match and that rule set's list), keeps the error's
`code` and `column`, names its seat, and the CLI puts the caret under the
place in that seat's hand. `taihu waits` never tells a hand to mark a `+`.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from api_app import app as api
from fastapi.testclient import TestClient
from registry_examples import sized
from settle_helpers import API_TABLE
from typer.testing import CliRunner

from taihu.cli.main import app
from taihu.scorer import HandError, score_hand, settle_table, waits

THIRTEEN, SIXTEEN = sized(13), sized(16)  # the rule sets a count of 13 or 16 tiles in hand names

ZIMO = "555m 222p 777p 333s 888s 9m f1 f2 P P +9m zimo"  # the docs/api.md winner, `self` typed as `zimo`
LINGXI_TABLE: dict[str, Any] = {**API_TABLE, "players": {**API_TABLE["players"], "S": ZIMO}}
TSUMO = "234567m 234p 88p 67s +8s tsumo riichi"
RIICHI_TABLE: dict[str, Any] = {
    "rules": "riichi",
    "winner": "S",
    "players": {"E": {"total": 0}, "S": TSUMO, "W": {"total": 0}, "N": {"total": 0}},
}
TWICE = "123m 456m 789m 11p 22p 2p +2p self"  # the winning tile also among the hand tiles: 15 for Luoshan's 14
LUOSHAN_TABLE: dict[str, Any] = {
    "rules": "luoshan",
    "winner": "N",
    "players": {"E": {"total": 0}, "S": {"total": 0}, "W": {"total": 0}, "N": TWICE},
}
TWO_WINS = "123m 456m 789p 234s 678s 5p +5p +6p"  # two tiles marked +
TWO_WINS_TABLE: dict[str, Any] = {**LINGXI_TABLE, "players": {**LINGXI_TABLE["players"], "S": TWO_WINS}}

# (table, seat, what the message says after `players.SEAT: `, code, column in that seat's hand)
HINTS = [
    pytest.param(
        LINGXI_TABLE,
        "S",
        "unknown condition 'zimo' at column 43 (did you mean self?); Lingxi conditions: seat:X, wild:T, self,",
        "unknown_condition",
        ZIMO.index("zimo") + 1,
        id="lingxi-zimo-lists-lingxi-conditions",
    ),
    pytest.param(
        RIICHI_TABLE,
        "S",
        "unknown condition 'tsumo' at column 26 (did you mean self?); Riichi conditions: seat:X, round:X,",
        "unknown_condition",
        TSUMO.index("tsumo") + 1,
        id="riichi-tsumo-lists-riichi-conditions",
    ),
    pytest.param(
        LUOSHAN_TABLE,
        "N",
        "the winning tile +2p is also written among the hand tiles; write it only once, after +",
        "winning_tile_twice",
        TWICE.index("+") + 1,
        id="luoshan-winning-tile-twice-when-scored",
    ),
    pytest.param(
        TWO_WINS_TABLE,
        "S",
        "second winning tile at column 33: a hand wins on one tile",
        "two_winning_tiles",
        TWO_WINS.index("+6p") + 1,
        id="lingxi-two-winning-tiles",
    ),
]


@pytest.mark.parametrize(("table", "seat", "hint", "code", "column"), HINTS)
def test_a_seats_hand_gets_the_hint_score_gives(
    table: dict[str, Any], seat: str, hint: str, code: str, column: int
) -> None:
    with pytest.raises(HandError) as raised:
        settle_table(table)
    error = raised.value
    assert str(error).startswith(f"players.{seat}: ") and hint in str(error)
    assert (error.code, error.column, error.seat, error.line) == (code, column, seat, table["players"][seat])
    with pytest.raises(HandError) as alone:  # the same words as the hand scored by itself
        score_hand(table["players"][seat], rules=table["rules"])
    assert str(error) == f"players.{seat}: {alone.value}"


def test_a_table_hands_unknown_condition_does_not_list_the_other_rule_sets_conditions() -> None:
    with pytest.raises(HandError) as raised:
        settle_table(LINGXI_TABLE)
    assert "round:X" not in str(raised.value) and "sticks:N" not in str(raised.value)


@pytest.mark.parametrize(("table", "seat", "hint", "code", "column"), HINTS)
def test_the_api_answers_a_seats_error_with_its_code_and_column(
    table: dict[str, Any], seat: str, hint: str, code: str, column: int
) -> None:
    answer = TestClient(api).post("/settle", json=table)
    assert answer.status_code == 422
    body = answer.json()
    assert hint in body["detail"] and (body["code"], body["column"]) == (code, column)


@pytest.mark.parametrize(("table", "seat", "hint", "code", "column"), HINTS)
def test_taihu_settle_puts_the_caret_under_the_place_in_the_seats_hand(
    table: dict[str, Any], seat: str, hint: str, code: str, column: int
) -> None:
    result = CliRunner().invoke(app, ["settle", "-"], input=json.dumps(table))
    assert result.exit_code == 2
    lines = result.output.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"error: players.{seat}: "))
    shown, caret = lines[at + 1], lines[at + 2]
    hand = table["players"][seat]
    # the caret sits under the character at `column` of the hand as shown (a long hand is cut to a window)
    assert caret.strip() == "^" and shown[caret.index("^")] == hand[column - 1]
    assert shown.strip().removeprefix("… ") in hand


LINGXI_14 = "123m 456m 789p 234s 11p"  # a Luoshan hand with one tile too many, given to Lingxi


def test_waits_does_not_tell_a_hand_to_mark_a_winning_tile() -> None:
    with pytest.raises(HandError) as raised:
        waits(LINGXI_14, rules="lingxi")
    message = str(raised.value)
    assert "marked +" not in message and "+5p" not in message
    assert f"did you mean --rules {THIRTEEN.rules}?" in message
    assert message.endswith("waits takes 16 tiles (what wins) or 17 (which tile to discard)")
    assert raised.value.code == "tile_count"
    assert len(waits(LINGXI_14, rules="luoshan").discards) > 0  # what the hint leads to: its discards


def test_score_still_tells_that_hand_to_mark_its_winning_tile() -> None:
    with pytest.raises(HandError, match=rf"--rules {THIRTEEN.rules}, with the winning tile marked \+"):
        score_hand(LINGXI_14, rules="lingxi")


FOURTEEN = "123m 456m 789p 234s 1p +1p"  # a Luoshan-sized winner, at a Lingxi table
RIICHI_WORD = "123m 456m 789p 234s 1p +1p riichi"  # a riichi condition, at a Luoshan table
ZERO_TOTALS = {seat: {"total": 0} for seat in "ESWN"}


def one_winner(rules: str, hand: str) -> dict[str, Any]:
    return {"rules": rules, "winner": "S", "discarder": "W", "players": {**ZERO_TOTALS, "S": hand}}


# (table, what `score` says of the hand, what the table says instead)
TABLE_WORDED = [
    pytest.param(
        one_winner("lingxi", FOURTEEN),
        f"did you mean --rules {THIRTEEN.rules}?",
        f'did you mean the table\'s "rules": {THIRTEEN.fields}?',
        id="tile-count-names-the-rules-field",
    ),
    pytest.param(
        one_winner("luoshan", RIICHI_WORD),
        "score the hand with --rules riichi)",
        'score the hand with the table\'s "rules": "riichi")',
        id="riichi-condition-names-the-rules-field",
    ),
]


@pytest.mark.parametrize(("table", "flag_hint", "field_hint"), TABLE_WORDED)
def test_a_table_s_hint_names_its_rules_field_not_the_flag(
    table: dict[str, Any], flag_hint: str, field_hint: str
) -> None:
    """At a table the rule set is the table's `"rules"` field: the hint names it (`score`'s names `--rules`)."""
    with pytest.raises(HandError) as alone:
        score_hand(table["players"]["S"], rules=table["rules"])
    assert flag_hint in str(alone.value)
    with pytest.raises(HandError) as raised:
        settle_table(table)
    assert str(raised.value) == f"players.S: {alone.value}".replace(flag_hint, field_hint)
    assert (raised.value.code, raised.value.column) == (alone.value.code, alone.value.column)
    answer = TestClient(api).post("/settle", json=table).json()
    assert field_hint in answer["detail"] and "--rules" not in answer["detail"]
    shown = CliRunner().invoke(app, ["settle", "-"], input=json.dumps(table))
    assert shown.exit_code == 2 and field_hint in shown.stderr and "--rules" not in shown.stderr
