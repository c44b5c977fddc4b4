"""Jinhua's arithmetic lines: the hand types multiply."""

from __future__ import annotations

from ...arithmetic_lines import non_winner, values
from ...models import HandScore
from ...said import said


def lines(score: HandScore) -> list[str]:
    """Every hand type that applies multiplies (Decision); a non-winner counts 0."""
    if not score.winner:
        return [non_winner(score)]
    factors = values(score, "multiplier")
    product = f"{' × '.join(map(str, factors))} = " if len(factors) > 1 else ""
    return [said("arith.jinhua.product", product=product, total=score.total)]
