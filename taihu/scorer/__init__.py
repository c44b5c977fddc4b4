"""taihu's pure scoring core: notation, arrangement search, rule sets.

No I/O and no printing here; the CLI and the HTTP API are thin shells over
`score_hand` and `settle_table`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import ArgumentError, HandError, require
from .memo import clear_caches
from .models import Event, HandScore, Payment, PlayerTotal, RuleSetInfo, ScoreItem, ScoreRequest, Settlement, Table
from .notation import parse, to_text
from .rulesets import CONDITIONS, RULESETS, get
from .settlement import settle_table
from .waits import Discard, Discards, Wait, Waits, WinValue, waits


def score_hand(hand: str, rules: str = "lingxi", options: Mapping[str, Any] | None = None) -> HandScore:
    """Scores one hand line under a rule set; raises HandError on bad input (ArgumentError on a wrong type)."""
    require(hand, str, "hand", "a string of notation")
    require(rules, str, "rules", "a rule set name (a string)")
    require(options, (Mapping, type(None)), "options", "a mapping of option names to numbers (or None)")
    ruleset = get(rules)
    return ruleset.score(parse(hand, CONDITIONS[ruleset.name], ruleset.name.capitalize()), options, alone=True)


def rule_sets() -> list[RuleSetInfo]:
    return [r.info() for r in RULESETS.values()]


__all__ = [
    "HandError",
    "ArgumentError",
    "HandScore",
    "ScoreItem",
    "RuleSetInfo",
    "score_hand",
    "rule_sets",
    "parse",
    "to_text",
    "settle_table",
    "Table",
    "PlayerTotal",
    "Event",
    "Payment",
    "Settlement",
    "ScoreRequest",
    "waits",
    "Waits",
    "Wait",
    "WinValue",
    "Discard",
    "Discards",
    "clear_caches",
]
