"""The arithmetic each rule set does to reach a hand's total, as lines a player can check by hand.

`arithmetic(score)` asks the rule set of `score` (`RuleSet.arithmetic`: the
`arithmetic.lines` of its folder), which reads only the HandScore it explains
(the items, their units, the totals) and its own item data, so the lines show
the numbers the scorer used, in the order the rule set combines them. The
helpers here (`added`, `rounded`, `values`, `kinds`) are the ones they share.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import memo as M
from .models import HandScore
from .rulesets import get
from .said import Said, said

SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def arithmetic(score: HandScore) -> list[str]:
    """How the rule set of `score` reached its total, one step a line (`62 hu × 2³ = 496 → 500 hu`).

    A hand that a table counts 0 (a foul, a drawn deal, another's declared
    win) keeps what it scored; the last line says it counts 0, and why.
    """
    lines = get(score.rules).arithmetic(score)
    if score.total == 0 and score.subtotal > 0 and score.notes:  # settlement's count_zero: its note is the last
        lines.append(said("arith.counted_zero", note=score.notes[-1], unit=unit_word(score.unit)))
    return lines


def unit_word(unit: str) -> Said:
    """A unit's name as a word of a line (`tai`, `points`): its catalog text in each language."""
    return said(f"unit.{unit}")


def non_winner(score: HandScore) -> str:
    """The one line of a non-winner's arithmetic: `non-winner: 0 hu`."""
    return said("arith.non_winner", total=score.total, unit=unit_word(score.unit))


def added(values: Sequence[int]) -> str:
    """`4 + 4 + 32 = 40`; one value alone, without a sum; no value, 0."""
    if len(values) < 2:
        return str(values[0]) if values else "0"
    return f"{' + '.join(map(str, values))} = {sum(values)}"


def rounded(before: int, after: int) -> str:
    """`496 → 500` where a rounding changed the number, else the number."""
    return f"{before} → {after}" if before != after else str(after)


def values(score: HandScore, unit: str) -> list[int]:
    return [i.value for i in score.items if i.unit == unit]


@M.lru_cache("arithmetic.kinds", maxsize=8, bytes_per_entry=3000)
def kinds(rules: str) -> dict[str, str]:
    """Each item key of a rule set and its kind (`Item.kind`), from the rule set's item data."""
    return {item.key: item.kind for item in get(rules).items}
