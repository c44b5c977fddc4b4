"""Players' own forms (五万, 5筒, 红中, 自摸, full-width input) read as the ASCII notation.

Each form is folded to ASCII before parsing, so a hand typed in Chinese
scores exactly as its ASCII line, prints back in ASCII, and an error still
points at the column the player typed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taihu.scorer import HandError, parse, score_hand, to_text
from taihu.scorer.forms import fold
from tests.test_lingxi_properties import structured_hands

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "hands"


@pytest.mark.parametrize(
    ("typed", "ascii_line"),
    [
        ("五万五万五万", "555m"),
        ("5万 5萬 伍萬", "5m 5m 5m"),
        ("一二三万", "123m"),
        ("123万 456筒 789条", "123m 456p 789s"),
        ("5筒 5饼 5餅 五筒", "5p 5p 5p 5p"),
        ("5条 5索 五条 5條", "5s 5s 5s 5s"),
        ("红中 紅中 发财 發財 白板", "C C F F P"),
        ("东南西北中发白", "ESWNCFP"),
        ("123m 456m 789m 11p 22p +2p 自摸", "123m 456m 789m 11p 22p +2p self"),
        ("123m 456m 789m 11p [2222p] +3p 杠上开花", "123m 456m 789m 11p [2222p] +3p kong-draw"),
        ("123m 456m 789m 11p [2222p] +3p 杠开", "123m 456m 789m 11p [2222p] +3p kong-draw"),
        ("123m 456m 789m 11p 22p +2p 抢杠", "123m 456m 789m 11p 22p +2p rob-kong"),
        ("123m 456m 789m 11p 22p +2p 海底", "123m 456m 789m 11p 22p +2p last-tile"),
        ("123m 456m 789m 11p 22p +2p 天胡 庄", "123m 456m 789m 11p 22p +2p heaven seat:E"),
        ("123m 456m 789m 11p 22p +2p 地胡", "123m 456m 789m 11p 22p +2p earth"),
        ("123m 456m 789m 11p 22p +2p 人胡", "123m 456m 789m 11p 22p +2p human"),
        ("123m 门风:南", "123m seat:S"),
        ("123m 门风西", "123m seat:W"),
        ("123m 财神:5万,东", "123m wild:5m,E"),
        ("１２３ｍ　［５５５ｐ］（６６６６ｓ）＋９ｍ", "123m [555p] (6666s) +9m"),
        ("123m wild：5s，E seat：E", "123m wild:5s,E seat:E"),
        ("【ＣＣＣ】 ＋Ｅ", "[CCC] +E"),
    ],
)
def test_a_players_form_reads_as_its_ascii_line(typed: str, ascii_line: str) -> None:
    assert parse(typed) == parse(ascii_line)
    assert to_text(parse(typed)) == to_text(parse(ascii_line))


def test_the_hand_printed_back_is_ascii() -> None:
    result = score_hand("五万五万五万 222p 777p 333s 888s 9m f1 f2 白 白 +九万 财神:5万,东 门风:南")
    assert result.hand == "5559m 222777p 333888s PP f1f2 +9m seat:S wild:5m,E"
    assert result.total == 56


@pytest.mark.parametrize(
    ("typed", "column", "shown"),
    [
        # 自摸 becomes ' self ' (six characters): the x after it is still at column 27 as typed
        ("123m 456m 789m 11p +1p 自摸 x", 27, "x"),
        ("五万五万 q", 6, "q"),
        ("１２３ｍ　ｘ", 6, "x"),
    ],
)
def test_an_error_points_at_the_column_as_typed(typed: str, column: int, shown: str) -> None:
    with pytest.raises(HandError, match=rf"'{shown}' at column {column}\b"):
        parse(typed)


def test_fold_keeps_ascii_lines_as_they_are() -> None:
    line = "123m 456p +5p self"
    assert fold(line).text == line
    assert fold(line).column(7) == 7


# -- every hand, printed as a player might type it, reads back the same ------------------

NUMERAL_STYLES = ("123456789", "一二三四五六七八九", "壹贰叁肆伍陆柒捌玖")
SUIT_STYLES = {"m": "万萬", "p": "筒饼餅", "s": "条索條"}
HONOR_STYLES = {
    "E": ("东", "東", "东风", "東風"),
    "S": ("南", "南风"),
    "W": ("西", "西风", "西風"),
    "N": ("北", "北风"),
    "C": ("中", "红中", "紅中"),
    "F": ("发", "發", "发财", "發財"),
    "P": ("白", "白板"),
}
FLAG_STYLES = {
    "self": ("自摸",),
    "kong-draw": ("杠上开花", "杠开"),
    "rob-kong": ("抢杠",),
    "last-tile": ("海底",),
    "heaven": ("天胡",),
    "earth": ("地胡",),
    "human": ("人胡",),
}
SEAT_CHINESE = {"E": "东", "S": "南", "W": "西", "N": "北"}
_TILES = re.compile(r"([1-9]+)([mps])|([ESWNCFP])")


def _tiles_in_chinese(draw: st.DrawFn, text: str) -> str:
    def suited(match: re.Match[str]) -> str:
        if match.group(3):
            return draw(st.sampled_from(HONOR_STYLES[match.group(3)]))
        numerals = draw(st.sampled_from(NUMERAL_STYLES))
        digits = "".join(numerals[int(d) - 1] for d in match.group(1))
        return digits + draw(st.sampled_from(SUIT_STYLES[match.group(2)]))

    return _TILES.sub(suited, text)


@st.composite
def typed_as_a_player(draw: st.DrawFn, line: str) -> str:
    """`line` (ASCII notation) with each token in a random players' form."""
    out = []
    for token in line.split():
        word, colon, value = token.partition(":")
        if token in FLAG_STYLES and draw(st.booleans()):
            out.append(draw(st.sampled_from(FLAG_STYLES[token])))
        elif word == "seat" and draw(st.booleans()):
            out.append("门风:" + SEAT_CHINESE[value])
        elif word == "wild" and draw(st.booleans()):
            out.append("财神:" + _tiles_in_chinese(draw, value))
        elif colon and draw(st.booleans()):  # spaces after `:` and `,`, as `wild: 5m, E`
            out.append(f"{word}: " + value.replace(",", ", "))
        elif colon or token.startswith("declare"):
            out.append(token)
        elif draw(st.booleans()):  # a capital suit letter after the digits: 123M
            out.append(re.sub(r"([1-9])([mps])", lambda m: m.group(1) + m.group(2).upper(), token))
        elif draw(st.booleans()):
            out.append(_tiles_in_chinese(draw, token))
        else:
            out.append(token)
    typed = " ".join(out)
    if draw(st.booleans()):  # a Chinese input method's full-width forms
        typed = "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else "\u3000" if ch == " " else ch for ch in typed)
    return typed


@SETTINGS
@given(st.data(), structured_hands())
def test_any_hand_typed_in_players_forms_parses_as_its_ascii_line(data: st.DataObject, hand: object) -> None:
    line = to_text(hand)  # type: ignore[arg-type]
    typed = data.draw(typed_as_a_player(line))
    assert to_text(parse(typed)) == line


def _example_hands() -> list[tuple[str, str]]:
    out = []
    for path in sorted(EXAMPLES.glob("*.txt")):
        for raw in path.read_text(encoding="utf-8").splitlines():
            line = raw.split("#", 1)[0].strip()
            if line:
                out.append((path.stem, line.split("=>")[0].strip()))
    return out


@SETTINGS
@given(st.data())
def test_the_example_hands_typed_in_players_forms_score_the_same(data: st.DataObject) -> None:
    rules, line = data.draw(st.sampled_from(_example_hands()))
    try:
        expected = score_hand(line, rules=rules)
    except HandError:
        return  # an example of an error: its forms are tested above
    typed = data.draw(typed_as_a_player(to_text(parse(line))))
    assert score_hand(typed, rules=rules) == expected
