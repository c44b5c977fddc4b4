"""A flower (or 白) revealed as Lingxi's wildcard, as docs/rules/lingxi.md rules it.

The seed allows it ("花牌和白板作为财神时，它们不能用来补花"), and the page's Decision says how: a revealed
flower makes the remaining tiles of its group wild (春 revealed → 夏秋冬), a revealed 白 the other 白;
two revealed tiles of one group count as "the same kind" (`wild:f1,f2`: f3 and f4 wild, 7 / 15 for one /
two held). Wildcard flowers are held, never set aside, and score as wildcards (`cai_shen`), not as
flowers (`hua`); a revealed tile is out of play.
"""

from __future__ import annotations

import pytest

from taihu.scorer import HandError, score_hand

REST = "123m 456m 789p 234s"  # four sets; each hand below adds a fifth set and the pair


@pytest.mark.parametrize(
    ("hand", "items", "total"),
    [
        # one group revealed twice: "the same kind", its other two flowers wild — 1 held: 7
        (f"{REST} 678s f3 +5p wild:f1,f2 seat:W", {"cai_shen": 7}, 7),
        # 2 held: 15, and both wildcards of the same kind held is 杀猪胡 (+13): 28 ≥ 20, doubled
        (f"{REST} 67s f3 f4 +5p wild:f1,f2 seat:W", {"cai_shen": 15, "sha_zhu_hu": 13}, 56),
        # one flower revealed beside a wind: its group's three others wild, a flower kind's 3 / 7
        (f"{REST} 678s f2 +5p wild:f1,E seat:W", {"cai_shen": 3}, 3),
        (f"{REST} 67s f2 f3 +5p wild:f1,E seat:W", {"cai_shen": 7}, 7),
        # flowers of two groups revealed: two kinds, f3 of the seasons' one
        (f"{REST} 678s f3 +5p wild:f1,f5 seat:W", {"cai_shen": 3}, 3),
        # 白 revealed twice: the same kind, one held
        (f"{REST} 678s P +5p wild:P,P seat:W", {"cai_shen": 7}, 7),
    ],
    ids=["f1,f2 one held", "f1,f2 two held", "f1 one held", "f1 two held", "two groups", "P,P"],
)
def test_a_revealed_flower_makes_its_group_wild(hand: str, items: dict[str, int], total: int) -> None:
    result = score_hand(hand, rules="lingxi")
    assert result.winner and result.legal
    assert {item.key: item.value for item in result.items} == items
    assert "hua" not in items  # held as wildcards, not set aside as flowers
    assert result.total == total
    assert any("=" in group for group in result.arrangement)  # a wildcard flower stands for a tile


@pytest.mark.parametrize(
    ("hand", "code"),
    [
        (f"{REST} 678s f1 +5p wild:f1,f2 seat:W", "tile_copies"),  # a revealed flower is out of play
        (f"{REST} 678s f2 +5p wild:f1,f2 seat:W", "tile_copies"),
        (f"{REST} 678s f5 +5p wild:f1,f2 seat:W", "tile_count"),  # a flower of another group is set aside
        (f"{REST} 678s 5p +5p wild:f1,f1 seat:W", None),  # one 春 exists: it cannot be revealed twice
    ],
    ids=["f1 held", "f2 held", "f5 not wild", "f1 twice"],
)
def test_what_a_flower_wildcard_does_not_allow(hand: str, code: str | None) -> None:
    with pytest.raises(HandError) as raised:
        score_hand(hand, rules="lingxi")
    assert code is None or raised.value.code == code
