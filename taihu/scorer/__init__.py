"""taihu's pure scoring core: notation, arrangement search, rule sets.

No I/O and no printing here; the CLI and the HTTP API are thin shells over
`score_hand` and `settle_table`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .errors import ArgumentError, HandError, require
from .memo import clear_caches
from .models import Event, HandScore, Payment, PlayerTotal, RuleSetInfo, ScoreItem, Settlement, Table
from .notation import parse, to_text
from .rulesets import DEFAULT_RULES, RULESETS, get

if TYPE_CHECKING:
    from .arithmetic_lines import arithmetic
    from .batch import score_batch, settle_batch
    from .settlement import settle_table
    from .waiting import Discard, Discards, Wait, Waits, WinValue, waits

# imported on first use: `taihu score` needs neither the settlement nor the waits search
LATER = {
    "settle_table": "settlement",
    "arithmetic": "arithmetic_lines",
    "score_batch": "batch",
    "settle_batch": "batch",
}
LATER |= dict.fromkeys(("Discard", "Discards", "Wait", "Waits", "WinValue", "waits"), "waiting")


def score_hand(hand: str, rules: str = DEFAULT_RULES, options: Mapping[str, Any] | None = None) -> HandScore:
    """Scores one hand line under a rule set; raises HandError on bad input (ArgumentError on a wrong type)."""
    # fast path for the common call (exact types, a loaded rule set by its own name): the same score,
    # without the argument checks and the name lookup `checked_score` makes
    if type(hand) is str and type(rules) is str and (options is None or type(options) is dict):
        ruleset = RULESETS.values_made.get(rules)
        if ruleset is not None:
            return ruleset.score_line(hand, options)
    return checked_score(hand, rules, options)


def checked_score(hand: str, rules: str = DEFAULT_RULES, options: Mapping[str, Any] | None = None) -> HandScore:
    """`score_hand` with every argument checked and the rule set found by any of its names."""
    require(hand, str, "hand", "error.argument.hand")
    require(rules, str, "rules", "error.argument.rules")
    # None first: the common call pays no Mapping (ABC) check
    require(options, (type(None), Mapping), "options", "error.argument.options")
    return get(rules).score_line(hand, options)


def rule_sets() -> list[RuleSetInfo]:
    return [r.info() for r in RULESETS.values()]


def __getattr__(name: str) -> Any:
    """The names of LATER, from their module imported on first use."""
    if name in LATER:
        from importlib import import_module

        return getattr(import_module(f"{__name__}.{LATER[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "HandError",
    "ArgumentError",
    "HandScore",
    "ScoreItem",
    "RuleSetInfo",
    "score_hand",
    "arithmetic",
    "rule_sets",
    "parse",
    "to_text",
    "settle_table",
    "score_batch",
    "settle_batch",
    "Table",
    "PlayerTotal",
    "Event",
    "Payment",
    "Settlement",
    "waits",
    "Waits",
    "Wait",
    "WinValue",
    "Discard",
    "Discards",
    "clear_caches",
]
