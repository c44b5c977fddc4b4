"""The words players write: how the registry's words and the wildcard words are read.

The lines themselves, each form as a player types it with its total or its refusal and rewrite, are
the table tests/players_lines.toml (tests/test_players_lines.py runs it through the library, the
command line and the API); here, what the table does not show: a rewrite that scores, a wildcard
word that names the wildcards rather than a tile, and that every rule set's words are its own.
"""

from __future__ import annotations

import pytest

from taihu.scorer import HandError, score_hand
from taihu.scorer.forms import fold, words
from taihu.scorer.rulesets import REGISTRY, RULESETS, players_words


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
        for part in reading.split():  # a word may read as several (妙手回春: last-tile self)
            assert part.partition(":")[0] in rule_set.conditions, (word, owner)
        condition, _, value = reading.partition(":")
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
