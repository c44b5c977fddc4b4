"""Putian's arithmetic lines: the 底分 times the winning type."""

from __future__ import annotations

from ...arithmetic import added, values
from ...models import HandScore
from .hand import WIN_TYPES


def lines(score: HandScore) -> list[str]:
    """底分 = 底 + 分; the winner is paid it times the winning type's multiplier, each payer a part."""
    base = score.subtotal  # the total too, unless a table counts the hand 0
    lines = [f"底分: {added(values(score, 'fen'))} fen"]
    for item in score.items:
        if item.unit != "multiplier":
            continue
        win = WIN_TYPES[item.key]
        who = {"each": "each other pays", "discarder": "the discarder pays"}[win.payers]
        if item.key == "qiang_gang":
            who = "the kong player pays"
        lines.append(
            f"winning type ×{win.multiplier}: the winner gets {base} × {win.multiplier} = {base * win.multiplier}; "
            f"{who} {base} × {win.pays} = {base * win.pays}"
        )
    return lines
