"""Lingxi's names that say what they mean: the two 花胡 rows, the 杀猪胡 option's text, the seed's values."""

from __future__ import annotations

from taihu.scorer import score_hand
from taihu.scorer.rulesets import RULESETS
from taihu.scorer.rulesets.interface import DECLARED_ONLY, WINNER_ONLY
from taihu.scorer.rulesets.lingxi.items import BONUS_TAI, DECLARED_WIN, OPTIONS, SHA_ZHU_HU_ROWS, sha_zhu_hu_factors
from taihu.scorer.said import said

# 对对胡 7 + 硬打硬 7 + 箭刻 1 + 自摸 1 + 花 1 = 17 tai
SEVENTEEN = "111m 222p 333s 444m CCC 6p +6p self seat:E f1"


def test_both_hua_hu_rows_keep_the_pages_key_and_differ_by_kind_and_scope() -> None:
    """The rules page keys the won 花胡 and the declared one both `hua_hu`; the code tells them apart."""
    rows = [(i.kind, i.scope) for i in RULESETS["lingxi"].items if i.key == "hua_hu"]
    assert rows == [(BONUS_TAI, WINNER_ONLY), (DECLARED_WIN, DECLARED_ONLY)]


def test_the_sha_zhu_hu_option_text_is_made_from_the_items_rows() -> None:
    option = next(o for o in OPTIONS if o.name == "sha_zhu_hu")
    shown = next(o for o in RULESETS["lingxi"].info().options if o.name == "sha_zhu_hu")
    assert shown.description == "杀猪胡 bonus (5 wildcards ×2, 6 ×4)"
    assert said(option.description, **sha_zhu_hu_factors({**SHA_ZHU_HU_ROWS, "six": 8})).in_lang("zh") == (
        "杀猪胡加台：5 张财神 ×2，6 张 ×8"
    )


def test_the_seeds_alternatives_are_no_restriction() -> None:
    """`double_at` 10 is the seed's alternative; a house's 17 or 18 is taken as well (docs/rules/lingxi.md)."""
    option = next(o for o in OPTIONS if o.name == "double_at")
    assert option.seed_alternatives == (10,)
    assert score_hand(SEVENTEEN, "lingxi").subtotal == 17
    assert [score_hand(SEVENTEEN, "lingxi", {"double_at": at}).total for at in (10, 17, 18)] == [34, 34, 17]
