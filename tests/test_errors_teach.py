"""Errors that teach: each common slip names the place, what is wrong and the likely fix.

One row per slip, from docs/notation.md "Errors you will meet": the hand,
the rule set, a part of the message that is the hint, the stable `code` and
the `column` (None where the error has no one place).
"""

from __future__ import annotations

import pytest
from api_app import app as api
from fastapi.testclient import TestClient
from registry_examples import sized
from settle_helpers import API_TABLE
from typer.testing import CliRunner

from taihu.cli.main import app
from taihu.messages.error_shape import ERROR_FIELDS
from taihu.scorer import HandError, score_hand, settle_table
from taihu.scorer.rulesets import get
from taihu.scorer.said import said

THIRTEEN, SIXTEEN = sized(13), sized(16)  # the rule sets a count of 13 or 16 tiles in hand names

PING = "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W"  # a Lingxi 平胡, 26
LUOSHAN_TWICE = "123m 456m 789m 11p 22p 2p +2p"  # 15: the player counted 14 with the + tile among them
TWO_WINS = "123m 456m 789p 234s 678s 5p +5p +6p"  # two tiles marked +: a hand wins on one


def column_of(hand: str, part: str) -> int:
    return hand.index(part) + 1


SLIPS = [
    # -- the winning tile written twice -----------------------------------------------------
    pytest.param(
        LUOSHAN_TWICE,
        "luoshan",
        "the winning tile +2p is also written among the hand tiles; write it only once, after +",
        "winning_tile_twice",
        column_of(LUOSHAN_TWICE, "+"),
        id="winning-tile-twice-luoshan",
    ),
    pytest.param(
        "123m 456m 789p 234s 678s 5p 5p +5p wild:9s,N seat:W",
        "lingxi",
        "hand has 18 tiles, a winning Lingxi hand needs 17 (16 + winning tile; a kong counts 3): the winning tile +5p",
        "winning_tile_twice",
        32,
        id="winning-tile-twice-lingxi",
    ),
    pytest.param(
        "红中红中红中 456万 789万 11筒 22筒 2筒 +2筒",
        "luoshan",
        "the winning tile +2p is also written among the hand tiles",
        "winning_tile_twice",
        column_of("红中红中红中 456万 789万 11筒 22筒 2筒 +2筒", "+"),
        id="winning-tile-twice-in-chinese-names-the-typed-column",
    ),
    pytest.param(
        TWO_WINS,
        "lingxi",
        "second winning tile at column 33: a hand wins on one tile; keep + on the tile won on",
        "two_winning_tiles",
        column_of(TWO_WINS, "+6p"),
        id="two-winning-tiles",
    ),
    # -- no `+` on a winning-size hand ----------------------------------------------------------
    pytest.param(
        "123m 456m 789p 234s 678s 5p 5p wild:9s,N seat:W",
        "lingxi",
        "17 tiles is a winning hand, but no tile is marked as the winning one; write it last with +, e.g. +5p",
        "no_winning_tile",
        None,
        id="no-plus-lingxi",
    ),
    pytest.param(
        "123m 456m 789m 11p 22p 2p",
        "jinhua",
        "a non-winning Jinhua hand holds 13 (a kong counts 3): 14 tiles is a winning hand, but no tile is marked",
        "no_winning_tile",
        None,
        id="no-plus-jinhua",
    ),
    # -- a count that fits another rule set --------------------------------------------------------
    pytest.param(
        "123m 456p 789s 234m 5s +5s",
        "lingxi",
        f"14 tiles is a {THIRTEEN.names} hand: did you mean --rules {THIRTEEN.rules}?",
        "tile_count",
        None,
        id="14-tiles-under-lingxi",
    ),
    pytest.param(
        "123m 456p 789s 234m 5s",
        "putian",
        f"13 tiles is a {THIRTEEN.names} hand: did you mean --rules {THIRTEEN.rules}?",
        "tile_count",
        None,
        id="13-tiles-under-putian",
    ),
    pytest.param(
        "123m 456m 789p 234s 678s 5p +5p seat:W",
        "guannan",
        f"17 tiles is a {SIXTEEN.names} hand: did you mean --rules {SIXTEEN.rules}?",
        "tile_count",
        None,
        id="17-tiles-under-guannan",
    ),
    pytest.param(
        "123m 456m 789p 234s 678s 5p 5p",
        "luoshan",
        f"did you mean --rules {SIXTEEN.rules}, with the winning tile marked + (e.g. +5p)?",
        "tile_count",
        None,
        id="17-tiles-no-plus-under-luoshan",
    ),
    pytest.param(
        "123m 456m 789p 234s 678s 5p +5p seat:W",
        "riichi",
        f"a winning Riichi hand needs 14 (13 + winning tile; a kong counts 3): 17 tiles is a {SIXTEEN.names} hand: "
        f"did you mean --rules {SIXTEEN.rules}?",
        "tile_count",
        None,
        id="17-tiles-under-riichi",
    ),
    pytest.param(
        "123m 456m 789p 234s 678s 5p 5p",
        "riichi",
        f"did you mean --rules {SIXTEEN.rules}, with the winning tile marked + (e.g. +5p)?",
        "tile_count",
        None,
        id="17-tiles-no-plus-under-riichi",
    ),
    pytest.param(
        "123m 456p 789s 234m 5s 5s",
        "riichi",
        "a non-winning Riichi hand holds 13 (a kong counts 3): 14 tiles is a winning hand, but no tile is marked",
        "no_winning_tile",
        None,
        id="no-plus-riichi",
    ),
    pytest.param(
        "123m 456m 789p 234s 5p 6p +5p",
        "lingxi",
        "hand has 15 tiles, a winning Lingxi hand needs 17 (16 + winning tile; a kong counts 3)",
        "tile_count",
        None,
        id="plain-wrong-count",
    ),
    # -- four alike left unmarked -------------------------------------------------------------------
    pytest.param(
        "5555m 123m 789p 234s 678s 5p +5p wild:9s,N seat:W",
        "lingxi",
        "5m ×4 left among the hand tiles count as single tiles; a kong is written [5555m] (open) or (5555m) "
        "(concealed)",
        "unmarked_kong",
        1,  # the first of the four alike
        id="unmarked-kong-lingxi",
    ),
    pytest.param(
        "EEEE 123p 456p 789s 1s +1s",
        "luoshan",
        "a kong is written [EEEE] (open) or (EEEE) (concealed)",
        "unmarked_kong",
        1,  # the first of the four alike
        id="unmarked-honor-kong-luoshan",
    ),
    pytest.param(
        "2222m 3333p 123s 456s 7s +7s",
        "guannan",
        "2m 3p ×4 left among the hand tiles",
        "unmarked_kong",
        1,  # the first of the four alike
        id="two-unmarked-kongs-guannan",
    ),
    # -- conditions ----------------------------------------------------------------------------------
    pytest.param(
        PING + " zimo",
        "lingxi",
        "unknown condition 'zimo' at column 50 (did you mean self?); Lingxi conditions: seat:X, wild:T, self, "
        "kong-draw, rob-kong, last-tile, heaven, earth, declare:NAME",
        "unknown_condition",
        50,
        id="zimo-is-self",
    ),
    pytest.param(PING + " tsumo", "lingxi", "(did you mean self?)", "unknown_condition", 50, id="tsumo-is-self"),
    pytest.param(PING + " slef", "lingxi", "(did you mean self?)", "unknown_condition", 50, id="typo-slef"),
    pytest.param(PING + " kongdraw", "lingxi", "(did you mean kong-draw?)", "unknown_condition", 50, id="kongdraw"),
    pytest.param(
        "123m 456m 789p 23s 55p +4s flip:9p zimo",
        "luoshan",
        "(did you mean self?); Luoshan conditions: seat:X, wild:T, flip:T, self, kong-draw, rob-kong",
        "unknown_condition",
        column_of("123m 456m 789p 23s 55p +4s flip:9p zimo", "zimo"),
        id="the-rule-set-s-own-list",
    ),
    pytest.param(
        PING + " SELF",
        "lingxi",
        "'SELF' at column 50: conditions are lower case: self",
        "unknown_condition",
        50,
        id="upper-case-self",
    ),
    pytest.param(
        "123m 456m 789p 234s 678s 5p +5p wild:9s,N Seat:W",
        "lingxi",
        "'Seat' at column 43: conditions are lower case: seat",
        "unknown_condition",
        43,
        id="capitalised-seat",
    ),
    # -- tiles ------------------------------------------------------------------------------------------
    pytest.param(
        "123m 456m 789p 234s 678s GG +5p wild:9s,N seat:W",
        "lingxi",
        "unknown tile 'G' at column 26: 发 (green) is F; tiles are 1–9 then m, p or s (123m 5p), "
        "winds E S W N, dragons C F P (中 发 白), flowers f1–f8",
        "unknown_tile",
        26,
        id="GG-is-not-a-tile",
    ),
    pytest.param("123m R", "lingxi", "'R' at column 6: 中 (red) is C; tiles are", "unknown_tile", 6, id="R-is-C"),
    pytest.param("123m e", "lingxi", "'e' at column 6: tile letters are capitals: E", "unknown_tile", 6, id="small-e"),
    pytest.param("123m X", "lingxi", "unknown tile 'X' at column 6; tiles are 1–9", "unknown_tile", 6, id="X"),
    pytest.param("123m 9z", "lingxi", "'9z' at column 6: honors by number are 1z–7z", "unknown_tile", 6, id="9z"),
    pytest.param("123m f9", "lingxi", "'f9' at column 6: flowers are f1–f8", "unknown_tile", 6, id="f9"),
]


@pytest.mark.parametrize(("hand", "rules", "hint", "code", "column"), SLIPS)
def test_a_common_slip_names_the_fix(hand: str, rules: str, hint: str, code: str, column: int | None) -> None:
    with pytest.raises(HandError) as raised:
        score_hand(hand, rules=rules)
    assert hint in str(raised.value)
    assert (raised.value.code, raised.value.column) == (code, column)


@pytest.mark.parametrize(
    ("typed", "ascii_hand"),
    [
        pytest.param(
            "123m 456m 789p 234s 678s 5p +5p wild:5s，N seat：W",
            "123m 456m 789p 234s 678s 5p +5p wild:5s,N seat:W",
            id="ime-comma-and-colon",
        ),
        pytest.param("１２３m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W", PING, id="full-width-digits"),
        pytest.param("１２３ｍ 456m 789p 234s 678s 5p ＋5p ｗｉｌｄ：9s，N seat:W", PING, id="full-width-letters"),
    ],
)
def test_ime_punctuation_is_read_not_refused(typed: str, ascii_hand: str) -> None:
    assert score_hand(typed) == score_hand(ascii_hand)


def test_an_error_after_chinese_forms_names_the_typed_column() -> None:
    hand = "一二三万 456m 789p 234s 678s 5p +5p wild:9s,N seat:W zimo"
    with pytest.raises(HandError) as raised:
        score_hand(hand)
    assert raised.value.column == column_of(hand, "zimo")
    assert f"at column {column_of(hand, 'zimo')}" in str(raised.value)


def test_a_rule_set_error_after_chinese_forms_names_the_typed_column() -> None:
    hand = "红中红中红中 123m 456m 789p 234s 5p +5p wild:9s,N seat:W flip:1m"  # 红中 is one tile, C: columns shift
    with pytest.raises(HandError, match=rf"condition 'flip' at column {column_of(hand, 'flip')} is not used"):
        score_hand(hand)


# -- notes: a missing seat:, a missing + ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "rules", "noted"),
    [
        pytest.param("123m 456m 789p 234s 678s 5p +5p wild:9s,N", "lingxi", True, id="lingxi"),
        pytest.param("123m 456m 789p 23s 55p +4s flip:9p", "luoshan", True, id="luoshan"),
        pytest.param("123m 456m 789p 234s 567s 9s P P +5p wild:9s", "putian", True, id="putian"),
        pytest.param("123m 456m 789p 234s 567s 9s P P +5p wild:9s seat:S", "putian", False, id="putian-seat-given"),
        pytest.param("123456789m 111p 5s +5s", "guannan", False, id="guannan-seat-does-not-matter"),
        pytest.param("1122m 3344p 5566s 7s +7s wild:9m", "jinhua", False, id="jinhua-seat-does-not-matter"),
        pytest.param("1122m 3344p 5566s 7s +7s wild:9m self heaven", "jinhua", True, id="jinhua-heaven-is-the-dealers"),
    ],
)
def test_a_missing_seat_is_noted_where_the_seat_matters(hand: str, rules: str, noted: bool) -> None:
    assert (said("note.no_seat") in score_hand(hand, rules=rules).notes) is noted


def test_the_seat_note_says_what_was_assumed() -> None:
    assert said("note.no_seat") == "no seat: given — scored as the dealer E"


@pytest.mark.parametrize(
    ("hand", "rules", "mark"),
    [
        pytest.param("123m 456m 789p 234s 678s 5p wild:9s,N seat:W", "lingxi", "+5p", id="lingxi-16-single"),
        pytest.param("123m 456m 789m 11p 22p", "luoshan", "+2p", id="luoshan-13-pairs"),
        pytest.param("123m 456m 789m 11p 22p", "guannan", "+2p", id="guannan-13-pairs"),
        pytest.param("123m 456m 789m 234s N", "riichi", "+N", id="riichi-13-single-honor"),
        pytest.param("111m 234m 567p 78s 99s", "guannan", "+9s", id="guannan-13-pair"),
        pytest.param("123m 456m 789p 23s 5s 9s", "luoshan", "+9s", id="luoshan-13-highest-left"),
    ],
)
def test_a_hand_without_plus_scores_as_a_non_winner_and_says_how_to_mark_the_win(
    hand: str, rules: str, mark: str
) -> None:
    """The `+` the note suggests is a tile of the hand (a pair's, else a lone one, else the highest), never a
    fixed tile: a player copies it."""
    result = score_hand(hand, rules=rules)
    assert not result.winner
    assert result.notes[0].code == "note.no_winning_tile"  # type: ignore[attr-defined]
    assert result.notes[0].endswith(f"write the winning tile last, e.g. {mark}")
    assert result.notes[0].in_lang("zh").endswith(f"例如 {mark}")  # type: ignore[attr-defined]
    assert not any(getattr(note, "code", "") == "note.no_winning_tile" for note in score_hand(PING).notes)


def test_a_table_s_losers_are_not_told_to_mark_a_win() -> None:
    for score in settle_table(API_TABLE).scores.values():  # E and N hold hands without +
        assert not any(getattr(note, "code", "") == "note.no_winning_tile" for note in getattr(score, "notes", []))


# -- the caret under the place ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "column", "expected"),
    [
        pytest.param("123m x", 6, "  123m x\n       ^", id="ascii"),
        pytest.param("五万五万 x", 6, "  五万五万 x\n           ^", id="wide-characters-take-two-cells"),
        pytest.param("１２３ｍ x", 6, "  １２３ｍ x\n           ^", id="full-width"),
        pytest.param("123m x", None, "", id="no-column-no-caret"),
        pytest.param("123m x", 40, "", id="a-column-past-the-line"),
    ],
)
def test_caret_points_at_the_column(line: str, column: int | None, expected: str) -> None:
    assert HandError("problem", column=column).caret(line) == expected


def test_caret_on_a_long_line_shows_a_window_around_the_place() -> None:
    line = "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W self self zimo"
    shown, caret = HandError("problem", column=column_of(line, "zimo")).caret(line).split("\n")
    assert shown.startswith("  … ") and len(shown) <= 40
    assert shown[len(caret) - 1 :].startswith("zimo")


def test_the_cli_echoes_the_hand_with_a_caret() -> None:
    hand = PING + " zimo"
    result = CliRunner().invoke(app, ["score", hand])
    assert result.exit_code == 2
    message, shown, caret = result.stderr.rstrip("\n").split("\n")
    assert message.startswith("error: unknown condition 'zimo' at column 50 (did you mean self?)")
    assert shown[len(caret) - 1 :].startswith("zimo")


def test_the_cli_puts_the_caret_under_a_second_winning_tile() -> None:
    result = CliRunner().invoke(app, ["score", TWO_WINS])
    assert result.exit_code == 2
    message, shown, caret = result.stderr.rstrip("\n").split("\n")
    assert message.startswith("error: second winning tile at column 33")
    assert shown[len(caret) - 1 :] == "+6p"


def test_the_cli_prints_no_caret_without_a_column() -> None:
    result = CliRunner().invoke(app, ["score", "123m 456p 789s 234m 5s +5s"])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert f"did you mean --rules {THIRTEEN.rules}?" in result.stderr


def test_the_api_answer_is_the_one_error_shape() -> None:
    reply = TestClient(api).post("/score", json={"hand": LUOSHAN_TWICE, "rules": "luoshan"})
    assert reply.status_code == 422
    assert list(reply.json()) == list(ERROR_FIELDS)
    assert (reply.json()["code"], reply.json()["column"]) == ("winning_tile_twice", column_of(LUOSHAN_TWICE, "+"))


# -- the rule set by any name ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "name"),
    [
        ("lingxi", "lingxi"),
        ("LINGXI", "lingxi"),
        ("Luoshan", "luoshan"),
        ("灵溪", "lingxi"),
        ("靈溪", "lingxi"),
        ("灌南", "guannan"),
        ("莆田", "putian"),
        ("金华", "jinhua"),
        ("金華", "jinhua"),
        ("螺山", "luoshan"),
    ],
)
def test_a_rule_set_by_any_case_or_its_chinese_name(given: str, name: str) -> None:
    assert get(given).name == name


def test_library_cli_and_api_agree_on_a_chinese_rule_set_name() -> None:
    hand = "123m 456p 789s 234m 5s +5s"
    assert score_hand(hand, rules="灌南").rules == "guannan"
    shown = CliRunner().invoke(app, ["score", hand, "-r", "灌南", "--json"])
    assert shown.exit_code == 0 and '"rules": "guannan"' in shown.stdout
    reply = TestClient(api).post("/score", json={"hand": hand, "rules": "GUANNAN"})
    assert reply.status_code == 200 and reply.json()["rules"] == "guannan"


def test_a_table_takes_the_chinese_name_too() -> None:
    table = {
        "rules": "灵溪",
        "wild": ["5m", "E"],
        "winner": "S",
        "discarder": "W",
        "players": {
            "E": {"total": 2},
            "S": "555m 222p 777p 333s 888s 9m f1 f2 P P +9m",
            "W": {"total": 4},
            "N": {"total": 4},
        },
    }
    result = settle_table(table)
    assert result.rules == "lingxi"
    assert result.net == settle_table({**table, "rules": "lingxi"}).net


def test_an_unknown_rule_set_is_still_an_error() -> None:
    with pytest.raises(HandError, match=r"unknown rule set 'lingxy'; known: lingxi, luoshan"):
        get("lingxy")
