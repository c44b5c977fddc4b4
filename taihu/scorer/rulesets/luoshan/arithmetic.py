"""Luoshan's arithmetic lines: the hu add up, doubled once per tai, rounded up to 10."""

from __future__ import annotations

from ...arithmetic import SUPERSCRIPT, added, kinds, rounded, values
from ...models import HandScore
from ..base import TOTAL


def lines(score: HandScore) -> list[str]:
    """Base hu + 10 (底和, an item), doubled once per tai, rounded up to 10; a special hand is its fixed total."""
    if not score.winner:
        return [f"non-winner: {score.total} hu"]
    kind = kinds(score.rules)
    special = [i for i in score.items if kind[i.key] == TOTAL]
    if special:
        return [f"special hand: a fixed total, {score.total} hu"]
    hu, tai = values(score, "hu"), sum(values(score, "tai"))
    doubled = sum(hu) * 2**tai
    return [
        f"hu: {added(hu)}",
        f"tai: {added(values(score, 'tai'))}",
        f"{sum(hu)} hu × 2{str(tai).translate(SUPERSCRIPT)} = {rounded(doubled, score.total)} hu",
    ]
