"""taihu's pure scoring core: notation, arrangement search, rule sets.

No I/O and no printing here; the CLI and the HTTP API are thin shells over
`score_hand` and `settle_table`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import HandError
from .models import Event, HandScore, Payment, PlayerTotal, RuleSetInfo, ScoreItem, ScoreRequest, Settlement, Table
from .notation import parse, parse_red_fives, to_text
from .rulesets import RULESETS, get
from .settlement import settle_table


def score_hand(hand: str, rules: str = "lingxi", options: Mapping[str, Any] | None = None) -> HandScore:
    """Scores one hand line under a rule set; raises HandError on bad input."""
    ruleset = get(rules)
    return ruleset.score(parse_red_fives(hand) if ruleset.red_fives else parse(hand), options)


def rule_sets() -> list[RuleSetInfo]:
    return [r.info() for r in RULESETS.values()]


__all__ = [
    "HandError",
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
]
