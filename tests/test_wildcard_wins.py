"""A win on a discarded wildcard: `score`, `settle` and `waits` give one answer in every rule set.

Where a rule set never lets a wildcard be discarded or claimed (`RuleSet.claims_wildcards` False:
Lingxi, Putian, Jinhua), such a win is self-drawn only: `waits` lists the tile with no win on a
discard, so `score_hand` and `settle_table` refuse the line naming `self`; where a discarded
wildcard can be won on (Luoshan), all three score it, alike.
"""

from __future__ import annotations

from typing import Any

import pytest

from taihu.scorer import HandError, score_hand, settle_table, waits
from taihu.scorer.rulesets import RULESETS

# rule set: (the waiting hand's tiles, the wildcard it wins on, its wildcard condition, the table's
# wildcard fields, the winner's seat)
WON_ON_A_WILDCARD: dict[str, tuple[str, str, str, dict[str, Any], str]] = {
    "lingxi": ("123m 456m 789p 234s 678s 5p", "C", "wild:C,5s", {"wild": ["C", "5s"]}, "W"),
    "putian": ("123m 456m 789p 234s 567s 5p P P", "9s", "wild:9s", {"wild": ["9s"]}, "S"),
    "jinhua": ("1122m 3344p 5566s 7s", "9m", "wild:9m", {"wild": ["9m"]}, "S"),
    "luoshan": ("123m 456m 789p 23s 55p", "1p", "flip:9p", {"flip": "9p"}, "S"),
}


def _table(rules: str, hand: str, wild: dict[str, Any], winner: str, discarder: str | None) -> dict[str, Any]:
    players: dict[str, Any] = {seat: {"total": 0} for seat in "ESWN"}
    players[winner] = hand
    return {"rules": rules, "winner": winner, "discarder": discarder, "players": players, "events": [], **wild}


def _on_discard(rules: str) -> tuple[int | None, int | None, int | None]:
    """The win on the discarded wildcard as score, settle and waits see it: a total, or None where refused."""
    tiles, tile, wild, table_wild, seat = WON_ON_A_WILDCARD[rules]
    try:
        scored: int | None = score_hand(f"{tiles} +{tile} {wild} seat:{seat}", rules=rules).total
    except HandError as exc:
        assert exc.code == "wildcard_won_on_discard"
        assert "self" in str(exc) and f"+{tile}" in str(exc)
        scored = None
    try:
        net = settle_table(_table(rules, f"{tiles} +{tile}", table_wild, seat, "E")).net
        settled: int | None = net[seat]
    except HandError as exc:
        assert "self" in str(exc) and str(exc).startswith(f"players.{seat}:")
        settled = None
    (listed,) = [w for w in waits(f"{tiles} {wild} seat:{seat}", rules=rules).waits if w.tile == tile]
    return scored, settled, None if listed.discard is None else listed.discard.total


@pytest.mark.parametrize("rules", WON_ON_A_WILDCARD)
def test_a_win_on_a_discarded_wildcard_has_one_answer(rules: str) -> None:
    scored, settled, listed = _on_discard(rules)
    if RULESETS[rules].claims_wildcards:
        assert scored is not None and scored == listed
        assert settled is not None and settled > 0
    else:
        assert (scored, settled, listed) == (None, None, None)


@pytest.mark.parametrize("rules", WON_ON_A_WILDCARD)
def test_the_same_win_self_drawn_scores_alike_everywhere(rules: str) -> None:
    tiles, tile, wild, table_wild, seat = WON_ON_A_WILDCARD[rules]
    scored = score_hand(f"{tiles} +{tile} {wild} seat:{seat} self", rules=rules).total
    (listed,) = [w for w in waits(f"{tiles} {wild} seat:{seat}", rules=rules).waits if w.tile == tile]
    assert listed.self_drawn is not None and listed.self_drawn.total == scored
    assert settle_table(_table(rules, f"{tiles} +{tile} self", table_wild, seat, None)).net[seat] > 0


@pytest.mark.parametrize(
    ("rules", "line"),
    [
        # the player's own turns other than `self`: a kong's replacement, the last tile, the dealt hand
        ("lingxi", "[2222p] 123m 456m 789p 234s 5p +C wild:C,5s seat:W kong-draw"),
        ("lingxi", "123m 456m 789p 234s 678s 5p +C wild:C,5s seat:W last-tile"),
        ("lingxi", "123m 456m 789p 234s 678s 5p +C wild:C,5s seat:E heaven"),
        ("putian", "123m 456m 789p 234s 567s 5p P P +9s wild:9s seat:E heaven"),
        ("jinhua", "1122m 3344p 5566s 7s +9m wild:9m last-tile"),
        ("jinhua", "1122m 3344p 5566s 7s +9m wild:9m seat:S human"),
        # 抢金 takes the flipped 金 itself: a declared win, no discard
        ("putian", "123m 456m 789p 234s 567s 5p P P +9s wild:9s seat:S declare:qiang-jin"),
    ],
)
def test_a_wildcard_won_on_the_players_own_turn_is_no_error(rules: str, line: str) -> None:
    assert score_hand(line, rules=rules).winner
