"""taihu: the hand-scoring calculator for the regional mahjong of Zhejiang and Fujian.

The public library API: `score_hand`, `settle_table`, `waits`, `arithmetic` and `HandError`. The
pure core lives in `taihu.scorer`; `taihu.cli` and `taihu.api` are thin shells.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from .scorer import (
    LATER,
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
    to_text,
)

if TYPE_CHECKING:
    from .scorer.arithmetic_lines import arithmetic
    from .scorer.settlement import settle_table
    from .scorer.waiting import waits

    __version__: str


def __getattr__(name: str) -> Any:
    """`__version__` and the core's names loaded on first use (`scorer.LATER`), so a start-up that needs none
    pays for none."""
    if name in LATER and name in __all__:
        from . import scorer

        return getattr(scorer, name)
    if name == "__version__":
        return _version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@cache
def _version() -> str:
    """The installed package's version, read once (a ledger's server asks for it with each deal it stores)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("taihu")
    except PackageNotFoundError:  # running from a checkout that was never installed
        return "0+unknown"


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
    "arithmetic",
    "parse",
    "rule_sets",
    "score_hand",
    "settle_table",
    "to_text",
    "waits",
]
