"""Jinhua 金华: every multiplier item, the Decisions and the errors of
rules/jinhua.md, each as one row of a table. Multipliers multiply."""

from __future__ import annotations

import pytest
from rules_page import page_exclusions, page_items

from taihu.scorer import HandError, rule_sets, score_hand
from taihu.scorer.engine import spaced_fill, to_counts


def jinhua(hand: str):
    return score_hand(hand, rules="jinhua")


def items(result) -> list[tuple[str, int]]:
    return [(i.key, i.value) for i in result.items]


BASE = ("ping_hu", 1)

# (why, hand, items after ping_hu, total)
CASES = [
    # -- one per item key ----------------------------------------------------------
    ("ping_hu: a plain win is ×1", "123m 456p 789s 234s 5s +5s wild:9m", [], 1),
    ("peng_peng_hu: no chows", "111m 222p 333s 444m 5s +5s wild:9p", [("peng_peng_hu", 2)], 2),
    (
        "quan_qiu_ren: one tile left, won on a discard",
        "[123m] [456p] [789s] [234s] 5s +5s wild:9m",
        [("quan_qiu_ren", 2)],
        2,
    ),
    ("qi_dui: seven pairs with a 财神", "11223344m 66p 7s 8s 9m +8s wild:9m", [("qi_dui", 2)], 2),
    ("qing_qi_dui: seven pairs, no 财神", "1122m 3344p 5566s 7s +7s wild:9m", [("qing_qi_dui", 4)], 4),
    (
        "qi_dui_bao_tou: six pairs + a lone 财神, self-drawn",
        "112233m 4455p 66s 9m +7s self wild:9m",
        [("qi_dui_bao_tou", 8)],
        8,
    ),
    ("shi_san_bu_kao: 6 honors + spaced suits", "ESWNCF 147m 258p 3s +9s wild:1p", [("shi_san_bu_kao", 1)], 1),
    ("qi_feng: all 7 honors (白 as 白) + spaced suits", "ESWNCFP 147m 258p +3s wild:9m", [("qi_feng", 2)], 2),
    ("gang_kai: won on a kong replacement", "[2222m] 123p 456p 789s 5s +5s kong-draw wild:9m", [("gang_kai", 2)], 2),
    ("qing_yi_se without 财神: ×4", "123m 456m 789m 234m 5m +5m wild:9s", [("qing_yi_se", 4)], 4),
    ("qing_yi_se with a 财神 held: ×2", "123m 456m 789m 23m 9s +5m 5m wild:9s", [("qing_yi_se", 2)], 2),
    ("luan_feng: all honors, no shape", "ESWNCF ESWNCF E +S wild:1p", [("luan_feng", 8)], 8),
    (
        "qing_feng: honors in sets + pair (no luan_feng, no peng_peng_hu)",
        "EEE SSS WWW NNN C +C wild:1p",
        [("qing_feng", 16)],
        16,
    ),
    (
        "cai_shen_tou: two 财神 as the pair, as themselves",
        "123m 456p 789s 23s 9m9m +4s wild:9m",
        [("cai_shen_tou", 4)],
        4,
    ),
    (
        "san_cai_yi_ke: three 财神 as a pung of themselves",
        "9m9m9m 456p 789s 234s 5s +5s wild:9m",
        [("san_cai_yi_ke", 8)],
        8,
    ),
    (
        "bao_tou: four sets + a lone 财神, any tile drawn wins",
        "123m 456p 789s 234s 9m +5s self wild:9m",
        [("bao_tou", 2)],
        2,
    ),
    (
        "gang_bao: kong while 敲响 = bao_tou × gang_kai",
        "[123m] [2222p] 456s 789s 9m +5s kong-draw wild:9m",
        [("gang_bao", 4)],
        4,
    ),
    ("tian_hu", "123m 456p 789s 234s 5s +5s heaven wild:9m", [("tian_hu", 2)], 2),
    ("di_hu", "123m 456p 789s 234s 5s +5s earth seat:S wild:9m", [("di_hu", 2)], 2),
    (
        "ren_hu: a non-dealer self-draw in the first go-round",
        "123m 456p 789s 234s 5s +5s self human seat:S wild:9m",
        [("ren_hu", 2)],
        2,
    ),
    (
        "hai_di: self-drawn among the last four tiles",
        "123m 456p 789s 234s 5s +5s last-tile wild:9m",
        [("hai_di", 2)],
        2,
    ),
    # -- Decisions: multipliers multiply ---------------------------------------
    ("seed: 海捞七对 = 4", "11223344m 66p 7s 8s 9m +8s last-tile wild:9m", [("qi_dui", 2), ("hai_di", 2)], 4),
    ("seed: 海捞清七对 = 8", "1122m 3344p 5566s 7s +7s last-tile wild:9m", [("qing_qi_dui", 4), ("hai_di", 2)], 8),
    (
        "peng_peng_hu × quan_qiu_ren",
        "[111m] [222m] [333p] [444s] 5s +5s wild:9m",
        [("peng_peng_hu", 2), ("quan_qiu_ren", 2)],
        4,
    ),
    ("qing_yi_se × qing_qi_dui", "1122334455667m +7m wild:3p", [("qing_qi_dui", 4), ("qing_yi_se", 4)], 16),
    (
        "cai_shen_tou × bao_tou: a drawn 财神 pairs the lone one",
        "123m 456p 789s 234s 9m +9m self wild:9m",
        [("cai_shen_tou", 4), ("bao_tou", 2)],
        8,
    ),
    # -- Decisions: seven pairs, 财神 and 白 ---------------------------------------
    ("seven pairs: four alike are two pairs", "1111m 3355m 77p 99s 2s +2s wild:9p", [("qing_qi_dui", 4)], 4),
    ("quan_qiu_ren self-drawn counts ×1", "[123m] [456p] [789s] [234s] 5s +5s self wild:9m", [], 1),
    (
        "a lone 财神 on four melds is bao_tou, not quan_qiu_ren",
        "[123m] [456p] [789s] [234s] 9m +5s self wild:9m",
        [("bao_tou", 2)],
        2,
    ),
    (
        "白 plays as the 财神's face: P is a plain 3m, so 清一色 has no 财神",
        "12m P 456m 789m 567m 5m +5m wild:3m",
        [("qing_yi_se", 4)],
        4,
    ),
    ("白 as the face of an honor 财神: PPP is a pung of E", "PPP SSS WWW NNN C +C wild:E", [("qing_feng", 16)], 16),
    (
        "白 is the 财神 kind: no stand-in role, each P is a 财神",
        "123m 456p 789s 234s P +5s self wild:P",
        [("bao_tou", 2)],
        2,
    ),
    (
        "a wind 财神 needs two 白 for 七风 (one as the wind, one as 白)",
        "SWNCF P P 147m 258p +3s wild:E",
        [("qi_feng", 2)],
        2,
    ),
    (
        "one 白 and a wind 财神: six honors, 十三不靠 only",
        "SWNCF P 147m 258p 3s +E wild:E self",
        [("shi_san_bu_kao", 1)],
        1,
    ),
    (
        "a 财神 never stands for an honor in 不靠: no 7th honor",
        "SWNCF 147m 258p 1p P +3s wild:1p",
        [("shi_san_bu_kao", 1)],
        1,
    ),
    (
        "乱风 in seven pairs multiplies with 七对爆头",
        "ESWNCF ESWNCF 1p +S self wild:1p",
        [("qi_dui_bao_tou", 8), ("luan_feng", 8)],
        64,
    ),
]


@pytest.mark.parametrize("why, hand, expected, total", CASES, ids=[c[0] for c in CASES])
def test_scores(why: str, hand: str, expected: list[tuple[str, int]], total: int) -> None:
    result = jinhua(hand)
    assert items(result) == [BASE] + expected
    assert (result.total, result.subtotal, result.doubled, result.legal) == (total, total, False, True)
    assert result.unit == "bei" and result.winner


def test_every_item_key_has_a_case() -> None:
    """Every row of the rules page's item table (tests/rules_page.py), in its order, has a case above."""
    (info,) = [r for r in rule_sets() if r.name == "jinhua"]
    keys = [key for key, _ in page_items("jinhua")]
    assert [i.key for i in info.items] == keys
    covered = {key for _, _, expected, _ in CASES for key, _ in expected} | {"ping_hu"}
    assert covered == set(keys)
    assert info.exclusions == page_exclusions("jinhua")


BAO_TOU_DRAWN = (
    "爆头 needs a drawn tile (抓到任意一张则为敲响): won on a discard, a lone 财神 scores neither 爆头 nor 七对子爆头"
)
BAO_TOU = "123m 456p 789s 234s 9m +5s"  # four sets and a lone 财神 9m, won on 5s
QI_DUI_BAO_TOU = "112233m 4455p 66s 9m +7s"  # six pairs and a lone 财神 9m, won on 7s
PENG = "111m 222p 333s 444m 5s +5s"  # four pungs, all concealed
EXPOSED = {"peng_peng_hu_exposed": 1}

# The seed's own sentences, read again (Decisions 2026-12-07):
# (the seed's words, hand, house options, items after ping_hu, total, notes)
SEED_READINGS = [
    # 「爆头（敲响）：……抓到任意一张则为敲响」: 爆头 is won on a drawn tile
    ("抓到任意一张则为敲响: on a discard, no 爆头", f"{BAO_TOU} wild:9m", {}, [], 1, [BAO_TOU_DRAWN]),
    ("抓到任意一张则为敲响: self-drawn, 爆头", f"{BAO_TOU} self wild:9m", {}, [("bao_tou", 2)], 2, []),
    (
        "抓到任意一张: a 财神 drawn pairs the lone one",
        "123m 456p 789s 234s 9m +9m self wild:9m",
        {},
        [("cai_shen_tou", 4), ("bao_tou", 2)],
        8,
        [],
    ),
    (
        "抓到任意一张: the dealer's own deal is drawn",
        f"{BAO_TOU} heaven seat:E wild:9m",
        {},
        [("bao_tou", 2), ("tian_hu", 2)],
        4,
        [],
    ),
    (
        "抓到任意一张: 地胡 is won on a discard",
        f"{BAO_TOU} earth seat:S wild:9m",
        {},
        [("di_hu", 2)],
        2,
        [BAO_TOU_DRAWN],
    ),
    (
        "杠爆: the kong's replacement is drawn",
        "[123m] [2222p] 456s 789s 9m +5s kong-draw wild:9m",
        {},
        [("gang_bao", 4)],
        4,
        [],
    ),
    (
        "七对子爆头……用财神敲响: on a discard, 七对子 only",
        f"{QI_DUI_BAO_TOU} wild:9m",
        {},
        [("qi_dui", 2)],
        2,
        [BAO_TOU_DRAWN],
    ),
    ("七对子爆头……用财神敲响: self-drawn, ×8", f"{QI_DUI_BAO_TOU} self wild:9m", {}, [("qi_dui_bao_tou", 8)], 8, []),
    ("no lone 财神: nothing to note on a discard", "123m 456p 789s 234s 5s +5s wild:9m", {}, [], 1, []),
    # 「爆头的海捞是八倍」: 海底 counts ×4 with 爆头
    ("爆头的海捞是八倍", f"{BAO_TOU} last-tile wild:9m", {}, [("bao_tou", 2), ("hai_di", 4)], 8, []),
    (
        "爆头的海捞是八倍, with 财神头",
        "123m 456p 789s 234s 9m +9m last-tile wild:9m",
        {},
        [("cai_shen_tou", 4), ("bao_tou", 2), ("hai_di", 4)],
        32,
        [],
    ),
    (
        "海捞七对 = 4: 海底 ×2 without 爆头",
        "11223344m 66p 7s 8s 9m +8s last-tile wild:9m",
        {},
        [("qi_dui", 2), ("hai_di", 2)],
        4,
        [],
    ),
    (
        "七对子爆头 at 海底: not named, 8 × 2",
        f"{QI_DUI_BAO_TOU} last-tile wild:9m",
        {},
        [("qi_dui_bao_tou", 8), ("hai_di", 2)],
        16,
        [],
    ),
    # 「碰碰胡：必须已经碰过三次」: the house option peng_peng_hu_exposed
    ("碰碰胡, by default: concealed pungs count", f"{PENG} wild:9p", {}, [("peng_peng_hu", 2)], 2, []),
    ("必须已经碰过三次: concealed pungs are no 碰", f"{PENG} wild:9p", EXPOSED, [], 1, []),
    ("必须已经碰过三次: two pungs claimed are too few", "[111m] [222p] 333s 444m 5s +5s wild:9p", EXPOSED, [], 1, []),
    (
        "必须已经碰过三次: three pungs claimed",
        "[111m] [222p] [333s] 444m 5s +5s wild:9p",
        EXPOSED,
        [("peng_peng_hu", 2)],
        2,
        [],
    ),
    (
        "必须已经碰过三次: a claimed kong counts",
        "[111m] [222p] [3333s] 444m 5s +5s wild:9p",
        EXPOSED,
        [("peng_peng_hu", 2)],
        2,
        [],
    ),
    ("必须已经碰过三次: a concealed kong does not", "[111m] [222p] (3333s) 444m 5s +5s wild:9p", EXPOSED, [], 1, []),
    ("必须已经碰过三次: and still no chows", "[111m] [222p] [333s] 456m 5s +5s wild:9p", EXPOSED, [], 1, []),
]


@pytest.mark.parametrize(
    "words, hand, options, expected, total, notes", SEED_READINGS, ids=[r[0] for r in SEED_READINGS]
)
def test_seed_readings(
    words: str, hand: str, options: dict[str, int], expected: list[tuple[str, int]], total: int, notes: list[str]
) -> None:
    result = score_hand(hand, rules="jinhua", options=options)
    assert (items(result), result.total, result.notes) == ([BASE, *expected], total, notes)


def test_self_drawn_quan_qiu_ren_note() -> None:
    assert jinhua("[123m] [456p] [789s] [234s] 5s +5s self wild:9m").notes == [
        "全求人 self-drawn counts ×1 (ping_hu only)"
    ]


ARRANGEMENTS = [
    ("白 shows as what it plays", "12m P 456m 789m 567m 5m +5m wild:3m", ["1m 2m P=3m", "456m", "567m", "789m", "55m"]),
    (
        "a lone 财神 pairs the winning tile",
        "123m 456p 789s 234s 9m +5s self wild:9m",
        ["123m", "456p", "234s", "789s", "5s 9m=5s"],
    ),
    (
        "four alike are two pairs",
        "1111m 3355m 77p 99s 2s +2s wild:9p",
        ["11m", "11m", "33m", "55m", "77p", "22s", "99s"],
    ),
    (
        "七风: one 白 as the wind 财神's face, one as 白",
        "SWNCF P P 147m 258p +3s wild:E",
        ["1m", "4m", "7m", "2p", "5p", "8p", "3s", "P=E", "S", "W", "N", "C", "F", "P"],
    ),
    (
        "a 财神 fills a spaced suited place",
        "SWNCF P 147m 258p 3s +E wild:E self",
        ["1m", "4m", "7m", "2p", "5p", "8p", "3s", "P=E", "S", "W", "N", "C", "F", "E=6s"],
    ),
    (
        "乱风 needs no shape",
        "ESWNCF ESWNCF E +S wild:1p",
        ["E", "E", "E", "S", "S", "S", "W", "W", "N", "N", "C", "C", "F", "F"],
    ),
]


@pytest.mark.parametrize("why, hand, expected", ARRANGEMENTS, ids=[a[0] for a in ARRANGEMENTS])
def test_arrangement(why: str, hand: str, expected: list[str]) -> None:
    assert jinhua(hand).arrangement == expected


def test_non_winner_counts_nothing() -> None:
    result = jinhua("123m 456p 789s 234s 5s wild:9m")
    assert (result.winner, result.items, result.subtotal, result.total, result.arrangement) == (False, [], 0, 0, [])


def test_no_wild_scores_without_cai_shen() -> None:
    result = jinhua("123m 456p 789s 234s P +P")
    assert (result.total, result.notes) == (1, ["no wild: given — scored with no 财神, 白 as itself"])
    assert result.arrangement[-1] == "PP"


def test_spaced_fill_helper() -> None:
    """The engine helper behind 十三不靠/七风: held suited tiles spaced ≥3 apart, wildcards fill spaced places."""
    assert spaced_fill(tuple(to_counts([0, 3, 6, 10])[:27]), 2) == (13, 16)
    assert spaced_fill(tuple(to_counts([0, 3, 6])[:27]), 0) == ()
    assert spaced_fill(tuple(to_counts([0, 2])[:27]), 0) is None  # 1m 3m touch
    assert spaced_fill(tuple(to_counts([0, 0])[:27]), 0) is None  # a pair
    assert spaced_fill(tuple(to_counts([0, 3, 6, 9, 12, 15, 18, 21, 24])[:27]), 1) is None  # no room


def test_three_cai_shen() -> None:
    """Speed is measured by `make bench`, not here; this pins the answer."""
    assert jinhua("9s9s9s 2345678m 234m +6m wild:9s").total == 4


ERRORS = [
    (
        "a flower",
        "123m 456p 789s 234s 5s f1 +5s wild:9m",
        "flower f1 is not a Jinhua tile: Jinhua plays 136 tiles (no flowers)",
    ),
    ("a flower group", "123m 456p 789s 2s 5s (f1f2f3f4) +5s wild:9m", "flower f1 is not a Jinhua tile"),
    (
        "a 财神 in an exposed meld",
        "[9m9m9m] 456p 789s 234s 5s +5s wild:9m",
        "财神 9m used in exposed meld [9m9m9m]: a 财神 never melds in Jinhua",
    ),
    ("a 财神 in an exposed chow", "[789m] 456p 789s 234s 5s +5s wild:9m", "财神 9m used in exposed meld [789m]"),
    ("白 as 财神 never melds either", "[PPP] 456p 789s 234s 5s +5s wild:P", "财神 P used in exposed meld [PPP]"),
    (
        "too few tiles at the win",
        "123m 456p 789s 234s +5s wild:9m",
        "hand has 13 tiles, a winning Jinhua hand needs 14 (13 + winning tile; a kong counts 3)",
    ),
    (
        "too many tiles without a win",
        "123m 456p 789s 234s 5s5s wild:9m",
        "hand has 14 tiles, a non-winning Jinhua hand holds 13 (a kong counts 3)",
    ),
    (
        "the flipped 财神 is out of play",
        "9m9m9m9m 456p 789s 23s 5s +5s wild:9m",
        "9m appears 4 times; at most 3 exist (the flipped 财神 is out of play)",
    ),
    ("a fifth tile", "11111m 456p 789s 23s 5s +5s wild:9m", "1m appears 5 times; at most 4 exist"),
    (
        "two 财神 kinds",
        "123m 456p 789s 234s 5s +5s wild:9m,E",
        "Jinhua flips one 财神 tile, e.g. wild:3m; got 2 at column 28",
    ),
    (
        "rob-kong is not a Jinhua condition",
        "123m 456p 789s 234s 5s +5s rob-kong wild:9m",
        "condition 'rob-kong' at column 28 is not used in Jinhua",
    ),
    (
        "flip is not a Jinhua condition",
        "123m 456p 789s 234s 5s +5s flip:8m",
        "condition 'flip' at column 28 is not used in Jinhua: give the 财神 as wild:T",
    ),
    (
        "declare is not a Jinhua condition",
        "123m 456p 789s 234s 5s +5s declare:sha-zhu",
        "condition 'declare' at column 28 is not used in Jinhua",
    ),
    (
        "no winning shape",
        "123m 456p 789s 235s 5s +7s wild:9m",
        "no winning shape: the tiles form none of 4 sets + pair, seven pairs, 十三不靠/七风 or 乱风 (all honors)",
    ),
    (
        "a win condition without a win",
        "123m 456p 789s 234s 5s self wild:9m",
        "condition 'self' needs a winning tile (+tile)",
    ),
    (
        "heaven off the dealer's seat",
        "123m 456p 789s 234s 5s +5s heaven seat:S",
        "condition 'heaven' needs seat:E (the dealer)",
    ),
    (
        "earth for the dealer",
        "123m 456p 789s 234s 5s +5s earth",
        "condition 'earth' is for a non-dealer: it needs seat S, W or N",
    ),
    (
        "kong-draw with no kong",
        "123m 456p 789s 234s 5s +5s kong-draw",
        "condition 'kong-draw' needs a kong in the hand ([5555p] or (5555p))",
    ),
    (
        "kong-draw and last-tile",
        "[2222m] 123p 456p 789s 5s +5s kong-draw last-tile",
        "conditions 'kong-draw' and 'last-tile' contradict each other",
    ),
    ("a stand-in pung is no meld", "[CC9m] 456p 789s 234s 5s +5s wild:9m", "[CC9m] at column 1 is not a meld"),
]


@pytest.mark.parametrize("why, hand, message", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(why: str, hand: str, message: str) -> None:
    with pytest.raises(HandError) as info:
        jinhua(hand)
    assert message in str(info.value)


# -- checked by hand against the rules page (the review of the four regional rule sets) --


def test_jinhua_seven_pairs_bao_tou_with_two_cai_shen() -> None:
    result = score_hand("11m 22m 33m 44m 55m 7p 3s3s +7p self wild:3s", rules="jinhua")
    assert [(i.key, i.value) for i in result.items] == [("ping_hu", 1), ("qi_dui_bao_tou", 8)]
    assert result.total == 8


def test_jinhua_honor_seven_pairs_bao_tou_with_two_cai_shen() -> None:
    result = score_hand("EE SS WW NN CC F 3s3s +F self wild:3s", rules="jinhua")
    assert result.total == 64


def test_jinhua_hai_di_qing_qi_dui_is_eight() -> None:
    # seed: 海捞清七对 = 8
    result = score_hand("11m 22m 33m 44m 55p 66p 7s +7s last-tile", rules="jinhua")
    assert result.total == 8


def test_jinhua_qi_feng_with_wind_cai_shen_and_two_bai() -> None:
    # wild 东: one 白 plays 东 (the face), the other is 白 → all 7 honors
    result = score_hand("P P S W N C F 1m 4m 7m 2p 5p 8p +3s wild:E", rules="jinhua")
    assert [(i.key, i.value) for i in result.items] == [("ping_hu", 1), ("qi_feng", 2)]


def test_jinhua_multipliers_multiply() -> None:
    # peng_peng_hu 2 × gang_kai 2 × qing_yi_se (no 财神) 4 = 16
    assert score_hand("[5555m] 111m 222m 333m 9m +9m kong-draw", rules="jinhua").total == 16


@pytest.mark.parametrize(
    "wild, total",
    [("3m", 4), ("P", 2)],  # 白 as the face is a plain tile (no 财神); 白 as the 财神 is a 财神
)
def test_jinhua_bai_as_face_and_qing_yi_se(wild: str, total: int) -> None:
    assert score_hand(f"12m P 456m 789m 11m 99m +9m wild:{wild}", rules="jinhua").total == total
