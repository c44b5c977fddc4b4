"""A rule set's data checked when its class is made, and each exclusion's rule sentence shown where it is read.

Every key an `Exclusion`, an item's `option` or the search's contract names is a plain string: a misspelt
one is an error when the class is made, naming the file, the line and the row. Every exclusion of every
registered rule set carries the sentence of the rule it comes from, shown on its rules page and in the
rules answer.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from taihu.scorer.rulesets import REGISTRY, RULESETS
from taihu.scorer.rulesets.base import RuleSet
from taihu.scorer.rulesets.interface import WINNER_ONLY, Exclusion, Item, Kind, Option, excludes, flag_item

HAND_TYPE = Kind("hand type", "points")

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().relative_to(ROOT).as_posix()  # tests/test_rule_data.py, as the errors name it
RULE = "碰碰和、一条龙不再计平牌。"
ITEMS = (
    Item("ping_pai", "平牌", "Plain hand", 1, HAND_TYPE, WINNER_ONLY, flag_item("self")),
    Item("peng_peng_he", "碰碰和", "All pungs", 2, HAND_TYPE, WINNER_ONLY, flag_item("self")),
)


def next_line() -> int:
    """The line after the caller's: where the row under test is written."""
    return sys._getframe(1).f_lineno + 1


def test_a_misspelt_exclusion_key_fails_when_the_class_is_made_naming_the_file_and_the_row() -> None:
    line = next_line()
    typo = Exclusion("peng_peng_hu_typo", ("ping_pai",), RULE)
    with pytest.raises(TypeError) as raised:

        class Misspelt(RuleSet):
            name = "misspelt"
            items = ITEMS
            exclusions = (Exclusion("peng_peng_he", ("ping_pai",), RULE), typo)

    row = f"{HERE}:{line}: Exclusion('peng_peng_hu_typo', ('ping_pai',), …): no item 'peng_peng_hu_typo'"
    assert row in str(raised.value)
    assert "peng_peng_he'" not in str(raised.value)  # the row spelt right is not named


def test_a_misspelt_key_an_exclusion_removes_is_named_too() -> None:
    line = next_line()
    typo = Exclusion("peng_peng_he", ("ping_pia",), RULE)
    with pytest.raises(TypeError, match=re.escape(f"{HERE}:{line}: Exclusion('peng_peng_he', ('ping_pia',), …)")):

        class Misspelt(RuleSet):
            name = "misspelt"
            items = ITEMS
            exclusions = (typo,)


def test_an_items_option_that_names_no_house_option_fails_naming_the_item() -> None:
    line = next_line()
    scaled = Item("peng_peng_he", "碰碰和", "All pungs", 1, HAND_TYPE, WINNER_ONLY, flag_item("self"), option="pph")
    expected = (
        f"{HERE}:{line}: Item('peng_peng_he', …, option='pph'): no house option 'pph' (its options: peng_peng_he)"
    )
    with pytest.raises(TypeError, match=re.escape(expected)):

        class Misspelt(RuleSet):
            name = "misspelt"
            items = (ITEMS[0], scaled)
            options = (Option("peng_peng_he", 2, (4,), "option.guannan.peng_peng_he"),)


def test_an_item_or_an_option_declared_twice_fails() -> None:
    line = next_line()
    again = Option("double_at", 10, (), "option.lingxi.double_at")
    with pytest.raises(
        TypeError, match=re.escape(f"{HERE}:{line}: Option('double_at', …): option 'double_at' is declared twice")
    ):

        class Twice(RuleSet):
            name = "twice"
            items = ITEMS
            options = (Option("double_at", 13, (10,), "option.lingxi.double_at"), again)

    with pytest.raises(TypeError, match="item 'ping_pai' is declared twice"):

        class TwiceItems(RuleSet):
            name = "twice"
            items = (*ITEMS, ITEMS[0])


def test_a_search_contract_naming_no_item_fails() -> None:
    with pytest.raises(TypeError, match=re.escape("KEPT_FOR_ITEMS['peng_peng_hu']: no item 'peng_peng_hu'")):

        class Misspelt(RuleSet):
            name = "misspelt"
            items = ITEMS
            search_keeps = {"peng_peng_hu": ("pungs",)}


def test_an_exclusion_without_its_rule_sentence_is_refused() -> None:
    with pytest.raises(ValueError, match=re.escape("Exclusion('peng_peng_he', ('ping_pai',), …): no rule sentence")):
        Exclusion("peng_peng_he", ("ping_pai",), "  ")


def test_the_rule_sets_data_names_its_own_keys() -> None:
    """The registered rule sets pass the check, and a row says where it is written."""
    for name in REGISTRY:
        rule_set = RULESETS[name]
        for row in (*rule_set.items, *rule_set.exclusions, *rule_set.options):
            path, _, line = row.written_at.rpartition(":")
            assert (ROOT / path).is_file() and int(line) > 0, (name, row)


def test_every_exclusion_of_every_rule_set_carries_its_rule_sentence() -> None:
    for name in REGISTRY:
        rule_set = RULESETS[name]
        assert all(e.rule.strip() for e in rule_set.exclusions), name
        info = rule_set.info()
        assert len(info.exclusion_rules) == len(info.exclusions), name
        assert all(rule.strip() for rule in info.exclusion_rules), name


def test_the_rules_page_shows_each_exclusion_with_its_rule() -> None:
    for name in REGISTRY:
        if REGISTRY[name].module:
            continue  # a rule set defined outside the package (the tests' toy) has no page of docs/rules/
        page = (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
        info = RULESETS[name].info()
        for line, rule in zip(info.exclusions, info.exclusion_rules, strict=True):
            assert f"- {line} — {rule}\n" in page, (name, line)


def test_the_rules_answer_gives_each_exclusions_rule_beside_it() -> None:
    from api_app import app

    answered = {r["name"]: r for r in TestClient(app).get("/v1/rules").json()}
    for name in REGISTRY:
        info = RULESETS[name].info()
        assert answered[name]["exclusions"] == list(info.exclusions)  # the field as it always was
        assert answered[name]["exclusion_rules"] == info.exclusion_rules
        assert len(answered[name]["exclusion_rules"]) == len(answered[name]["exclusions"])


def test_each_exclusion_is_answered_by_the_keys_it_names_too() -> None:
    """`exclusion_keys` says each exclusion by keys (what a reader links, as the page's rules reference does): one
    present key says what its line says, a rule over a class of items (riichi's yakuman) names the class; every
    key is one of the rule set's items."""
    from api_app import app

    answered = {r["name"]: r for r in TestClient(app).get("/v1/rules").json()}
    for name in REGISTRY:
        info = RULESETS[name].info()
        items = {i.key for i in info.items}
        assert len(info.exclusion_keys) == len(info.exclusions), name
        for line, keys in zip(info.exclusions, info.exclusion_keys, strict=True):
            assert keys.present and keys.removes and set(keys.present) | set(keys.removes) <= items, (name, keys)
            assert not set(keys.present) & set(keys.removes), (name, keys)
            if len(keys.present) == 1:
                assert line == excludes(keys.present[0], keys.removes), (name, line)
        assert answered[name]["exclusion_keys"] == [k.to_dict() for k in info.exclusion_keys]
    general = RULESETS["riichi"].info().exclusion_keys[-1]
    assert "daisangen" in general.present and {"pinfu", "dora"} <= set(general.removes)


def test_each_item_s_unit_in_the_rules_answer_is_the_unit_its_scored_lines_count() -> None:
    from taihu.scorer import score_hand

    seen = set()
    for path in sorted((ROOT / "examples" / "hands").glob("*.txt")):
        units = {(i.key, i.name_en): i.unit for i in RULESETS[path.stem].info().items}
        for line in path.read_text(encoding="utf-8").splitlines():
            hand = line.split("#")[0].strip()
            for item in score_hand(hand, rules=path.stem).items if hand else ():
                assert units[item.key, item.name_en] == item.unit, (path.stem, hand, item.key)
                seen.add(path.stem)
    assert seen == set(REGISTRY) - {name for name in REGISTRY if REGISTRY[name].module}
