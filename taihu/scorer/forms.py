"""Players' own forms of the notation, folded to the ASCII notation before parsing.

A player at the table types what the tiles say: 五万, 5筒, 红中, 自摸, or
full-width digits and punctuation from a Chinese input method (１２３ｍ，：).
`fold` rewrites such a line into the ASCII notation the parser reads, and
keeps, for every character it writes, the column it came from, so an error
still points at what the player typed. The parser itself knows only the
ASCII notation (and the single honor and flower characters it always took).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

# Full-width ASCII (U+FF01–U+FF5E) is ASCII shifted by 0xFEE0; the ideographic
# space and comma, and the enumeration comma of Chinese input methods, are added.
_WIDE = {chr(code): chr(code - 0xFEE0) for code in range(0xFF01, 0xFF5F)}
_WIDE.update({"\u3000": " ", "、": ",", "。": " ", "【": "[", "】": "]"})

NUMERALS = {
    **{str(n): str(n) for n in range(1, 10)},
    **dict(zip("一二三四五六七八九", "123456789", strict=True)),
    **dict(zip("壹贰叁肆伍陆柒捌玖", "123456789", strict=True)),
    "贰": "2",
    "貳": "2",
    "參": "3",
    "叁": "3",
    "陸": "6",
    "两": "2",
}
SUIT_WORDS = {"万": "m", "萬": "m", "筒": "p", "饼": "p", "餅": "p", "条": "s", "條": "s", "索": "s"}

# Words for one tile or one condition, longest first where one holds another.
WORDS = {
    "红中": "C",
    "紅中": "C",
    "发财": "F",
    "發財": "F",
    "白板": "P",
    "杠上开花": "kong-draw",
    "槓上開花": "kong-draw",
    "杠上花": "kong-draw",
    "杠开": "kong-draw",
    "槓開": "kong-draw",
    "抢杠": "rob-kong",
    "搶槓": "rob-kong",
    "海底捞月": "last-tile",
    "海底撈月": "last-tile",
    "海底": "last-tile",
    "自摸": "self",
    "天胡": "heaven",
    "地胡": "earth",
    "人胡": "human",
    "天和": "heaven",
    "地和": "earth",
    "人和": "human",
}
# Words that name a condition and take a value: 门风:南 is seat:S, 财神:5m is wild:5m.
VALUE_WORDS = {
    "门风": "seat",
    "門風": "seat",
    "座位": "seat",
    "财神": "wild",
    "財神": "wild",
    "百搭": "wild",
    "翻牌": "flip",
}
DEALER_WORDS = ("庄家", "莊家", "庄", "莊")  # standing alone: the dealer's seat, seat:E

_SUITED = re.compile("([" + "".join(NUMERALS) + "]+)([" + "".join(SUIT_WORDS) + "])")
_WORD = re.compile("|".join(sorted(map(re.escape, WORDS), key=len, reverse=True)))
_VALUE_WORD = re.compile("(" + "|".join(map(re.escape, VALUE_WORDS)) + r")\s*:?\s*")
_DEALER = re.compile("(?<![^\\s])(?:" + "|".join(DEALER_WORDS) + ")(?![^\\s])")


@dataclass(frozen=True)
class Folded:
    """The ASCII line, and for each of its characters the 1-based column of the original it came from."""

    text: str
    origin: tuple[int, ...]

    def column(self, folded_column: int) -> int:
        """The column in the player's line of a column in the folded line."""
        if not self.origin:
            return folded_column
        index = min(max(folded_column - 1, 0), len(self.origin) - 1)
        return self.origin[index]


def fold(line: str) -> Folded:
    """The ASCII notation of a line written with players' forms; an ASCII line is returned as it is."""
    if line.isascii():
        return Folded(line, ())
    chars = [_WIDE.get(ch, ch) for ch in line]
    pieces: list[tuple[str, int]] = [(ch, col) for col, ch in enumerate(chars, start=1)]
    text = "".join(chars)
    for pattern, replace in (
        (_SUITED, _suited),
        (_WORD, lambda m: f" {WORDS[m.group()]} " if WORDS[m.group()].islower() else WORDS[m.group()]),
        (_VALUE_WORD, lambda m: f" {VALUE_WORDS[m.group(1)]}:"),
        (_DEALER, lambda m: "seat:E"),
    ):
        text, pieces = _substitute(text, pieces, pattern, replace)
    return Folded(text, tuple(col for _, col in pieces))


def _suited(match: re.Match[str]) -> str:
    return "".join(NUMERALS[ch] for ch in match.group(1)) + SUIT_WORDS[match.group(2)]


def _substitute(
    text: str, pieces: list[tuple[str, int]], pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str]
) -> tuple[str, list[tuple[str, int]]]:
    """`pattern.sub(replace, text)`, carrying each written character's original column along."""
    out: list[tuple[str, int]] = []
    end = 0
    for match in pattern.finditer(text):
        out += pieces[end : match.start()]
        column = pieces[match.start()][1]
        out += [(ch, column) for ch in replace(match)]
        end = match.end()
    if not out:
        return text, pieces
    out += pieces[end:]
    return "".join(ch for ch, _ in out), out
