"""One case per **Decision** line of rules/lingxi.md, plus the worked examples.

Each case states the hand, the exact items (key, value) and the total,
worked out by hand from the rules page.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from taihu.cli.main import app
from taihu.scorer import HandError, score_hand
from taihu.scorer import tiles as T
from taihu.scorer.engine import CHOW, PAIR, PUNG, Group, ReadingFacts
from taihu.scorer.rulesets import lingxi as L

LOOSE = "123m 456m 789p 12s 45s 99p 3s"  # 16 tiles of nothing (non-winner)
REST = "123m 456m 789p 12s 45s"  # 13 tiles of nothing; + a 3-tile meld = 16
W0 = "123m 789m 789p 234s 67s 5m 5p +5p wild:5m,E seat:W"  # winner: cai_shen 2 only
PING = "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W"  # worked example 2: 平胡


def items_of(result) -> Counter:
    return Counter((i.key, i.value) for i in result.items)


def check(hand: str, expected: list[tuple[str, int]], total: int, options: dict | None = None):
    result = score_hand(hand, rules="lingxi", options=options)
    assert items_of(result) == Counter(expected), [(i.key, i.value, i.detail) for i in result.items]
    assert result.total == total
    return result


CASES = [
    # -- Wildcards: a revealed flower / 白 makes the rest of its group wild ----------
    # f2 f3 are wildcards (flower kind, 2 held: 7), not flowers; f5 is still a flower
    pytest.param(
        "f2 f3 f5 123p 456p 789p 12s 45s 9s wild:f1,9m",
        [("cai_shen", 7), ("hua", 1)],
        8,
        id="revealed-flower-makes-group-wild",
    ),
    pytest.param(
        "P P 123p 456p 789p 12s 45s 9s wild:P,9m", [("cai_shen", 7)], 7, id="revealed-white-makes-whites-wild"
    ),
    # two seasons revealed: one group, "the same kind": 1 / 2 held -> 7 / 15
    pytest.param(
        "f3 123p 456p 789p 12s 45s 99s wild:f1,f2", [("cai_shen", 7)], 7, id="two-revealed-of-one-group-same-kind-1"
    ),
    pytest.param(
        "f3f4 123p 456p 789p 12s 45s 9s wild:f1,f2", [("cai_shen", 15)], 15, id="two-revealed-of-one-group-same-kind-2"
    ),
    # a wildcard flower is held in hand and stands for a suited tile (5s/8s) in a winner
    pytest.param(
        "123m 789m 789p 234s 67s f2 5p +5p wild:f1,5m seat:W",
        [("cai_shen", 3)],
        3,
        id="wildcard-flower-stands-for-a-tile",
    ),
    # a wildcard may stand for a tile whose four copies are all in sight: 23p + 5m needs a 5th 1p or 4p
    pytest.param(
        "[1111p] [4444p] 23p 5m 123m 789m 9s +9s wild:5m,E seat:W",
        [("ming_gang", 3), ("ming_gang", 3), ("cai_shen", 2)],
        8,
        id="wildcard-as-fifth-copy",
    ),
    # -- 白 is a flower: set aside, scores as hua, never melds -----------------------
    pytest.param(f"{LOOSE} P P", [("hua", 3)], 3, id="white-is-a-flower"),
    pytest.param(f"{LOOSE} P f1", [("hua", 1), ("hua", 1)], 2, id="white-is-its-own-flower-group"),
    # a 白 kills 平胡: hua 1 + 硬打硬 7 = 8
    pytest.param(
        "123m 456m 789p 234s 678s 5p P +5p wild:9s,N seat:W",
        [("hua", 1), ("ying_da_ying", 7)],
        8,
        id="white-flower-breaks-ping_hu",
    ),
    # -- a kong's +1 replaces feng_ke / jian_ke --------------------------------------
    pytest.param(f"[CCCC] {REST} wild:9s,N", [("ming_gang", 4)], 4, id="zhong-open-kong-is-4-not-5"),
    pytest.param(f"(CCCC) {REST} wild:9s,N", [("an_gang", 5)], 5, id="zhong-concealed-kong-is-5-not-6"),
    pytest.param(f"[SSSS] {REST} wild:9s,N seat:S", [("ming_gang", 4)], 4, id="seat-wind-open-kong-is-4"),
    # winner: ming_gang 4 + 硬打硬 7 = 11, still no jian_ke
    pytest.param(
        "[CCCC] 123m 456m 789p 234s 5p +5p wild:9s,N seat:W",
        [("ming_gang", 4), ("ying_da_ying", 7)],
        11,
        id="zhong-open-kong-winner",
    ),
    # -- a non-winner's concealed triple of seat wind / 中 / 发 -----------------------
    pytest.param(f"CCC {REST} wild:9s,N", [("jian_ke", 1)], 1, id="nonwinner-concealed-zhong-triple"),
    pytest.param(f"FFF {REST} wild:9s,N", [("jian_ke", 1)], 1, id="nonwinner-concealed-fa-triple"),
    pytest.param(f"SSS {REST} wild:9s,N seat:S", [("feng_ke", 1)], 1, id="nonwinner-concealed-seat-wind-triple"),
    pytest.param(f"WWW {REST} wild:9s,N seat:S", [], 0, id="nonwinner-concealed-other-wind-triple"),
    pytest.param("CCCC 123m 456m 789p 12s 4s wild:9s,N", [("jian_ke", 1)], 1, id="nonwinner-four-zhong-in-hand"),
    # -- cai_shen_ke: pairs first (one wildcard each), then singles (two each) ----------
    # SS FF C + 2 wildcards: pairs first gives 2 (singles first would give 1)
    pytest.param(
        "SS FF C 5m5m 123p 456p 789p wild:5m,E seat:S",
        [("cai_shen", 5), ("cai_shen_ke", 1), ("cai_shen_ke", 1)],
        7,
        id="cai_shen_ke-pairs-first",
    ),
    # one wildcard serves one pung
    pytest.param(
        "SS FF 5m 123p 456p 789p 12s wild:5m,E seat:S",
        [("cai_shen", 2), ("cai_shen_ke", 1)],
        3,
        id="cai_shen_ke-one-wildcard-one-pung",
    ),
    # a single needs two wildcards
    pytest.param(
        "C 5m 123p 456p 789p 12s 45s 9s wild:5m,E seat:S", [("cai_shen", 2)], 2, id="cai_shen_ke-single-needs-two"
    ),
    # a pair of a wildcard kind is wildcards, not a pair to complete (seat E, E wild)
    pytest.param(
        "EE 5m 123p 456p 789p 12s 45s wild:5m,E seat:E",
        [("cai_shen", 2), ("cai_shen", 7)],
        9,
        id="cai_shen_ke-not-for-wild-kind",
    ),
    # -- si_feng_qi with wind wildcards ------------------------------------------------
    # N is a wildcard kind; the two N held stand for N themselves (a wildcard is won self-drawn only):
    # feng_ke 1 + cai_shen 7 + zi_mo 1 + 13 = 22 -> 44
    pytest.param(
        "[EEE] [SSS] [WWW] 234m 567p N +N wild:N,C seat:S self",
        [("feng_ke", 1), ("cai_shen", 7), ("zi_mo", 1), ("si_feng_qi", 13)],
        44,
        id="si_feng_qi-wind-wildcard-as-itself",
    ),
    # another wildcard (5m) stands for N: feng_ke 1 + cai_shen 2 + 13 = 16 -> 32
    pytest.param(
        "[SSS] [WWW] NN 5m E 234m 567p +E wild:C,5m seat:S",
        [("feng_ke", 1), ("cai_shen", 2), ("si_feng_qi", 13)],
        32,
        id="si_feng_qi-other-wildcard-for-wind",
    ),
    # -- ping_hu: fixed 13, not with 硬打硬; stacks with zi_mo, qing_yi_se, hai_di --------
    pytest.param(PING, [("ping_hu", 13)], 26, id="ping_hu-no-ying_da_ying"),
    pytest.param(PING + " self", [("ping_hu", 13), ("zi_mo", 1)], 28, id="ping_hu-plus-zi_mo"),
    pytest.param(PING + " last-tile", [("ping_hu", 13), ("hai_di", 3)], 32, id="ping_hu-plus-hai_di"),
    pytest.param(
        "123m 456m 789m 234m 678m 5m +5m wild:9s,N seat:W",
        [("ping_hu", 13), ("qing_yi_se", 13)],
        52,
        id="ping_hu-plus-qing_yi_se",
    ),
    # a wildcard held: no 平胡 (and no 硬打硬) -- W0 scores only its wildcard
    pytest.param(W0, [("cai_shen", 2)], 2, id="ping_hu-needs-no-wildcard"),
    # -- hun_yi_se / qing_yi_se: exactly one suit; honors = winds, 中, 发 --------------
    # all honors: feng_ke 1 + jian_ke 1 + 对对胡 7 + 硬打硬 7 + 四风齐 13 = 29 -> 58; no 混/清一色
    pytest.param(
        "EEE SSS WWW NNN CCC F +F wild:5m,9s seat:S",
        [("feng_ke", 1), ("jian_ke", 1), ("dui_dui_hu", 7), ("ying_da_ying", 7), ("si_feng_qi", 13)],
        58,
        id="all-honors-neither-hun-nor-qing",
    ),
    # two suits + honors: no 混一色: jian_ke 1 + 硬打硬 7 = 8
    pytest.param(
        "123m 456m 789m 789p CCC E +E wild:5s,N seat:W",
        [("jian_ke", 1), ("ying_da_ying", 7)],
        8,
        id="two-suits-no-hun_yi_se",
    ),
    # flowers never affect suit bonuses: hua 1 + 清一色 13 + 硬打硬 7 = 21 -> 42
    pytest.param(
        "123m 456m 789m 234m 678m 5m f1 +5m wild:9s,N seat:W",
        [("hua", 1), ("qing_yi_se", 13), ("ying_da_ying", 7)],
        42,
        id="flowers-do-not-break-qing_yi_se",
    ),
    # judged after wildcard assignment: the 5p wildcard stands for an m tile -> 清一色, not 混/none
    pytest.param(
        "123m 456m 789m 234m 23m 6m 5p +6m wild:5p,N seat:W",
        [("cai_shen", 2), ("qing_yi_se", 13)],
        30,
        id="suit-judged-after-wildcards",
    ),
    # -- kong-draw / last-tile are self-drawn: no zi_mo, `self` may be given -------------
    pytest.param(
        "[1111p] 123m 789m 234s 67s 5m 5p +5p wild:5m,E seat:W kong-draw",
        [("ming_gang", 3), ("cai_shen", 2), ("gang_kai", 3)],
        8,
        id="kong-draw-alone",
    ),
    pytest.param(
        "[1111p] 123m 789m 234s 67s 5m 5p +5p wild:5m,E seat:W kong-draw self",
        [("ming_gang", 3), ("cai_shen", 2), ("gang_kai", 3)],
        8,
        id="kong-draw-with-self",
    ),
    pytest.param(W0 + " last-tile", [("cai_shen", 2), ("hai_di", 3)], 5, id="last-tile-alone"),
    pytest.param(W0 + " last-tile self", [("cai_shen", 2), ("hai_di", 3)], 5, id="last-tile-with-self"),
    pytest.param(W0 + " rob-kong", [("cai_shen", 2), ("qiang_gang", 3)], 5, id="rob-kong-not-self-drawn"),
    # -- declared wins: 16 or 17 tiles, the holding they name, no shape, nothing else ---
    pytest.param(
        "5m5m5m E 123p 456p 789s 11s 9p wild:5m,E seat:W declare:sha-zhu",
        [("sha_zhu", 13)],
        26,
        id="declared-sha-zhu-16-tiles",
    ),
    pytest.param(
        "5m5m5m E 123p 456p 789s 11s 9p +9p wild:5m,E seat:W declare:sha-zhu",
        [("sha_zhu", 13)],
        26,
        id="declared-sha-zhu-17-tiles",
    ),
    # no winning shape at all, flowers held: still only sha_zhu
    pytest.param(
        "5m5m5m E 13579p 12468s 19m f1 wild:5m,E seat:W declare:sha-zhu",
        [("sha_zhu", 13)],
        26,
        id="declared-sha-zhu-ignores-shape",
    ),
    pytest.param(
        "5m5m 13579p 1234678s 19m wild:5m,5m seat:W declare:sha-zhu",
        [("sha_zhu", 13)],
        26,
        id="declared-sha-zhu-same-kind-both",
    ),
    pytest.param(
        "123m 456m 789p 234s 678s 5p f1f2f3f4f5f6f7f8 wild:9s,N seat:W declare:hua-hu",
        [("hua_hu", 52)],
        104,
        id="declared-hua-hu-16-tiles",
    ),
    pytest.param(
        "123m 456m 789p 234s 678s 5p f1f2f3f4f5f6f7f8 +5p wild:9s,N seat:W declare:hua-hu",
        [("hua_hu", 52)],
        104,
        id="declared-hua-hu-17-tiles",
    ),
    # -- wild: absent -> no wildcards (5m5m5m is a plain pung) -----------------------
    pytest.param("5m5m5m 123p 456p 789s 234s 9p +9p seat:W", [("ying_da_ying", 7)], 7, id="no-wild-no-wildcards"),
    # -- best interpretation --------------------------------------------------------
    # 111 222 333m as pungs (对对胡), not three 123m chows: 7 + 硬打硬 7 = 14 -> 28
    pytest.param(
        "111222333m 444p 777s 9s +9s wild:5p,N seat:W",
        [("dui_dui_hu", 7), ("ying_da_ying", 7)],
        28,
        id="best-reading-pungs-over-chows",
    ),
    # -- doubling at 13 ----------------------------------------------------------------
    # hua 5 + 硬打硬 7 = 12: not doubled
    pytest.param(
        "111m 234m 567p 789s 234s 9p f1 f2 f3 +9p wild:5m,E seat:W",
        [("hua", 5), ("ying_da_ying", 7)],
        12,
        id="winner-12-not-doubled",
    ),
    # hua 3 + 3 + 硬打硬 7 = 13: doubled -> 26
    pytest.param(
        "111m 234m 567p 789s 234s 9p f1 f2 f5 f6 +9p wild:5m,E seat:W",
        [("hua", 3), ("hua", 3), ("ying_da_ying", 7)],
        26,
        id="winner-13-doubled",
    ),
    # non-winners never double
    pytest.param(f"{LOOSE} (f1f2f3f4) P P", [("hua", 13), ("hua", 3)], 16, id="nonwinner-16-not-doubled"),
]


@pytest.mark.parametrize(("hand", "expected", "total"), CASES)
def test_decision(hand: str, expected: list[tuple[str, int]], total: int) -> None:
    check(hand, expected, total)


# -- decisions that need more than items and total ----------------------------------


def test_si_feng_qi_wind_wildcard_standing_for_another_wind_does_not_count() -> None:
    """Decision: a wind that is a wildcard kind counts only when used as itself.

    The search always finds a reading in which a wind wildcard stands for
    itself when one exists, so the negative case is checked on the item
    itself with a hand-built reading: S, W exposed, N pung completed by an
    E wildcard standing for N, E pair of E wildcards.
    """
    n, e, s, w = T.NORTH, T.EAST, T.SOUTH, T.WEST
    base = (
        Group(PUNG, s, exposed=True),
        Group(PUNG, w, exposed=True),
        Group(CHOW, 0),
        Group(PAIR, e, slots=(e, e), wilds=((e, e), (e, e))),
    )
    item = next(i for i in L.ITEMS if i.key == "si_feng_qi")

    def si_feng_qi(reading: tuple[Group, ...]) -> list[tuple[int, str]]:
        return [(item.points(v, {}), d) for v, d in item.find(None, ReadingFacts(reading))]

    e_for_n = base + (Group(PUNG, n, slots=(n,), wilds=((e, n),)),)
    assert si_feng_qi(e_for_n) == []
    # the same with a non-wind wildcard (5m) standing for N counts
    m_for_n = base + (Group(PUNG, n, slots=(n,), wilds=((4, n),)),)
    assert [v for v, _ in si_feng_qi(m_for_n)] == [13]
    # and a wind wildcard standing for itself counts
    n_self = base + (Group(PUNG, n, slots=(n,), wilds=((n, n),)),)
    assert [v for v, _ in si_feng_qi(n_self)] == [13]


def test_cai_shen_hui_counts_once_with_six_wildcards() -> None:
    """Six wildcards could make two 财神汇 sets; it counts once (7), so the best
    second set is a +1 pung (seat wind or 中/发) standing for it."""
    hand = "5m5m5m EEE 123p 456p 789s 9p +9p wild:5m,E seat:W"
    result = score_hand(hand)
    items = items_of(result)
    assert items[("cai_shen_hui", 7)] == 1
    fixed = Counter({("cai_shen", 8): 1, ("cai_shen", 11): 1, ("cai_shen_hui", 7): 1, ("sha_zhu_hu", 52): 1})
    assert items in (fixed + Counter({("feng_ke", 1): 1}), fixed + Counter({("jian_ke", 1): 1}))
    assert result.subtotal == 79 and result.total == 158


def test_rob_kong_with_self_is_an_error() -> None:
    with pytest.raises(HandError, match=r"rob-kong.*self|self.*rob-kong"):
        score_hand(W0 + " rob-kong self")


@pytest.mark.parametrize(
    ("hand", "match"),
    [
        pytest.param("5m5m5m E 123p 456p 789s 11s wild:5m,E seat:W declare:sha-zhu", r"15", id="15-tiles"),
        pytest.param("5m5m5m E 123p 456p 789s 11s 9p 9p 9p wild:5m,E seat:W declare:sha-zhu", r"18", id="18-tiles"),
        pytest.param(
            "5m5m E 123p 456p 789s 11s 9p 9p wild:5m,E seat:W declare:sha-zhu", r"sha-zhu", id="sha-zhu-without-AAA+B"
        ),
        pytest.param(
            "5m 123p 456p 789s 11s 99p 9s 1m wild:5m,5m seat:W declare:sha-zhu",
            r"sha-zhu",
            id="sha-zhu-same-kind-one-held",
        ),
        pytest.param(
            "123m 456m 789p 234s 678s 5p f1f2f3f4f5f6f7 wild:9s,N seat:W declare:hua-hu",
            r"hua-hu",
            id="hua-hu-seven-flowers",
        ),
    ],
)
def test_declared_win_needs_size_and_holding(hand: str, match: str) -> None:
    with pytest.raises(HandError, match=match):
        score_hand(hand)


def test_wild_absent_gives_a_note() -> None:
    result = score_hand(PING.replace(" wild:9s,N", ""))
    assert [(i.key, i.value) for i in result.items] == [("ping_hu", 13)]
    assert any("wild" in note for note in result.notes)
    nonwinner = score_hand(LOOSE + " f1")
    assert any("wild" in note for note in nonwinner.notes)
    # with wild: given, no such note
    assert not any("wild" in note for note in score_hand(PING).notes)


def test_best_interpretation_example_1_reads_555m_as_cai_shen_hui() -> None:
    result = score_hand("555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S")
    keys = [i.key for i in result.items]
    assert "cai_shen_hui" in keys
    # the wildcards are shown as a set of three wildcards, not as the pung 555m
    assert "5m5m5m" in result.arrangement
    assert "555m" not in result.arrangement
    assert result.total == 56


def test_best_interpretation_shows_the_scored_grouping() -> None:
    result = score_hand("111222333m 444p 777s 9s +9s wild:5p,N seat:W")
    assert {"111m", "222m", "333m"} <= set(result.arrangement)


@pytest.mark.parametrize(
    ("hand", "options", "expected", "total"),
    [
        # double_at=10: hua 3 + 硬打硬 7 = 10 -> 20 (default: 10, not doubled)
        pytest.param(
            "111m 234m 567p 789s 234s 9p f1 f2 +9p wild:5m,E seat:W",
            {"double_at": 10},
            [("hua", 3), ("ying_da_ying", 7)],
            20,
            id="double_at-10-doubles-10",
        ),
        pytest.param(
            "111m 234m 567p 789s 234s 9p f1 f2 +9p wild:5m,E seat:W",
            {},
            [("hua", 3), ("ying_da_ying", 7)],
            10,
            id="double_at-default-10-not-doubled",
        ),
        # W0 + zi_mo... 9 under double_at=10 stays 9: cai_shen 2 + 对对胡 7
        pytest.param(
            "111m 222p 333s 444s 77p 5m 9m +9m wild:5m,E seat:W",
            {"double_at": 10},
            [("cai_shen", 2), ("dui_dui_hu", 7)],
            9,
            id="double_at-10-9-not-doubled",
        ),
        # non-winners never double, whatever double_at
        pytest.param(f"{LOOSE} (f1f2f3f4)", {"double_at": 10}, [("hua", 13)], 13, id="double_at-10-nonwinner"),
        # 杀猪胡 option 20 -> 20 / 40 / 80
        pytest.param(
            "5m5m5m E 123p 456p 789s 11s 9p +9p wild:5m,E seat:W",
            {"sha_zhu_hu": 20},
            [("cai_shen", 8), ("cai_shen", 3), ("cai_shen_hui", 7), ("sha_zhu_hu", 20)],
            76,
            id="sha_zhu_hu-option-20",
        ),
        pytest.param(
            "5m5m5m EE 123p 456p 789s 1s 9p +9p wild:5m,E seat:W",
            {"sha_zhu_hu": 20},
            [("cai_shen", 8), ("cai_shen", 7), ("cai_shen_hui", 7), ("sha_zhu_hu", 40)],
            124,
            id="sha_zhu_hu-option-20-five-40",
        ),
        pytest.param(
            "5m5m5m EEE 13p 46p 79s 123m 9p +9p wild:5m,E seat:W",
            {"sha_zhu_hu": 20},
            [("cai_shen", 8), ("cai_shen", 11), ("cai_shen_hui", 7), ("sha_zhu_hu", 80)],
            212,
            id="sha_zhu_hu-option-20-six-80",
        ),
        # 杀猪 (declared) stays 13 whatever the 杀猪胡 option
        pytest.param(
            "5m5m5m E 123p 456p 789s 11s 9p wild:5m,E seat:W declare:sha-zhu",
            {"sha_zhu_hu": 20},
            [("sha_zhu", 13)],
            26,
            id="sha_zhu-declared-ignores-option",
        ),
        # 花胡 option 100, won and declared
        pytest.param(
            "123m 456m 789p 234s 678s 5p f1f2f3f4f5f6f7f8 +5p wild:9s,N seat:W",
            {"hua_hu": 100},
            [("hua", 10), ("hua", 10), ("ying_da_ying", 7), ("hua_hu", 100)],
            254,
            id="hua_hu-option-100-won",
        ),
        pytest.param(
            "123m 456m 789p 234s 678s 5p f1f2f3f4f5f6f7f8 wild:9s,N seat:W declare:hua-hu",
            {"hua_hu": 100},
            [("hua_hu", 100)],
            200,
            id="hua_hu-option-100-declared",
        ),
    ],
)
def test_house_options(hand: str, options: dict, expected: list[tuple[str, int]], total: int) -> None:
    check(hand, expected, total, options)


# -- the three worked examples, library and CLI ---------------------------------------

EXAMPLES = [
    pytest.param(
        "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S",
        [("cai_shen", 8), ("cai_shen_hui", 7), ("dui_dui_hu", 7), ("hua", 3), ("hua", 3)],
        28,
        True,
        56,
        True,
        id="example-1-56",
    ),
    pytest.param(
        "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W",
        [("ping_hu", 13)],
        13,
        True,
        26,
        True,
        id="example-2-26",
    ),
    pytest.param(
        "3p3p 123m 456m 78m 11s 45s 99p f5f6f7f8 P wild:3p,W seat:N",
        [("cai_shen", 5), ("hua", 10), ("hua", 1)],
        16,
        False,
        16,
        False,
        id="example-3-16",
    ),
]


@pytest.mark.parametrize(("hand", "expected", "subtotal", "doubled", "total", "winner"), EXAMPLES)
def test_worked_example_library(hand, expected, subtotal, doubled, total, winner) -> None:
    result = score_hand(hand, rules="lingxi")
    assert items_of(result) == Counter(expected)
    assert (result.subtotal, result.doubled, result.total, result.winner) == (subtotal, doubled, total, winner)
    assert result.unit == "tai" and result.legal is True


@pytest.mark.parametrize(("hand", "expected", "subtotal", "doubled", "total", "winner"), EXAMPLES)
def test_worked_example_cli_json(hand, expected, subtotal, doubled, total, winner) -> None:
    result = CliRunner().invoke(app, ["score", hand, "--rules", "lingxi", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert Counter((i["key"], i["value"]) for i in data["items"]) == Counter(expected)
    assert (data["subtotal"], data["doubled"], data["total"], data["winner"]) == (subtotal, doubled, total, winner)
    assert data["rules"] == "lingxi" and data["unit"] == "tai"
    # the JSON answer is the library's answer
    assert data == score_hand(hand).to_dict()


def test_cli_house_option() -> None:
    hand = "111m 234m 567p 789s 234s 9p f1 f2 +9p wild:5m,E seat:W"
    result = CliRunner().invoke(app, ["score", hand, "--json", "-o", "double_at=10"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["total"] == 20


def test_cli_table_output_and_rules() -> None:
    result = CliRunner().invoke(app, ["score", "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W"])
    assert result.exit_code == 0
    assert "ping_hu" in result.stdout and "26" in result.stdout
    listing = CliRunner().invoke(app, ["rules"])
    assert listing.exit_code == 0 and "lingxi" in listing.stdout
    detail = CliRunner().invoke(app, ["rules", "lingxi", "--json"])
    assert detail.exit_code == 0
    info = json.loads(detail.stdout)
    assert {o["name"]: o["default"] for o in info["options"]} == {"double_at": 13, "sha_zhu_hu": 13, "hua_hu": 52}
