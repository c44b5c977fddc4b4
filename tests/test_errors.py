"""Bad input: one case per error class (docs/notation.md "Errors", docs/rules/lingxi.md).

Every error is a scorer.HandError whose message names the place and the
problem; through the CLI it is exit code 2 with `error: ...` on stderr and
no traceback.
"""

from __future__ import annotations

import functools
import json
import logging
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import taihu.cli.main as cli_module
from taihu.cli.ledger import ledger_app
from taihu.cli.main import app
from taihu.messages.error_shape import ERROR_FIELDS
from taihu.scorer import HandError, score_hand

PING = "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W"  # a valid winner (平胡)
REST = "123p 456p 789p 12s 45s"  # 13 tiles; + a 3-tile meld = 16
C = len(PING) + 2  # the column of a condition appended after PING and one space (50)

ERRORS = [
    # -- tiles --------------------------------------------------------------------------
    pytest.param("123m x", r"unknown tile 'x' at column 6", id="unknown-tile-with-column"),
    pytest.param("123m 456m X", r"unknown tile 'X' at column 11", id="unknown-uppercase-tile"),
    pytest.param("123m 9z", r"unknown tile '9z' at column 6", id="unknown-honor-digit"),
    pytest.param("123m f9", r"unknown tile 'f9' at column 6", id="unknown-flower"),
    pytest.param("123 m", r"'123' at column 1 need a suit letter", id="digits-without-suit"),
    pytest.param("123m 0m", r"'0m' at column 6.*no red fives", id="red-five-0m"),
    pytest.param("120p", r"'0p' at column 3.*no red fives", id="red-five-0p-inside-a-run"),
    # -- copies -----------------------------------------------------------------------------
    pytest.param("55555p 123m 456m 789m 12s", r"5p appears 5 times; at most 4 exist", id="five-of-a-kind"),
    pytest.param("[5555p] 5p 123m 456m 789m 1s", r"5p appears 5 times; at most 4 exist", id="five-with-a-kong"),
    pytest.param(
        f"5m5m5m5m {REST} wild:5m,E", r"5m appears 4 times; at most 3 exist", id="four-of-a-revealed-wildcard-kind"
    ),
    pytest.param(
        f"5m5m5m {REST} 9s wild:5m,5m", r"5m appears 3 times; at most 2 exist", id="three-when-both-revealed-the-same"
    ),
    pytest.param(f"f1 {REST} 99s 3s wild:f1,E", r"f1 appears 1 times; at most 0 exist", id="the-revealed-flower-held"),
    pytest.param(f"f1 f1 {REST} 99s 3s", r"f1 appears 2 times; at most 1 exist", id="two-of-one-flower"),
    # -- tile count (相公) -----------------------------------------------------------------
    pytest.param("123m 456m 789p 234s 5p 6p +5p", r"hand has 15 tiles.*winning.*17", id="winner-15-tiles"),
    pytest.param("123m 456m 789p 234s 678s 5p 5p +5p", r"hand has 18 tiles.*winning.*17", id="winner-18-tiles"),
    pytest.param("123m 456m 789p 12s 45s 99s", r"hand has 15 tiles.*non-winning.*16", id="nonwinner-15-tiles"),
    pytest.param("123m 456m 789p 12s 45s 99s 11p", r"hand has 17 tiles.*non-winning.*16", id="nonwinner-17-tiles"),
    pytest.param(
        "5m5m5m E 123p 456p 789s 11s wild:5m,E declare:sha-zhu", r"hand has 15 tiles.*16 or 17", id="declared-15-tiles"
    ),
    # -- wildcards in melds ------------------------------------------------------------------
    pytest.param(
        f"[555m] {REST} wild:5m,E", r"wildcard 5m used in exposed meld \[555m\]", id="wildcard-in-exposed-pung"
    ),
    pytest.param(
        f"[456m] {REST} wild:5m,E", r"wildcard 5m used in exposed meld \[456m\]", id="wildcard-in-exposed-chow"
    ),
    # a kong holds four alike, but only three of a wildcard kind exist: the copies check names it
    pytest.param(
        f"(5555m) {REST} wild:5m,E",
        r"5m appears 4 times; at most 3 exist|wildcard 5m used in concealed kong",
        id="wildcard-in-concealed-kong",
    ),
    pytest.param(
        f"[5555m] {REST} wild:5m,E",
        r"5m appears 4 times; at most 3 exist|wildcard 5m used in exposed meld",
        id="wildcard-in-open-kong",
    ),
    # -- melds ---------------------------------------------------------------------------------
    pytest.param(f"[124m] {REST}", r"\[124m\] at column 1 is not a meld", id="invalid-meld-124m"),
    pytest.param(f"123m [135p] {REST}", r"\[135p\] at column 6 is not a meld", id="invalid-meld-135p"),
    pytest.param(f"[12m] {REST}", r"\[12m\] at column 1 is not a meld", id="invalid-meld-two-tiles"),
    pytest.param(f"[EFW] {REST}", r"\[EFW\] at column 1 is not a meld", id="invalid-meld-honor-run"),
    pytest.param(f"[112m] {REST}", r"\[112m\] at column 1 is not a meld", id="stand-in-pung-not-in-lingxi"),
    pytest.param(f"(123m) {REST}", r"\(123m\) at column 1.*concealed group must be a kong", id="concealed-chow"),
    pytest.param(f"[f1f2f3] {REST}", r"flowers cannot be melded.*column 1", id="melded-flowers"),
    pytest.param(f"(f1f2f5f6) {REST}", r"flower group held from the deal", id="mixed-flower-group"),
    pytest.param(f"[PPP] {REST}", r"白.*never melds.*\[PPP\]", id="white-melded"),
    pytest.param("[123m 456p", r"'\[' at column 1 is never closed", id="unclosed-bracket"),
    pytest.param("123m] 456p", r"'\]' at column 5 closes a group that was never opened", id="stray-closer"),
    # -- winning tile ---------------------------------------------------------------------------
    pytest.param("123m 456m 789p 234s 678s 5p +P wild:9s,N", r"winning tile \+P is a flower", id="won-on-white"),
    pytest.param("123m 456m 789p 234s 678s 5p +5p +6p", r"second winning tile at column 33", id="two-winning-tiles"),
    pytest.param("+5p5p 123m", r"'\+' at column 1 must be followed by exactly one tile", id="plus-two-tiles"),
    pytest.param("123m 456m 789p 234s 67s 5p 1s +5p wild:9s,N", r"no winning shape", id="no-winning-shape"),
    pytest.param("13579m 2468p 13579s 1p 2s +5s wild:E,N", r"no winning shape", id="no-winning-shape-scattered"),
    # -- conditions --------------------------------------------------------------------------------
    pytest.param(PING + " bogus", rf"unknown condition 'bogus' at column {C}", id="unknown-condition"),
    pytest.param(PING + " flip:1m", rf"condition 'flip' at column {C} is not used in Lingxi", id="flip-not-lingxi"),
    pytest.param(PING + " human", rf"condition 'human' at column {C} is not used in Lingxi", id="human-not-lingxi"),
    pytest.param(PING + " declare:foo", rf"unknown declared win 'foo' at column {C + 8}", id="unknown-declare-name"),
    pytest.param(
        "123m 456m 789p 234s 678s 5p wild:9s,N declare:san-jin-dao",
        r"declare:san-jin-dao at column 39 is not a Lingxi declared win",
        id="putian-declare-in-lingxi",
    ),
    pytest.param(
        PING + " self self",
        rf"condition 'self' at column {C + 5} is already given at column {C}",
        id="duplicate-condition",
    ),
    pytest.param(
        PING + " seat:E", rf"condition 'seat' at column {C} is already given at column 43", id="duplicate-seat"
    ),
    pytest.param(PING + " self:1", rf"condition 'self' at column {C} takes no value", id="flag-with-value"),
    pytest.param(
        "123m 456m 789p 234s 678s 5p +5p seat:", r"condition 'seat' at column 33 needs a value", id="seat-without-value"
    ),
    pytest.param(
        "123m 456m 789p 234s 678s 5p +5p seat:X", r"seat 'X' at column 38 must be one of E, S, W, N", id="bad-seat"
    ),
    pytest.param("123m 456m 789p 234s 678s 5p +5p wild:5m,x", r"unknown tile 'x'", id="bad-wild-tile"),
    pytest.param(
        "123m 456m 789p 234s 678s 5p +5p wild:5m,55m",
        r"wild: at column 41 must be one tile, got '55m'",
        id="wild-value-two-tiles",
    ),
    pytest.param(
        "123m 456m 789p 12s 45s 99s 3s wild:9s,N self",
        r"condition 'self' needs a winning tile",
        id="self-without-winning-tile",
    ),
    pytest.param(
        "123m 456m 789p 12s 45s 99s 3s wild:9s,N last-tile",
        r"condition 'last-tile' needs a winning tile",
        id="last-tile-without-winning-tile",
    ),
    pytest.param(PING + " rob-kong self", r"'rob-kong' and 'self' contradict", id="rob-kong-self"),
    pytest.param(PING + " rob-kong last-tile", r"'rob-kong' and 'last-tile' contradict", id="rob-kong-last-tile"),
    pytest.param(PING.replace("seat:W", "seat:S") + " heaven", r"'heaven' needs seat:E", id="heaven-not-dealer"),
    pytest.param(PING.replace("seat:W", "seat:E") + " earth", r"'earth' is for a non-dealer", id="earth-dealer"),
    pytest.param(PING.replace(" seat:W", "") + " earth", r"'earth' is for a non-dealer", id="earth-default-seat-E"),
    pytest.param(
        PING.replace("seat:W", "seat:S") + " heaven earth", r"'heaven' and 'earth' contradict", id="heaven-and-earth"
    ),
    pytest.param(PING + " kong-draw", r"'kong-draw' needs a kong", id="kong-draw-without-kong"),
    pytest.param(
        "123m 456m 789p 234s 678s 5p +5p wild:5m", r"two wildcard tiles.*got 1 at column 33", id="wild-with-one-tile"
    ),
    pytest.param("123m 456m 789p 234s 678s 5p +5p wild:5m,E,N", r"two wildcard tiles.*got 3", id="wild-with-three"),
    # -- declared wins need their holding --------------------------------------------------------
    pytest.param(
        "5m5m E 123p 456p 789s 11s 9p 9p wild:5m,E declare:sha-zhu",
        r"sha-zhu needs AAA\+B",
        id="sha-zhu-without-holding",
    ),
    pytest.param(
        "123m 456m 789p 234s 678s 5p f1f2f3f4f5f6f7 wild:9s,N declare:hua-hu",
        r"hua-hu needs all eight flowers",
        id="hua-hu-without-eight",
    ),
    # -- empty ----------------------------------------------------------------------------------
    pytest.param("", r"empty hand", id="empty"),
    pytest.param("   \t ", r"empty hand", id="blank"),
]


@pytest.mark.parametrize(("hand", "match"), ERRORS)
def test_hand_error(hand: str, match: str) -> None:
    with pytest.raises(HandError, match=match):
        score_hand(hand, rules="lingxi")


def test_hand_error_is_one_type_for_every_layer() -> None:
    assert issubclass(HandError, Exception)
    with pytest.raises(HandError):
        score_hand(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "match"),
    [
        pytest.param({"foo": 1}, r"unknown option 'foo' for lingxi", id="unknown-option"),
        pytest.param({"double_at": -1}, r"option 'double_at' must be a whole number", id="negative-option"),
        pytest.param({"double_at": "10"}, r"option 'double_at' must be a whole number", id="string-option"),
        pytest.param({"double_at": True}, r"option 'double_at' must be a whole number", id="bool-option"),
    ],
)
def test_option_errors(options: dict, match: str) -> None:
    with pytest.raises(HandError, match=match):
        score_hand(PING, rules="lingxi", options=options)


def test_unknown_rule_set() -> None:
    with pytest.raises(HandError, match=r"unknown rule set 'nope'"):
        score_hand(PING, rules="nope")


# -- found by this suite and fixed: non-ASCII digits, repeated reveals, columns in values


@pytest.mark.parametrize("hand", ["²m", "1²m 23p", "[²m²m²m]", "+②p", "123m wild:²m,E"])
def test_non_ascii_digit_is_a_hand_error(hand: str) -> None:
    with pytest.raises(HandError, match=r"column"):
        score_hand(hand)


@pytest.mark.parametrize("hand", ["١m", "𝟙m"])
def test_non_ascii_decimal_digit_is_not_a_tile(hand: str) -> None:
    with pytest.raises(HandError, match=r"unknown tile|column 1"):
        score_hand(hand)


def test_same_flower_revealed_twice_with_flowers_held() -> None:
    with pytest.raises(HandError):
        score_hand("f2f3f4 123p 456p 789p 12s 45s wild:f1,f1")


def test_same_flower_revealed_twice_is_an_error() -> None:
    with pytest.raises(HandError, match=r"f1"):
        score_hand("123m 456m 789p 234s 678s 5p +5p wild:f1,f1 seat:W")


@pytest.mark.parametrize(
    ("hand", "match"),
    [
        pytest.param("123m 456m 789p 234s 678s 5p +5p wild:5m,x", r"unknown tile 'x' at column 41", id="wild-unknown"),
        pytest.param("123m 456m 789p 234s 678s 5p +5p wild:5m,0p", r"'0p' at column 41", id="wild-red-five"),
        pytest.param("123m wild:5m,E flip:9z", r"unknown tile '9z' at column 21", id="flip-unknown"),
    ],
)
def test_tile_error_inside_condition_value_names_the_hand_column(hand: str, match: str) -> None:
    with pytest.raises(HandError, match=match):
        score_hand(hand)


# -- the CLI: exit 2, `error:` on stderr, no traceback -----------------------------------------

CLI_ERRORS = [
    pytest.param(["score", "123m x"], "unknown tile 'x' at column 6", id="unknown-tile"),
    pytest.param(["score", "123m 456m 789p 234s 5p 6p +5p"], "hand has 15 tiles", id="tile-count"),
    pytest.param(["score", PING + " rob-kong self"], "contradict", id="contradiction"),
    pytest.param(["score", ""], "empty hand", id="empty"),
    pytest.param(["score", PING, "--rules", "nope"], "unknown rule set 'nope'", id="unknown-rule-set"),
    pytest.param(["score", PING, "-o", "foo=1"], "unknown option 'foo'", id="unknown-option"),
    pytest.param(["score", PING, "-o", "double_at"], "NAME=NUMBER", id="option-without-value"),
    pytest.param(["score", PING, "-o", "double_at=ten"], "NAME=NUMBER", id="option-not-a-number"),
    pytest.param(["rules", "nope"], "unknown rule set 'nope'", id="rules-unknown"),
]


@pytest.mark.parametrize(("args", "message"), CLI_ERRORS)
def test_cli_bad_input_exit_2(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert result.stderr.startswith("error:")
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert result.stdout == ""


def test_cli_option_with_non_ascii_digit() -> None:
    result = CliRunner().invoke(app, ["score", PING, "-o", "double_at=²"])
    assert result.exit_code == 2 and "error:" in result.stderr


def test_cli_hand_with_non_ascii_digit() -> None:
    result = CliRunner().invoke(app, ["score", "²m"])
    assert result.exit_code == 2 and "error:" in result.stderr


# -- HandError carries a stable code and the column (docs/api.md, Errors) ----


@pytest.mark.parametrize(
    ("hand", "code", "column"),
    [
        pytest.param("123m x", "unknown_tile", 6, id="unknown_tile"),
        pytest.param("123m 9z", "unknown_tile", 6, id="unknown_tile-honor-digit"),
        pytest.param("123m 456m 789p 234s 678s 5p +5p wild:5m,x", "unknown_tile", 41, id="unknown_tile-in-a-value"),
        pytest.param(PING + " bogus", "unknown_condition", C, id="unknown_condition"),
        pytest.param("", "empty_hand", None, id="empty-hand"),
        pytest.param("123m [456m", "group_not_closed", 6, id="group-not-closed"),
        pytest.param("123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:X", "bad_seat", 48, id="bad-seat"),
    ],
)
def test_hand_error_code_and_column(hand: str, code: str, column: int | None) -> None:
    with pytest.raises(HandError) as info:
        score_hand(hand)
    assert (info.value.code, info.value.column) == (code, column)
    assert info.value.as_dict() == {"detail": str(info.value), "code": code, "column": column}


def test_hand_error_message_alone_still_works() -> None:
    error = HandError("players.E: something")
    assert (str(error), error.code, error.column) == ("players.E: something", "bad_input", None)


BAD_TABLE = json.dumps(
    {"rules": "lingxi", "players": {"E": "123m x", "S": {"total": 0}, "W": {"total": 0}, "N": {"total": 0}}}
)
NO_OPTION = {"detail": "option 'double_at' must be NAME=NUMBER", "code": "bad_option", "column": None}


@pytest.mark.parametrize(
    ("args", "stdin", "expected"),
    [
        pytest.param(
            ["score", "123m x", "--json"],
            None,
            {"detail": "unknown tile 'x' at column 6", "code": "unknown_tile", "column": 6},
            id="score-unknown-tile",
        ),
        pytest.param(
            ["score", PING, "--json", "-o", "double_at=-3"],
            None,
            {"detail": "option 'double_at' must be a whole number", "code": "bad_option", "column": None},
            id="score-negative-option",
        ),
        pytest.param(["score", "-", "--json", "-o", "double_at"], PING, NO_OPTION, id="score-batch-option"),
        pytest.param(
            ["score", "-", "--json", "-r", "nowhere"],
            PING,
            {"detail": "unknown rule set 'nowhere'", "code": "unknown_rules", "column": None},
            id="score-batch-rules",
        ),
        pytest.param(
            ["waits", "123m x", "--json"],
            None,
            {"detail": "unknown tile 'x' at column 6", "code": "unknown_tile", "column": 6},
            id="waits-unknown-tile",
        ),
        pytest.param(["waits", "123m", "--json", "-o", "double_at"], None, NO_OPTION, id="waits-option"),
        pytest.param(
            ["rules", "nowhere", "--json"],
            None,
            {"detail": "unknown rule set 'nowhere'", "code": "unknown_rules", "column": None},
            id="rules-unknown",
        ),
        pytest.param(
            ["settle", "-", "--json"],
            BAD_TABLE,
            {"detail": "players.E: unknown tile 'x' at column 6", "code": "unknown_tile", "column": 6},
            id="settle-a-seat-s-hand",
        ),
        pytest.param(
            ["settle", "-", "--json"],
            '{"rules": "lingxi",',
            {"detail": "stdin is not valid JSON: Expecting", "code": "invalid_json", "column": None},
            id="settle-malformed-json",
        ),
        pytest.param(
            ["settle", "-", "--json"],
            "[" * 100,
            {"detail": "stdin nests deeper than", "code": "too_deep", "column": 33},  # the bracket past 32
            id="settle-too-deep",
        ),
        pytest.param(
            ["settle", "no-such-table.json", "--json"],
            None,
            {"detail": "cannot read no-such-table.json", "code": "cannot_read", "column": None},
            id="settle-no-file",
        ),
    ],
)
def test_cli_json_bad_input_prints_the_error_object(args: list[str], stdin: str | None, expected: dict) -> None:
    """`--json` on bad input: the API's one error shape on stdout, exit 2, for every command."""
    result = CliRunner().invoke(app, args, input=stdin)
    assert result.exit_code == 2, (result.output, result.exception)
    answer = json.loads(result.stdout)
    assert list(answer) == list(ERROR_FIELDS) and answer["message"] == answer["detail"]
    assert (answer["code"], answer["column"]) == (expected["code"], expected["column"])
    assert answer["detail"].startswith(expected["detail"])
    assert result.stderr.startswith(f"error: {answer['detail']}")  # the message on stderr as without --json


# -- a bug is not bad input: exit 1, one line `internal error (id …)`, no traceback ----------------


NORMAL_WIN = Path(__file__).resolve().parent.parent / "examples/tables/normal-win.json"


def broken(*args: object, **kwargs: object) -> object:
    raise RuntimeError("surprise")


@pytest.mark.parametrize(
    ("core_call", "args"),
    [
        pytest.param("score_hand", ["score", PING], id="score"),
        pytest.param("score_hand", ["score", PING, "--json"], id="score-json"),
        pytest.param("settle_table", ["settle", str(NORMAL_WIN)], id="settle"),
        pytest.param("rule_sets", ["rules"], id="rules"),
    ],
)
def test_cli_bug_exits_1_with_internal_error(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, core_call: str, args: list[str]
) -> None:
    monkeypatch.setattr(cli_module, core_call, broken)
    with caplog.at_level(logging.DEBUG, logger="taihu.cli"):
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, (result.output, result.exception)
    assert isinstance(result.exception, SystemExit)  # the command ended itself, nothing else escaped
    match = re.fullmatch(r"internal error \(id ([0-9a-f]{8})\)[^\n]*\n", result.stderr)
    assert match, result.stderr
    assert "Traceback" not in result.output and "surprise" not in result.output
    assert result.stdout == ""
    [record] = [r for r in caplog.records if match.group(1) in r.getMessage()]
    assert record.exc_info is not None and record.exc_info[0] is RuntimeError


def command_functions() -> dict[str, typer.models.CommandInfo]:
    """Every command typer registered, `ledger`'s included, by its command line (`"ledger new"` …)."""
    found = {info.name or info.callback.__name__: info for info in app.registered_commands}
    found |= {f"ledger {info.name or info.callback.__name__}": info for info in ledger_app.registered_commands}
    return found


def required_words(words: list[str]) -> list[str]:
    """Words for each argument and required option of the command `words`, read from the tree typer builds."""
    command = typer.main.get_command(app)
    for word in words:
        command = command.commands[word]
    return [
        f"{param.opts[0]}=x" if param.opts[0].startswith("-") else "x" for param in command.params if param.required
    ]


@pytest.mark.parametrize("command", sorted(command_functions()))
def test_every_command_is_guarded(monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    """Commands and `ledger`'s alike: a bug anywhere is exit 1, a HandError anywhere exit 2, never a traceback."""
    info = command_functions()[command]
    args = [*command.split(), *required_words(command.split())]

    def crash(*_: object, **__: object) -> None:
        raise KeyError("surprise")

    def refuse(*_: object, **__: object) -> None:
        cli_module.parse_options(["double_at"])  # a HandError outside `answer`: bad input all the same

    original = info.callback
    monkeypatch.setattr(info, "callback", functools.wraps(original)(crash))  # the same parameters, to typer
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1 and result.stderr.startswith("internal error (id "), result.output
    assert "Traceback" not in result.output and "surprise" not in result.output
    monkeypatch.setattr(info, "callback", functools.wraps(original)(refuse))
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and result.stderr.startswith("error: option 'double_at' must be"), result.output


def test_every_command_of_today_is_guarded() -> None:
    assert set(command_functions()) == {
        *("score", "waits", "rules", "settle", "serve"),
        *(f"ledger {c}" for c in ("new", "add", "show", "undo", "export", "list", "rename", "delete")),
    }


def test_usage_errors_exit_2() -> None:
    for args in (["score"], ["score", PING, "--lang", "fr"], ["nope"], [], ["ledger"], ["serve", "--workers", "0"]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert "Traceback" not in result.output


def test_cli_bad_input_is_still_exit_2_not_1() -> None:
    assert CliRunner().invoke(app, ["score", "123m x"]).exit_code == 2
    assert CliRunner().invoke(app, ["--version"]).exit_code == 0
