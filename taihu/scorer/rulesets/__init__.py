"""The rule sets by name."""

from __future__ import annotations

from ..errors import HandError, quote
from .base import RuleSet
from .guannan import GUANNAN
from .jinhua import JINHUA
from .lingxi import LINGXI
from .luoshan import LUOSHAN
from .putian import PUTIAN

RULESETS: dict[str, RuleSet] = {r.name: r for r in (LINGXI, LUOSHAN, GUANNAN, PUTIAN, JINHUA)}


def get(name: str) -> RuleSet:
    if name not in RULESETS:
        raise HandError(f"unknown rule set '{quote(name)}'; known: {', '.join(RULESETS)}")
    return RULESETS[name]
