"""Jinhua's arithmetic lines: the hand types multiply."""

from __future__ import annotations

from ...arithmetic import values
from ...models import HandScore


def lines(score: HandScore) -> list[str]:
    """Every hand type that applies multiplies (Decision); a non-winner counts 0."""
    if not score.winner:
        return [f"non-winner: {score.total} bei"]
    factors = values(score, "multiplier")
    product = f"{' × '.join(map(str, factors))} = " if len(factors) > 1 else ""
    return [f"{product}{score.total} bei"]
