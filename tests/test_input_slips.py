"""What players type and paste at the table (taihu/scorer/input_slips.py): input-method slips, chat decorations and
Unicode's mahjong tiles are read as the hand they mean, with a note naming each change, through the library,
`taihu score` and `POST /v1/score`; an unknown character's error points at it."""

from __future__ import annotations

import unicodedata

import pytest
from api_app import app
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from taihu.cli.main import app as cli
from taihu.scorer import HandError, score_hand
from taihu.scorer import tiles as T
from taihu.scorer.forms import NUMERALS, SUIT_WORDS, words
from taihu.scorer.input_slips import CHAR_SLIPS, UNICODE_TILES, is_chat, slip_table
from taihu.scorer.notation import parse
from taihu.scorer.said import Said

REST = "123m 456m 789p 234s 5p +5p wild:9s,N seat:W"  # a Lingxi win once three tiles are put before it
PLAIN = "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W"

# (as typed, the same hand in the notation, what a note names as typed, and as read)
SLIPS = [
    (f"七八九同 {REST}", f"789p {REST}", "七八九同", "七八九筒"),
    (f"七八九桶 {REST}", f"789p {REST}", "七八九桶", "七八九筒"),
    (f"{PLAIN} 自模", f"{PLAIN} self", "自模", "自摸"),
    (f"红钟红钟红钟 {REST}", f"CCC {REST}", "红钟", "红中"),
    (f"钟钟钟 {REST}", f"CCC {REST}", "钟", "中"),
    (f"七八九完 {REST}", f"789m {REST}", "七八九完", "七八九万"),
    (f"七八九跳 {REST}", f"789s {REST}", "七八九跳", "七八九条"),
    (f"东封东封东封 {REST}", f"EEE {REST}", "东封", "东风"),
    (f"法才法才法才 {REST}", f"FFF {REST}", "法才", "发财"),
]


@pytest.mark.parametrize(("typed", "meant", "slip", "read"), SLIPS, ids=[s[0] for s in SLIPS])
def test_a_slip_scores_as_the_word_meant_with_a_note(typed: str, meant: str, slip: str, read: str) -> None:
    scored, plain = score_hand(typed), score_hand(meant)
    assert (scored.hand, scored.total) == (plain.hand, plain.total)
    note = scored.notes[0]
    assert isinstance(note, Said) and note.code == "note.input.slip"
    assert (note.params["typed"], note.params["meant"], note.params["at"]) == (slip, read, typed.index(slip) + 1)
    assert f"'{slip}'" in note.in_lang("zh") and f"'{read}'" in note.in_lang("zh")
    assert scored.notes[1:] == plain.notes


def test_a_slip_repeated_is_named_once() -> None:
    notes = [n for n in score_hand(f"红钟红钟红钟 {REST}").notes if getattr(n, "code", "") == "note.input.slip"]
    assert len(notes) == 1


# (as typed, the same hand in the notation, what is left out)
PASTES = [
    (f"【胡了】🎉 {PLAIN}", PLAIN, ["【胡了】", "🎉"]),
    (f"我胡了：{PLAIN}", PLAIN, ["我胡了："]),
    (f"我胡了！ {PLAIN} 👍🏻", PLAIN, ["我胡了！", "👍🏻"]),
    (f"「胡了」 {PLAIN} ✨✨", PLAIN, ["「胡了」", "✨✨"]),
    (f"【胡了】 七八九同 {REST} 😀", f"789p {REST}", ["【胡了】", "七八九同", "😀"]),
]


@pytest.mark.parametrize(("typed", "meant", "left_out"), PASTES, ids=[p[0] for p in PASTES])
def test_a_chat_paste_scores_without_its_decorations_each_named(typed: str, meant: str, left_out: list[str]) -> None:
    scored, plain = score_hand(typed), score_hand(meant)
    assert (scored.hand, scored.total) == (plain.hand, plain.total)
    named = [n.params["typed"] for n in scored.notes if isinstance(n, Said) and n.code.startswith("note.input.")]
    assert named == left_out
    for note in scored.notes[: len(left_out)]:
        assert isinstance(note, Said)
        assert typed[int(str(note.params["at"])) - 1 :].startswith(str(note.params["typed"]))


def test_a_bracket_of_tiles_or_of_a_word_is_no_decoration() -> None:
    """【CCC】 is a meld, as it always was; 【自摸】 holds a players' word: neither is chat, so neither is left out."""
    assert score_hand(f"【CCC】 {REST}").hand == score_hand(f"[CCC] {REST}").hand
    assert not is_chat("CCC", words().all_words) and not is_chat("自摸", words().all_words)
    assert is_chat("胡了", words().all_words)
    with pytest.raises(HandError):
        score_hand(f"【自摸】 {PLAIN}")


def test_unicode_tiles_are_their_ascii_twins() -> None:
    for ch, tile in UNICODE_TILES.items():
        name = unicodedata.name(ch)
        assert name.startswith("MAHJONG TILE ")
        kind = parse(tile).tiles[0]
        if T.is_suited(kind):
            suit = {"m": "CHARACTERS", "p": "CIRCLES", "s": "BAMBOOS"}[tile[1]]
            number = ["ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"][T.rank(kind) - 1]
            assert name == f"MAHJONG TILE {number} OF {suit}"
        else:  # a wind, a dragon or a flower: its Chinese character names the same tile
            english = name.removeprefix("MAHJONG TILE ")
            honors = {"EAST WIND": "东", "SOUTH WIND": "南", "WEST WIND": "西", "NORTH WIND": "北"}
            honors |= {"RED DRAGON": "中", "GREEN DRAGON": "发", "WHITE DRAGON": "白", "PLUM": "梅", "ORCHID": "兰"}
            honors |= {"BAMBOO": "竹", "CHRYSANTHEMUM": "菊", "SPRING": "春", "SUMMER": "夏", "AUTUMN": "秋"}
            honors |= {"WINTER": "冬"}
            assert T.CHINESE[honors[english]] == kind, (ch, name, tile)
    assert len(UNICODE_TILES) == 42


def test_unicode_tiles_score_like_ascii_through_the_library_the_cli_and_the_api() -> None:
    typed = "🀇🀈🀉 🀊🀋🀌 🀟🀠🀡 🀑🀒🀓 🀕🀖🀗 🀝 +🀝 wild:9s,N seat:W"
    assert score_hand(typed) == score_hand(PLAIN)
    assert score_hand("🀄️🀄️🀄 " + REST).hand == score_hand("CCC " + REST).hand  # with its emoji selector
    assert score_hand("🀐🀑🀒 🀙🀚🀛 🀀🀀🀀 🀅🀅🀅 🀆 +🀆", rules="luoshan") == score_hand("123s 123p EEE FFF P +P", rules="luoshan")
    flowers = f"{PLAIN} 🀢🀣🀥🀤 🀦"  # plum orchid chrysanthemum bamboo, spring
    assert score_hand(flowers) == score_hand(f"{PLAIN} f5f6f7f8 f1")
    result = CliRunner().invoke(cli, ["score", typed, "--lang", "en"])
    assert result.exit_code == 0 and result.output == CliRunner().invoke(cli, ["score", PLAIN, "--lang", "en"]).output
    answer = TestClient(app).post("/v1/score", json={"hand": typed}).json()
    assert (answer["hand"], answer["total"]) == (score_hand(PLAIN).hand, 26)


@pytest.mark.parametrize(("typed", "code"), [("🀪", "wildcard_word_as_tile"), ("🀫", "unknown_tile")])
def test_the_joker_and_the_back_are_refused_at_their_column(typed: str, code: str) -> None:
    line = f"123m {typed} 456m"
    with pytest.raises(HandError) as caught:
        score_hand(line)
    assert (caught.value.code, caught.value.column) == (code, 6)
    assert "wild:" in caught.value.message_in("zh") or "写出" in caught.value.message_in("zh")


def test_the_paste_of_the_issue_through_the_cli_and_the_api_names_the_correction() -> None:
    typed = f"【胡了】🎉 七八九同 {REST}"
    result = CliRunner().invoke(cli, ["score", typed, "--lang", "zh"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "'七八九同' 读作 '七八九筒'" in result.output and "'【胡了】'" in result.output
    answer = TestClient(app).post("/v1/score?lang=zh", json={"hand": typed}).json()
    assert answer["hand"] == score_hand(f"789p {REST}").hand
    assert any("'七八九筒'" in note for note in answer["notes"]) and any("🎉" in note for note in answer["notes"])
    english = TestClient(app).post("/v1/score", json={"hand": typed}).json()
    assert any("as '七八九筒'" in note for note in english["notes"])


# (a line with a character that is no tile, the character the error's column must point at)
WRONG = [
    ("七八九X 123m", "X"),
    ("123m 七八九X", "X"),
    ("红X 123m", "X"),
    (f"{PLAIN} 自X", "X"),
    ("123m 甲", "甲"),
]


@pytest.mark.parametrize(("line", "wrong"), WRONG)
def test_an_unknown_character_s_error_points_at_it(line: str, wrong: str) -> None:
    with pytest.raises(HandError) as caught:
        score_hand(line)
    assert caught.value.code == "unknown_tile"
    assert caught.value.column == line.index(wrong) + 1, str(caught.value)
    assert f"'{wrong}'" in str(caught.value)


def test_no_slip_is_a_character_the_notation_reads() -> None:
    """A line holding a slip is no valid line, so reading the slip never turns a valid line into another."""
    read = set(T.CHINESE) | set(NUMERALS) | set(SUIT_WORDS) | {ch for word in words().all_words for ch in word}
    assert set(slip_table()) & read == set()
    everywhere = [slip for slips in CHAR_SLIPS.values() for slip in slips]
    assert len(everywhere) == len(set(everywhere)), "a slip stands for one character only"
    for slip in slip_table():  # never read silently: refused, or read with a note
        try:
            read = parse(f"123m {slip}")
        except HandError:
            continue
        assert [note.params["typed"] for note in read.columns.read_as] == [slip]  # type: ignore[attr-defined]


def test_a_valid_line_is_read_as_it_was() -> None:
    for line in (
        PLAIN,
        f"五万五万五万 {REST}",
        f"红中红中红中 {REST}",
        f"【CCC】 {REST}",
        "东南西北中发白 147m 258p +3s",
    ):
        typed = parse(line)
        assert getattr(typed.columns, "read_as", ()) == ()
