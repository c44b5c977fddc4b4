"""The item tables of the rules pages, transcribed by hand, against what the code scores and shows.

Each rule set's value column (`taihu rules NAME`, the docs' generated item
tables) is rendered from the `Item` value data the scorer counts with; the
tables below were copied by hand, row by row, from each rule set's rules
page. A value changed in the code — or a row added, dropped or moved —
fails here until the page's table agrees.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from taihu.cli.main import app
from taihu.scorer.rulesets import RULESETS

PAGE_TABLES: dict[str, list[tuple[str, str]]] = {
    "lingxi": [
        ("feng_ke", "1"),
        ("jian_ke", "1"),
        ("ming_gang", "3, +1 if seat wind/中/发"),
        ("an_gang", "4, +1 if seat wind/中/发"),
        ("hua", "1/3/5; four: 10 in play, 13 from the deal"),
        ("cai_shen", "2/5/8 suited; 3/7/11 honor/flower; 7/15 same kind"),
        ("cai_shen_ke", "1 each"),
        ("zi_mo", "+1"),
        ("gang_kai", "+3"),
        ("qiang_gang", "+3"),
        ("hai_di", "+3"),
        ("hun_yi_se", "+7"),
        ("dui_dui_hu", "+7"),
        ("qing_yi_se", "+13"),
        ("ying_da_ying", "+7"),
        ("cai_shen_hui", "+7"),
        ("dan_diao", "+7 wildcard / +13"),
        ("si_feng_qi", "+13"),
        ("ping_hu", "13"),
        ("tian_hu", "+13"),
        ("di_hu", "+13"),
        ("sha_zhu_hu", "+13 / 5 held +26 / 6 held +52"),
        ("hua_hu", "+52"),
        ("sha_zhu", "13"),  # declared
        ("hua_hu", "52"),  # declared
    ],
    "luoshan": [
        ("peng", "2 / 4 (1, 9, honors)"),
        ("an_ke", "4 / 8"),
        ("ming_gang", "8 / 16"),
        ("an_gang", "16 / 32"),
        ("dui_zi", "2"),
        ("zi_mo_liu", "6 / 10"),
        ("diao_tou", "self-drawn +4 / +6; discard +2 / +4"),
        ("bian_qian", "self-drawn +4; discard +2"),
        ("di_he", "+10"),
        ("jian_feng_ke", "1 tai each"),
        ("dui_dui_hu", "1 tai"),
        ("cou_yi_tai", "1 tai"),
        ("gang_kai", "1 tai"),
        ("qing_san_tai", "3 tai"),
        ("qing_si_tai", "4 tai"),
        ("ping_he", "30 total"),
        ("qing_san_tai_ping_he", "240 total"),
    ],
    "putian": [
        ("di", "dealer 2, others 1"),
        ("bai", "1 each; all four 5"),
        ("jin", "1 each"),
        ("ming_gang", "1 each"),
        ("an_gang", "2 each"),
        ("san_jin_you", "×12: each other pays ×4"),
        ("you_jin", "×9: each other pays ×3"),
        ("san_jin_dao", "×9: each other pays ×3"),
        ("tian_hu", "×9: each other pays ×3"),
        ("qiang_jin", "×9: each other pays ×3"),
        ("zi_mo", "×6: each other pays ×2"),
        ("qiang_gang", "×6: the kong player pays ×6"),
        ("ping_hu", "×1: the discarder pays ×1"),
    ],
    "jinhua": [
        ("ping_hu", "×1"),
        ("peng_peng_hu", "×2"),
        ("quan_qiu_ren", "×2 (self-drawn ×1)"),
        ("qi_dui", "×2"),
        ("qing_qi_dui", "×4"),
        ("qi_dui_bao_tou", "×8"),
        ("shi_san_bu_kao", "×1"),
        ("qi_feng", "×2"),
        ("gang_kai", "×2"),
        ("qing_yi_se", "×2 with 财神 / ×4 without"),
        ("luan_feng", "×8"),
        ("qing_feng", "×16"),
        ("cai_shen_tou", "×4"),
        ("san_cai_yi_ke", "×8"),
        ("bao_tou", "×2"),
        ("gang_bao", "bao_tou × gang_kai (×4)"),
        ("tian_hu", "×2"),
        ("di_hu", "×2"),
        ("ren_hu", "×2"),
        ("hai_di", "×2"),
    ],
    "guannan": [
        ("qi_dui", "house option qi_dui (default 2)"),
        ("peng_peng_he", "house option peng_peng_he (default 2)"),
        ("yi_tiao_long", "house option yi_tiao_long (default 2)"),
        ("ping_pai", "house option ping_pai (default 1)"),
    ],
}


@pytest.mark.parametrize("name", sorted(PAGE_TABLES))
def test_rules_page_item_table_matches_the_code(name: str) -> None:
    """Key by key and value by value, in the page's order."""
    shown = [(i.key, i.value) for i in RULESETS[name].info().items]
    assert shown == PAGE_TABLES[name]


def test_every_rule_set_has_a_transcribed_table() -> None:
    assert set(PAGE_TABLES) | {"riichi"} == set(RULESETS)


@pytest.mark.parametrize("name", sorted(PAGE_TABLES))
def test_taihu_rules_shows_the_page_values(name: str) -> None:
    """`taihu rules NAME --json` prints the same value column."""
    result = CliRunner().invoke(app, ["rules", name, "--json"])
    assert result.exit_code == 0, result.output
    shown = [(i["key"], i["value"]) for i in json.loads(result.output)["items"]]
    assert shown == PAGE_TABLES[name]


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
