"""MCR's fast paths against plain versions of the same thing (speed lives in the rule set's search, each fast
path beside a plain one).

- `Mcr.valued` scores a reading with the fan between sets read straight off
  `McrFacts.linked` and the other reading fan only where their gate is
  open: compared with every fan's finder run on the reading, then the
  exclusions (`plain_valued`);
- `McrHand.single_wait` (独听) is found only when a reading asks, with the
  waits of sets and a pair first (`engine.standard_waits`): compared with
  all the hand's waits, every shape, every kind tried (`plain_single_wait`);
  and a reading whose winning tile ends a two-sided chow answers "not 独听"
  without the search (`items._two_sided`): the plain search must agree;
- `Mcr.readings` tries a special shape only where cheap facts of the hand
  allow it: compared with trying every shape (`plain_readings`);
- `Mcr.valued` runs a fan of the sets only on a reading holding what it needs
  (`McrFacts.holds`, `items.READING_NEEDS`): every such fan must find nothing
  on a reading without it;
- `Mcr.valued` looks for a fan of the hand only where the hand's facts
  (`items.hand_facts`: its ranks, suits, melds, conditions …) hold all it
  needs (`items.HAND_NEEDS`): every such fan must find nothing on a hand
  without them, and each is found on some hand;
- the fan between sets are memoised by the chows' and the pungs' kinds
  (`facts.between_sets`): compared with finding them afresh (`plain_linked`);
- the fan between pungs read the suits off the highest and lowest kind:
  compared with each kind tested one by one, on every pair and trio of kinds.

Each runs on the random legal hands of the differential test (tests/mcr_hands.py: melds, kongs, the special
shapes, flowers, every condition) and on the worked examples.
"""

from __future__ import annotations

import random
from itertools import combinations, product
from pathlib import Path

import pytest
from mcr_hands import random_hand

from taihu.scorer import parse
from taihu.scorer import tiles as T
from taihu.scorer.engine import PAIR, Group, completing_kinds, kinds_readings
from taihu.scorer.rulesets import interface as I
from taihu.scorer.rulesets.mcr import RULE_SET as MCR
from taihu.scorer.rulesets.mcr import shapes as S
from taihu.scorer.rulesets.mcr.facts import (
    HONORS_AND_KNITTED,
    KNITTED,
    ORPHANS,
    SEVEN_PAIRS,
    STANDARD,
    McrFacts,
    three_pungs,
    two_pungs,
)
from taihu.scorer.rulesets.mcr.hand import McrHand
from taihu.scorer.rulesets.mcr.items import HAND_NEEDS, READING_NEEDS, _two_sided, hand_facts

ROOT = Path(__file__).resolve().parent.parent
HANDS = 400


def example_lines() -> list[str]:
    text = (ROOT / "examples/hands/mcr.txt").read_text(encoding="utf-8")
    lines = [line.split("#")[0].strip() for line in text.splitlines()]
    return [line for line in lines if "+" in line]


def lines() -> list[str]:
    rng = random.Random(20261207)
    # a 七对 wait holding two four-alikes: each is two pairs, so the kinds paired undercount the pairs
    seven_pairs = ["111122m334p3333s +4p seat:W round:E self"]
    # 全带幺 with a pair of each kind of end (a 1, a 9, a wind, a dragon) and 全带五: a pair's bits gate them
    outside = [
        "123789m 123p 789s 1p +1p seat:E",
        "123789m 123p 789s 9s +9s seat:E",
        "123789m 123p 789s N +N seat:E",
        "123789m 123p 789s C +C seat:E",
        "345m 456m 555p 456s 5s +5s seat:E",
    ]
    # a fan of the hand's tiles or kongs, each where the hand's facts (`items.hand_facts`) let it be looked for
    tiles = [
        "789789m 789p 789s 8s +8s seat:E",  # 全大
        "456456m 456p 456s 5s +5s seat:E",  # 全中
        "123123m 123p 123s 2s +2s seat:E",  # 全小
        "678789m 678p 789s 6s +6s seat:E",  # 大于五
        "123234m 123p 234s 4s +4s seat:E",  # 小于五
        "111999m 111p 999s 1s +1s seat:E",  # 清幺九
        "111m 999p EEE CCC 9s +9s seat:E",  # 混幺九, 五门齐
        "234678m 345p 456s 5p +5p seat:E",  # 断幺
        "234234666s FFF 8s +8s seat:E",  # 绿一色
        "EEE SSS WWW CCC P +P seat:E",  # 字一色
        "123345p 999p 888s P +P seat:E",  # 推不倒
        "[1111m] [2222p] [3333s] 456m 9p +9p seat:E",  # 三杠
        "[1111m] [2222p] [3333s] [4444m] 9p +9p seat:E",  # 四杠
        "[123m] [456p] [678s] 45m WW f1 f2 +3m seat:E round:E",  # 无番和 and flowers
    ]
    return example_lines() + seven_pairs + outside + tiles + [random_hand(rng) for _ in range(HANDS)]


LINES = lines()


def prepared(line: str) -> McrHand:
    hand = MCR.prepare(parse(line), MCR.resolve_options(None))
    assert isinstance(hand, McrHand)
    return hand


def plain_valued(hand: McrHand, facts: McrFacts) -> tuple[I.Found, I.Outcome]:
    """Every fan's finder on the reading (the hand's own with no reading), in table order, then the exclusions."""
    found = [
        (item, item.points(variant, hand.options), detail)
        for item in MCR.items
        for variant, detail in item.find(hand, facts if item.reads else None)
    ]
    found = MCR._exclude(found)
    return found, MCR.finish(hand, found)


def plain_single_wait(hand: McrHand) -> bool:
    """独听: every kind tried on the 13 tiles before the win, as sets and a pair and as each other shape; a kind
    whose four tiles are all the winner's own is no wait."""
    before = bytearray(hand.concealed)
    before.remove(hand.win)
    tiles = bytes(before)
    melds = len(hand.melds)
    waits = set(completing_kinds(tiles, 4 - melds, range(34)))
    waits |= {kind for kind in range(34) if S.special_win(tiles, kind, melds)}
    live = sorted(k for k in waits if hand.counts[k] - (k == hand.win) < 4)
    return live == [hand.win]


def plain_readings(hand: McrHand) -> list[McrFacts]:
    """Every shape tried on every hand, in `Mcr.readings`' order."""
    win, drawn, melds, kinds = hand.win, hand.self_drawn, hand.melds, hand.concealed
    standard = [McrFacts(melds + g, STANDARD, win, drawn) for g in kinds_readings(kinds, 4 - len(melds), True)]
    for knit, groups in S.knitted_readings(kinds, len(melds)):
        standard.append(McrFacts(melds + groups, KNITTED, win, drawn, knit))
    standard.sort(key=lambda f: S_order(f))
    found = list(standard)
    if not melds:
        if S.seven_pairs(kinds):
            found.append(McrFacts(tuple(Group(PAIR, k) for k in kinds[::2]), SEVEN_PAIRS, win, drawn))
        if S.thirteen_orphans(kinds):
            found.append(McrFacts((), ORPHANS, win, drawn))
        knitted = S.honors_and_knitted(kinds)
        if knitted is not None:
            found.append(McrFacts((), HONORS_AND_KNITTED, win, drawn, knitted))
    return found


def S_order(facts: McrFacts) -> tuple[int, ...]:
    from taihu.scorer.rulesets.mcr.facts import tie_order

    return tie_order(facts.shape, facts.groups, facts.knit)


def test_the_hands_reach_every_shape() -> None:
    shapes = {facts.shape for line in LINES for facts in MCR.readings(prepared(line))}
    assert shapes == {STANDARD, KNITTED, SEVEN_PAIRS, ORPHANS, HONORS_AND_KNITTED}


@pytest.mark.parametrize("line", LINES)
def test_valued_as_every_finder_finds(line: str) -> None:
    hand = prepared(line)
    fixed = MCR._fixed_entries(hand)
    for facts in MCR.readings(hand):
        assert MCR.valued(hand, facts, fixed) == plain_valued(hand, facts), line


@pytest.mark.parametrize("line", LINES)
def test_single_wait_as_every_kind_tried(line: str) -> None:
    hand = prepared(line)
    assert hand.single_wait == plain_single_wait(hand), line


@pytest.mark.parametrize("line", LINES)
def test_readings_as_every_shape_tried(line: str) -> None:
    hand = prepared(line)
    fast = [(f.shape, f.groups, f.knit) for f in MCR.readings(hand)]
    assert fast == [(f.shape, f.groups, f.knit) for f in plain_readings(hand)], line


@pytest.mark.parametrize("line", LINES)
def test_a_two_sided_chow_is_never_a_single_wait(line: str) -> None:
    hand = prepared(line)
    if any(_two_sided(hand, facts) for facts in MCR.readings(hand)):
        assert not plain_single_wait(hand), line


def test_two_sided_chows_are_among_the_hands() -> None:
    assert sum(any(_two_sided(h, f) for f in MCR.readings(h)) for h in map(prepared, LINES)) > 50


NEEDING = [item for item in MCR.items if item.key in READING_NEEDS]


def test_every_bit_a_fan_needs_is_held_by_some_reading() -> None:
    held = 0
    for line in LINES:
        for facts in MCR.readings(prepared(line)):
            held |= facts.holds
    assert all(held & needs for needs in READING_NEEDS.values())
    assert len(NEEDING) > 20


@pytest.mark.parametrize("line", LINES)
def test_a_reading_without_what_a_fan_needs_finds_none_of_it(line: str) -> None:
    """`McrFacts.holds` only saves work: a fan whose needs (`items.READING_NEEDS`) the reading does not hold is
    not looked for, so its finder must find nothing there."""
    hand = prepared(line)
    for facts in MCR.readings(hand):
        for item in NEEDING:
            if not facts.holds & READING_NEEDS[item.key]:
                assert not list(item.find(hand, facts)), (line, item.key)


HAND_NEEDING = [item for item in MCR.items if HAND_NEEDS.get(item.key)]


def test_every_fan_of_the_hand_that_needs_facts_is_found_on_some_hand() -> None:
    """The hands give every fan of the hand gated by `items.HAND_NEEDS` a hand that has it, so the next test
    shows its needs hold wherever it is found."""
    found = {item.key for line in LINES for item in HAND_NEEDING if item.find(prepared(line), None)}
    assert sorted(item.key for item in HAND_NEEDING if item.key not in found) == []


@pytest.mark.parametrize("line", LINES)
def test_a_hand_without_what_a_fan_of_the_hand_needs_finds_none_of_it(line: str) -> None:
    """`items.hand_facts` only saves work: a fan of the hand whose needs the hand lacks is not looked for, so
    its finder must find nothing there."""
    hand = prepared(line)
    facts = hand_facts(hand)
    for item in HAND_NEEDING:
        if HAND_NEEDS[item.key] & facts != HAND_NEEDS[item.key]:
            assert not list(item.find(hand, None)), (line, item.key)


def plain_linked(facts: McrFacts) -> dict[str, list[str]]:
    """The fan between sets found afresh (`chow_fans`, `pung_fans`), with no memo."""
    from taihu.scorer.engine import CHOW, group_text
    from taihu.scorer.rulesets.mcr.facts import chow_fans, pung_fans

    if facts.shape not in (STANDARD, KNITTED):
        return {}
    starts = sorted(g.kind for g in facts.sets if g.shape == CHOW)
    found: dict[str, list[str]] = {}
    if len(starts) > 1:
        for fan, made in chow_fans(starts, facts.pair if len(starts) == 4 else -1):
            found.setdefault(fan, []).append(" ".join(group_text(Group(CHOW, k)) for k in made))
    if len(facts.triplets) > 1:
        for fan, made in pung_fans(list(facts.triplets)):
            found.setdefault(fan, []).append(" ".join(T.name(k) for k in made))
    return found


@pytest.mark.parametrize("line", LINES)
def test_the_fan_between_sets_as_found_afresh(line: str) -> None:
    hand = prepared(line)
    for facts in MCR.readings(hand):
        assert facts.linked == plain_linked(facts), line


@pytest.mark.parametrize("line", LINES)
def test_the_concealed_pungs_and_the_winning_tiles_place_as_found_apart(line: str) -> None:
    """`McrFacts` finds both in one pass over the groups: as `concealed_pungs` and `wait_place` do apart."""
    from taihu.scorer.rulesets.mcr.facts import concealed_pungs, wait_place

    hand = prepared(line)
    for facts in MCR.readings(hand):
        if facts.shape in (STANDARD, KNITTED):
            hidden = concealed_pungs(facts.sets, hand.win, hand.self_drawn, facts.knit) if facts.triplets else 0
            assert (facts.concealed_pungs, facts.wait_place) == (hidden, wait_place(facts.groups, hand.win)), line


def plain_two_pungs(a: int, b: int) -> str:
    if T.is_suited(a) and T.is_suited(b) and a % 9 == b % 9 and a != b:
        return "shuang_tong_ke"
    if a >= T.RED and b >= T.RED and a != b:
        return "shuang_jian_ke"
    return ""


def plain_three_pungs(a: int, b: int, c: int) -> str:
    """三同刻, 三色三节高, 一色三节高, 三风刻, 大三元, each kind tested one by one."""
    if all(T.is_suited(k) for k in (a, b, c)):
        ranks = sorted(k % 9 for k in (a, b, c))
        if len({a // 9, b // 9, c // 9}) == 3:
            if ranks[0] == ranks[2]:
                return "san_tong_ke"
            if ranks == [ranks[0], ranks[0] + 1, ranks[0] + 2]:
                return "san_se_san_jie_gao"
        elif a // 9 == b // 9 == c // 9 and ranks == [ranks[0], ranks[0] + 1, ranks[0] + 2]:
            return "yi_se_san_jie_gao"
        return ""
    if all(T.is_wind(k) for k in (a, b, c)):
        return "san_feng_ke"
    if all(k >= T.RED for k in (a, b, c)):
        return "da_san_yuan"
    return ""


def test_the_fan_between_pungs_as_each_kind_tested_one_by_one() -> None:
    """`two_pungs` (its kinds in either order) and `three_pungs` (ascending, as a reading's pungs come) read the
    suits off the highest and lowest kind: every pair and every trio of kinds."""
    for a, b in product(range(T.PLAYABLE), repeat=2):
        assert two_pungs(a, b) == plain_two_pungs(a, b), (a, b)
    for trio in combinations(range(T.PLAYABLE), 3):
        assert three_pungs(*trio) == plain_three_pungs(*trio), trio
