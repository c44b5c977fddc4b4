"""Putian's arithmetic lines: the 底分 times the winning type."""

from __future__ import annotations

from ...arithmetic_lines import added, values
from ...models import HandScore
from ...said import said
from .hand import WIN_TYPES

WHO_PAYS = {"each": "arith.each_other_pays", "discarder": "arith.discarder_pays"}


def lines(score: HandScore) -> list[str]:
    """底分 = 底 + 分; the winner is paid it times the winning type's multiplier, each payer a part."""
    base = score.subtotal  # the total too, unless a table counts the hand 0
    lines: list[str] = [said("arith.putian.base", sum=added(values(score, "fen")))]
    for item in score.items:
        if item.unit != "multiplier":
            continue
        win = WIN_TYPES[item.key]
        who = said("arith.kong_player_pays" if item.key == "qiang_gang" else WHO_PAYS[win.payers])
        lines.append(
            said(
                "arith.putian.win_type",
                multiplier=win.multiplier,
                base=base,
                gets=base * win.multiplier,
                who=who,
                pays=win.pays,
                paid=base * win.pays,
            )
        )
    return lines
