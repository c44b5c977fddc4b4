"""Hints that find the mistake: a count error names the tile to take out or put in.

A winning hand with a tile too many names the tile whose removal leaves the best
win: the `+` tile only when it is that tile (a stray `1p`, a seat word `南` left
among the tiles are named as such); one a tile short names the tile that
completes it; a winner's count with no `+` suggests a `+` from the hand's own
tiles; "no winning shape" where wildcards exist and none is named says so first.
The hints' lines, each with its message in English and Chinese, are in the players' table
(tests/players_lines.toml, run by tests/test_players_lines.py, which also checks there that each tile a
hint names does what it says). The properties here check the same on random winning hands with a
tile added or taken out.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from taihu.scorer import HandError, parse, score_hand, slips
from taihu.scorer import tiles as T
from tests.test_lingxi_properties import assemble, lingxi_hands

SETTINGS = settings(
    max_examples=60, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)
HAND_A = "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S"  # the first worked example: 56


def error_of(line: str, rules: str = "lingxi") -> HandError:
    with pytest.raises(HandError) as info:
        score_hand(line, rules=rules)
    return info.value


def test_the_suggested_mark_comes_from_the_hand_and_wins() -> None:
    """Any tile of this complete hand wins marked `+`: the pair's (the wait most often) is suggested, +1s."""
    line = "123m 456m 789m 789p 11s 45s 6s f5f6f7f8 P wild:3p,W seat:N"
    assert "write it last with +, e.g. +1s" in str(error_of(line))
    assert score_hand(line.replace(" 11s", " 1s +1s")).winner


@pytest.mark.parametrize(
    ("rules", "line", "mark"),
    [
        ("luoshan", "112233m 456p 13579s", "9s"),  # the chows taken out, the singles are left: the highest
        ("guannan", "112233m 456p 13579s", "9s"),
        ("lingxi", "112233m 456p 789p 13579s f1 wild:5m,E", "9s"),
    ],
)
def test_where_no_mark_wins_the_count_error_suggests_the_notes_guess(rules: str, line: str, mark: str) -> None:
    """No tile marked `+` makes a win: the `+` suggested is the cheap guess the note on a non-winner makes
    (`base.likely_wait_kind`, one rule for both), not a pair of the whole hand."""
    error = error_of(line, rules)
    assert error.code == "no_winning_tile"
    assert str(error).endswith(f"e.g. +{mark}")


def test_no_wild_is_named_only_where_wildcards_exist() -> None:
    """With wild: given the message is the rule set's own; Guannan has no wildcards to name."""
    assert str(error_of("123m 456m 789p 234s 678s 5p +6p wild:9s,N seat:W")).startswith("no winning shape")
    assert "wild:" not in str(error_of("123m 456p 789s 235m 5s +6s", "guannan"))


def test_the_search_is_bounded() -> None:
    """At most a fixed number of kinds is tried, however many the line holds."""
    many = parse(HAND_A)._replace(tiles=tuple(sorted(k for k in range(T.PLAYABLE) for _ in range(2))))
    assert len(slips._candidates(many, ())) == slips.MAX_CANDIDATES < T.PLAYABLE


# -- properties: random winning hands with a tile added or taken out --------------------------


def _kinds(names: str) -> list[str]:
    return names.split(" or one ")


def _winning_line(data: st.DataObject) -> tuple[dict, str]:
    hand = data.draw(lingxi_hands(winner=True))
    line = assemble(hand)
    try:
        assert score_hand(line).winner
    except HandError:
        assume(False)
    return hand, line


@SETTINGS
@given(st.data())
def test_a_stray_tile_hint_names_a_tile_whose_removal_wins(data: st.DataObject) -> None:
    hand, _ = _winning_line(data)
    extra = data.draw(st.sampled_from(hand["tiles"]))
    line = assemble({**hand, "tiles": [*hand["tiles"], extra]})
    try:
        score_hand(line)
    except HandError as exc:
        error = exc
    else:
        return  # a tile too many that still scores: not a count error (a kong's fourth, say)
    named = re.search(r"without one (.+?) the hand wins", str(error))
    if error.code == "winning_tile_twice":
        won = T.name(hand["win"])
        assert score_hand(assemble({**hand, "tiles": _without(hand["tiles"] + [extra], won)})).winner
    elif named is not None:
        for tile in _kinds(named.group(1)):
            assert score_hand(assemble({**hand, "tiles": _without(hand["tiles"] + [extra], tile)})).winner
        assert T.name(hand["win"]) not in _kinds(named.group(1))  # the `+` is blamed in its own words only


@SETTINGS
@given(st.data())
def test_a_missing_tile_hint_names_a_tile_whose_addition_wins(data: st.DataObject) -> None:
    hand, _ = _winning_line(data)
    gone = data.draw(st.sampled_from(hand["tiles"]))
    conditions = [c for c in hand["conditions"] if not c.startswith("wild:")]  # without wildcards: searched
    short = {**hand, "tiles": _without(hand["tiles"], gone), "conditions": conditions}
    try:
        score_hand(assemble(short))
    except HandError as exc:
        named = re.search(r"with one more (.+?) among the hand tiles", str(exc))
        for tile in _kinds(named.group(1)) if named else ():
            assert score_hand(assemble({**short, "tiles": [*short["tiles"], tile]})).winner


@SETTINGS
@given(st.data())
def test_a_missing_plus_hint_suggests_a_tile_of_the_hand(data: st.DataObject) -> None:
    hand, _ = _winning_line(data)
    unmarked = {**hand, "tiles": [*hand["tiles"], T.name(hand["win"])], "win": None}
    unmarked["conditions"] = [c for c in hand["conditions"] if c != "self"]
    line = assemble(unmarked)
    with pytest.raises(HandError) as info:
        score_hand(line)
    assume(info.value.code != "unmarked_kong")  # four alike among the tiles: that hint comes first
    assert info.value.code == "no_winning_tile"
    mark = re.search(r"e\.g\. \+(\S+)", str(info.value))
    assert mark is not None and mark.group(1) in unmarked["tiles"]  # a tile of the hand
    if slips.marks_that_win(parse(line), "lingxi"):  # and one that wins, where one does
        marked = {**unmarked, "tiles": _without(unmarked["tiles"], mark.group(1)), "win": _kind(mark.group(1))}
        assert score_hand(assemble(marked)).winner


def _without(tiles: list[str], tile: str) -> list[str]:
    out = list(tiles)
    out.remove(tile)
    return out


def _kind(name: str) -> int:
    return next(k for k in range(T.KIND_COUNT) if T.name(k) == name)


@st.composite
def plain_hands(draw: st.DrawFn) -> tuple[str, list[str], str]:
    """A winning hand of suited sets and a pair in a rule set other than Lingxi, no wildcards: (rules, tiles, +)."""
    rules = draw(st.sampled_from(["luoshan", "guannan", "jinhua", "putian"]))
    sets = 5 if rules == "putian" else 4
    tiles: list[int] = []
    for _ in range(sets):
        if draw(st.booleans()):
            start = draw(st.integers(0, 2)) * 9 + draw(st.integers(0, 6))
            tiles += [start, start + 1, start + 2]
        else:
            tiles += [draw(st.integers(0, 26))] * 3
    tiles += [draw(st.integers(0, 26))] * 2
    assume(all(tiles.count(k) <= 4 for k in tiles))
    win = tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    return rules, [T.name(k) for k in tiles], T.name(win)


@SETTINGS
@given(st.data(), plain_hands())
def test_in_every_rule_set_a_named_tile_does_what_the_hint_says(data: st.DataObject, hand: tuple) -> None:
    rules, tiles, win = hand
    line = f"{' '.join(tiles)} +{win}"
    try:
        assume(score_hand(line, rules=rules).winner)
    except HandError:
        assume(False)
    added = data.draw(st.sampled_from(tiles))
    try:
        score_hand(f"{line} {added}", rules=rules)
    except HandError as exc:
        named = re.search(r"without one (.+?) the hand wins", str(exc))
        for tile in _kinds(named.group(1)) if named else ():
            rest = _without([*tiles, added], tile)
            assert score_hand(f"{' '.join(rest)} +{win}", rules=rules).winner
        if exc.code == "winning_tile_twice":
            assert score_hand(f"{' '.join(_without([*tiles, added], win))} +{win}", rules=rules).winner
    gone = data.draw(st.sampled_from(tiles))
    short = _without(tiles, gone)
    with pytest.raises(HandError) as info:
        score_hand(f"{' '.join(short)} +{win}", rules=rules)
    named = re.search(r"with one more (.+?) among the hand tiles", str(info.value))
    assert named is not None  # without wildcards the tile taken out is always found (it completes the hand)
    for tile in _kinds(named.group(1)):
        assert score_hand(f"{' '.join([*short, tile])} +{win}", rules=rules).winner


# -- the tiles a Chinese reader's hints name, as players say them ------------------------------------------------


def test_every_tile_is_said_in_chinese_as_a_form_the_notation_reads() -> None:
    for kind in range(T.KIND_COUNT):
        said = T.said(kind)
        assert said.en == T.name(kind) and not re.search(r"[A-Za-z0-9]", said.zh), said
        assert parse(said.zh).tiles == (kind,), said


@pytest.mark.parametrize(
    ("line", "english", "chinese"),
    [
        ("11111m 456m 789m 123p 456p 9s +9s wild:5m,E", "1m", "一万 最多写 4 张"),
        ("123m 456m 789p 234s 678s 5p 5p wild:9s,N seat:W", "+5p", "例如 +五筒"),
        ("123m 456m 789m 123p 5s +5s f1", "f1", "去掉 春"),
    ],
)
def test_a_chinese_hint_names_its_tile_as_players_say_it(line: str, english: str, chinese: str) -> None:
    error = error_of(line, "luoshan" if "f1" in line.split() else "lingxi")
    assert english in (error.hint or "") and chinese in (error.hint_in("zh") or ""), (error.hint, error.hint_in("zh"))


def test_a_chinese_reader_is_taught_the_chinese_forms() -> None:
    chinese = error_of("123m x").message_in("zh")
    for form in ("五万", "三筒", "七条", "东风", "红中", "发财", "白板", "春"):
        assert form in chinese, chinese
