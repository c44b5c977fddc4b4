"""The rule sets by name."""

from __future__ import annotations

from ..errors import HandError
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
        raise HandError(f"unknown rule set '{name}'; known: {', '.join(RULESETS)}")
    return RULESETS[name]
