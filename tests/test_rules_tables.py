"""The item tables of the rules pages against what the library and `taihu rules` show.

Each rule set's value column (`taihu rules NAME`, the answers' `/rules`, the
pages' generated item tables) is rendered from the `Item` value data the
scorer counts with. The tests read the page's table (tests/rules_page.py), not
a copy: a value changed in the code shows as a change of docs/rules/NAME.md
(`make docs`; tests/test_docs.py fails while the page is stale), and every
shell must show what the page shows, row by row, in the page's order.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from rule_set_examples import documented
from rules_page import page_items
from typer.testing import CliRunner

from taihu.cli.main import app
from taihu.scorer.rulesets import RULESETS

# the rule sets with a page (a test's has none) and an item table (riichi keeps its yaku table below)
ITEM_RULESETS = sorted(name for name in documented() if RULESETS[name].items)


@pytest.mark.parametrize("name", ITEM_RULESETS)
def test_rules_page_item_table_matches_the_code(name: str) -> None:
    """Key by key and value by value, in the page's order."""
    shown = [(i.key, i.value) for i in RULESETS[name].info().items]
    assert shown == page_items(name)


def test_every_rule_set_with_items_has_a_page_table() -> None:
    assert ITEM_RULESETS and all(page_items(name) for name in ITEM_RULESETS)


@pytest.mark.parametrize("name", ITEM_RULESETS)
def test_taihu_rules_shows_the_page_values(name: str) -> None:
    """`taihu rules NAME --json` prints the same value column."""
    result = CliRunner().invoke(app, ["rules", name, "--json"])
    assert result.exit_code == 0, result.output
    shown = [(i["key"], i["value"]) for i in json.loads(result.output)["items"]]
    assert shown == page_items(name)


def test_a_value_is_one_table_row() -> None:
    """The number scored and the number shown are one datum: a changed row changes both."""
    item = next(i for i in RULESETS["lingxi"].items if i.key == "hun_yi_se")
    assert (item.points("", {}), item.shown({})) == (7, "+7")
    edited = replace(item, value=8)
    assert (edited.points("", {}), edited.shown({})) == (8, "+8")


# Riichi's yaku and yakuman as its rules page lists them: (key, closed han, open han or None for closed only);
# a yakuman is 13 han per ×1. Open tanyao counts only with kuitan=1 (its open han is 1 there).
RIICHI_YAKU = [
    ("riichi", 1, None), ("double_riichi", 2, None), ("ippatsu", 1, None), ("menzen_tsumo", 1, None),
    ("pinfu", 1, None), ("tanyao", 1, 1), ("iipeikou", 1, None), ("yakuhai_haku", 1, 1),
    ("yakuhai_hatsu", 1, 1), ("yakuhai_chun", 1, 1), ("yakuhai_seat_wind", 1, 1), ("yakuhai_round_wind", 1, 1),
    ("haitei", 1, 1), ("houtei", 1, 1), ("rinshan", 1, 1), ("chankan", 1, 1), ("sanshoku", 2, 1), ("ittsu", 2, 1),
    ("chanta", 2, 1), ("chiitoitsu", 2, None), ("toitoi", 2, 2), ("sanankou", 2, 2), ("sanshoku_doukou", 2, 2),
    ("sankantsu", 2, 2), ("honroutou", 2, 2), ("shousangen", 2, 2), ("honitsu", 3, 2), ("junchan", 3, 2),
    ("ryanpeikou", 3, None), ("chinitsu", 6, 5), ("renhou", 5, None),
]  # fmt: skip
RIICHI_YAKUMAN = {
    "kokushi_musou": 1, "kokushi_musou_13": 2, "suuankou": 1, "suuankou_tanki": 2, "daisangen": 1,
    "shousuushii": 1, "daisuushii": 2, "tsuuiisou": 1, "chinroutou": 1, "ryuuiisou": 1, "chuuren_poutou": 1,
    "junsei_chuuren_poutou": 2, "suukantsu": 1, "tenhou": 1, "chiihou": 1,
}  # fmt: skip


def test_riichi_page_yaku_table_matches_the_code() -> None:
    """Riichi keeps its yaku as one table of its own (closed and open han beside each check)."""
    from taihu.scorer.rulesets.riichi.yaku import YAKU

    yaku = [(y.key, y.closed, y.open) for y in YAKU if not y.yakuman]
    yakuman = {y.key: (2 if y.double else 1) for y in YAKU if y.yakuman}
    assert yaku == RIICHI_YAKU
    assert yakuman == RIICHI_YAKUMAN
    assert all(y.closed == 13 * (2 if y.double else 1) for y in YAKU if y.yakuman)
