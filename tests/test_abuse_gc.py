"""Issue 15, part 5: `taihu serve` warms up, then freezes its heap and sets the collector's thresholds.

The figures that chose the thresholds are machine-dependent (bench/gc_server.py,
docs/soak.md); these check only that the start-up does what it says.
"""

from __future__ import annotations

import gc

import pytest

from taihu.api import server
from taihu.scorer import rule_sets


def test_the_warm_up_scores_winning_hands_under_every_rule_set() -> None:
    wins = server.warm_up(60)
    assert set(wins) == {info.name for info in rule_sets()}, wins


def test_settle_heap_freezes_the_heap_and_sets_the_thresholds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server, "WARM_UP_HANDS", 6)
    thresholds = gc.get_threshold()
    try:
        server.settle_heap()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == server.GC_THRESHOLDS
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
