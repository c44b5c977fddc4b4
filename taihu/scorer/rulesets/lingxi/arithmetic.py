"""Lingxi's arithmetic lines: the tai add up, then double."""

from __future__ import annotations

from ...arithmetic import added, values
from ...models import HandScore


def lines(score: HandScore) -> list[str]:
    """The tai add up; the winner's total at or over `double_at` doubles (翻)."""
    subtotal = score.subtotal
    lines = [f"{added(values(score, 'tai'))} tai"]
    if score.doubled:
        lines.append(f"doubled (≥ double_at): {subtotal} × 2 = {score.total} tai")
    else:
        why = "under double_at" if score.winner else "a non-winner"
        lines.append(f"not doubled ({why}): {subtotal} tai")
    return lines
