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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from . import input_slips
from . import memo as M
from .errors import HandError
from .input_slips import tidy
from .notation import notation_error
from .rulesets import players_words, rules_word
from .said import Said

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
    # the winds as players name them: 东风 is the tile E (门风:西风 is seat:W)
    "东风": "E",
    "東風": "E",
    "南风": "S",
    "南風": "S",
    "西风": "W",
    "西風": "W",
    "北风": "N",
    "北風": "N",
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
    "ツモ": "self",  # 自摸 as written in Japanese
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
_DEALER = re.compile("(?<![^\\s])(?:" + "|".join(DEALER_WORDS) + ")(?![^\\s])")
# a wildcard condition written out (`wild:`, `flip:`): then a wildcard word with no `:` is a tile
_WILD_CONDITION = re.compile(r"(?<![a-z-])(?:wild|flip)\s*:")


class StandIn(NamedTuple):
    """Wildcard words written where tiles go (`财神财神财神`): as typed, how many, and the column."""

    typed: str
    times: int
    column: int


@dataclass(frozen=True)
class Folded:
    """The ASCII line, and for each of its characters the 1-based column of the original it came from.

    `stand_ins`: wildcard words written as tiles, left out of `text` (blanked), for the parser to
    refuse with the wildcard's own kind as the rewrite (it knows the kind once `wild:` is read).
    """

    text: str
    origin: tuple[int, ...]
    stand_ins: tuple[StandIn, ...] = ()
    notes: tuple[Said, ...] = ()  # what was read otherwise than typed (`input_slips`): the score's first notes

    def column(self, folded_column: int) -> int:
        """The column in the player's line of a column in the folded line."""
        if not self.origin:
            return folded_column
        index = min(max(folded_column - 1, 0), len(self.origin) - 1)
        return self.origin[index]


@dataclass(frozen=True)
class Words:
    """The players' words: the shared ones above and every rule set's (`rulesets.Words.players_words`).

    `words` a word for a tile or a condition and what it reads as; `value_words` a word that takes a
    value and its condition (财神:5m is wild:5m); `owners` the rule set of a value word only it reads so
    (金: in one rule set); `wildcard_words` the value words for `wild`.
    """

    words: Mapping[str, str]
    value_words: Mapping[str, str]
    owners: Mapping[str, str]
    word: re.Pattern[str]
    value_word: re.Pattern[str]
    stand_ins: re.Pattern[str]

    @property
    def all_words(self) -> tuple[str, ...]:
        """Every word a player may write for a tile or a condition (a value word without its `:`)."""
        return (*self.words, *self.value_words, *DEALER_WORDS)

    def wildcard_words(self) -> list[str]:
        return [word for word, condition in self.value_words.items() if condition == "wild"]


def words() -> Words:
    """The players' words of the rule sets registered now (a test may register one)."""
    return _words(tuple((word, *found) for word, found in players_words().items()))


@M.lru_cache("forms.words", maxsize=8, bytes_per_entry=20_000)  # the tables and their patterns, a few KB
def _words(registered: tuple[tuple[str, str, str], ...]) -> Words:
    flags = {word: reads_as for word, reads_as, _ in registered if not word.endswith(":")}
    values = {word[:-1]: reads_as[:-1] for word, reads_as, _ in registered if word.endswith(":")}
    owners = {word[:-1]: owner for word, _, owner in registered if word.endswith(":")}
    all_words = {**WORDS, **flags}
    value_words = {**VALUE_WORDS, **values}
    wild = sorted((re.escape(w) for w, condition in value_words.items() if condition == "wild"), key=len, reverse=True)
    one = "(?:" + "|".join(wild) + ")"
    return Words(
        words=all_words,
        value_words=value_words,
        owners=owners,
        word=re.compile("|".join(sorted(map(re.escape, all_words), key=len, reverse=True))),
        value_word=re.compile(
            "(" + "|".join(sorted(map(re.escape, value_words), key=len, reverse=True)) + r")(\s*:\s*|\s*)"
        ),
        # a run of wildcard words not followed by `:` (backtracking leaves a last one with `:` out)
        stand_ins=re.compile(one + r"(?:\s*" + one + r")*(?!\s*:)"),
    )


def fold(line: str, rules: str = "") -> Folded:
    """The ASCII notation of a line written with players' forms; an ASCII line is returned as it is.

    `rules`, the rule set reading the line: a value word another rule set alone reads so (`金:` is
    Putian's) is refused there with the rewrite in its own words.
    """
    if line.isascii():
        return Folded(line, ())
    known = words()
    tidied = tidy(line, known.all_words, NUMERALS)
    chars = [_WIDE.get(ch, ch) for ch in tidied.text]
    pieces: list[tuple[str, int]] = list(zip(chars, tidied.origin, strict=True))
    text = "".join(chars)
    text, pieces = _substitute(text, pieces, _SUITED, _suited)
    text, pieces = _substitute(
        text,
        pieces,
        known.word,
        lambda m: f" {known.words[m.group()]} " if known.words[m.group()].islower() else known.words[m.group()],
    )
    text, pieces, stand_ins = _blank_stand_ins(text, pieces, known)

    def value_word(match: re.Match[str]) -> str:
        word = match.group(1)
        owner = known.owners.get(word)
        if owner is not None and owner != rules and _reads(rules, known.value_words[word]):
            raise _not_this_rule_sets_word(match, pieces[match.start()][1], known, owner, rules)
        return f" {known.value_words[word]}:"

    text, pieces = _substitute(text, pieces, known.value_word, value_word)
    text, pieces = _substitute(text, pieces, _DEALER, lambda m: "seat:E")
    return Folded(text, tuple(col for _, col in pieces), stand_ins, tidied.notes)


def at_the_wrong_character(exc: HandError, line: str) -> HandError:
    """An unknown tile's error in a typed line, pointing at the character that is wrong (`input_slips`)."""
    return input_slips.at_the_wrong_character(exc, line, words().all_words, NUMERALS)


def _reads(rules: str, condition: str) -> bool:
    """Whether the rule set reading the line has the condition (then another's word for it is refused there)."""
    from .rulesets import RULESETS

    return rules in RULESETS and condition in RULESETS[rules].conditions


def _blank_stand_ins(
    text: str, pieces: list[tuple[str, int]], known: Words
) -> tuple[str, list[tuple[str, int]], tuple[StandIn, ...]]:
    """Wildcard words written as tiles, blanked out of the line and kept as `StandIn`s.

    A wildcard word with no `:` is a tile where it comes in a run (`财神财神`), ends the line, or the
    line names its wildcards elsewhere (`wild:`, `财神:`); else it names them (`财神 5m` is wild:5m).
    """
    found = list(known.stand_ins.finditer(text))
    if not found:
        return text, pieces, ()
    written_out = bool(_WILD_CONDITION.search(text)) or any(
        known.value_words.get(match.group(1)) == "wild" and ":" in match.group(2)
        for match in known.value_word.finditer(text)
    )
    one = re.compile("|".join(sorted(map(re.escape, known.wildcard_words()), key=len, reverse=True)))
    out: list[StandIn] = []
    chars = list(text)
    for match in found:
        count = len(one.findall(match.group()))
        if count < 2 and not written_out and text[match.end() :].strip():
            continue
        out.append(StandIn(match.group(), count, pieces[match.start()][1]))
        chars[match.start() : match.end()] = " " * (match.end() - match.start())
    blanked = "".join(chars)
    return blanked, [(ch, col) for ch, (_, col) in zip(blanked, pieces, strict=True)], tuple(out)


def _not_this_rule_sets_word(match: re.Match[str], column: int, known: Words, owner: str, rules: str) -> HandError:
    """`金:9m` read by Lingxi: Putian's word for the wildcard; the rewrite in the words this rule set reads."""
    word = match.group(1)
    condition = known.value_words[word]
    value = match.string[match.end() :].split(maxsplit=1)[0] if match.string[match.end() :].strip() else "…"
    shared = [w for w, c in VALUE_WORDS.items() if c == condition]
    return notation_error(
        "error.notation.other_word.shared" if shared else "error.notation.other_word",
        code="other_rule_sets_word",
        column=column,
        word=word,
        at=column,
        owner=rules_word(owner.capitalize()),
        condition=condition,
        rules=rules_word(rules.capitalize()),
        value=value,
        shared=shared[0] if shared else "",
    )


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
