"""MCR's arithmetic lines: the fan add up; the minimum reads them without the flowers."""

from __future__ import annotations

from ...arithmetic import non_winner
from ...models import HandScore
from ...said import said
from .hand import MINIMUM


def lines(score: HandScore) -> list[str]:
    if not score.winner:
        return [non_winner(score)]
    fan = [item for item in score.items if item.key != "hua_pai"]
    flowers = score.total - score.subtotal
    out = [said("arith.mcr.fan", sum=" + ".join(str(item.value) for item in fan), subtotal=score.subtotal)]
    if flowers:
        out.append(said("arith.mcr.flowers", subtotal=score.subtotal, flowers=flowers, total=score.total))
    out.append(said("arith.mcr.minimum" if score.legal else "arith.mcr.below", subtotal=score.subtotal, minimum=MINIMUM))
    return out
