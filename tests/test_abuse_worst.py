"""Putian's search keeps one decomposition per display class, and still shows the same reading.

Putian scores nothing from the grouping; only the displayed arrangement is
chosen (`_stand_ins`). The search used to place the 金 on every
decomposition (1,414 for the issue's hand) to choose it; now it keeps one per
class of what that choice sees. The property: the same score, arrangement
included, as the unpruned search, on hands built to have many readings
(one suit's tiles and several 金).
"""

from __future__ import annotations

from typing import Any

import pytest
from abuse_cases import CRAFTED_PUTIAN, CRAFTED_QIANG_JIN
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taihu.scorer import HandError, score_hand
from taihu.scorer.engine import PUNG, StandIns
from taihu.scorer.rulesets import putian

SETTINGS = settings(
    max_examples=80, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)


def unpruned(hand: putian.PutianHand) -> StandIns:
    """The 金's options as before: no classes, so every decomposition is kept."""
    kind = hand.jin if hand.jin is not None else 4
    return StandIns(pairs=(kind,), sets=((PUNG, kind),))


def outcome(line: str) -> Any:
    try:
        return score_hand(line, rules="putian").to_dict()
    except HandError as exc:
        return str(exc)


def both(line: str) -> tuple[Any, Any]:
    """The outcome with the display classes, and without (patched by hand: hypothesis runs many in one test)."""
    pruned = outcome(line)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(putian, "jokers", unpruned)  # the sweep's
        patch.setattr(putian.search, "jokers", unpruned)  # the readings'
        return pruned, outcome(line)


def test_the_issues_hand_shows_the_same_reading() -> None:
    for line in (CRAFTED_PUTIAN, CRAFTED_QIANG_JIN):
        pruned, full = both(line)
        assert pruned == full
    assert isinstance(pruned, dict) and pruned["arrangement"]  # a winning hand, not an error on both sides


@SETTINGS
@given(
    pins=st.lists(st.integers(1, 9), min_size=13, max_size=14),
    jin=st.sampled_from(["9s", "5p", "E"]),
    self_drawn=st.booleans(),
    data=st.data(),
)
def test_one_suit_hands_with_several_jin_score_as_unpruned(
    pins: list[int], jin: str, self_drawn: bool, data: st.DataObject
) -> None:
    tiles = [f"{p}p" for p in pins] + [jin] * (17 - len(pins))
    win = tiles.pop(data.draw(st.integers(0, len(tiles) - 1)))
    line = f"{' '.join(tiles)} +{win} wild:{jin} seat:S" + (" self" if self_drawn else "")
    pruned, full = both(line)
    assert pruned == full, line
