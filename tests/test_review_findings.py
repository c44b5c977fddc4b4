"""Review of Luoshan, Putian, Jinhua and Guannan against their specifications.

The first tests are the discrepancies the review found (since fixed: seven
pairs split by two 财神 for 七对子爆头; Putian's `da-jin` condition); the rest
pin tricky cases that were checked by hand against the spec and that the
other test files do not cover.
"""

from __future__ import annotations

from typing import Any

import pytest

from taihu.scorer import HandError, score_hand, settle_table

Z: dict[str, int] = {"total": 0}


def items(hand: str, rules: str) -> list[tuple[str, int]]:
    return [(i.key, i.value) for i in score_hand(hand, rules=rules).items]


def net(table: dict[str, Any]) -> tuple[dict[str, int], str]:
    result = settle_table(table)
    assert sum(result.net.values()) == 0
    return result.net, result.next_dealer


# -- discrepancies found by the review, now fixed --------------------------------------------


def test_jinhua_seven_pairs_bao_tou_with_two_cai_shen() -> None:
    result = score_hand("11m 22m 33m 44m 55m 7p 3s3s +7p wild:3s", rules="jinhua")
    assert [(i.key, i.value) for i in result.items] == [("ping_hu", 1), ("qi_dui_bao_tou", 8)]
    assert result.total == 8


def test_jinhua_honor_seven_pairs_bao_tou_with_two_cai_shen() -> None:
    result = score_hand("EE SS WW NN CC F 3s3s +F wild:3s", rules="jinhua")
    assert result.total == 64


def test_putian_da_jin_condition_makes_the_win_illegal() -> None:
    result = score_hand("123m 456m 789m 123p 456p 7s +7s seat:S wild:5s da-jin", rules="putian")
    assert result.legal is False


# -- Luoshan: verified -------------------------------------------------------------------------


def test_luoshan_wildcard_pung_as_seat_wind_with_cou_yi_tai() -> None:
    # 3 wildcards = a 东 pung (seat E): an_ke 8 + 1 tai; 99m pair wait self-drawn 6.
    # (32 + 4 + 4 + 8 + 6 + 10) = 64; tai C F P E + dui_dui + cou_yi_tai = 6 → 4096 → 4100
    result = score_hand("(CCCC) [FFF] [PPP] 2s2s2s 9m +9m self wild:2s seat:E", rules="luoshan")
    assert (result.subtotal, result.total, result.legal) == (64, 4100, True)


def test_luoshan_discarded_tile_completing_a_pung_counts_as_exposed() -> None:
    # 11p + discarded 1p: peng 4, never an_ke; 4×4 + 10 = 26, tai 3 + dui_dui 1 → 416 → 420
    result = score_hand("[CCC] [FFF] [PPP] 99m 11p +1p flip:1s", rules="luoshan")
    assert ("an_ke", 8) not in [(i.key, i.value) for i in result.items]
    assert (result.subtotal, result.total, result.legal) == (26, 420, True)


@pytest.mark.parametrize(
    "hand, total, legal",
    [
        # CC + two wildcards + 中: C C 5s=C concealed pung 8, CC pair wait (discard 4) + dui_zi 2
        ("123m 456m 789m CC 5s5s +C flip:4s seat:S", 100, False),
        # the same self-drawn: pair wait 6 → 26 × 4 = 104 → 110, legal (≥ 100)
        ("123m 456m 789m CC 5s5s +C self flip:4s seat:S", 110, True),
    ],
)
def test_luoshan_wildcards_as_dragon_best_wait(hand: str, total: int, legal: bool) -> None:
    result = score_hand(hand, rules="luoshan")
    assert (result.total, result.legal) == (total, legal)


@pytest.mark.parametrize(
    "flip, wild",
    [("9m", "1m"), ("N", "E"), ("P", "C"), ("C", "F"), ("9s", "1s")],
)
def test_luoshan_flip_wraps(flip: str, wild: str) -> None:
    result = score_hand(f"123m 456m 789p 23s 55p +4s flip:{flip}", rules="luoshan")
    assert f"flipped {flip}: the wildcard is {wild}" in result.notes


def test_luoshan_rob_kong_takes_self_drawn_wait_and_minimum() -> None:
    result = score_hand("123m 456m 789p 13s 55p +2s rob-kong flip:9m", rules="luoshan")
    assert ("bian_qian", 4) in [(i.key, i.value) for i in result.items]
    assert (result.total, result.legal) == (20, False)
    assert "needs at least 100" in result.notes[-1]


def test_luoshan_one_four_wait_on_one_is_two_sided() -> None:
    # 23m waiting 1m/4m: the 1m is not an edge wait, so 清三台平和 240
    assert items("123m 456m 789m 23m 55m +1m flip:1s", "luoshan") == [("qing_san_tai_ping_he", 240)]


def test_luoshan_wildcard_pair_stands_for_a_dragon() -> None:
    # two wildcards pair as a dragon: dui_zi 2 + self-drawn honor pair wait 6; 22 × 4 = 88 → 90
    result = score_hand("123m 456m 789m [CCC] 2s +2s self flip:1s seat:S", rules="luoshan")
    assert (result.subtotal, result.total, result.legal) == (22, 90, False)


def test_luoshan_table_seat_decides_the_seat_wind() -> None:
    # at S the 东 pung is no tai: 62 × 4 = 248 → 250, paid by each of the three
    table = {
        "rules": "luoshan",
        "flip": "5s",
        "winner": "S",
        "discarder": None,
        "players": {"E": Z, "S": "[EEE] (CCCC) [999m] 11p FF +1p self", "W": Z, "N": Z},
    }
    assert net(table) == ({"E": -250, "S": 750, "W": -250, "N": -250}, "S")


# -- Jinhua: verified --------------------------------------------------------------------------


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


def test_jinhua_liable_pays_all() -> None:
    table = {
        "rules": "jinhua",
        "wild": ["3s"],
        "winner": "S",
        "discarder": "W",
        # 承包 needs three exposed melds (Decision 2026-11-30): peng_peng_hu × qing_yi_se = 8
        "players": {"E": Z, "S": "[111m] [222m] [666m] 444m 5m +5m", "W": Z, "N": Z},
        "events": [{"type": "liable", "seat": "N"}],
    }
    assert net(table) == ({"E": 0, "S": 32, "W": 0, "N": -32}, "S")


# -- Putian: verified --------------------------------------------------------------------------


def test_putian_four_bai_as_jin_is_nine_and_san_jin_dao_beats_qiang_jin() -> None:
    result = score_hand("123m 456m 789m 123p 4p P P P +P wild:P seat:S declare:qiang-jin", rules="putian")
    assert [(i.key, i.value) for i in result.items] == [("di", 1), ("bai", 5), ("jin", 4), ("san_jin_dao", 9)]
    assert result.total == 10


def test_putian_san_jin_dao_beats_tian_hu() -> None:
    keys = [k for k, _ in items("123m 456m 789m 123p 4p 5s5s5s +7s seat:E wild:5s heaven", "putian")]
    assert keys == ["di", "jin", "san_jin_dao"]


def test_putian_losers_settle_without_kong_points() -> None:
    # E: 白 2 + 明槓 (removed) → 分 2; S: two 金 → 2; W: 0. N wins on W's discard, 底分 1.
    table = {
        "rules": "putian",
        "wild": ["5s"],
        "winner": "N",
        "discarder": "W",
        "players": {
            "E": "[3333s] 456m 789m 123p 456p 7s P P",
            "S": "123m 456m 789p 123p 456s 5s",
            "W": "234m 567m 789p 234p 567p 9s",
            "N": "123m 456m 789m 123p 456p 8s +8s",
        },
    }
    assert net(table) == ({"E": 2, "S": 2, "W": -5, "N": 1}, "N")


def test_putian_winner_kong_points_count() -> None:
    # dealer 底 2 + 白 2 + 明槓 1 = 5; self-drawn: each pays ×2
    table = {
        "rules": "putian",
        "wild": ["5s"],
        "winner": "E",
        "discarder": None,
        "players": {"E": "[3333s] 456m 789m 123p 456p 7s +7s P P self", "S": Z, "W": Z, "N": Z},
    }
    assert net(table) == ({"E": 30, "S": -10, "W": -10, "N": -10}, "E")


def test_putian_false_you_jin_broken_by_self_draw() -> None:
    # S self-draws (底分 1 ×2 each); W's 分 1 > 0 in the losers' step; W pays 9 + 1 to each
    table = {
        "rules": "putian",
        "wild": ["5s"],
        "winner": "S",
        "discarder": None,
        "players": {
            "E": Z,
            "S": "123m 456m 789m 123p 456p 7s +7s self",
            "W": "123m 456m 789m 123p 456p 5s",
            "N": Z,
        },
        "events": [{"type": "false-win", "seat": "W"}],
    }
    assert net(table) == ({"E": 7, "S": 16, "W": -30, "N": 7}, "S")


def test_putian_false_win_counts_kong_points() -> None:
    table = {
        "rules": "putian",
        "wild": ["5s"],
        "winner": None,
        "discarder": None,
        "players": {"E": "[1111m] 456m 789m 123p 456p 7s P P", "S": Z, "W": Z, "N": Z},
        "events": [{"type": "false-win", "seat": "E"}],
    }
    assert net(table) == ({"E": -36, "S": 12, "W": 12, "N": 12}, "E")


# -- Guannan: verified -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hand, expected",
    [
        ("111222333m 11p 55s +5s", [("peng_peng_he", 2)]),  # pungs beat three chows (ping_pai 1)
        ("123456789m 11p 55s +5s", [("yi_tiao_long", 2)]),
        ("[123m] [456m] [789m] 111p 5s +5s", [("yi_tiao_long", 2)]),  # exposed chows count
        ("1111m 22m 33m 44m 55m 6p +6p", [("qi_dui", 2)]),  # four alike are two pairs
    ],
)
def test_guannan_hand_types(hand: str, expected: list[tuple[str, int]]) -> None:
    assert items(hand, "guannan") == expected


def test_guannan_rob_kong_paid_by_the_kong_player_next_dealer_rotates() -> None:
    table = {
        "rules": "guannan",
        "winner": "W",
        "discarder": "N",
        "players": {"E": Z, "S": Z, "W": "123456789m 111p 5s +5s rob-kong", "N": Z},
    }
    assert net(table) == ({"E": 0, "S": 0, "W": 2, "N": -2}, "S")


def test_putian_da_jin_winner_cannot_be_settled() -> None:
    table = {
        "rules": "putian",
        "wild": ["5s"],
        "winner": "S",
        "discarder": "W",
        "players": {"E": Z, "S": "123m 456m 789m 123p 456p 7s +7s da-jin", "W": Z, "N": Z},
    }
    with pytest.raises(HandError, match=r"players\.S: not a legal win: 打金"):
        settle_table(table)
