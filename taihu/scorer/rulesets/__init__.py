"""The rule sets by name."""

from __future__ import annotations

from .. import memo as M
from ..errors import HandError, quote
from . import guannan, jinhua, lingxi, luoshan, putian
from .base import RuleSet
from .guannan import GUANNAN
from .jinhua import JINHUA
from .lingxi import LINGXI
from .luoshan import LUOSHAN
from .putian import PUTIAN
from .riichi import CONDITIONS as RIICHI_CONDITIONS
from .riichi import RIICHI

RULESETS: dict[str, RuleSet] = {r.name: r for r in (LINGXI, LUOSHAN, GUANNAN, PUTIAN, JINHUA, RIICHI)}
_MODULES = {"lingxi": lingxi, "luoshan": luoshan, "guannan": guannan, "putian": putian, "jinhua": jinhua}
CONDITIONS: dict[str, frozenset[str]] = {name: module.CONDITIONS for name, module in _MODULES.items()}
CONDITIONS["riichi"] = RIICHI_CONDITIONS
# the counting rule sets' hand sizes, for "did you mean --rules …" (riichi, 13 like Luoshan, uses them too)
HAND_SIZES: dict[str, int] = {name: module.HAND_SIZE for name, module in _MODULES.items()}
# Any case, and the Chinese names in simplified and traditional forms: `-r LINGXI`, `-r 灌南`, rules="灵溪".
_NAMES = {
    **{r.chinese: r for r in RULESETS.values()},
    "靈溪": LINGXI,
    "金華": JINHUA,
}


def get(name: str) -> RuleSet:
    """The rule set by its name in any case, or its Chinese name; the answer's `rules` is the canonical name."""
    found = RULESETS.get(name) or (RULESETS.get(name.strip().lower()) or _NAMES.get(name.strip()))
    if found is None:
        raise HandError(f"unknown rule set '{quote(name)}'; known: {', '.join(RULESETS)}", code="unknown_rules")
    return found


def _item_lines() -> int:
    return sum(len(item.lines) for rule_set in RULESETS.values() for item in rule_set.items)


def _clear_item_lines() -> None:
    for rule_set in RULESETS.values():
        for item in rule_set.items:
            item.lines.clear()


# each item's ScoreItem per (value, detail) scored so far (base.score_item)
M.register("rulesets.item_lines", _item_lines, _clear_item_lines, bytes_per_entry=700)
