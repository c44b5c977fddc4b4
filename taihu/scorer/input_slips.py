"""What players paste and type that is no notation but says plainly what it means, read before the players' forms.

Three things come with a line typed on a phone at the table, and each is answered here before `forms.fold`
reads the line, the hand scored and each change named in a note, so a player sees what was read:

- **Unicode mahjong tiles** (U+1F000–U+1F029, 🀇🀈🀉): read as their ASCII twins, with no note (they are
  tiles, as 五万 is). The joker 🀪 and a tile's back 🀫 name no tile, and are refused with what to write.
- **Chat decorations**: emoji, a 【…】 (or 「…」, 『…』, 〖…〗) holding no tile and no players' word (【胡了】),
  and a leading phrase ended by a colon or an exclamation mark that holds neither (我胡了：): left out.
- **Input-method slips**: the characters a pinyin keyboard offers beside a tile word's own, for its syllable
  (同 for 筒 after a numeral, 模 for the 摸 of 自摸, 钟 for 中): read as the word meant. A slip is never a
  character the notation reads anywhere (`CHAR_SLIPS` is checked against every tile and players' word), so a
  line holding one was no valid line: a correction never turns one valid line into another.

Each change keeps, for every character it writes, the column of the character typed, so an error still points
at what the player typed; `wrong_column` moves an unknown tile's column to the character that is wrong
(`七八九X`: the X, not the 七 of a numeral run that lacked its suit).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from . import memo as M
from . import tiles as T
from .errors import HandError, quote
from .notation import notation_error
from .said import Said, said

# -- Unicode's mahjong tiles ------------------------------------------------------------------------------------

# U+1F000 … U+1F029 in code point order (their Unicode names): the winds, the dragons, characters, bamboos,
# circles, then PLUM ORCHID BAMBOO CHRYSANTHEMUM and SPRING SUMMER AUTUMN WINTER (the notation's f5 f6 f8 f7,
# f1–f4: its plants run 梅 兰 菊 竹)
_UNICODE_TILES = (
    ["E", "S", "W", "N", "C", "F", "P"]
    + [f"{n}m" for n in range(1, 10)]
    + [f"{n}s" for n in range(1, 10)]
    + [f"{n}p" for n in range(1, 10)]
    + ["f5", "f6", "f8", "f7", "f1", "f2", "f3", "f4"]
)
UNICODE_TILES = {chr(0x1F000 + index): tile for index, tile in enumerate(_UNICODE_TILES)}
JOKER, BACK = "\U0001f02a", "\U0001f02b"
_PRESENTATION = "\ufe0e\ufe0f"  # text / emoji presentation of the character before (🀄️): part of it

# -- input-method slips -------------------------------------------------------------------------------------------

# For each character of a tile word, what a pinyin keyboard offers beside it for the same syllable, as a player
# picks it by mistake: 同 通 桶 (tong) for 筒, 模 摸 (mo) for 摸. Only characters the notation reads nowhere are
# kept (`_checked`), so 冬 (a flower) is no slip for 东, nor 地 (地胡) for 底, nor 百 (百搭) for 白.
CHAR_SLIPS: Mapping[str, str] = {
    # the suits, after a numeral (wan, tong, bing, tiao, suo)
    "万": "完玩晚碗湾弯丸腕",
    "筒": "同通桶铜童统痛",
    "饼": "并病冰兵丙柄",
    "条": "跳调挑眺",
    "索": "所锁琐",
    # the honors (dong, nan, xi, bei, zhong, fa, bai)
    "东": "动懂洞董栋冻",
    "南": "难男楠",
    "西": "系洗细希息吸溪稀",
    "北": "被贝杯背备倍辈悲",
    "中": "钟终忠种众肿衷盅",
    "发": "法罚伐阀乏",
    "白": "拜败摆柏佰",
    # the other characters of the players' words (hong, cai, shen, ban, feng, zi, mo, gang, hu, kai, hua, you…)
    "红": "洪宏鸿虹轰",
    "财": "才菜彩材采猜裁",
    "神": "身深申伸绅",
    "板": "版办半班般伴扮",
    "风": "封丰峰锋疯枫蜂凤奉",
    "自": "字子资紫仔",
    "摸": "模磨魔膜末莫默墨陌",
    "杠": "刚钢港岗缸纲",
    "胡": "湖糊虎户壶狐护",
    "开": "凯慨楷揩",
    "花": "华化画话划滑",
    "抢": "强墙枪腔",
    "游": "有由油又友邮犹",
    "庄": "装状壮撞妆",
}
SUITS = "万筒饼条索"  # slips of these are read only right after a numeral (七八九同)
HONORS = "东南西北中发白"  # slips of these are read standing alone too (钟 for 中)


class Tidied(NamedTuple):
    """The line with the tiles made ASCII, the decorations left out and the slips read; for each of its
    characters the typed column; and the notes that say what was changed."""

    text: str
    origin: tuple[int, ...]
    notes: tuple[Said, ...]


Pieces = list[tuple[str, int]]  # each character of the line being tidied, with its typed column


def tidy(line: str, words: Iterable[str], numerals: Iterable[str]) -> Tidied:
    """`line` read as the notation means it: `words` are the players' words (`forms.words()`), `numerals`
    the characters that number a suited tile (一 … 九, 1–9)."""
    pieces: Pieces = [(ch, column) for column, ch in enumerate(line, start=1)]
    notes: list[Said] = []
    pieces = _unicode_tiles(pieces)
    known = tuple(words)
    pieces = _left_out(pieces, _emoji_runs(pieces), notes)
    pieces = _left_out(pieces, _chat_brackets(pieces, known), notes)
    pieces = _left_out(pieces, _leading_phrase(pieces, known), notes)
    pieces = _slips(pieces, known, "".join(numerals), notes)
    notes.sort(key=lambda note: int(str(note.params["at"])))
    return Tidied("".join(ch for ch, _ in pieces), tuple(column for _, column in pieces), tuple(notes))


def _unicode_tiles(pieces: Pieces) -> Pieces:
    """🀇 → 1m, each character written keeping the tile's column; 🀪 and 🀫 refused."""
    if not any(ch in UNICODE_TILES or ch in (JOKER, BACK) for ch, _ in pieces):
        return pieces
    out: Pieces = []
    after_tile = False
    for ch, column in pieces:
        if ch in (JOKER, BACK):
            raise notation_error(
                "error.notation.joker_tile" if ch == JOKER else "error.notation.tile_back",
                code="wildcard_word_as_tile" if ch == JOKER else "unknown_tile",
                column=column,
                tile=ch,
                at=column,
            )
        if ch in _PRESENTATION and after_tile:
            continue
        tile = UNICODE_TILES.get(ch)
        after_tile = tile is not None
        out += [(ch, column)] if tile is None else [(c, column) for c in tile]
    return out


# -- chat decorations -------------------------------------------------------------------------------------------

_BRACKETS = {"【": "】", "「": "」", "『": "』", "〖": "〗"}
# what ends a chat phrase at the start of a line (我胡了：, 胡了！)
_PHRASE_ENDS = ":：!！"
_PHRASE_LONGEST = 16
_PHRASE = re.compile(f"([^\\s{_PHRASE_ENDS}]{{1,{_PHRASE_LONGEST}}})[{_PHRASE_ENDS}]+\\s*")


def is_emoji(ch: str) -> bool:
    """An emoji or another pictograph (🎉, ✨, 👍🏻, the joiners and selectors of emoji sequences); no tile."""
    code = ord(ch)
    if code in (0x200D, 0x20E3, 0xFE0E, 0xFE0F):
        return True
    if 0x1F000 <= code <= 0x1F02F:
        return False  # the mahjong tiles, read as tiles
    if 0x1F0A0 <= code <= 0x1FAFF or 0x2600 <= code <= 0x27BF or 0xE0020 <= code <= 0xE007F:
        return True
    return unicodedata.category(ch) == "So"


def _emoji_runs(pieces: Pieces) -> list[tuple[int, int]]:
    """The (start, end) of each run of emoji (with the spaces between them) among the pieces."""
    runs: list[tuple[int, int]] = []
    index = 0
    while index < len(pieces):
        if is_emoji(pieces[index][0]):
            end = index + 1
            while end < len(pieces) and (is_emoji(pieces[end][0]) or _more_emoji_after_spaces(pieces, end)):
                end += 1
            runs.append((index, end))
            index = end
        else:
            index += 1
    return runs


def _more_emoji_after_spaces(pieces: Pieces, index: int) -> bool:
    while index < len(pieces) and pieces[index][0].isspace():
        index += 1
    return index < len(pieces) and is_emoji(pieces[index][0]) and pieces[index - 1][0].isspace()


def is_chat(text: str, words: Iterable[str]) -> bool:
    """Whether `text` holds nothing the notation reads: no letter or digit (ASCII or full-width), no tile's
    character nor numeral, no players' word (【胡了】 is chat; 【CCC】 and 【自摸】 are not)."""
    if any(ch.isascii() and ch.isalnum() or "０" <= ch <= "ｚ" for ch in text):
        return False
    if any(ch in T.CHINESE or ch in _TILE_CHARACTERS or ch in UNICODE_TILES for ch in text):
        return False
    return not any(word in text for word in words)


_TILE_CHARACTERS = set("一二三四五六七八九壹贰叁肆伍陆柒捌玖貳參陸两万萬筒饼餅条條索")


def _chat_brackets(pieces: Pieces, words: tuple[str, ...]) -> list[tuple[int, int]]:
    """The (start, end) of each 【…】 (「…」, 『…』, 〖…〗) whose content is chat."""
    text = "".join(ch for ch, _ in pieces)
    found = []
    for opener, closer in _BRACKETS.items():
        for match in re.finditer(re.escape(opener) + "([^" + re.escape(opener + closer) + "]*)" + closer, text):
            if is_chat(match.group(1), words):
                found.append((match.start(), match.end()))
    return sorted(found)


def _leading_phrase(pieces: Pieces, words: tuple[str, ...]) -> list[tuple[int, int]]:
    """The chat phrase a line opens with, ended by a colon or an exclamation mark (我胡了：), if it has one."""
    text = "".join(ch for ch, _ in pieces)
    lead = len(text) - len(text.lstrip())
    match = _PHRASE.match(text, lead)
    if match is None or not is_chat(match.group(1), words) or not text[match.end() :].strip():
        return []
    return [(lead, match.end())]


def _left_out(pieces: Pieces, spans: list[tuple[int, int]], notes: list[Said]) -> Pieces:
    """The pieces without the spans, each span left out named in a note (its text trimmed, its column)."""
    if not spans:
        return pieces
    out: Pieces = []
    end = 0
    for start, stop in spans:
        out += pieces[end:start]
        typed = "".join(ch for ch, _ in pieces[start:stop]).strip()
        notes.append(said("note.input.left_out", typed=typed, at=pieces[start][1]))
        out.append((" ", pieces[start][1]))  # what stood on either side stays apart
        end = stop
    return out + pieces[end:]


# -- input-method slips ----------------------------------------------------------------------------------------


def slip_table() -> dict[str, str]:
    """Each slip and the character it stands for (同 → 筒)."""
    return {slip: meant for meant, slips in CHAR_SLIPS.items() for slip in slips}


def _slips(pieces: Pieces, words: tuple[str, ...], numerals: str, notes: list[Said]) -> Pieces:
    """The pieces with each slip read as the character meant, where it stands in a word (红钟), after a
    numeral (七八九同) or, for an honor's, alone (钟); each word so read named in a note."""
    text = "".join(ch for ch, _ in pieces)
    if not any(ch in _SLIP_CHARACTERS for ch in text):
        return pieces
    pattern, meanings = _slip_pattern(words, numerals)
    out = list(pieces)
    for match in pattern.finditer(text):
        meant = meanings[match.lastgroup or ""]
        typed = match.group()
        if meant == "":  # a suited run: its numerals as typed, its suit word meant
            meant = typed[:-1] + _SLIP_OF[typed[-1]]
        if typed == meant:
            continue
        for offset, ch in enumerate(meant):
            out[match.start() + offset] = (ch, pieces[match.start() + offset][1])
        note = said("note.input.slip", typed=typed, meant=meant, at=pieces[match.start()][1])
        if not any(n.params["typed"] == typed for n in notes if n.code == note.code):  # 红钟红钟: named once
            notes.append(note)
    return out


_SLIP_OF = slip_table()
_SLIP_CHARACTERS = frozenset(_SLIP_OF)


@M.lru_cache("input_slips.pattern", maxsize=8, bytes_per_entry=40_000)
def _slip_pattern(words: tuple[str, ...], numerals: str) -> tuple[re.Pattern[str], dict[str, str]]:
    """One pattern for every word with its slips (`红中` as `[红洪…][中钟…]`), longest first, each a named
    group whose meaning is the word; the suited runs (`[一…九]+[万完…]`, meaning "") and the honors alone last."""

    def spelled(word: str) -> str:
        return "".join("[" + re.escape(ch + CHAR_SLIPS.get(ch, "")) + "]" for ch in word)

    alternatives: list[tuple[str, str]] = []
    slipped = sorted({w for w in words if len(w) > 1 and any(ch in CHAR_SLIPS for ch in w)}, key=len, reverse=True)
    alternatives += [(spelled(word), word) for word in slipped]
    suit_slips = "".join(CHAR_SLIPS[suit] for suit in SUITS)
    alternatives.append(("[" + re.escape(numerals) + "]+[" + re.escape(suit_slips) + "]", ""))
    alternatives += [("[" + re.escape(CHAR_SLIPS[honor]) + "]", honor) for honor in HONORS]
    groups = {f"w{index}": meaning for index, (_, meaning) in enumerate(alternatives)}
    joined = "|".join(f"(?P<w{index}>{spelled_as})" for index, (spelled_as, _) in enumerate(alternatives))
    return re.compile(joined), groups


# -- where an unknown tile is wrong ------------------------------------------------------------------------------


def wrong_column(line: str, column: int, words: Iterable[str], numerals: Iterable[str]) -> int:
    """The column of the character that is wrong, for an unknown tile the parser found at `column` of the typed
    `line`: past a run of numerals (七八九X: the X, where a suit word was due), or past the longest beginning of a
    players' word (红X, 自X: the X); `column` itself where neither is."""
    index = column - 1
    if not 0 <= index < len(line):
        return column
    digits = set(numerals)
    end = index
    while end < len(line) and line[end] in digits:
        end += 1
    if end > index:
        return end + 1 if end < len(line) and not line[end].isspace() else column
    longest = 0
    for word in words:
        size = 0
        while size < len(word) and index + size < len(line) and line[index + size] == word[size]:
            size += 1
        if 0 < size < len(word) and index + size < len(line) and not line[index + size].isspace():
            longest = max(longest, size)
    return column + longest


def at_the_wrong_character(exc: HandError, line: str, words: Iterable[str], numerals: Iterable[str]) -> HandError:
    """An unknown tile's error pointing at the character that is wrong (`wrong_column`) and quoting it."""
    if exc.code != "unknown_tile" or exc.column is None or exc.text is None or "at" not in exc.params:
        return exc
    column = wrong_column(line, exc.column, words, numerals)
    if column == exc.column:
        return exc
    moved = exc.replaced(tile=quote(line[column - 1]), at=column)
    moved.column = column
    return moved
