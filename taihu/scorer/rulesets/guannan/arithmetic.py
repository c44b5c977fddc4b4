"""Guannan's arithmetic lines: the one hand type is the total."""

from __future__ import annotations

from ...arithmetic_lines import non_winner
from ...models import HandScore
from ...said import said


def lines(score: HandScore) -> list[str]:
    """Exactly one hand type applies, the highest: its (house) value is the total."""
    if not score.items:  # a winning shape always has a hand type
        return [non_winner(score)]
    return [said("arith.guannan.total", total=score.total)]
