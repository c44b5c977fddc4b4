"""Guannan's arithmetic lines: the one hand type is the total."""

from __future__ import annotations

from ...models import HandScore


def lines(score: HandScore) -> list[str]:
    """Exactly one hand type applies, the highest: its (house) value is the total."""
    if not score.items:  # a winning shape always has a hand type
        return [f"non-winner: {score.total} points"]
    return [f"one hand type counts, the highest: {score.total} points"]
