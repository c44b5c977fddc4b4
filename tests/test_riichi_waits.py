"""Riichi waits (听牌) and 何切る (docs/waits.md "Riichi"): against scoring every tile with `score_hand`,
against `mahjong` 2.1.0's agari check, and the page's 役なし and 振听 as `legal: false` with the reason.
"""

from __future__ import annotations

import json
import random

import pytest
from api_app import app as http_app
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mahjong.agari import Agari
from mahjong.shanten import Shanten
from typer.testing import CliRunner

from taihu import HandError, score_hand, waits
from taihu.cli.main import app as cli_app
from taihu.scorer import tiles as T
from taihu.scorer.rulesets.riichi.waits import RiichiWaits
from taihu.scorer.waiting import Discards, Waits

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TO_MAHJONG_34 = [*range(31), 33, 32, 31]  # taihu's 中 发 白 (31 32 33) are mahjong's 33 32 31


def ready_hand(rng: random.Random, *, open_allowed: bool = True, indicators: bool = True) -> tuple[str, int]:
    """A random 13-tile riichi hand one tile short of a win (closed or with its first set exposed),
    with seat, round, maybe a dora indicator and riichi; and the tile that was taken out."""
    while True:
        sets = []
        for _ in range(4):
            start = rng.randrange(3) * 9 + rng.randrange(7)
            sets.append([start, start + 1, start + 2] if rng.random() < 0.6 else [rng.randrange(34)] * 3)
        pair = [rng.randrange(34)] * 2
        tiles = [k for group in sets for k in group] + pair
        indicator = rng.randrange(34) if indicators and rng.random() < 0.7 else None
        if any(tiles.count(k) + (k == indicator) > 4 for k in set(tiles)):
            continue
        opened = open_allowed and rng.random() < 0.4
        concealed = sorted(k for group in sets[opened:] for k in group) + pair
        removed = concealed.pop(rng.randrange(len(concealed)))
        line = " ".join(T.name(k) for k in sorted(concealed))
        if opened:
            line += f" [{T.group_text(sets[0])}]"
        line += f" seat:{rng.choice('ESWN')} round:{rng.choice('ES')}"
        if indicator is not None:
            line += f" dora:{T.name(indicator)}"
        if not opened and rng.random() < 0.5:
            line += " riichi"
        return line, removed


def brute_force(hand: str, options: dict[str, int] | None = None) -> dict[str, tuple[object, object]]:
    """Every kind scored as the winning tile by score_hand, on a discard and self-drawn."""
    found = {}
    for kind in range(T.PLAYABLE):
        results = []
        for how in ("", " self"):
            try:
                s = score_hand(f"{hand} +{T.name(kind)}{how}", "riichi", options)
            except HandError:
                results.append(None)
                continue
            results.append(
                (s.total, s.legal, tuple(s.arrangement), s.subtotal, *(s.extra[k] for k in ("fu", "limit", "payments")))
            )
        if results != [None, None]:
            found[T.name(kind)] = (results[0], results[1])
    return found


def listed(result: Waits) -> dict[str, tuple[object, object]]:
    return {
        w.tile: tuple(
            None if v is None else (v.total, v.legal, v.arrangement, v.han, v.fu, v.limit, v.payments)  # type: ignore[attr-defined]
            for v in (w.discard, w.self_drawn)
        )
        for w in result.waits
    }


@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_riichi_waits_agree_with_scoring_every_tile(seed: int) -> None:
    hand, removed = ready_hand(random.Random(seed))
    result = waits(hand, rules="riichi")
    assert isinstance(result, RiichiWaits)
    assert listed(result) == brute_force(hand), hand
    assert T.name(removed) in {w.tile for w in result.waits}, hand


@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_riichi_waits_are_mahjongs_winning_tiles(seed: int) -> None:
    """Closed hands without indicators: the waits are the kinds, held fewer than four times, that make
    `mahjong`'s agari; and the hand is ready exactly when its shanten is 0."""
    hand, _ = ready_hand(random.Random(seed), open_allowed=False, indicators=False)
    tiles = [T.NAMES.index(t) for t in hand.split() if ":" not in t and t != "riichi"]
    counts = [0] * 34
    for kind in tiles:
        counts[TO_MAHJONG_34[kind]] += 1
    theirs = set()
    for kind in range(T.PLAYABLE):
        with_tile = list(counts)
        with_tile[TO_MAHJONG_34[kind]] += 1
        if with_tile[TO_MAHJONG_34[kind]] <= 4 and Agari.is_agari(with_tile):
            theirs.add(T.name(kind))
    result = waits(hand, rules="riichi")
    assert isinstance(result, Waits)
    assert {w.tile for w in result.waits} == theirs, hand
    assert result.ready == (Shanten.calculate_shanten(counts) == 0) or not theirs, hand


def test_thirteen_orphans_waits_on_the_missing_orphan_and_all_thirteen() -> None:
    one_missing = waits("19m 19p 19s ESWN PF F", rules="riichi")
    assert [w.tile for w in one_missing.waits] == ["C"]  # type: ignore[union-attr]
    thirteen = waits("19m 19p 19s ESWN PFC", rules="riichi")
    assert len(thirteen.waits) == 13  # type: ignore[union-attr]


def test_no_yaku_is_listed_not_legal_with_the_reason() -> None:
    """Page example 2 before its win: open, no yaku (kuitan=0): both ways 役なし; with kuitan=1 tanyao."""
    result = waits("[234m] 567m 44p 678s 33s seat:W round:E", rules="riichi")
    for wait in result.waits:  # type: ignore[union-attr]
        for win in (wait.discard, wait.self_drawn):
            assert win is not None and not win.legal and win.reason.startswith("役なし")  # type: ignore[attr-defined]
    kuitan = waits("[234m] 567m 44p 678s 33s seat:W round:E", rules="riichi", options={"kuitan": 1})
    assert {w.tile: w.discard.total for w in kuitan.waits} == {"4p": 1000, "3s": 1000}  # type: ignore[union-attr]


def test_closed_hand_without_yaku_wins_only_self_drawn() -> None:
    """No riichi, no yaku in the tiles: a win on a discard is 役なし, self-drawn is 门清自摸."""
    result = waits("123m 456p 789s 11s 46m seat:S", rules="riichi")
    [wait] = result.waits  # type: ignore[union-attr]
    assert wait.tile == "5m" and not wait.discard.legal and wait.self_drawn.legal  # type: ignore[union-attr]
    assert wait.self_drawn.han == 1  # type: ignore[union-attr]


def test_furiten_written_makes_every_win_on_a_discard_not_legal() -> None:
    result = waits("234567m 234p 88p 67s seat:S round:E riichi furiten", rules="riichi")
    assert isinstance(result, RiichiWaits) and result.furiten and result.to_dict()["furiten"] is True
    for wait in result.waits:
        assert not wait.discard.legal and wait.discard.reason.startswith("振听")  # type: ignore[union-attr]
        assert wait.self_drawn is not None and wait.self_drawn.legal
    assert waits("234567m 234p 88p 67s seat:S round:E riichi", rules="riichi").to_dict()["furiten"] is False


def test_discarding_a_wait_is_furiten() -> None:
    """何切る on a complete hand: each discard leaves a wait on the tile just thrown (振听): no win on a
    discard is legal, and the thrown copy is seen."""
    result = waits("234567m 234p 88p 567s seat:S round:E", rules="riichi")
    assert isinstance(result, Discards)
    by_tile = {d.tile: d for d in result.discards}
    two = by_tile["2m"]
    assert two.furiten and [w.tile for w in two.waits] == ["2m", "5m", "8m"]  # type: ignore[attr-defined]
    assert all(not w.discard.legal for w in two.waits)  # type: ignore[union-attr]
    assert next(w for w in two.waits if w.tile == "2m").unseen == 3  # none held, the one just thrown seen
    assert all(d.furiten for d in result.discards if d.waits)  # type: ignore[attr-defined]


def test_a_discard_that_leaves_no_furiten_comes_first() -> None:
    result = waits("123m 456p 789s 55s 34m 9p seat:S", rules="riichi")
    assert isinstance(result, Discards)
    first = result.discards[0]
    assert first.tile == "9p" and not first.furiten and [w.tile for w in first.waits] == ["2m", "5m"]  # type: ignore[attr-defined]
    assert first.to_dict()["furiten"] is False


def test_unseen_counts_the_dora_indicators_and_red_fives() -> None:
    result = waits("34m 067m 567p 55s 888s dora:2m,5m seat:S", rules="riichi", options={"aka_dora": 1})
    by_tile = {w.tile: w for w in result.waits}  # type: ignore[union-attr]
    assert by_tile["2m"].unseen == 3 and by_tile["5m"].unseen == 2  # 5m: the red one held, one shown
    assert by_tile["5m"].to_dict()["red_unseen"] == 0  # the red 5m is in the hand
    assert "red_unseen" not in by_tile["2m"].to_dict()
    plain = waits("34m 567m 567p 55s 888s seat:S", rules="riichi", options={"aka_dora": 1})
    assert {w.tile: w.to_dict().get("red_unseen") for w in plain.waits} == {"2m": None, "5m": 1, "8m": None}  # type: ignore[union-attr]


def test_indicator_taking_the_last_copy_leaves_no_wait() -> None:
    """Three 9p held and the fourth shown as an indicator: 9p cannot be drawn (as 听牌 at a draw)."""
    result = waits("123m 456m 789s 999p 5s dora:9p", rules="riichi")
    assert [w.tile for w in result.waits] == ["5s"]  # type: ignore[union-attr]


def test_throwing_the_fourth_copy_leaves_no_wait_on_it() -> None:
    """1111m: after one 1m is thrown the other three are held, so 11123m waits on 4m (and 5s), not 1m."""
    result = waits("1111m 23m 456p 789s 55s seat:S", rules="riichi")
    one = next(d for d in result.discards if d.tile == "1m")  # type: ignore[union-attr]
    assert [w.tile for w in one.waits] == ["4m", "5s"]


def test_ura_indicators_are_seen_too() -> None:
    result = waits("34m 567m 567p 55s 888s seat:S riichi dora:1p ura:2m", rules="riichi")
    assert {w.tile: w.unseen for w in result.waits} == {"2m": 3, "5m": 3, "8m": 4}  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ("234567m 234p 88p 67s +8s seat:S", "remove '\\+8s'"),
        ("234567m 234p 88p 67s seat:S self", "condition 'self'"),
        ("234567m 234p 88p 67s seat:S ippatsu riichi", "condition 'ippatsu'"),
        ("234567m 234p 88p 6s seat:S", "hand has 12 tiles"),
        ("234567m 234p 88p 67s seat:S wild:5m", "riichi has no wildcards"),
    ],
)
def test_a_hand_that_is_no_riichi_waiting_hand_is_an_error(hand: str, message: str) -> None:
    with pytest.raises(HandError, match=message):
        waits(hand, rules="riichi")


def test_http_and_cli_give_the_library_json() -> None:
    hand = "234567m 234p 88p 67s seat:S round:E riichi dora:1p"
    expected = waits(hand, rules="riichi").to_dict()
    answer = TestClient(http_app).post("/waits", json={"rules": "riichi", "hand": hand})
    assert answer.status_code == 200 and answer.json() == expected
    printed = CliRunner().invoke(cli_app, ["waits", hand, "-r", "riichi", "--json"])
    assert printed.exit_code == 0 and json.loads(printed.stdout) == expected
    table = CliRunner().invoke(cli_app, ["waits", hand, "-r", "riichi"], env={"COLUMNS": "160"})
    assert "7700 (4 han 30 fu)" in table.stdout


def test_other_rule_sets_json_keeps_its_shape_over_http() -> None:
    """The riichi fields are additions: a Luoshan answer has none of them."""
    answer = TestClient(http_app).post("/waits", json={"rules": "luoshan", "hand": "123m 456m 789p 23s 55p flip:9p"})
    wait = answer.json()["waits"][0]
    assert set(wait) == {"tile", "unseen", "discard", "self", "covered_by_wildcard"}
    assert set(wait["discard"]) == {"total", "legal", "arrangement"} and "furiten" not in answer.json()


@pytest.mark.parametrize(
    "line",
    [
        "123m 456m 789m 123p 5s f1",  # 14 tiles with a flower: once a discard of f1 was tried, an IndexError
        "123m 456m 789m 123p 5s dora:f1",  # a flower as an indicator: once a KeyError
        "123m 456m 789m 123p 5s riichi ura:f1 dora:5s",
        "123m 456m 789m 123p 5s 5s f8",
    ],
)
def test_a_flower_anywhere_in_a_riichi_line_is_refused_before_the_search(line: str) -> None:
    with pytest.raises(HandError) as refused:
        waits(line, rules="riichi")
    assert refused.value.code == "tile_not_played"


@pytest.mark.parametrize(
    "line", ["2s 8s 6p W 8m 4m C 1p 3p 5p 4s 1m 3m dora:f2 +1m", "123m 456m 789m 123p 5s ura:f8 riichi +5s"]
)
def test_a_flower_as_an_indicator_is_refused_when_scoring(line: str) -> None:
    """A flower `dora:` once reached the dora table as a KeyError (a 500 over HTTP)."""
    with pytest.raises(HandError) as refused:
        score_hand(line, rules="riichi")
    assert refused.value.code == "tile_not_played"
