"""Riichi's arithmetic lines: han and fu to the basic points, the limit and the payments."""

from __future__ import annotations

from ...arithmetic import added, rounded, values
from ...models import HandScore
from ...notation import parse_red_fives
from .fu import MANGAN, TIERS


def limit_points(limit: str) -> int:
    """The basic points of a limit by its name (`haneman` 3000, `yakuman x2` 16000, `kazoe yakuman` 8000)."""
    name, _, times = limit.removeprefix("kazoe ").partition(" x")
    points = {tier: value for _, value, tier in TIERS} | {"mangan": MANGAN}
    return points[name] * int(times or 1)


def lines(score: HandScore) -> list[str]:
    """Han and fu give the basic points (or a limit's); the payments are multiples of them, each rounded
    up to 100, plus the counters (本场); the riichi sticks go to the winner on top."""
    if not score.winner:
        return [f"non-winner: {score.total} points"]
    if not score.items:
        return [f"no yaku: {score.total} points"]
    han, fu, limit = score.subtotal, score.fu or 0, score.limit or ""
    lines = [f"han: {added(values(score, 'han'))}"]
    if fu:  # a yakuman has none
        fus = [line.value for line in score.fu_details or []]
        lines.append(f"fu: {added(fus)}" + (f" → {fu}" if sum(fus) != fu else ""))
    lines.append(basic_line(han, fu, limit))
    basic = limit_points(limit) if limit else fu * 2 ** (han + 2)
    hand = parse_red_fives(score.hand)  # the canonical line: its seat, counters and sticks as scored
    return lines + payment_lines(basic, (hand.seat or "E") == "E", hand.honba or 0, hand.sticks or 0, score)


def basic_line(han: int, fu: int, limit: str) -> str:
    formula = f"{fu} fu × 2^({han} + 2) = {fu * 2 ** (han + 2)}"
    if not limit:
        return f"basic points: {formula}"
    if limit == "mangan" and han < 5:
        why = "over 2000" if fu * 2 ** (han + 2) > MANGAN else "kiriage"
        return f"basic points: {formula}, {why}: mangan {MANGAN}"
    return f"basic points: {han} han, {limit} {limit_points(limit)}"


def payment_lines(basic: int, dealer: bool, honba: int, sticks: int, score: HandScore) -> list[str]:
    """Who pays what (a multiple of the basic points rounded up to 100, plus the counters), then the total."""
    payments = score.payments or {}
    if "discarder" in payments:  # (who, how many pay, × basic, counters each)
        payers = [("the discarder pays", 1, 6 if dealer else 4, 300 * honba)]
    elif "each" in payments:
        payers = [("each other pays", 3, 2, 100 * honba)]
    else:
        payers = [("the dealer pays", 1, 2, 100 * honba), ("each non-dealer pays", 2, 1, 100 * honba)]
    lines, amounts = [], []
    for who, count, times, counters in payers:
        amount = up(basic * times)
        shown = f"{who} {times} × {basic} = {rounded(basic * times, amount)}"
        if counters:
            shown += f" + {counters} honba = {amount + counters}"
        lines.append(shown)
        amounts.append(f"{count} × {amount + counters}" if count > 1 else str(amount + counters))
    paid = score.total - 1000 * sticks
    total = f"total: {' + '.join(amounts)}" + (f" = {paid}" if len(amounts) > 1 or "×" in amounts[0] else "")
    if sticks:
        total += f" + {1000 * sticks} sticks = {score.total}"
    return [*lines, total + " points"]


def up(points: int) -> int:
    return -(-points // 100) * 100
