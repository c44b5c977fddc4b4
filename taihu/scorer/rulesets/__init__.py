"""The rule sets by name."""

from __future__ import annotations

from .. import memo as M
from ..errors import HandError, quote
from .base import RuleSet
from .guannan import GUANNAN
from .jinhua import JINHUA
from .lingxi import LINGXI
from .luoshan import LUOSHAN
from .putian import PUTIAN
from .riichi import RIICHI

RULESETS: dict[str, RuleSet] = {r.name: r for r in (LINGXI, LUOSHAN, GUANNAN, PUTIAN, JINHUA, RIICHI)}


def get(name: str) -> RuleSet:
    if name not in RULESETS:
        raise HandError(f"unknown rule set '{quote(name)}'; known: {', '.join(RULESETS)}")
    return RULESETS[name]


def _item_lines() -> int:
    return sum(len(item.lines) for rule_set in RULESETS.values() for item in rule_set.items)


def _clear_item_lines() -> None:
    for rule_set in RULESETS.values():
        for item in rule_set.items:
            item.lines.clear()


# each item's ScoreItem per (value, detail) scored so far (base.score_item)
M.register("rulesets.item_lines", _item_lines, _clear_item_lines, bytes_per_entry=700)
