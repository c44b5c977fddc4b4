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
from .notation import parse, parse_red_fives, to_text
from .rulesets import CONDITIONS, RULESETS, get
from .waits import Discard, Discards, Wait, Waits, WinValue, waits

if TYPE_CHECKING:
    from .settlement import settle_table


def score_hand(hand: str, rules: str = "lingxi", options: Mapping[str, Any] | None = None) -> HandScore:
    """Scores one hand line under a rule set; raises HandError on bad input (ArgumentError on a wrong type)."""
    require(hand, str, "hand", "a string of notation")
    require(rules, str, "rules", "a rule set name (a string)")
    # None first: the common call pays no Mapping (ABC) check
    require(options, (type(None), Mapping), "options", "a mapping of option names to numbers (or None)")
    ruleset = get(rules)
    read = parse_red_fives if ruleset.red_fives else parse
    return ruleset.score(read(hand, CONDITIONS[ruleset.name], ruleset.name.capitalize()), options, alone=True)


def rule_sets() -> list[RuleSetInfo]:
    return [r.info() for r in RULESETS.values()]


def __getattr__(name: str) -> Any:
    """`settle_table` imports the settlement modules on first use: `taihu score` never needs them."""
    if name == "settle_table":
        from .settlement import settle_table

        return settle_table
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    "waits",
    "Waits",
    "Wait",
    "WinValue",
    "Discard",
    "Discards",
    "clear_caches",
]
