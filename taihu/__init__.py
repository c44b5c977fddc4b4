"""taihu: the hand-scoring calculator for the regional mahjong of Zhejiang and Fujian.

The public library API: `score_hand`, `settle_table`, `waits` and `HandError`. The
pure core lives in `taihu.scorer`; `taihu.cli` and `taihu.api` are thin shells.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from .scorer import (
    Event,
    HandError,
    HandScore,
    Payment,
    PlayerTotal,
    RuleSetInfo,
    ScoreItem,
    Settlement,
    Table,
    parse,
    rule_sets,
    score_hand,
    settle_table,
    to_text,
    waits,
)

try:
    __version__ = version("taihu")
except PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0+unknown"

__all__ = [
    "Event",
    "HandError",
    "HandScore",
    "Payment",
    "PlayerTotal",
    "RuleSetInfo",
    "ScoreItem",
    "Settlement",
    "Table",
    "__version__",
    "parse",
    "rule_sets",
    "score_hand",
    "settle_table",
    "to_text",
    "waits",
]
