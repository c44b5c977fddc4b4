"""Bounded numbers and nesting, and a TypeError naming the argument (docs/limits.md).

Each hostile input gets the same clean refusal everywhere: HandError (or
TypeError) in the library, exit 2 with one line in the CLI, 422 over HTTP.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from abuse_cases import HOSTILE_BODIES
from api_app import app as http_app
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from taihu.cli.main import app as cli_app
from taihu.scorer import HandError, score_hand, settle_table
from taihu.scorer.limits import MAX_JSON_DEPTH, MAX_OPTION_VALUE, MAX_TOTAL, check_json_text

HAND = "123m 456m 789p 234s 678s 5p +5p wild:9s,N"
HUGE = "9" * 5000


def totals_table(winner_total: Any) -> dict[str, Any]:
    """A Lingxi table of counts only: the winner E with `winner_total`."""
    others = {seat: {"total": 0} for seat in "SWN"}
    return {"rules": "lingxi", "winner": "E", "players": {"E": {"total": winner_total}, **others}}


def hand_table(**changes: Any) -> dict[str, Any]:
    players = {"E": {"total": 0}, "S": HAND, "W": {"total": 0}, "N": {"total": 0}}
    return {"rules": "lingxi", "winner": "S", "discarder": "E", "players": players} | changes


# -- the ranges, in the library ----------------------------------------------------------


def test_a_total_of_at_most_a_billion_settles() -> None:
    assert settle_table(totals_table(MAX_TOTAL)).net["E"] > 0


@pytest.mark.parametrize("total", [MAX_TOTAL + 1, 2**64, 10**5000], ids=["1e9+1", "2**64", "5001 digits"])
def test_a_total_over_a_billion_is_refused(total: int) -> None:
    with pytest.raises(HandError, match=r"players: E is \{\"total\": .*\}; at most 1,000,000,000"):
        settle_table(totals_table(total))


def test_an_option_at_its_maximum_is_taken() -> None:
    assert score_hand(HAND, options={"double_at": MAX_OPTION_VALUE}).total == 13


@pytest.mark.parametrize("value", [MAX_OPTION_VALUE + 1, 2**64, 10**5000], ids=["1001", "2**64", "5001 digits"])
def test_an_option_over_its_maximum_is_refused(value: int) -> None:
    with pytest.raises(HandError, match=f"option 'double_at' must be at most {MAX_OPTION_VALUE}, got "):
        score_hand(HAND, options={"double_at": value})
    with pytest.raises(HandError, match="options: option 'double_at' must be at most"):
        settle_table(hand_table(options={"double_at": value}))


# -- wrong argument types ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda: score_hand(HAND, rules=["lingxi"]), "rules"),  # type: ignore[arg-type]
        (lambda: score_hand(HAND, options=[1]), "options"),  # type: ignore[arg-type]
        (lambda: score_hand(["1m"]), "hand"),  # type: ignore[arg-type]
        (lambda: settle_table(42), "table"),  # type: ignore[arg-type]
    ],
)
def test_a_wrong_argument_type_is_a_type_error_naming_it(call: Any, argument: str) -> None:
    with pytest.raises(TypeError, match=f"^{argument}: must be ") as info:
        call()
    assert isinstance(info.value, HandError)  # so the CLI and the API still answer it as bad input


# -- JSON text, before parsing -----------------------------------------------------------


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_json_nesting_up_to_the_limit_passes() -> None:
    check_json_text(nested(MAX_JSON_DEPTH))
    check_json_text(json.dumps({"hand": "[" * 100 + "9" * 100}))  # inside a string nothing counts


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (nested(MAX_JSON_DEPTH + 1), "nests deeper than 32 levels"),
        ("[" * 60_000, "nests deeper than 32 levels"),
        ("[" * 100_000, "at most 65536 bytes"),
        (f'{{"total": {HUGE}}}', "a number of 5000 characters"),
        (f'{{"total": -{HUGE}}}', "a number of 5001 characters"),
        ('{"total": 1' + "0" * 30 + "e5}", "a number of 33 characters"),
    ],
)
def test_json_too_deep_or_with_too_long_a_number_is_refused(text: str, problem: str) -> None:
    with pytest.raises(HandError, match=problem):
        check_json_text(text)


# -- the CLI: exit 2 with one line -------------------------------------------------------

TABLE_FILES = {
    "a total of 5,000 digits": f'{{"winner": "E", "players": {{"E": {{"total": {HUGE}}}, "S": "1m"}}}}',
    "100,000 nested [": "[" * 100_000,
    "60,000 nested [ (under the size cap)": "[" * 60_000,
    "a total of 2**64": json.dumps(totals_table(2**64)),
}


# what a hostile file or option is refused as: too large, too deep, too long a number, a total out of range;
# bad_input where the command line refuses an -o value itself, before the core sees it (its codes are its own)
HOSTILE_CODES = {"too_large", "too_deep", "number_too_long", "bad_table", "bad_option", "bad_input"}


def assert_one_line_exit_2(result: Any, as_json: bool, code: str | None = None) -> None:
    """Exit 2 with one line on stderr; with --json, the error object on stdout too (docs/api.md)."""
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: "), result.stderr
    assert len(result.stderr) < 300
    if as_json:
        answer = json.loads(result.stdout)["code"]
        assert answer == code if code else answer in HOSTILE_CODES, result.stdout
    else:
        assert result.stdout == ""


JSON_FLAG = pytest.mark.parametrize("flag", [[], ["--json"]], ids=["text", "--json"])


@JSON_FLAG
@pytest.mark.parametrize("case", list(TABLE_FILES))
def test_cli_refuses_a_hostile_table_file_with_exit_2(case: str, flag: list[str], tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    path.write_text(TABLE_FILES[case], encoding="utf-8")
    result = CliRunner().invoke(cli_app, ["settle", *flag, str(path)])
    assert_one_line_exit_2(result, as_json=bool(flag))


@JSON_FLAG
@pytest.mark.parametrize(
    ("value", "code"),  # the command line refuses a number too long to read, the core one out of its range
    [(HUGE, "bad_option"), (str(MAX_OPTION_VALUE + 1), "bad_option"), ("-" + HUGE, "bad_option")],
    ids=["5000 digits", "1001", "-5000 digits"],
)
def test_cli_refuses_an_option_out_of_range_with_exit_2(value: str, code: str, flag: list[str]) -> None:
    result = CliRunner().invoke(cli_app, ["score", *flag, HAND, "-o", f"double_at={value}"])
    assert_one_line_exit_2(result, as_json=bool(flag), code=code)


@JSON_FLAG
def test_cli_prints_the_largest_payments_the_ranges_allow(flag: list[str], tmp_path: Path) -> None:
    """A payment of over 4,300 digits once failed when printed; within the ranges the largest has 10 digits.

    Every total at its maximum, the winner the dealer (paid double): the
    largest amounts a Lingxi table of counts can reach.
    """
    table = {"rules": "lingxi", "winner": "E", "players": {seat: {"total": MAX_TOTAL} for seat in "ESWN"}}
    path = tmp_path / "table.json"
    path.write_text(json.dumps(table), encoding="utf-8")
    result = CliRunner().invoke(cli_app, ["settle", *flag, "--lang", "en", str(path)], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    amounts = [payment.amount for payment in settle_table(table).payments]
    assert amounts == [2 * MAX_TOTAL] * 3
    if flag:
        assert [payment["amount"] for payment in json.loads(result.stdout)["payments"]] == amounts
    else:
        assert result.stdout.count(f" {2 * MAX_TOTAL} │") == 3  # the payment rows (a net is signed)


# -- the HTTP API: 422 -------------------------------------------------------------------


@pytest.mark.parametrize("case", list(HOSTILE_BODIES))
def test_api_refuses_hostile_numbers_and_nesting_with_422(case: str) -> None:
    path, body = HOSTILE_BODIES[case]
    client = TestClient(http_app, raise_server_exceptions=False)
    reply = client.post(path, content=body, headers={"content-type": "application/json"})
    assert reply.status_code == 422, reply.text
    detail = reply.json()["detail"]
    assert isinstance(detail, str) and len(detail) < 300
    assert "There was an error parsing the body" not in detail  # refused by a rule, named
