"""Putian 莆田 hands (rules/putian.md): one case per item key and winning type, the Decisions, errors.

Each case is (hand, expected items as (key, value), expected total). `total`
is the player's 底分 (底 + 分); a winning type is an item whose value is its
multiplier and is *not* added into the total. The assertion is on the exact
multiset of items and the exact total, so a missing, extra or mis-valued
item fails the case.

Building blocks (checked against the 4-copies limit):
- LOOSE: 16 tiles of nothing (chows and loose tiles), a non-winning hand;
- REST: 13 tiles of nothing; + a 3-tile kong = 16;
- WIN: 5 sets + 5p waiting on 5p, no 金 and no 白 — a winner scoring 底 only.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from taihu.scorer import HandError, score_hand
from taihu.scorer.rulesets import RULESETS

LOOSE = "123m 456m 789p 12s 45s 99p 3s"  # 16 tiles, nothing scores but 底
REST = "123m 456m 789p 12s 45s"  # 13 tiles
WIN = "123m 456m 789p 234s 567s 5p +5p"  # 17 tiles, 5 sets + 5p pair


def score(hand: str):
    return score_hand(hand, rules="putian")


def items_of(result) -> Counter:
    return Counter((i.key, i.value) for i in result.items)


CASES = [
    # -- di (底): dealer 2, others 1 ------------------------------------------------
    pytest.param(f"{LOOSE} wild:9m", [("di", 2)], 2, id="di-dealer-default-seat"),
    pytest.param(f"{LOOSE} wild:9m seat:E", [("di", 2)], 2, id="di-dealer"),
    pytest.param(f"{LOOSE} wild:9m seat:S", [("di", 1)], 1, id="di-non-dealer"),
    # -- bai: each 白 set aside 1; all four 5 (one item, summed) ---------------------
    pytest.param(f"{LOOSE} P wild:9m seat:S", [("di", 1), ("bai", 1)], 2, id="bai-1"),
    pytest.param(f"{LOOSE} P P wild:9m seat:S", [("di", 1), ("bai", 2)], 3, id="bai-2-one-item"),
    pytest.param(f"{LOOSE} P P P wild:9m seat:S", [("di", 1), ("bai", 3)], 4, id="bai-3"),
    pytest.param(f"{LOOSE} P P P P wild:9m seat:S", [("di", 1), ("bai", 5)], 6, id="bai-4-is-5"),
    # -- jin: each 金 held 1 ------------------------------------------------------------
    pytest.param("123m 456m 789p 12s 45s 99p 9m wild:9m seat:S", [("di", 1), ("jin", 1)], 2, id="jin-1"),
    pytest.param("123m 456m 789p 12s 45s 9p 9m9m wild:9m seat:S", [("di", 1), ("jin", 2)], 3, id="jin-2-one-item"),
    # -- kongs: open 1, concealed 2 (one item per key, summed) ---------------------------
    pytest.param(f"[5555p] {REST} wild:9m seat:S", [("di", 1), ("ming_gang", 1)], 2, id="ming_gang-1"),
    pytest.param(
        "[5555p] [1111s] 123m 456m 789p 4s wild:9m seat:S", [("di", 1), ("ming_gang", 2)], 3, id="ming_gang-two-summed"
    ),
    pytest.param(f"(5555p) {REST} wild:9m seat:S", [("di", 1), ("an_gang", 2)], 3, id="an_gang-2"),
    pytest.param(
        "(5555p) (1111s) 123m 456m 789p 4s wild:9m seat:S", [("di", 1), ("an_gang", 4)], 5, id="an_gang-two-summed"
    ),
    # the seed's 底分 example: a non-dealer with 2 白 and 1 open kong has 底分 4
    pytest.param(
        f"[5555p] {REST} P P wild:9m seat:S", [("di", 1), ("bai", 2), ("ming_gang", 1)], 4, id="seed-di-fen-example-4"
    ),
    # -- winning types: value = multiplier, never added to the 底分 ---------------------
    pytest.param(f"{WIN} wild:9m seat:S", [("di", 1), ("ping_hu", 1)], 1, id="ping_hu"),
    pytest.param(f"{WIN} self wild:9m seat:S", [("di", 1), ("zi_mo", 6)], 1, id="zi_mo"),
    pytest.param(f"{WIN} rob-kong wild:9m seat:S", [("di", 1), ("qiang_gang", 6)], 1, id="qiang_gang"),
    pytest.param(f"{WIN} heaven wild:9m seat:E", [("di", 2), ("tian_hu", 9)], 2, id="tian_hu"),
    # 搶金: the flipped 9m completes the ready hand; it is a 金 held (jin 1)
    pytest.param(
        "123m 456m 789p 234s 567s 5p +9m wild:9m declare:qiang-jin seat:S",
        [("di", 1), ("jin", 1), ("qiang_jin", 9)],
        2,
        id="qiang_jin-non-dealer",
    ),
    pytest.param(
        "123m 456m 789p 234s 567s 5p +9m wild:9m declare:qiang-jin seat:E",
        [("di", 2), ("jin", 1), ("qiang_jin", 9)],
        3,
        id="qiang_jin-dealer",
    ),
    # three 金 on an ordinary win: paid as 三金倒
    pytest.param(
        "123m 456m 789p 234s 9m9m9m 5p +5p wild:9m seat:W",
        [("di", 1), ("jin", 3), ("san_jin_dao", 9)],
        4,
        id="san_jin_dao-won",
    ),
    # declared 三金倒: shape ignored (16 tiles of nothing + three 金)
    pytest.param(
        "9m9m9m 1m 3m 5m 7m 1p 3p 5p 7p 9p 2s 4s 6s 8s declare:san-jin-dao wild:9m",
        [("di", 2), ("jin", 3), ("san_jin_dao", 9)],
        5,
        id="san_jin_dao-declared-shapeless",
    ),
    # 游金: five sets + the lone 金, 16 tiles, no winning tile
    pytest.param(
        "123m 456m 789p 234s 567s 9m declare:you-jin wild:9m seat:W",
        [("di", 1), ("jin", 1), ("you_jin", 9)],
        2,
        id="you_jin",
    ),
    # 三金游: two 金 complete 5p5p... as a pung, the third is the lone one
    pytest.param(
        "123m 456m 789p 234s 5p 9m9m9m declare:san-jin-you wild:9m seat:W",
        [("di", 1), ("jin", 3), ("san_jin_you", 12)],
        4,
        id="san_jin_you",
    ),
    # -- priority: only the top type pays -------------------------------------------------
    pytest.param(
        "123m 456m 789p 234s 5p 9m9m9m declare:you-jin wild:9m seat:W",
        [("di", 1), ("jin", 3), ("san_jin_you", 12)],
        4,
        id="priority-you-jin-with-three-jin-is-san_jin_you",
    ),
    pytest.param(
        "123m 456m 789p 234s 9m9m9m 5p +5p heaven wild:9m",
        [("di", 2), ("jin", 3), ("san_jin_dao", 9)],
        5,
        id="priority-san_jin_dao-over-tian_hu",
    ),
    pytest.param(
        "123m 456m 789p 234s 9m9m 55p +9m wild:9m declare:qiang-jin seat:S",
        [("di", 1), ("jin", 3), ("san_jin_dao", 9)],
        4,
        id="priority-san_jin_dao-over-qiang_jin",
    ),
    pytest.param(
        "123m 456m 789p 234s 9m9m9m 5p +5p self wild:9m seat:S",
        [("di", 1), ("jin", 3), ("san_jin_dao", 9)],
        4,
        id="priority-san_jin_dao-over-zi_mo",
    ),
    pytest.param(f"{WIN} heaven self wild:9m", [("di", 2), ("tian_hu", 9)], 2, id="priority-tian_hu-over-zi_mo"),
    # -- Decision: 白 is 金 — each 白 held scores as both bai and jin ---------------------
    pytest.param(
        "123m 456m 789p 12s 45s 9p P P wild:P seat:S",
        [("di", 1), ("bai", 2), ("jin", 2)],
        5,
        id="decision-bai-is-jin-both",
    ),
    # four 白 as 金 exist only through 搶金 (Decision 2026-11-30): 5 + 4 = 9, see the next case
    pytest.param(
        "P P P 123m 456m 789p 234s 5s +P wild:P declare:qiang-jin seat:N",
        [("di", 1), ("bai", 5), ("jin", 4), ("san_jin_dao", 9)],
        10,
        id="decision-four-bai-by-qiang-jin",
    ),
    # when 白 is not 金 a 白 is never 金, and a 金 kind that is not 白 gives no bai
    pytest.param(
        "123m 456m 789p 12s 45s 9p 9m9m P wild:9m seat:S",
        [("di", 1), ("bai", 1), ("jin", 2)],
        4,
        id="decision-bai-and-suited-jin-apart",
    ),
    # -- no wild given: no 金 at all --------------------------------------------------------
    pytest.param(f"{LOOSE} 9m seat:S".replace("99p", "9p"), [("di", 1)], 1, id="no-wild-no-jin"),
]


@pytest.mark.parametrize("hand, expected, total", CASES)
def test_items(hand: str, expected: list[tuple[str, int]], total: int) -> None:
    result = score(hand)
    assert items_of(result) == Counter(expected)
    assert result.total == total
    assert result.subtotal == total and result.doubled is False
    assert result.unit == "fen" and result.rules == "putian" and result.legal is True


def test_every_item_and_type_key_is_covered() -> None:
    keys = {k for case in CASES for k, _ in case.values[1]}
    assert keys == {i.key for i in RULESETS["putian"].items}


def test_one_winning_type_only() -> None:
    result = score("123m 456m 789p 234s 9m9m9m 5p +5p heaven self wild:9m")
    types = [i.key for i in result.items if i.key not in ("di", "bai", "jin", "ming_gang", "an_gang")]
    assert types == ["san_jin_dao"]


def test_winning_type_detail_says_who_pays() -> None:
    details = {i.key: i.detail for i in score(f"{WIN} self wild:9m seat:S").items}
    assert details["zi_mo"] == "×6: each other pays ×2"
    details = {i.key: i.detail for i in score(f"{WIN} rob-kong wild:9m seat:S").items}
    assert details["qiang_gang"] == "×6: the kong player pays ×6"
    qiang = score("123m 456m 789p 234s 567s 5p +9m wild:9m declare:qiang-jin seat:S").items
    assert {i.key: i.detail for i in qiang}["qiang_jin"] == "×9: each other pays ×3 (閒家搶金)"


def test_jin_stands_for_itself() -> None:
    """Two 9m 金 as the pair 9m9m: a 金 may stand for its own kind."""
    result = score("123m 456m 789p 234s 567s 9m +9m self wild:9m seat:S")
    assert result.arrangement == ["123m", "456m", "789p", "234s", "567s", "99m"]
    assert items_of(result) == Counter([("di", 1), ("jin", 2), ("zi_mo", 6)])


def test_jin_stands_for_any_suited_tile() -> None:
    result = score("123m 456m 789p 234s 57s 9m 5p +5p wild:9m seat:S")
    assert "5s 7s 9m=6s" in result.arrangement
    assert result.total == 2


def test_you_jin_arrangement_shows_the_lone_jin() -> None:
    result = score("123m 456m 789p 234s 567s 9m declare:you-jin wild:9m seat:W")
    assert result.arrangement[-1] == "9m (游金: lone 金, partner discarded)"


def test_four_jin_note() -> None:
    result = score("P P P 123m 456m 789p 234s 5s +P wild:P declare:qiang-jin seat:N")
    assert "four 金 P: the flipped one was taken by 抢金 (Decision)" in result.notes


def test_non_winner_has_no_arrangement_and_no_type() -> None:
    result = score(f"{LOOSE} P wild:9m seat:W")
    assert result.winner is False and result.arrangement == []
    assert [i.key for i in result.items] == ["di", "bai"]


def test_canonical_hand_round_trips() -> None:
    first = score("P 5p 123m +5p 456m 789p 234s 567s wild:9m seat:S")
    assert score(first.hand).hand == first.hand


ERRORS = [
    # tiles Putian does not play
    pytest.param(f"{REST} E 99p 3s wild:9m", "E is a wind, not a Putian tile", id="wind"),
    pytest.param(f"{REST} C 99p 3s wild:9m", "C is a dragon, not a Putian tile", id="zhong"),
    pytest.param(f"{REST} F 99p 3s wild:9m", "F is a dragon, not a Putian tile", id="fa"),
    pytest.param(f"{LOOSE} f1 wild:9m", "f1 is a flower, not a Putian tile", id="flower"),
    pytest.param(f"[EEE] {REST} wild:9m", "E is a wind, not a Putian tile", id="wind-meld"),
    pytest.param(f"{LOOSE} wild:E", "E (wild: at column", id="wild-wind"),
    pytest.param(f"{LOOSE} wild:9m,5p", "Putian flips one 金, e.g. wild:5m; got 2 tiles", id="wild-two"),
    # 金 in a meld, 白 in a meld or won on
    pytest.param(f"[999m] {REST} wild:9m", "金 9m used in exposed meld [999m]", id="jin-in-exposed-meld"),
    pytest.param(f"(9999m) {REST} wild:9m", "金 9m used in concealed kong (9999m)", id="jin-in-concealed-kong"),
    pytest.param(f"[PPP] {REST} wild:9m", "白 is set aside in Putian and never melds: [PPP]", id="bai-meld"),
    pytest.param(f"[PPP] {REST} wild:P", "金 P used in exposed meld [PPP]", id="bai-jin-meld"),
    pytest.param("123m 456m 789p 234s 567s 5p +P wild:9m", "the winning tile +P is 白", id="win-on-bai"),
    # counts
    pytest.param(
        "123m 456m 789p 234s 56s 5p +5p wild:9m", "hand has 16 tiles, a winning Putian hand needs 17", id="winner-16"
    ),
    pytest.param(f"{LOOSE} 1p wild:9m", "hand has 17 tiles, a non-winning Putian hand holds 16", id="non-winner-17"),
    pytest.param(f"{LOOSE} P P P P P wild:9m", "P appears 5 times; at most 4 exist", id="five-bai"),
    pytest.param(
        "123m 456m 789p 234s 567s 5p 9m declare:you-jin wild:9m",
        "hand has 17 tiles, a 游金 hand holds 16",
        id="you-jin-17",
    ),
    pytest.param(
        "123m 456m 789p 234s 567s +9m declare:you-jin wild:9m", "it has no winning tile", id="you-jin-with-win-tile"
    ),
    pytest.param(
        "9m9m9m 1m 3m 5m 7m 1p 3p 5p 7p 2s 4s 6s 8s declare:san-jin-dao wild:9m",
        "hand has 15 tiles, a declared 三金倒 holds 16 or 17",
        id="san-jin-dao-15",
    ),
    # conditions
    pytest.param(
        f"{WIN} last-tile wild:9m",
        "condition 'last-tile' at column 33 is not used in Putian",
        id="unknown-condition-last-tile",
    ),
    pytest.param(f"{WIN} flip:8m", "condition 'flip' at column 33 is not used in Putian", id="unknown-condition-flip"),
    pytest.param(
        f"{WIN} earth seat:S wild:9m",
        "condition 'earth' at column 33 is not used in Putian",
        id="unknown-condition-earth",
    ),
    pytest.param(
        f"{WIN} last-tile wild:9m",
        "condition 'last-tile' at column 33 is not used in Putian",
        id="unknown-condition-last-tile",
    ),
    pytest.param(
        f"{WIN} wild:9m declare:sha-zhu",
        "declare:sha-zhu at column 41 is not a Putian declared win",
        id="lingxi-declare",
    ),
    pytest.param(f"{LOOSE} self wild:9m", "condition 'self' needs a winning tile", id="self-without-win"),
    pytest.param(f"{WIN} self rob-kong wild:9m", "conditions 'rob-kong' and 'self' contradict", id="rob-kong-self"),
    pytest.param(f"{WIN} heaven seat:S wild:9m", "condition 'heaven' needs seat:E", id="heaven-non-dealer"),
    pytest.param("123m 456m 789p 234s 567s 9m declare:you-jin", "declare:you-jin needs the 金", id="declare-no-wild"),
    pytest.param(f"{WIN} wild:9m declare:qiang-jin", "the winning tile must be +9m", id="qiang-jin-not-jin"),
    pytest.param(
        "123m 456m 789p 234s 567s 9m declare:san-jin-you wild:9m",
        "declare:san-jin-you needs three 金 held; this hand holds 1",
        id="san-jin-you-one-jin",
    ),
    pytest.param(
        "123m 456m 789p 12s 45s 3s 999m declare:san-jin-dao wild:6p",
        "declare:san-jin-dao needs three 金 held; this hand holds 0",
        id="san-jin-dao-no-jin",
    ),
    pytest.param(
        "123m 456m 789p 234s 5p 9m9m9m rob-kong declare:san-jin-dao wild:9m", "cannot rob a kong", id="declare-rob-kong"
    ),
    # shapes
    pytest.param(
        "123m 456m 789p 234s 568s 5p +5p wild:9m",
        "no winning shape: the tiles do not form 1 pair + 5 sets",
        id="no-shape",
    ),
    pytest.param(
        "123m 456m 789p 234s 568s 9m declare:you-jin wild:9m",
        "without one 金 the tiles do not form five sets",
        id="you-jin-no-shape",
    ),
    # a lone natural tile is a ready hand, not 游金
    pytest.param(
        "123m 456m 789p 234s 57s 9m 5p declare:you-jin wild:9m",
        "without one 金 the tiles do not form five sets",
        id="you-jin-lone-natural",
    ),
]


@pytest.mark.parametrize("hand, message", ERRORS)
def test_errors(hand: str, message: str) -> None:
    with pytest.raises(HandError) as info:
        score(hand)
    assert message in str(info.value)


EXAMPLES = Path(__file__).parent.parent / "examples" / "hands" / "putian.txt"


def test_example_hands_match_their_documented_totals() -> None:
    """Read as examples/run_examples.py reads them: the hand before `#`, the total after `expect`."""
    checked = 0
    for line in EXAMPLES.read_text(encoding="utf-8").splitlines():
        hand, _, comment = line.partition("#")
        if hand.strip():
            assert score(hand.strip()).total == int(comment.strip().removeprefix("expect")), hand
            checked += 1
    assert checked >= 4


# -- checked by hand against the rules page (the review of the four regional rule sets) --


def test_putian_da_jin_condition_makes_the_win_illegal() -> None:
    result = score_hand("123m 456m 789m 123p 456p 7s +7s seat:S wild:5s da-jin", rules="putian")
    assert result.legal is False


def test_putian_four_bai_as_jin_is_nine_and_san_jin_dao_beats_qiang_jin() -> None:
    result = score_hand("123m 456m 789m 123p 4p P P P +P wild:P seat:S declare:qiang-jin", rules="putian")
    assert [(i.key, i.value) for i in result.items] == [("di", 1), ("bai", 5), ("jin", 4), ("san_jin_dao", 9)]
    assert result.total == 10


def test_putian_san_jin_dao_beats_tian_hu() -> None:
    keys = [
        k
        for k, _ in [
            (i.key, i.value)
            for i in score_hand("123m 456m 789m 123p 4p 5s5s5s +7s seat:E wild:5s heaven", rules="putian").items
        ]
    ]
    assert keys == ["di", "jin", "san_jin_dao"]
