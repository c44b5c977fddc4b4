"""One case per scoring item of rules/lingxi.md (values included).

Each case is (hand, expected items as (key, value), expected total), worked
out by hand from the rules page; the comment on each case shows the sum.
The assertion is on the exact multiset of items and the exact total, so a
missing, extra or mis-valued item fails the case.

Building blocks used below (all checked against the 4-copies limit):
- "123m 456m 789p 12s 45s" + a 3-tile meld = 16 tiles: a non-winning hand
  with no scoring item of its own (chows and loose tiles only);
- W0 = "123m 789m 789p 234s 67s 5m 5p +5p wild:5m,E seat:W": a winner
  whose only item is one suited wildcard held (cai_shen 2); the wildcard
  5m fills 67s, so no pung, no suit bonus, no 硬打硬/平胡.
"""

from __future__ import annotations

from collections import Counter

import pytest

from taihu.scorer import rule_sets, score_hand

REST = "123m 456m 789p 12s 45s"  # 13 tiles of nothing; + a 3-tile meld = 16
LOOSE = "123m 456m 789p 12s 45s 99p 3s"  # 16 tiles of nothing (non-winner)
W0 = "123m 789m 789p 234s 67s 5m 5p +5p wild:5m,E seat:W"  # winner: cai_shen 2 only


def items_of(result) -> Counter:
    return Counter((i.key, i.value) for i in result.items)


CASES = [
    # -- feng_ke / jian_ke ---------------------------------------------------
    pytest.param(f"[SSS] {REST} wild:9s,N seat:S", [("feng_ke", 1)], 1, id="feng_ke-exposed-nonwinner"),
    # winner: feng_ke 1 + 硬打硬 7 (no wildcard held) = 8, under 13: no doubling
    pytest.param(
        "[SSS] 123m 456m 789p 234s 5p +5p wild:9s,N seat:S",
        [("feng_ke", 1), ("ying_da_ying", 7)],
        8,
        id="feng_ke-winner",
    ),
    # a wind pung that is not the seat wind scores nothing
    pytest.param(f"[WWW] {REST} wild:9s,N seat:S", [], 0, id="feng_ke-other-wind-nothing"),
    pytest.param(f"[CCC] {REST} wild:9s,N", [("jian_ke", 1)], 1, id="jian_ke-zhong"),
    pytest.param(f"[FFF] {REST} wild:9s,N", [("jian_ke", 1)], 1, id="jian_ke-fa"),
    # -- kongs ---------------------------------------------------------------------
    pytest.param(f"[5555p] {REST} wild:9s,N", [("ming_gang", 3)], 3, id="ming_gang-3"),
    pytest.param(f"[CCCC] {REST} wild:9s,N", [("ming_gang", 4)], 4, id="ming_gang-zhong-plus1"),
    pytest.param(f"[SSSS] {REST} wild:9s,N seat:S", [("ming_gang", 4)], 4, id="ming_gang-seat-wind-plus1"),
    pytest.param(f"(5555p) {REST} wild:9s,N", [("an_gang", 4)], 4, id="an_gang-4"),
    pytest.param(f"(FFFF) {REST} wild:9s,N", [("an_gang", 5)], 5, id="an_gang-fa-plus1"),
    pytest.param(f"(WWWW) {REST} wild:9s,N seat:W", [("an_gang", 5)], 5, id="an_gang-seat-wind-plus1"),
    pytest.param(f"(WWWW) {REST} wild:9s,N seat:S", [("an_gang", 4)], 4, id="an_gang-other-wind-no-plus1"),
    # -- hua: per group 1/2/3 tiles -> 1/3/5; four: 10 collected / 13 from the deal
    pytest.param(f"{LOOSE} f1 wild:9s,N", [("hua", 1)], 1, id="hua-1"),
    pytest.param(f"{LOOSE} f5 f6 wild:9s,N", [("hua", 3)], 3, id="hua-2-tiles-3"),
    pytest.param(f"{LOOSE} f1 f2 f3 wild:9s,N", [("hua", 5)], 5, id="hua-3-tiles-5"),
    pytest.param(f"{LOOSE} f1f2f3f4 wild:9s,N", [("hua", 10)], 10, id="hua-4-collected-10"),
    pytest.param(f"{LOOSE} (f1f2f3f4) wild:9s,N", [("hua", 13)], 13, id="hua-4-from-deal-13"),
    pytest.param(f"{LOOSE} P P P P wild:9s,N", [("hua", 10)], 10, id="hua-4-whites-collected-10"),
    pytest.param(f"{LOOSE} (PPPP) wild:9s,N", [("hua", 13)], 13, id="hua-4-whites-from-deal-13"),
    # one item per group: a season and a plant are two groups of one tile each
    pytest.param(f"{LOOSE} f1 f5 wild:9s,N", [("hua", 1), ("hua", 1)], 2, id="hua-two-groups"),
    # -- cai_shen: suited kind 2/5/8 ---------------------------------------------------
    pytest.param("5m 123p 456p 789p 12s 45s 99s wild:5m,E", [("cai_shen", 2)], 2, id="cai_shen-suited-1"),
    pytest.param("5m5m 123p 456p 789p 12s 45s 9s wild:5m,E", [("cai_shen", 5)], 5, id="cai_shen-suited-2"),
    pytest.param("5m5m5m 123p 456p 789p 12s 45s wild:5m,E", [("cai_shen", 8)], 8, id="cai_shen-suited-3"),
    # wind/dragon kind 3/7/11
    pytest.param("E 123p 456p 789p 12s 45s 99s wild:5m,E", [("cai_shen", 3)], 3, id="cai_shen-wind-1"),
    pytest.param("EE 123p 456p 789p 12s 45s 9s wild:5m,E", [("cai_shen", 7)], 7, id="cai_shen-wind-2"),
    pytest.param("EEE 123p 456p 789p 12s 45s wild:5m,E", [("cai_shen", 11)], 11, id="cai_shen-wind-3"),
    pytest.param("CC 123p 456p 789p 12s 45s 9s wild:5m,C", [("cai_shen", 7)], 7, id="cai_shen-dragon-2"),
    # both revealed tiles the same kind: 1 / 2 held -> 7 / 15
    pytest.param("5m 123p 456p 789p 12s 45s 99s wild:5m,5m", [("cai_shen", 7)], 7, id="cai_shen-same-kind-1"),
    pytest.param("5m5m 123p 456p 789p 12s 45s 9s wild:5m,5m", [("cai_shen", 15)], 15, id="cai_shen-same-kind-2"),
    # a revealed flower: the rest of its group is wild, flower kind -> 3/7/11
    pytest.param("f2 123p 456p 789p 12s 45s 99s wild:f1,9m", [("cai_shen", 3)], 3, id="cai_shen-flower-group-1"),
    pytest.param("f2f3f4 123p 456p 789p 12s 45s wild:f1,9m", [("cai_shen", 11)], 11, id="cai_shen-flower-group-3"),
    # two kinds held: one item per kind, 8 + 3
    pytest.param(
        "5m5m5m E 123p 456p 789p 12s 4s wild:5m,E", [("cai_shen", 8), ("cai_shen", 3)], 11, id="cai_shen-two-kinds"
    ),
    # -- cai_shen_ke (non-winners): SS + one wildcard; C + two wildcards -----------------
    pytest.param(
        "SS 5m 123p 456p 789p 12s 45s wild:5m,E seat:S", [("cai_shen", 2), ("cai_shen_ke", 1)], 3, id="cai_shen_ke-pair"
    ),
    pytest.param(
        "C 5m5m 123p 456p 789p 12s 45s wild:5m,E seat:S",
        [("cai_shen", 5), ("cai_shen_ke", 1)],
        6,
        id="cai_shen_ke-single",
    ),
    # -- bonus items on the winner W0 (cai_shen 2) -----------------------------------------
    pytest.param(W0, [("cai_shen", 2)], 2, id="baseline-W0"),
    pytest.param(W0 + " self", [("cai_shen", 2), ("zi_mo", 1)], 3, id="zi_mo"),
    # [1111p] open kong 3 + cai_shen 2 + 杠开 3; no zi_mo
    pytest.param(
        "[1111p] 123m 789m 234s 67s 5m 5p +5p wild:5m,E seat:W kong-draw",
        [("ming_gang", 3), ("cai_shen", 2), ("gang_kai", 3)],
        8,
        id="gang_kai",
    ),
    pytest.param(W0 + " rob-kong", [("cai_shen", 2), ("qiang_gang", 3)], 5, id="qiang_gang"),
    pytest.param(W0 + " last-tile", [("cai_shen", 2), ("hai_di", 3)], 5, id="hai_di"),
    # 5p wildcard stands for 1m/4m: m + 中 + 东: jian_ke 1 + cai_shen 2 + 混一色 7 = 10
    pytest.param(
        "123m 456m 789m 23m CCC E 5p +E wild:5p,N seat:W",
        [("jian_ke", 1), ("cai_shen", 2), ("hun_yi_se", 7)],
        10,
        id="hun_yi_se",
    ),
    # 5m stands for 7p (or 9m): all pungs: cai_shen 2 + 对对胡 7 = 9
    pytest.param(
        "111m 222p 333s 444s 77p 5m 9m +9m wild:5m,E seat:W", [("cai_shen", 2), ("dui_dui_hu", 7)], 9, id="dui_dui_hu"
    ),
    # 5p stands for an m tile: cai_shen 2 + 清一色 13 = 15 >= 13 -> 30
    pytest.param(
        "123m 456m 789m 234m 23m 6m 5p +6m wild:5p,N seat:W", [("cai_shen", 2), ("qing_yi_se", 13)], 30, id="qing_yi_se"
    ),
    # a pung (111m) so no 平胡; no wildcard -> 硬打硬 7
    pytest.param("111m 234m 567p 789s 234s 9p +9p wild:5m,E seat:W", [("ying_da_ying", 7)], 7, id="ying_da_ying"),
    # 5m5m5m as a set standing for nothing: cai_shen 8 + 财神汇 7 = 15 -> 30
    pytest.param(
        "5m5m5m 123p 456p 789s 234s 9p +9p wild:5m,E seat:W",
        [("cai_shen", 8), ("cai_shen_hui", 7)],
        30,
        id="cai_shen_hui",
    ),
    # single wait on the wildcard 5m: cai_shen 2 + 单钓 7 = 9
    pytest.param(
        "[111m] [222p] [333s] [456s] [789p] 5m +9m wild:5m,E seat:W",
        [("cai_shen", 2), ("dan_diao", 7)],
        9,
        id="dan_diao-wildcard-7",
    ),
    # single wait on 9m (won on the wildcard 5m, self-drawn: a wildcard is never discarded):
    # cai_shen 2 + zi_mo 1 + 单钓 13 = 16 -> 32
    pytest.param(
        "[111m] [222p] [333s] [456s] [789p] 9m +5m wild:5m,E seat:W self",
        [("cai_shen", 2), ("zi_mo", 1), ("dan_diao", 13)],
        32,
        id="dan_diao-natural-13",
    ),
    # E S W pungs + N pair: feng_ke (S) 1 + 硬打硬 7 + 四风齐 13 = 21 -> 42
    pytest.param(
        "[EEE] [SSS] [WWW] 234m 567p N +N wild:3s,C seat:S",
        [("feng_ke", 1), ("ying_da_ying", 7), ("si_feng_qi", 13)],
        42,
        id="si_feng_qi-3-pungs-pair",
    ),
    # four wind pungs + 5m pair: feng_ke 1 + 混一色 7 + 对对胡 7 + 硬打硬 7 + 四风齐 13 = 35 -> 70
    pytest.param(
        "EEE SSS WWW NNN 111m 5m +5m wild:3s,C seat:S",
        [("feng_ke", 1), ("hun_yi_se", 7), ("dui_dui_hu", 7), ("ying_da_ying", 7), ("si_feng_qi", 13)],
        70,
        id="si_feng_qi-4-pungs",
    ),
    # worked example 2: 平胡 13 -> 26
    pytest.param("123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W", [("ping_hu", 13)], 26, id="ping_hu"),
    # 硬打硬 7 + 天胡 13 = 20 -> 40
    pytest.param(
        "111m 234m 567p 789s 234s 9p +9p wild:5m,E seat:E heaven",
        [("ying_da_ying", 7), ("tian_hu", 13)],
        40,
        id="tian_hu",
    ),
    pytest.param(
        "111m 234m 567p 789s 234s 9p +9p wild:5m,E seat:S earth", [("ying_da_ying", 7), ("di_hu", 13)], 40, id="di_hu"
    ),
    # 杀猪胡, 4 wildcards (5m×3 + E): 8 + 3 + 财神汇 7 + 13 = 31 -> 62
    pytest.param(
        "5m5m5m E 123p 456p 789s 11s 9p +9p wild:5m,E seat:W",
        [("cai_shen", 8), ("cai_shen", 3), ("cai_shen_hui", 7), ("sha_zhu_hu", 13)],
        62,
        id="sha_zhu_hu-4-wildcards-13",
    ),
    # 5 wildcards (5m×3 + E×2): 8 + 7 + 7 + 26 = 48 -> 96
    pytest.param(
        "5m5m5m EE 123p 456p 789s 1s 9p +9p wild:5m,E seat:W",
        [("cai_shen", 8), ("cai_shen", 7), ("cai_shen_hui", 7), ("sha_zhu_hu", 26)],
        96,
        id="sha_zhu_hu-5-wildcards-26",
    ),
    # 6 wildcards, three of them filling 13p 46p 79s, three a 财神汇: 8 + 11 + 7 + 52 = 78 -> 156
    pytest.param(
        "5m5m5m EEE 13p 46p 79s 123m 9p +9p wild:5m,E seat:W",
        [("cai_shen", 8), ("cai_shen", 11), ("cai_shen_hui", 7), ("sha_zhu_hu", 52)],
        156,
        id="sha_zhu_hu-6-wildcards-52",
    ),
    # both revealed tiles 5m (two left), both held: cai_shen 15 + 杀猪胡 13 = 28 -> 56
    pytest.param(
        "5m5m 123p 456p 789s 111s 9p 9p +9p wild:5m,5m seat:W",
        [("cai_shen", 15), ("sha_zhu_hu", 13)],
        56,
        id="sha_zhu_hu-same-kind",
    ),
    # all eight flowers: hua 10 + hua 10 + 硬打硬 7 + 花胡 52 = 79 -> 158 (flowers: no 平胡)
    pytest.param(
        "123m 456m 789p 234s 678s 5p f1f2f3f4f5f6f7f8 +5p wild:9s,N seat:W",
        [("hua", 10), ("hua", 10), ("ying_da_ying", 7), ("hua_hu", 52)],
        158,
        id="hua_hu-won",
    ),
    # -- declared wins: nothing else counts; doubled like any win ------------------------
    pytest.param(
        "5m5m5m E 123p 456p 789s 11s 9p wild:5m,E seat:W declare:sha-zhu", [("sha_zhu", 13)], 26, id="sha_zhu-declared"
    ),
    pytest.param(
        "123m 456m 789p 234s 678s 5p f1f2f3f4f5f6f7f8 wild:9s,N seat:W declare:hua-hu",
        [("hua_hu", 52)],
        104,
        id="hua_hu-declared",
    ),
]


@pytest.mark.parametrize(("hand", "expected", "total"), CASES)
def test_item(hand: str, expected: list[tuple[str, int]], total: int) -> None:
    result = score_hand(hand, rules="lingxi")
    assert items_of(result) == Counter(expected), [(i.key, i.value, i.detail) for i in result.items]
    assert result.subtotal == sum(v for _, v in expected)
    assert result.total == total
    assert result.doubled == (total != result.subtotal)
    assert result.unit == "tai"
    assert result.rules == "lingxi"


def test_every_item_key_of_the_rules_page_is_covered() -> None:
    """The cases above name every key of rules/lingxi.md at least once."""
    keys = {
        "feng_ke",
        "jian_ke",
        "ming_gang",
        "an_gang",
        "hua",
        "cai_shen",
        "cai_shen_ke",
        "zi_mo",
        "gang_kai",
        "qiang_gang",
        "hai_di",
        "hun_yi_se",
        "dui_dui_hu",
        "qing_yi_se",
        "ying_da_ying",
        "cai_shen_hui",
        "dan_diao",
        "si_feng_qi",
        "ping_hu",
        "tian_hu",
        "di_hu",
        "sha_zhu_hu",
        "hua_hu",
        "sha_zhu",
    }
    covered = {key for case in CASES for key, _ in case.values[1]}
    assert keys <= covered
    listed = {i.key for info in rule_sets() if info.name == "lingxi" for i in info.items}
    assert listed == keys


def test_winner_flag_and_arrangement() -> None:
    nonwinner = score_hand(f"[SSS] {REST} wild:9s,N seat:S")
    assert nonwinner.winner is False and nonwinner.arrangement == [] and nonwinner.doubled is False
    winner = score_hand(W0)
    assert winner.winner is True
    assert len(winner.arrangement) == 6  # 5 sets + pair
    assert any("5m=" in group for group in winner.arrangement)  # the wildcard is shown as what it stood for
