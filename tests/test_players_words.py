"""The words players write (issue 23, finding 3), as they write them: each one read, or refused with the rewrite.

Every line below was written the way a player at the table would: winds as 东风,
Putian's wildcard as 金, the declared wins and riichi's words by their Chinese
(and Japanese) names, spaces after `:` and `,`, capital suit letters. Each
reads as its ASCII line (the same score, the same canonical hand printed back),
and the ASCII line as the typed one; what is not the notation is refused with
the exact rewrite in the message.
"""

from __future__ import annotations

import pytest

from taihu.scorer import HandError, score_hand
from taihu.scorer.forms import fold, words
from taihu.scorer.rulesets import REGISTRY, RULESETS, players_words

# (as a player types it, the same in the ASCII notation, the rule set, the total)
READ = [
    # winds with 风, as tiles and as the seat
    (
        "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,东风 门风:南风",
        "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S",
        "lingxi",
        56,
    ),
    (
        "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E 门风:西风",
        "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:W",
        "lingxi",
        56,
    ),
    (
        "[东风东风东风] [南风南风南风] [西风西风西风] 234m 567p 北风 +北风 wild:3s,C seat:S",
        "[EEE] [SSS] [WWW] 234m 567p N +N wild:3s,C seat:S",
        "lingxi",
        42,
    ),
    (
        "[東風東風東風] 123m 456m 789p 234s 5p +5p wild:9s,N 門風:西風",
        "[EEE] 123m 456m 789p 234s 5p +5p wild:9s,N seat:W",
        "lingxi",
        7,
    ),
    # 金, Putian's word for its wildcard
    (
        "123m 456m 789p 234s 9s9s9s 5p +5p 金:9s 门风:西",
        "123m 456m 789p 234s 9s9s9s 5p +5p wild:9s seat:W",
        "putian",
        4,
    ),
    (
        "123m 456m 789p 234s 567s 9s P P +5p 金: 9s 门风:南",
        "123m 456m 789p 234s 567s 9s P P +5p wild:9s seat:S",
        "putian",
        4,
    ),
    # the declared wins by their Chinese names
    (
        "123m 456m 789p 234s 999s 5p 游金 金:9s 门风:西",
        "123m 456m 789p 234s 999s 5p declare:you-jin wild:9s seat:W",
        "putian",
        4,
    ),
    (
        "123m 456m 789p 234s 999s 5p 遊金 金:9s 门风:西",
        "123m 456m 789p 234s 999s 5p declare:you-jin wild:9s seat:W",
        "putian",
        4,
    ),
    (
        "123m 456m 789p 234s 999s 5p 5p 三金倒 金:9s 门风:西",
        "123m 456m 789p 234s 999s 5p 5p declare:san-jin-dao wild:9s seat:W",
        "putian",
        4,
    ),
    (
        "123m 456m 789p 234s 99s 5p 5p +9s 抢金 金:9s 门风:南",
        "123m 456m 789p 234s 99s 5p 5p +9s declare:qiang-jin wild:9s seat:S",
        "putian",
        4,
    ),
    (
        "123m 456m 789p 234s 999s 5p 三金游 金:9s 门风:西",
        "123m 456m 789p 234s 999s 5p declare:san-jin-you wild:9s seat:W",
        "putian",
        4,
    ),
    (
        "555m EEE 123p 456p 78s 11s 9m 杀猪 wild:5m,E seat:S",
        "555m EEE 123p 456p 78s 11s 9m declare:sha-zhu wild:5m,E seat:S",
        "lingxi",
        26,
    ),
    (
        "123m 456p 789s 123p 456m 4s f1 f2 f3 f4 f5 f6 f7 f8 花胡 wild:9m,9m",
        "123m 456p 789s 123p 456m 4s f1f2f3f4f5f6f7f8 declare:hua-hu wild:9m,9m",
        "lingxi",
        104,
    ),
    (
        "123m 456m 789p 234s 567s 9s P P +5p 金:9s 门风:南 打金",
        "123m 456m 789p 234s 567s 9s P P +5p wild:9s seat:S da-jin",
        "putian",
        4,
    ),
    # riichi's words
    ("123m 456p 789s 11s 23p +4p 立直 seat:S", "123m 456p 789s 11s 23p +4p riichi seat:S", "riichi", 2000),
    (
        "123m 456p 789s 11s 23p +4p リーチ 宝牌:1m seat:S",
        "123m 456p 789s 11s 23p +4p riichi dora:1m seat:S",
        "riichi",
        3900,
    ),
    (
        "123m 456p 789s 11s 23p +4p 立直 宝牌: 1m, 3p 里宝牌:4p 自摸 seat:S",
        "123m 456p 789s 11s 23p +4p riichi dora:1m,3p ura:4p self seat:S",
        "riichi",
        12000,
    ),
    (
        "123m 456p 789s 11s 23p +4p 两立直 一发 seat:S",
        "123m 456p 789s 11s 23p +4p double-riichi ippatsu seat:S",
        "riichi",
        7700,
    ),
    # spaces after `:` and `,`; capital suit letters
    (
        "123m 456m 789p 234s 678s 5p +5p wild: 9s, N seat: W",
        "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W",
        "lingxi",
        26,
    ),
    (
        "123m 456m 789p 234s 678s 5p +5p wild:9s , N seat:W",
        "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W",
        "lingxi",
        26,
    ),
    (
        "123m 456m 789p 234s 678s 5p +5p 财神:9s, N 门风: 西",
        "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W",
        "lingxi",
        26,
    ),
    (
        "123M 456M 789P 234S 678S 5P +5P wild:9S,N seat:W",
        "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W",
        "lingxi",
        26,
    ),
    (
        "123m 456p 789s 11s 23p +4p riichi dora: 1m seat:S",
        "123m 456p 789s 11s 23p +4p riichi dora:1m seat:S",
        "riichi",
        3900,
    ),
]


@pytest.mark.parametrize(("typed", "ascii_line", "rules", "total"), READ)
def test_a_players_line_scores_as_its_ascii_line(typed: str, ascii_line: str, rules: str, total: int) -> None:
    as_typed, as_ascii = score_hand(typed, rules=rules), score_hand(ascii_line, rules=rules)
    assert as_typed.total == as_ascii.total == total
    assert as_typed.hand == as_ascii.hand
    assert score_hand(as_typed.hand, rules=rules) == as_ascii  # and the other way: the canonical line reads back


# (as typed, the rule set, the code, what the message must say: the exact rewrite)
REFUSED = [
    (
        "财神财神财神 123m 456m 789p 234s 5p +5p 财神:9s,N 门风:西",
        "lingxi",
        "wildcard_word_as_tile",
        "'财神财神财神' at column 1: a wildcard in the hand is written as the tile of its kind, not as its name; "
        "write 999s or NNN (the wildcards of wild:9s,N)",
    ),
    (
        "123m 456m 789p 234s 5p +5p 財神 財神 財神 wild:9s,N seat:W",
        "lingxi",
        "wildcard_word_as_tile",
        "write 999s or NNN (the wildcards of wild:9s,N)",
    ),
    (
        "金金金 123m 456m 789p 234s 5p P P +5p 金:9s",
        "putian",
        "wildcard_word_as_tile",
        "write 999s (the wildcard of wild:9s)",
    ),
    (
        "财神财神财神 123m 456m 789p 234s 5p +5p 门风:西",
        "lingxi",
        "wildcard_word_as_tile",
        "write the wildcard's kind 3 times, and name it with wild: (e.g. 555m … wild:5m)",
    ),
    (
        "123m 456m 789p 234s 678s 5p [f5f6f7f8] +5p wild:9s,N seat:W",
        "lingxi",
        "flowers_melded",
        "flowers cannot be melded: [f5f6f7f8] at column 29; flowers are set aside bare: write f5 f6 f7 f8 "
        "(or (f5f6f7f8) if held from the deal)",
    ),
    (
        "123m 456m 789p 234s 678s 5p [梅兰菊竹] +5p wild:9s,N seat:W",
        "lingxi",
        "flowers_melded",
        "flowers cannot be melded: [梅兰菊竹] at column 29; flowers are set aside bare: write f5 f6 f7 f8",
    ),
    ("123m 456m 789p 234s 678s 5p [f1f2] +5p wild:9s,N", "lingxi", "flowers_melded", "set aside bare: write f1 f2"),
    (
        "123m 456m 789p 234s 678s 5p +5p 金:9s,N 门风:西",
        "lingxi",
        "other_rule_sets_word",
        "'金' at column 33 is the Putian word for wild:; in Lingxi write 财神:9s,N or wild:9s,N",
    ),
    ("1122m 3344p 5566s 7s +7s 金:9m", "jinhua", "other_rule_sets_word", "in Jinhua write 财神:9m or wild:9m"),
    (
        "555m 222p 777p 333s 888s 9m 风 f1 f2 P P +9m wild:5m,E",
        "lingxi",
        "unknown_tile",
        "a wind is 东风 南风 西风 北风",
    ),
    (
        "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W 立直",
        "lingxi",
        "unknown_condition",
        "condition 'riichi' at column 50 is not used in Lingxi (it is a riichi condition",
    ),
    ("123m 456m 789p 234s 678s 5p 游金 wild:9s,N seat:W", "lingxi", "unknown_declare", "is not a Lingxi declared win"),
]


@pytest.mark.parametrize(("typed", "rules", "code", "says"), REFUSED)
def test_what_is_not_the_notation_is_refused_with_the_rewrite(typed: str, rules: str, code: str, says: str) -> None:
    with pytest.raises(HandError) as info:
        score_hand(typed, rules=rules)
    assert says in str(info.value)
    assert info.value.code == code


def test_the_rewrite_of_a_wildcard_written_as_its_name_scores() -> None:
    """The rewrite the refusal gives is a line that scores: 财神财神财神 → 999s."""
    with pytest.raises(HandError) as info:
        score_hand("财神财神财神 123m 456m 789p 234s 5p +5p 财神:9s,N 门风:西")
    rewrite = str(info.value).split("write ")[1].split(" or ")[0]
    assert score_hand(f"{rewrite} 123m 456m 789p 234s 5p +5p wild:9s,N seat:W").winner


def test_a_lone_wildcard_word_with_a_value_still_names_the_wildcards() -> None:
    """财神 5m (no `:`) and 门风西 stay conditions: only a run, the line's end or a second naming make tiles."""
    assert fold("123m 财神 5m,东").text.split() == ["123m", "wild:5m,东"]
    assert fold("财神5m 123m").text.split() == ["wild:5m", "123m"]
    assert fold("123m 财神 财神").stand_ins[0].times == 2
    assert fold("123m 财神").stand_ins[0].times == 1


def test_every_rule_sets_words_read_as_its_own_conditions() -> None:
    """Each registry line's players' words read as notation that rule set accepts (a flag, or a condition it
    knows), and a declared win's Chinese name is the name of the item it scores."""
    for word, (reading, owner) in players_words().items():
        rule_set = RULESETS[owner]
        condition, _, value = reading.partition(":")
        assert condition in rule_set.conditions, (word, owner)
        if condition == "declare":
            assert value in rule_set.declared_wins
            item = next(i for i in rule_set.items if i.key == value.replace("-", "_"))
            assert word == item.name or {word, item.name} in SPELLINGS, (word, item.name)


# simplified and traditional spellings of one name: the registry has both, an item one of them
SPELLINGS = [{"杀猪", "殺豬"}, {"抢金", "搶金"}, {"游金", "遊金"}, {"三金游", "三金遊"}]


def test_a_value_word_of_another_rule_set_is_refused_only_where_its_condition_means_something() -> None:
    """金: names the wildcard, which Lingxi has (so refused with Lingxi's word); 宝牌: names dora:, which Lingxi
    has not (so read, and refused by Lingxi as the riichi condition it is)."""
    assert words().owners["金"] == "putian" and words().owners["宝牌"] == "riichi"
    with pytest.raises(HandError, match="it is a riichi condition"):
        score_hand("123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W 宝牌:1m")
    assert all(line.name in RULESETS for line in REGISTRY.values())


@pytest.mark.parametrize(
    ("rules", "chinese", "ascii_form"),
    [
        (
            "putian",
            "123m 456m 789p 234s 678s 5p +5p declare:游金 wild:9s",
            "123m 456m 789p 234s 678s 5p +5p declare:you-jin wild:9s",
        ),
        (
            "lingxi",
            "123m 456m 789p 234s 678s 5p +5p declare:杀猪 wild:9s,N",
            "123m 456m 789p 234s 678s 5p +5p declare:sha-zhu wild:9s,N",
        ),
    ],
)
def test_a_declared_win_s_chinese_name_after_declare_reads_as_its_key(
    rules: str, chinese: str, ascii_form: str
) -> None:
    """`declare:游金` once read as `declare:declare:you-jin` and was refused as no declared win."""

    def outcome(line: str) -> object:
        try:
            return score_hand(line, rules=rules).to_dict()["total"]
        except HandError as exc:
            return exc.code, str(exc)

    assert outcome(chinese) == outcome(ascii_form)
