"""The notation's own errors: a fine code, a catalog text, both languages.

Each error of the notation (and of the players' words and hints) is made by
`notation_error` from its catalog text `error.notation.…` and parameters. Where
errors.py has `HandError.of`, the error keeps those for `message_in(lang)`; a
stand-in `of` here records them, so each case checks that the catalog's English
is the message as raised, byte for byte, and that its Chinese is Chinese.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from taihu.scorer import HandError, score_hand
from taihu.scorer.errors import Text as Said
from taihu.scorer.notation import CONDITION_ORDER, DECLARED_WINS

PING = "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W"
# (the line, its rule set, the code); each a different error of the notation or of the words' hints
CASES = [
    ("123m x", "lingxi", "unknown_tile"),
    ("123m 456m 789p 234s 678s GG +5p wild:9s,N seat:W", "lingxi", "unknown_tile"),
    ("123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W e", "lingxi", "unknown_tile"),
    (f"{PING} zimo", "lingxi", "unknown_condition"),
    (f"{PING} SELF", "lingxi", "unknown_condition"),
    (f"{PING} bogus", "lingxi", "unknown_condition"),
    ("123 456m", "lingxi", "suit_letter_missing"),
    ("0m 123m 456m 789p 234s 678s 5p +5p", "lingxi", "no_red_fives"),
    ("123m 456m 789p 234s 678s 5p +5p wild:9s,NN seat:W", "lingxi", "not_one_tile"),
    ("123m 456m 789p 234s 678s 5p +5p flip:12m", "luoshan", "not_one_tile"),
    ("123m [456m", "lingxi", "group_not_closed"),
    ("123m [456m +5p]", "lingxi", "unexpected_in_group"),
    ("123m 456m 789p 234s 678s 5p [f1f2] +5p wild:9s,N", "lingxi", "flowers_melded"),
    ("123m 456m 789p 234s 678s 5p [f5f6f7f8] +5p wild:9s,N", "lingxi", "flowers_melded"),
    ("(f1f2f5) 123m", "lingxi", "bad_flower_group"),
    ("(123m) 456m", "lingxi", "bad_concealed_group"),
    ("[124m] 456m", "lingxi", "not_a_meld"),
    ("", "lingxi", "empty_hand"),
    ("123m ] 456m", "lingxi", "group_not_opened"),
    ("123m 456m 789p 234s 678s 5p +5p +6p wild:9s,N seat:W", "lingxi", "two_winning_tiles"),
    ("123m 456m +56p", "lingxi", "bad_winning_tile"),
    (f"{PING} self self", "lingxi", "repeated_condition"),
    (f"{PING} self:1", "lingxi", "condition_takes_no_value"),
    ("123m 456m 789p 234s 678s 5p +5p seat:", "lingxi", "condition_needs_value"),
    ("0m 0m 123m 456p 789s 11s +5p", "riichi", "second_red_five"),
    ("123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:X", "lingxi", "bad_seat"),
    ("123m 456p 789s 11s 23p +4p round:X", "riichi", "bad_round"),
    ("123m 456m 789p 234s 678s 5p declare:nope", "lingxi", "unknown_declared_win"),
    ("123m 456p 789s 11s 23p +4p honba:x", "riichi", "bad_number"),
    ("123m 456p 789s 11s 23p +4p honba:99999999999", "riichi", "number_too_large"),
    ("财神财神财神 123m 456m 789p 234s 5p +5p 财神:9s,N 门风:西", "lingxi", "wildcard_word_as_tile"),
    ("金金金 123m 456m 789p 234s 5p P P +5p 金:9s", "putian", "wildcard_word_as_tile"),
    ("财神财神 123m 456m 789p 23s 55p +4s 翻牌:9p", "luoshan", "wildcard_word_as_tile"),
    ("财神财神财神 123m 456m 789p 234s 5p +5p", "lingxi", "wildcard_word_as_tile"),
    ("123m 456m 789p 234s 678s 5p +5p 金:9s,N 门风:西", "lingxi", "other_rule_sets_word"),
    ("123m 456m 789p 234s 678s 5p +C wild:C,5s seat:W", "lingxi", "wildcard_won_on_discard"),
]
# the words' hints around another error's text (a count's, a rule set's no-shape message): that text is the
# errors helper's to make Chinese, so only the hint's own words are checked; (line, rule set, code, its Chinese)
AROUND = [
    ("555m 222p 777p 333s 888s 9m 1p f1 f2 P P +9m wild:5m,E seat:S", "lingxi", "stray_tile", "就和了"),
    ("555m 222p 777p 333s 888s 9m 南 f1 f2 P P +9m wild:5m,E", "lingxi", "stray_tile", "如果南（S）是门风"),
    ("123m 456m 789p 234s 67s 5p +5p seat:W", "lingxi", "tile_count", "再多一张 五条 或 八条 就和了"),
    ("555m 222p 777p 333s 888s 9m f1 f2 P P +8m seat:S", "lingxi", "no_winning_shape", "没有写 wild:"),
    ("123m 456m 789p 23s 55p +7s seat:W", "luoshan", "no_winning_shape", "没有写 wild: 或 flip:，"),
]
# what a Chinese message may hold in Latin letters: the notation (conditions, `NAME`), and input it quotes
NOTATION_WORDS = {*CONDITION_ORDER, *DECLARED_WINS, "NAME"}


def made_by_the_catalog(line: str, rules: str, monkeypatch: pytest.MonkeyPatch) -> tuple[HandError, Said]:
    """The error as raised, and its catalog text and parameters as `HandError.of` is given them."""
    with pytest.raises(HandError) as plain:
        score_hand(line, rules=rules)
    made: list[Said] = []

    def of(cls: type[HandError], key: str, /, *, code: str, column: int | None = None, **params: Any) -> HandError:
        made.append(Said(key, **params))
        return cls(Said(key, **params).in_lang("en"), code=code, column=column)

    monkeypatch.setattr(HandError, "of", classmethod(of), raising=False)
    with pytest.raises(HandError) as caught:
        score_hand(line, rules=rules)
    assert str(caught.value) == str(plain.value)
    return plain.value, made[-1]  # the last one made is the one raised (a search may make and drop others)


@pytest.mark.parametrize(("line", "rules", "code"), CASES)
def test_a_notation_error_reads_from_the_catalog_in_both_languages(
    line: str, rules: str, code: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    error, said = made_by_the_catalog(line, rules, monkeypatch)
    assert error.code == code
    assert said.key.startswith("error.notation.")
    assert str(said) == str(error)  # the catalog's English is the message as it always read
    chinese = said.in_lang("zh")
    assert chinese != str(said)
    unquoted = re.sub(r"'[^']*'|\S*[:+(\[]\S*|\b[0-9][0-9mpsz]*\b", " ", chinese)
    english = [w for w in re.findall(r"[A-Za-z][A-Za-z-]{2,}", unquoted) if w not in NOTATION_WORDS]
    assert english == [], chinese


@pytest.mark.parametrize(("line", "rules", "code", "chinese"), AROUND)
def test_a_hint_around_another_errors_text_reads_from_the_catalog(
    line: str, rules: str, code: str, chinese: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    error, said = made_by_the_catalog(line, rules, monkeypatch)
    assert error.code == code
    assert str(said) == str(error)
    assert chinese in said.in_lang("zh")


def test_a_column_is_the_errors_column_where_the_message_names_one() -> None:
    """The column of every case is in the error, as the API's `column`."""
    for line, rules, _ in CASES:
        with pytest.raises(HandError) as info:
            score_hand(line, rules=rules)
        named = re.search(r"at column (\d+)", str(info.value))
        if named:
            assert info.value.column == int(named.group(1)), line
