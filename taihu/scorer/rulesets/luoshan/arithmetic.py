"""Luoshan's arithmetic lines: the hu add up, doubled once per tai, rounded up to 10."""

from __future__ import annotations

from ...arithmetic_lines import SUPERSCRIPT, added, kinds, non_winner, rounded, values
from ...models import HandScore
from ...said import said
from .items import TOTAL


def lines(score: HandScore) -> list[str]:
    """Base hu + 10 (底和, an item), doubled once per tai, rounded up to 10; a special hand is its fixed total."""
    if not score.winner:
        return [non_winner(score)]
    kind = kinds(score.rules)
    special = [i for i in score.items if kind[i.key] == TOTAL]
    if special:
        return [said("arith.luoshan.special", total=score.total)]
    hu, tai = values(score, "hu"), sum(values(score, "tai"))
    doubled = sum(hu) * 2**tai
    return [
        said("arith.luoshan.hu", sum=added(hu)),
        said("arith.luoshan.tai", sum=added(values(score, "tai"))),
        said(
            "arith.luoshan.doubled",
            hu=sum(hu),
            power=str(tai).translate(SUPERSCRIPT),
            total=rounded(doubled, score.total),
        ),
    ]
