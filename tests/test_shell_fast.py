"""The path every hand takes around its rule set's scoring, made faster, gives what its plain version gives.

MCR's `prepare` builds its hand by position and reads the parsed hand unpacked; `plain_prepare` below is the
same hand built as the rules read (fields by name, every kind counted), compared on random winning lines,
non-winners and every error `prepare` raises. `to_text` prints a tail of declared values without marked fives
from a cache (`_declared_tail`); `plain_text` prints every tail afresh, compared on every rule set's lines.
"""

from __future__ import annotations

import dataclasses
import random
from bisect import insort
from typing import Any

import pytest
from hypothesis import given
from mcr_hands import random_hand
from test_notation_fast import SETTINGS, lines_of_any_conditions, rule_set_lines

from taihu.scorer import HandError, to_text
from taihu.scorer import notation as N
from taihu.scorer import tiles as T
from taihu.scorer.engine import CHOW, GROUP_TEXTS, KONG, PAIR, Group, _written_group_text, group_text
from taihu.scorer.errors import Text
from taihu.scorer.notation import ParsedHand
from taihu.scorer.rulesets import RULESETS
from taihu.scorer.rulesets import interface as I
from taihu.scorer.rulesets import validation as V
from taihu.scorer.rulesets.mcr import RULE_SET as MCR
from taihu.scorer.rulesets.mcr import hand as H
from taihu.scorer.rulesets.mcr import shapes as S
from taihu.scorer.rulesets.mcr.facts import HONORS_AND_KNITTED, ORPHANS
from taihu.scorer.said import said


def plain_prepare(parsed: ParsedHand, options: dict[str, int]) -> H.McrHand:
    """MCR's hand as its fields read: each by name, found one step at a time."""
    V.check_known_conditions(parsed, "mcr", H.CONDITIONS, H.HINTS)
    flowers = tuple(k for k in parsed.tiles if T.is_flower(k))
    for meld in parsed.melds:
        if meld.is_flower_set:
            raise HandError.of(
                "error.notation.mcr.flower_group",
                code="bad_flower_group",
                column=meld.column or None,
                group=meld.source or meld.text(),
            )
    for kind in set(flowers):
        if flowers.count(kind) > 1:
            raise V.too_many_copies(parsed, kind, flowers.count(kind), 1, T_ONE_FLOWER)
    held = [k for k in parsed.tiles if not T.is_flower(k)]
    if parsed.win is not None:
        if T.is_flower(parsed.win):
            raise HandError.of("error.notation.mcr.flower_won", code="bad_winning_tile", column=parsed.columns.get("+"))
        insort(held, parsed.win)
    melds = tuple(I.meld_group(m) for m in parsed.melds)
    every = held + [kind for meld in parsed.melds for kind in meld.tiles]
    counts = tuple(every.count(kind) for kind in range(T.PLAYABLE))
    if max(counts) > 4:
        kind = next(k for k, seen in enumerate(counts) if seen > 4)
        raise V.too_many_copies(parsed, kind, counts[kind], 4)
    size = len(held) + 3 * len(melds)
    winner = parsed.win is not None
    if size != (H.WIN_SIZE if winner else H.HAND_SIZE):
        raise V.tile_count_error(parsed, "mcr", size, H.HAND_SIZE, winner)
    win = parsed.win if parsed.win is not None else -1
    if parsed.flags:
        H._check_conditions(parsed, winner, melds, list(counts), held, win)
    before = list(held)
    if winner:
        before.remove(win)
    return H.McrHand(
        parsed=parsed,
        winner=winner,
        declared=False,
        options=options,
        notes=[] if winner else [said("note.mcr.non_winner")],
        concealed=bytes(held),
        melds=melds,
        win=win,
        seat_wind=H.WIND[parsed.seat or "E"],
        round_wind=H.WIND[parsed.values.get("round") or "E"],
        self_drawn=bool(parsed.flags & H.SELF_DRAWN),
        flowers=flowers,
        counts=counts,
        held=sum(1 << kind for kind in set(every)),
        exposed_kongs=sum(1 for g in melds if g.shape == KONG and g.exposed),
        concealed_kongs=sum(1 for g in melds if g.concealed_kong),
        nine_gates=winner and not melds and len(set(held)) == 9 and held[-1] - held[0] == 8 and S.nine_gates(before),
        four_alike=4 in counts,
    )


T_ONE_FLOWER = Text("error.tiles.mcr.one_flower")


def fields(hand: H.McrHand) -> list[tuple[str, Any]]:
    """Every field by name, the notes as their text."""
    out = [(f.name, getattr(hand, f.name)) for f in dataclasses.fields(hand)]
    return [(name, [str(n) for n in value] if name == "notes" else value) for name, value in out]


def outcome(prepare: Any, line: str) -> Any:
    """The hand's fields, or its error's code, message and column."""
    parsed = MCR.read_line(line)
    try:
        return fields(prepare(parsed, MCR.resolve_options({"ming_an_gang": 6} if "[" in line else None)))
    except HandError as error:
        return error.code, str(error), error.column


EDGES = [
    "234567m 23456p 55s +7p seat:W",  # a rule set's example
    "[1111m] (5555p) 234s 789p C +C seat:W",
    "1112345678999m +5m round:S seat:N",  # 九莲宝灯
    "1112345678999m +1m self",
    "1112345678999p",  # no `+`: a non-winner
    "19m19p19s ESWNCFP +P kong-draw",  # 十三幺
    "147m258p369s ESWN +C",  # 全不靠
    "[EEE] [SSS] [WWW] 123m N +N fourth-tile",
    "[EEEE] [SSSS] (WWWW) [123m] N +N self",
    "123m 456p 789s EE 11s f1 f2 f3 +1s seat:E round:E last-tile",
    "123m 456p 789s EE 11s f1 f1 +1s",  # a flower twice
    "123m 456p 789s EE 11s (f1f2f3f4) +1s",  # a flower group
    "123m 456p 789s EE 11s +f1",  # a flower won
    "11111m 456p 789s EE +E",  # five alike
    "1" * 300 + "m +1m",  # more of a kind than a byte holds
    "1" * 250 + "m [111m] [111m] +1m",
    "[1111m] [1111m] 11m 456p 789s EE +E",
    "[1111m] 1m 456p 789s EE +E",
    "123m 456p 789s EE +E",  # a tile short
    "123m 456p 789s EE 1s +1s rob-kong",
    "123m 456p 789s EEE 1s +1s rob-kong",
    "123m 456p 789s EE 1s +E rob-kong",  # the robbed kong's tile held
    "111m 456p 789s EE 1s +1m fourth-tile",
    "123m 456p 789s EE 1s +1s kong-draw",  # 杠上开花 with no kong
    "123m 456p 789s EE 1s +1s rob-kong self",
    "123m 456p 789s EE 1s +1s wild:5m",  # a condition MCR refuses
    "123m 456p 789s EE 1s +1s dora:5m",
    "123m 456p 789s EE 1s +1s round:W seat:S",
]


@pytest.mark.parametrize("line", EDGES)
def test_prepare_gives_the_plain_hand_or_error(line: str) -> None:
    assert outcome(H.prepare, line) == outcome(plain_prepare, line)


def test_the_edges_meet_hands_and_errors() -> None:
    """The table holds winners, a non-winner and each kind of error: a test of both answers."""
    answers = [outcome(H.prepare, line) for line in EDGES]
    errors = {answer[0] for answer in answers if isinstance(answer, tuple)}
    hands = [dict(answer) for answer in answers if isinstance(answer, list)]
    assert {"bad_flower_group", "bad_winning_tile", "condition_not_met", "unknown_condition"} <= errors
    assert any(hand["nine_gates"] for hand in hands) and any(not hand["winner"] for hand in hands)
    assert any(hand["four_alike"] for hand in hands) and any(hand["exposed_kongs"] for hand in hands)
    assert any(hand["concealed_kongs"] for hand in hands) and any(hand["self_drawn"] for hand in hands)
    assert any(hand["flowers"] for hand in hands) and {hand["round_wind"] for hand in hands} >= {T.EAST, T.SOUTH}


@pytest.mark.parametrize("seed", range(8))
def test_prepare_gives_the_plain_hand_on_random_winning_lines(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        line = random_hand(rng)
        assert outcome(H.prepare, line) == outcome(plain_prepare, line), line


def plain_text(hand: ParsedHand) -> str:
    """The canonical text with its tail printed afresh (no cache of tails)."""
    parts = [p for p in N._bare_parts(hand.tiles)] + [m.text() for m in hand.melds]
    if hand.values:
        marked = N._marked(hand.values)
        if marked:
            parts = N._with_marks(parts, hand, marked)
        parts.append(N._values_tail(hand, marked))
    else:
        parts.append(N._tail_text.__wrapped__(hand.win, hand.seat, hand.wild, hand.flip, hand.flags, hand.declare))
    return " ".join(part for part in parts if part)


@SETTINGS
@given(rule_set_lines() | lines_of_any_conditions())
def test_text_of_every_rule_sets_hands_is_the_plain_text(line: tuple[str, str]) -> None:
    rules, text = line
    try:
        hand = RULESETS[rules].read_line(text)
    except HandError:
        return
    assert to_text(hand) == plain_text(hand)
    assert to_text(hand) == plain_text(hand)  # again, from the warm cache


@pytest.mark.parametrize(
    "line",
    [
        "123m 456p 789s EE 1s +1s seat:S round:E",
        "123m 456p 789s EE 1s +1s round:W self",
        "123m 456p 789s EE 1s +1s seat:N round:W self rob-kong",
        "123m 456p 789s EE 1s +1s seat:N round:S dora:5m,E ura:1p honba:2 sticks:1",
        "[123m] 456p 789s EE 1s +2s round:N wild:5m flip:3p declare:sha-zhu honba:3",
    ],
)
def test_text_of_declared_values_is_the_plain_text(line: str) -> None:
    hand = N.parse_generally(line)
    assert hand.values  # each has a tail of declared values
    assert to_text(hand) == plain_text(hand)
    assert to_text(hand) == plain_text(hand)


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("123m 456p 789s EE 1s +1s seat:S round:E", True),  # the fast path
        ("123m 456p 789s", True),  # tiles alone
        ("123m 456p [ E E E ] +5p", False),  # the careful parser
        ("一二三万 456p 789s EE 1s +1s", False),  # the players' forms
    ],
)
def test_every_parse_sets_what_was_read_otherwise(line: str, plain: bool) -> None:
    """`read_as` is set on every line's columns (`RuleSet.score` reads it; a slot left unset raises there)."""
    assert (N._parse_plain(line) is not None) == plain
    for hand in (N.parse(line), N.parse_generally(line)):
        assert isinstance(hand.columns, N.WrittenAt)
        assert hand.columns.read_as == ()


def plain_arrangement(hand: H.McrHand, reading: Any) -> list[str]:
    """Melds first (as written), the knitted straight, the sets by kind, the pairs: each group classed by its
    own fields and written by `group_text`."""
    if reading.shape in (ORPHANS, HONORS_AND_KNITTED):
        return [T.group_text(list(hand.concealed))]
    melds = [g for g in reading.groups if g.exposed or g.concealed_kong]
    sets = sorted((g for g in reading.groups if g not in melds and g.shape != PAIR), key=lambda g: (g.kind, g.shape))
    pairs = [g for g in reading.groups if g not in melds and g.shape == PAIR]
    knit = [T.group_text(reading.knit)] if reading.knit else []
    return [group_text(g) for g in melds] + knit + [group_text(g) for g in (*sets, *pairs)]


ARRANGED = [
    "[123m] [EEE] 456p 789s 1s +1s",  # melds
    "(1111m) [2222p] 456p 789s 1s +1s",  # kongs
    "147m258p369s 123m 1p +1p",  # a knitted straight
    "[123m] 147p258s369m 1p +1p",
    "1133557799m 22pE +E",  # seven pairs, and a reading of sets
    "1122334455667m +7m",
    "19m19p19s ESWNCFP +P",  # 十三幺
    "147m258p369s ESWN +C",  # 全不靠
]


@pytest.mark.parametrize("seed", range(4))
def test_arrangement_of_every_reading_is_the_plain_one(seed: int) -> None:
    rng = random.Random(seed)
    shapes = set()
    for line in ARRANGED + [random_hand(rng) for _ in range(80)]:
        hand = H.prepare(MCR.read_line(line), MCR.resolve_options(None))
        for reading in MCR.readings(hand):
            shapes.add((reading.shape, bool(hand.melds), bool(reading.knit)))
            assert MCR.arrangement(hand, reading) == plain_arrangement(hand, reading), line
    assert len(shapes) >= 7  # every shape, with melds and without


def test_group_texts_are_the_memos_and_stay_bounded() -> None:
    groups = [Group(PAIR, kind) for kind in range(T.PLAYABLE)] + [Group(CHOW, 0, exposed=True)]
    for group in groups * 2:
        assert GROUP_TEXTS[group] == group_text(group) == _written_group_text(group)
    for kind in range(5000):  # more than it keeps
        GROUP_TEXTS[Group(PAIR, kind % T.PLAYABLE, slots=(kind,))]
    assert 0 < len(GROUP_TEXTS) <= 4096
