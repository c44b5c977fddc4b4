"""MCR's arithmetic lines: the fan add up; the minimum reads them without the flowers, the payment with them."""

from __future__ import annotations

from ...arithmetic_lines import added, non_winner
from ...models import HandScore
from ...said import said
from .hand import MINIMUM


def lines(score: HandScore) -> list[str]:
    if not score.winner:
        return [non_winner(score)]
    fan = [item.value for item in score.items if item.key != "hua_pai"]
    flowers = score.total - score.subtotal
    out: list[str] = [
        said("arith.mcr.minimum" if score.legal else "arith.mcr.below", subtotal=score.subtotal, minimum=MINIMUM),
        said("arith.mcr.fan", sum=added(fan)),
    ]
    if flowers:
        out.append(said("arith.mcr.flowers", sum=added([score.subtotal, flowers])))
    return out
