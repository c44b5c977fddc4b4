"""An item's reading-dependence is what it reads: a finder reads only the facts its item names.

The scoring loop finds an item that reads nothing (`Item.reads` empty) once
per hand, with no reading; every other item on each reading. So an item
that reads the reading without saying so must not score quietly as if the
reading were empty (once, a 混一色 so marked lost its 7 tai): its finder is
handed None and fails. Here every finder of every rule set is run on every
reading of the worked examples through a recorder of what it reads.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rule_set_examples import example_lines

from taihu.scorer import parse, score_hand
from taihu.scorer.engine import ReadingFacts
from taihu.scorer.rulesets import RULESETS
from taihu.scorer.rulesets.interface import EVERY_PLAYER, WINNER_ONLY
from taihu.scorer.rulesets.lingxi import ITEMS, Lingxi

ROOT = Path(__file__).resolve().parent.parent
HUN_YI_SE = "123m 456m 789m 23m CCC E 5p +E wild:5p,N seat:W"  # jian_ke 1 + cai_shen 2 + 混一色 7 = 10


class Recorder:
    """Reading facts that note each fact asked of them."""

    def __init__(self, facts: ReadingFacts) -> None:
        self.facts = facts
        self.read: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        self.read.add(name)
        return getattr(self.facts, name)


def _winning_lines(rules: str) -> list[str]:
    return [line for line in example_lines(rules) if "+" in line or "declare:" in line]


# Riichi keeps its own yaku table (one check per yaku, no Item finders), so it has no reads to record.
ITEM_RULESETS = sorted(name for name in RULESETS if RULESETS[name].items)
CASES = [(rules, line) for rules in ITEM_RULESETS for line in _winning_lines(rules)]


def undeclared_reads(rules: str, line: str) -> list[str]:
    """Each item that read a fact of a reading it does not name in `reads`."""
    ruleset = RULESETS[rules]
    hand = ruleset.prepare(parse(line), ruleset.resolve_options(None))
    wrong = []
    winners = [item for item in ruleset.items if item.scope in (EVERY_PLAYER, WINNER_ONLY)]  # a winner's items
    for item in winners:
        if not item.reads:
            list(item.find(hand, None))  # reads nothing of a reading: handed none, it must not need one
    for reading in ruleset.readings(hand):
        for item in winners:
            if item.reads:
                recorder = Recorder(ruleset.facts_of(reading))
                list(item.find(hand, recorder))
                wrong += [f"{item.key} reads {name}" for name in sorted(recorder.read - set(item.reads))]
    return sorted(set(wrong))


@pytest.mark.parametrize(("rules", "line"), CASES)
def test_finders_read_only_the_facts_their_items_name(rules: str, line: str) -> None:
    assert undeclared_reads(rules, line) == []


def test_the_examples_reach_every_rule_set() -> None:
    assert {rules for rules, _ in CASES} == set(ITEM_RULESETS) == set(RULESETS) - {"riichi"}


def test_an_item_that_reads_facts_it_does_not_name_is_caught() -> None:
    """混一色 marked as reading nothing fails at once instead of scoring 7 tai less."""
    assert score_hand(HUN_YI_SE, rules="lingxi").total == 10

    class Forgetful(Lingxi):
        items = tuple(replace(i, reads=()) if i.key == "hun_yi_se" else i for i in ITEMS)

    with pytest.raises(AttributeError):
        Forgetful().score(parse(HUN_YI_SE))


def test_the_recorder_catches_an_undeclared_fact() -> None:
    """The check above can fail: 混一色 declaring only `suit` is reported reading `honors`."""
    item = next(i for i in ITEMS if i.key == "hun_yi_se")
    ruleset = RULESETS["lingxi"]
    hand = ruleset.prepare(parse(HUN_YI_SE), ruleset.resolve_options(None))
    narrow = replace(item, reads=("suit",))
    read = set()
    for reading in ruleset.readings(hand):
        recorder = Recorder(ruleset.facts_of(reading))
        list(narrow.find(hand, recorder))
        read |= recorder.read
    assert read - set(narrow.reads) == {"honors"}
