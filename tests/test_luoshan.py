"""Luoshan 螺山: every item, every Decision, the worked examples and the errors
of rules/luoshan.md, each as one row of a table."""

from __future__ import annotations

import pytest

from taihu.scorer import HandError, parse, score_hand, to_text
from taihu.scorer import tiles as T
from taihu.scorer.engine import CHOW, PAIR, PUNG, Group, win_placements, win_places
from taihu.scorer.rulesets.luoshan.hand import wildcard_after


def luoshan(hand: str):
    return score_hand(hand, rules="luoshan")


def items(result) -> list[tuple[str, int]]:
    return sorted((i.key, i.value) for i in result.items)


# (why, hand, items, total, legal)
CASES = [
    # The worked examples of rules/luoshan.md
    (
        "worked example 1",
        "[EEE] (CCCC) [999m] 11p FF +1p self flip:5s seat:E",
        [
            ("peng", 4),
            ("peng", 4),
            ("an_gang", 32),
            ("zi_mo_liu", 10),
            ("dui_zi", 2),
            ("di_he", 10),
            ("jian_feng_ke", 1),
            ("jian_feng_ke", 1),
            ("dui_dui_hu", 1),
        ],
        500,
        True,
    ),
    (
        "worked example 2: under the self-drawn minimum",
        "[CCC] 55m 789s 345m 99s +5m self flip:1p seat:S",
        [("peng", 4), ("zi_mo_liu", 6), ("di_he", 10), ("jian_feng_ke", 1)],
        40,
        False,
    ),
    ("worked example 3: ping_he", "123m 456m 789p 23s 55p +4s flip:9p seat:W", [("ping_he", 30)], 30, True),
    # Base hu items
    (
        "an_ke, an_gang, dui_zi, diao_tou on a discard (honor +4); discard win at 770 ≥ 200",
        "(1111m) (9999p) EEE CCC F +F seat:E",
        [
            ("an_ke", 8),
            ("an_ke", 8),
            ("an_gang", 32),
            ("an_gang", 32),
            ("dui_zi", 2),
            ("diao_tou", 4),
            ("di_he", 10),
            ("jian_feng_ke", 1),
            ("jian_feng_ke", 1),
            ("dui_dui_hu", 1),
        ],
        770,
        True,
    ),
    (
        "ming_gang 8 / 16, diao_tou self-drawn terminal +6, gang_kai",
        "[5555m] [CCCC] 234s 567s 9m +9m kong-draw seat:S",
        [("ming_gang", 8), ("ming_gang", 16), ("diao_tou", 6), ("di_he", 10), ("jian_feng_ke", 1), ("gang_kai", 1)],
        160,
        True,
    ),
    ("diao_tou 2–8 on a discard +2", "123m 456m 789p 234s 5p +5p seat:S", [("diao_tou", 2), ("di_he", 10)], 20, False),
    (
        "diao_tou 2–8 self-drawn +4",
        "123m 456m 789p 234s 5p +5p self seat:S",
        [("diao_tou", 4), ("di_he", 10)],
        20,
        False,
    ),
    (
        "bian_qian: edge 12-3 self-drawn +4",
        "12m 456m 789p 234s 55p +3m self",
        [("bian_qian", 4), ("di_he", 10)],
        20,
        False,
    ),
    (
        "bian_qian: edge 7-89 on a discard +2",
        "89m 456m 789p 234s 55p +7m",
        [("bian_qian", 2), ("di_he", 10)],
        20,
        False,
    ),
    ("bian_qian: closed 1-3 on 2", "13m 456m 789p 234s 55p +2m", [("bian_qian", 2), ("di_he", 10)], 20, False),
    (
        "dui_zi: own seat wind pair; diao_tou honor on a discard +4",
        "W 123m 456m 789p 234s +W seat:W",
        [("dui_zi", 2), ("diao_tou", 4), ("di_he", 10)],
        20,
        False,
    ),
    (
        "dui_zi: a dragon pair (here not ping_he: the pair is the wait)",
        "F 123m 456m 789p 234s +F seat:S",
        [("dui_zi", 2), ("diao_tou", 4), ("di_he", 10)],
        20,
        False,
    ),
    (
        "another seat's wind pair is no dui_zi",
        "W 123m 456m 789p 234s +W seat:S",
        [("diao_tou", 4), ("di_he", 10)],
        20,
        False,
    ),
    # Tai items
    (
        "jian_feng_ke: own seat wind pung",
        "[SSS] 123m 456m 789p 5p +5p seat:S",
        [("peng", 4), ("diao_tou", 2), ("di_he", 10), ("jian_feng_ke", 1)],
        40,
        False,
    ),
    (
        "another seat's wind pung: no tai",
        "[SSS] 123m 456m 789p 5p +5p seat:E",
        [("peng", 4), ("diao_tou", 2), ("di_he", 10)],
        20,
        False,
    ),
    (
        "cou_yi_tai: one suit plus honors",
        "[CCC] 123m 456m 789m 1m +1m seat:S",
        [("peng", 4), ("diao_tou", 4), ("di_he", 10), ("jian_feng_ke", 1), ("cou_yi_tai", 1)],
        80,
        False,
    ),
    (
        "qing_san_tai: one suit only",
        "111m 234m 567m 789m 9m +9m self seat:S",
        [("an_ke", 8), ("diao_tou", 6), ("di_he", 10), ("qing_san_tai", 3)],
        200,
        True,
    ),
    (
        "qing_si_tai replaces qing_san_tai and dui_dui_hu",
        "111m 333m 555m 777m 9m +9m self",
        [("an_ke", 8), ("an_ke", 4), ("an_ke", 4), ("an_ke", 4), ("diao_tou", 6), ("di_he", 10), ("qing_si_tai", 4)],
        580,
        True,
    ),
    # Special hands
    ("qing_san_tai_ping_he: 240", "123p 456p 789p 23p 99p +4p seat:S", [("qing_san_tai_ping_he", 240)], 240, True),
    ("ping_he replaces dui_zi and di_he", "123m 456m 789p 23s CC +4s seat:E", [("ping_he", 30)], 30, True),
    ("ping_he replaces cou_yi_tai", "123m 456m 789m 23m CC +4m", [("ping_he", 30)], 30, True),
    # Decisions
    (
        "Decision: the discard-completed pung is peng (2), never an_ke",
        "[CCC] 55m 789s 123p 99s +5m seat:S",
        [("peng", 4), ("peng", 2), ("di_he", 10), ("jian_feng_ke", 1)],
        40,
        False,
    ),
    (
        "Decision: the self-drawn pung is zi_mo_liu (6), never an_ke",
        "[CCC] 55m 789s 123p 99s +5m self seat:S",
        [("peng", 4), ("zi_mo_liu", 6), ("di_he", 10), ("jian_feng_ke", 1)],
        40,
        False,
    ),
    (
        "Decision: the wait giving most hu — 1m in 123m (ping_he 30) beats the pair wait (20)",
        "1123m 456m 789p 234s +1m",
        [("ping_he", 30)],
        30,
        True,
    ),
    (
        "Decision: rob-kong takes the self-drawn wait values and minimum (100 reached)",
        "[CCC] [FFF] 123m 456p 1p +1p rob-kong seat:S",
        [("peng", 4), ("peng", 4), ("diao_tou", 6), ("di_he", 10), ("jian_feng_ke", 1), ("jian_feng_ke", 1)],
        100,
        True,
    ),
    (
        "the same hand on a discard: 88 → 90, under 200",
        "[CCC] [FFF] 123m 456p 1p +1p seat:S",
        [("peng", 4), ("peng", 4), ("diao_tou", 4), ("di_he", 10), ("jian_feng_ke", 1), ("jian_feng_ke", 1)],
        90,
        False,
    ),
    (
        "a legal reading first (Decision 2026-11-30): the legal 30 ping_he, not the illegal 60 of pungs",
        "77788899m 456m CC +9m self seat:S",
        [("ping_he", 30)],
        30,
        True,
    ),
    # Wildcards
    (
        "three wildcards stand for a 中 pung; the best reading is chosen",
        "2m2m2m CCC 123p 456p 9p +9p self wild:2m seat:S",
        [
            ("an_ke", 8),
            ("an_ke", 8),
            ("diao_tou", 6),
            ("di_he", 10),
            ("jian_feng_ke", 1),
            ("jian_feng_ke", 1),
            ("cou_yi_tai", 1),
        ],
        260,
        True,
    ),
    (
        "花碰: an exposed 中 pung completed by one wildcard",
        "[CC2m] 123p 456p 789p 5s +5s self wild:2m seat:S",
        [("peng", 4), ("diao_tou", 4), ("di_he", 10), ("jian_feng_ke", 1)],
        40,
        False,
    ),
    (
        "花碰 of one's seat wind; flip:1m makes 2m wild",
        "[SS2m] 123p 456p 789p 5s +5s self flip:1m seat:S",
        [("peng", 4), ("diao_tou", 4), ("di_he", 10), ("jian_feng_ke", 1)],
        40,
        False,
    ),
    (
        "the flipped indicator stays in play: four 1m held with flip:1m",
        "(1111m) 123p 456p 789p 5s +5s flip:1m",
        [("an_gang", 32), ("diao_tou", 2), ("di_he", 10)],
        50,
        False,
    ),
]


@pytest.mark.parametrize("why, hand, expected, total, legal", CASES, ids=[c[0] for c in CASES])
def test_scores(why: str, hand: str, expected: list[tuple[str, int]], total: int, legal: bool) -> None:
    result = luoshan(hand)
    assert items(result) == sorted(expected)
    assert (result.total, result.legal) == (total, legal)
    assert result.unit == "hu" and result.winner


def test_worked_example_1_subtotal_and_doubling() -> None:
    result = luoshan("[EEE] (CCCC) [999m] 11p FF +1p self flip:5s seat:E")
    assert (result.subtotal, result.doubled, result.total) == (62, True, 500)


def test_illegal_win_reason_is_a_note() -> None:
    result = luoshan("[CCC] 55m 789s 345m 99s +5m self flip:1p seat:S")
    assert (result.subtotal, result.doubled) == (20, True)
    assert any("not a legal win" in n and "100" in n for n in result.notes)
    discard = luoshan("[CCC] [FFF] 123m 456p 1p +1p seat:S")
    assert any("200" in n for n in discard.notes)


def test_tai_items_say_their_unit() -> None:
    result = luoshan("[EEE] (CCCC) [999m] 11p FF +1p self flip:5s seat:E")
    tai = [i.detail for i in result.items if i.key in ("jian_feng_ke", "dui_dui_hu")]
    assert tai == ["tai: pung of E", "tai: kong of C", "tai: no chows"]


def test_special_total_is_not_doubled() -> None:
    result = luoshan("123p 456p 789p 23p 99p +4p seat:S")
    assert (result.subtotal, result.doubled, result.total) == (240, False, 240)


def test_hua_peng_arrangement_shows_the_stand_in() -> None:
    result = luoshan("[CC2m] 123p 456p 789p 5s +5s self wild:2m seat:S")
    assert result.arrangement[0] == "[C C 2m=C]"
    assert to_text(parse(result.hand)) == result.hand
    assert "[CC2m]" in result.hand


def test_non_winner_scores_zero() -> None:
    result = luoshan("123m 456m 789p 23s 55p flip:9p seat:W")
    assert (result.winner, result.items, result.total) == (False, [], 0)


@pytest.mark.parametrize(
    "flipped, wild",
    [("1m", "2m"), ("9m", "1m"), ("9s", "1s"), ("E", "S"), ("N", "E"), ("C", "F"), ("F", "P"), ("P", "C")],
)
def test_flip_gives_the_next_tile(flipped: str, wild: str) -> None:
    assert T.name(wildcard_after(parse(f"1m flip:{flipped}").flip)) == wild


def test_win_places_natural_and_wild() -> None:
    """Tiles standing for one kind are interchangeable (Decision 2026-11-30): the winning 2p may sit
    in the chow, its wildcard then moving to the pair; a winning wildcard may be the pair's 2p."""
    reading = (Group(PUNG, 0, exposed=True), Group(CHOW, 9, (10,), wilds=((4, 10),)), Group(PAIR, 10))
    assert list(win_places(reading, 10, False)) == [(1, 10), (2, 10)]
    assert list(win_places(reading, 4, True)) == [(1, 10), (2, 10)]
    assert list(win_places(reading, 0, False)) == []  # the meld was there before the win
    moved = (reading[0], Group(CHOW, 9), Group(PAIR, 10, (10,), wilds=((4, 10),)))
    assert win_placements(reading, 10, False)[0] == (moved, 1, 10)
    assert win_placements(reading, 4, True)[1] == (moved, 2, 10)


def test_four_wildcards() -> None:
    """A legal 平和 (Decision 2026-11-30): 3s in 3s-4s-5s of wildcards, one more standing for 3s in 1s-2s-3s."""
    result = luoshan("2m2m2m2m 1234567p 12s +3s wild:2m")
    assert (result.total, result.legal) == (30, True)


ERRORS = [
    ("a flower", "123m 456m 789p 23s 55p f1 +4s", "flower f1 is not a Luoshan tile"),
    ("a flower group", "123m 456m 789p 23s 55p (f1f2f3f4) +4s", "not a Luoshan tile"),
    (
        "declare",
        "123m 456m 789p 23s 55p +4s declare:sha-zhu",
        "condition 'declare' at column 28 is not used in Luoshan",
    ),
    ("heaven", "123m 456m 789p 23s 55p +4s heaven", "condition 'heaven' at column 28 is not used in Luoshan"),
    ("last-tile", "123m 456m 789p 23s 55p +4s self last-tile", "'last-tile' at column 33 is not used in Luoshan"),
    ("15 tiles", "123m 456m 789p 234s 55p +4s", "hand has 15 tiles, a winning Luoshan hand needs 14"),
    ("12 tiles", "123m 456m 789p 55p 2s", "hand has 12 tiles, a non-winning Luoshan hand holds 13"),
    ("a fifth copy", "11111m 456m 789p 23s +4s", "1m appears 5 times"),
    ("two wildcard kinds", "123m 456m 789p 23s 55p +4s wild:2m,E", "one wildcard kind"),
    ("wild and flip", "123m 456m 789p 23s 55p +4s wild:2m flip:1m", "not both"),
    ("wildcard in a chow", "[1m2m3m] 456m 789p 23s 55p +4s wild:2m", "wildcard 2m used in exposed meld [1m2m3m]"),
    ("wildcard in a simple pung", "[5s5s2m] 456m 789p 23s 55p +4s wild:2m", "wildcard 2m used in exposed meld"),
    ("花碰 of another seat's wind", "[SS2m] 456m 789p 23s 55p +4s wild:2m seat:E", "seat wind (E)"),
    ("two wildcards in a 花碰", "[C2m2m] 456m 789p 23s 55p +4s wild:2m", "wildcard 2m used in exposed meld"),
    ("wildcards in a concealed kong", "(2m2m2m2m) 456m 789p 23s 55p +4s wild:2m", "used in concealed kong"),
    ("a stand-in that is no wildcard", "[CC3m] 456m 789p 23s 55p +4s wild:2m", "[CC3m] at column 1 is not a meld"),
    ("a stand-in with no wildcard given", "[CC3m] 456m 789p 23s 55p +4s", "no wildcard is given"),
    ("self without a winning tile", "123m 456m 789p 23s 55p self", "needs a winning tile"),
    ("rob-kong and self", "123m 456m 789p 23s 55p +4s self rob-kong", "contradict"),
    ("kong-draw with no kong", "123m 456m 789p 23s 55p +4s kong-draw", "needs a kong"),
    ("no winning shape (no seven pairs)", "1133557799m 1p 22s +1p", "no winning shape"),
]


@pytest.mark.parametrize("why, hand, message", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(why: str, hand: str, message: str) -> None:
    with pytest.raises(HandError) as err:
        luoshan(hand)
    assert message in str(err.value)


def test_stand_in_pung_is_luoshan_only() -> None:
    with pytest.raises(HandError, match="is not a meld"):
        score_hand("[CC2m] 123p 456p 789p 5s +5s self wild:2m,E", rules="lingxi")


def test_conditions_checked_once_per_set_still_answer_every_hand() -> None:
    """The checks of a set of conditions run once (a memo), yet a bad set is refused every time,
    and one hand's notes do not reach the next hand with the same conditions."""
    for _ in range(2):
        with pytest.raises(HandError, match="give either flip"):
            luoshan("123m 456m 789p 23s 55p +4s wild:1m flip:2m")
    loser = luoshan("123m 456m 789p 23s 55p seat:N")
    winner = luoshan("123m 456m 789p 23s 55p +4s seat:N")
    again = luoshan("123m 456m 789p 23s 55p seat:N")
    assert "Luoshan non-winners score 0" in loser.notes
    assert "Luoshan non-winners score 0" not in winner.notes
    assert loser.notes == again.notes  # no note piles up in the memo


def test_win_conditions_in_the_memo_answer_winner_and_non_winner_apart() -> None:
    """The memo records whether `self` and the others pass for a winner and for a non-winner, one set of
    conditions: the same conditions refused without a winning tile are accepted with one, in any order."""
    for _ in range(2):
        assert luoshan("123m 456m 789p 23s 55p +4s self seat:S").winner
        with pytest.raises(HandError, match="'self' needs a winning tile"):
            luoshan("123m 456m 789p 23s 55p self seat:S")


# Decision (2026-11-30): among the readings that make a legal win, the most hu; only when none is legal,
# the most hu with legal: false. (why, hand, total, legal)
LEGAL_FIRST = [
    ("the settled question: a legal 平和 beats an illegal 60 of pungs", "111222333m 45m CC +6m", 30, True),
    ("self-drawn: 平和 (9m two-sided in 789m) beats an illegal 60", "77788899m 456m CC +9m self seat:S", 30, True),
    ("no reading is legal: the most hu, legal false", "[CCC] 55m 789s 345m 99s +5m self flip:1p seat:S", 40, False),
    ("a legal formula total is kept", "[EEE] (CCCC) [999m] 11p FF +1p self flip:5s seat:E", 500, True),
]


@pytest.mark.parametrize("why, hand, total, legal", LEGAL_FIRST, ids=[c[0] for c in LEGAL_FIRST])
def test_luoshan_legal_reading_first(why: str, hand: str, total: int, legal: bool) -> None:
    result = luoshan(hand)
    assert (result.total, result.legal) == (total, legal)


# Decision (2026-11-30): every place of the winning tile is its own reading — a wildcard winning tile in any
# group it can stand in, a natural one in any place of its kind while a wildcard stands for that kind.
# (why, hand, total, legal, a line of the best reading)
WILD_WINNING_TILE = [
    (
        "the issue's wildcard 5m as the 6p of 5p-6p-7p (closed), 666p concealed",
        "6m 6p 5m 6p 6m 6s 5p 5m P 5s 7p 4s 6p +5m seat:W flip:4m",
        50,
        False,
        "closed wait: 6p in 5p 7p 5m=6p",
    ),
    (
        "the issue's natural 3m in 3m-4m-5m (two-sided) while a wildcard stands for 3m in 1m-2m-3m",
        "[4m5m6m] 1m 1m 8m 2m 7m 9m 5p 1m 5p 5m +3m flip:4p",
        240,
        True,
        "four chows, two-sided wait: 3m in 3m 5m 5p=4m; all m",
    ),
    (
        "a winning wildcard as the 4m of 3m-4m-5m (closed), 444m staying concealed",
        "3m 3m 3m 3m 4m 4m 4m 5m 5m 5m 5m 9m 9m +7m wild:7m seat:S",
        200,
        True,
        "closed wait: 4m in 3m 5m 7m=4m",
    ),
    (
        "a winning wildcard as the 2m of 1m-2m-3m (closed); the other wildcard is the 8m",
        "1m 2m 2m 2m 3m 7m 7m 8m 8m 9m 9m 9m 1s +1s wild:1s seat:E",
        230,
        True,
        "closed wait: 2m in 1m 3m 1s=2m",
    ),
    (
        "a winning wildcard as the 3p of 2p-3p-4p (closed), not in its pung",
        "1p 1p 2p 3p 4p 4p 5p 6p 7p 7p 7p 7p 8p +2m wild:2m seat:E",
        130,
        False,
        "closed wait: 3p in 2p 4p 2m=3p",
    ),
    (
        "a natural winning tile in a chow of three wildcards (3p-4p-5p, two-sided): 平和",
        "4m 4m 4m 1p 2p 9p 9p 6s 6s 7s 7s 8s 8s +3p wild:4m seat:W",
        30,
        True,
        "four chows, two-sided wait: 3p in 3p 4m=4p 4m=5p",
    ),
]


@pytest.mark.parametrize("why, hand, total, legal, line", WILD_WINNING_TILE, ids=[c[0] for c in WILD_WINNING_TILE])
def test_wild_winning_tile_every_place(why: str, hand: str, total: int, legal: bool, line: str) -> None:
    result = luoshan(hand)
    assert (result.total, result.legal) == (total, legal)
    assert line in [i.detail for i in result.items]


# -- checked by hand against the rules page (the review of the four regional rule sets) --


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
    assert items(score_hand("123m 456m 789m 23m 55m +1m flip:1s", rules="luoshan")) == [("qing_san_tai_ping_he", 240)]


def test_luoshan_wildcard_pair_stands_for_a_dragon() -> None:
    # two wildcards pair as a dragon: dui_zi 2 + self-drawn honor pair wait 6; 22 × 4 = 88 → 90
    result = score_hand("123m 456m 789m [CCC] 2s +2s self flip:1s seat:S", rules="luoshan")
    assert (result.subtotal, result.total, result.legal) == (22, 90, False)
