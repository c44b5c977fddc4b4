"""Lingxi's arithmetic lines: the tai add up, then double."""

from __future__ import annotations

from ...arithmetic_lines import added, values
from ...models import HandScore
from ...said import said


def lines(score: HandScore) -> list[str]:
    """The tai add up; the winner's total at or over `double_at` doubles (翻)."""
    subtotal = score.subtotal
    lines: list[str] = [said("arith.lingxi.tai", sum=added(values(score, "tai")))]
    if score.doubled:
        lines.append(said("arith.lingxi.doubled", subtotal=subtotal, total=score.total))
    else:
        why = "arith.lingxi.under_double_at" if score.winner else "arith.lingxi.non_winner"
        lines.append(said(why, subtotal=subtotal))
    return lines
