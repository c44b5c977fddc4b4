"""The search's contract: an item reads of a reading only what its rule set's search declares it keeps.

A rule set's search (its folder's search.py) tries an all-wildcard group only as a few representatives
and merges readings whose groups are of one class; its `KEPT_FOR_ITEMS` names, for each item that reads
a reading, the facts those keep exact. A rule set whose item reads more is refused when its class is
made, with a message naming the declaration to fix: once, a trial Lingxi "terminal pung" item scored
silently wrong, all-wildcard pungs being tried only as the 5 of each suit.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from taihu.scorer.engine import ReadingFacts
from taihu.scorer.rulesets import RULESETS
from taihu.scorer.rulesets.interface import NONE, ONE, WINNER_ONLY, Item, Variant, once
from taihu.scorer.rulesets.lingxi import Lingxi
from taihu.scorer.rulesets.lingxi.hand import LingxiHand
from taihu.scorer.rulesets.lingxi.items import BONUS_TAI, ITEMS
from taihu.scorer.rulesets.lingxi.search import KEPT_FOR_ITEMS

LINGXI_SEARCH = "taihu/scorer/rulesets/lingxi/search.py"


def terminal_pung(hand: LingxiHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    """A pung of a suited 1 or 9: a rank the coarse classes and the representatives (the 5s) erase."""
    terminals = [g for _, g in facts.pungs if g.kind < 27 and g.kind % 9 in (0, 8)]
    return once(ONE, terminals[0].text()) if terminals else NONE


TERMINAL_PUNG = Item(
    "lao_tou_ke", "老头刻", "Terminal pung", 1, BONUS_TAI, WINNER_ONLY, terminal_pung, reads=("pungs",)
)


def test_an_item_reading_what_the_classes_erase_is_refused_naming_the_declaration() -> None:
    with pytest.raises(TypeError) as refused:

        class WithTerminalPung(Lingxi):
            items = (*ITEMS, TERMINAL_PUNG)

    message = str(refused.value)
    assert "lingxi item 'lao_tou_ke' reads pungs of a reading" in message
    assert f"add it to `KEPT_FOR_ITEMS` in {LINGXI_SEARCH}" in message
    assert "stand_ins" in message


def test_declaring_what_it_reads_is_the_fix_the_message_names() -> None:
    class WithTerminalPung(Lingxi):
        items = (*ITEMS, TERMINAL_PUNG)
        search_keeps = {**KEPT_FOR_ITEMS, "lao_tou_ke": ("pungs",)}

    assert WithTerminalPung.search_keeps is not None


def test_an_item_reading_more_than_declared_is_refused() -> None:
    """Not only a new item: one that comes to read a further fact (混一色 reading `chows` too)."""
    widened = tuple(replace(i, reads=(*i.reads, "chows")) if i.key == "hun_yi_se" else i for i in ITEMS)
    with pytest.raises(TypeError, match="lingxi item 'hun_yi_se' reads chows of a reading"):

        class Widened(Lingxi):
            items = widened


@pytest.mark.parametrize("name", [name for name in RULESETS if RULESETS[name].search_keeps is not None])
def test_each_rule_set_declares_every_item_that_reads_a_reading(name: str) -> None:
    """What the check at import holds, per rule set: every item reading a reading is declared, no more."""
    rule_set = RULESETS[name]
    keeps = rule_set.search_keeps or {}
    reading = {item.key: item.reads for item in rule_set.items if item.reads}
    assert {key: tuple(keeps[key]) for key in reading if key in keeps} == reading
    assert set(keeps) == set(reading), "a declared item that reads nothing of a reading, or none left"
