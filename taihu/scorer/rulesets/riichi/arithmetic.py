"""Riichi's arithmetic lines: han and fu to the basic points, the limit and the payments."""

from __future__ import annotations

from ...arithmetic_lines import added, non_winner, rounded, values
from ...models import HandScore
from ...notation import parse
from ...said import said
from .fu import MANGAN, TIERS
from .hand import deal_of


def limit_points(limit: str) -> int:
    """The basic points of a limit by its name (`haneman` 3000, `yakuman x2` 16000, `kazoe yakuman` 8000)."""
    name, _, times = str(limit).removeprefix("kazoe ").partition(" x")
    points = {tier: value for _, value, tier in TIERS} | {"mangan": MANGAN}
    return points[name] * int(times or 1)


def lines(score: HandScore) -> list[str]:
    """Han and fu give the basic points (or a limit's); the payments are multiples of them, each rounded
    up to 100, plus the counters (本场); the riichi sticks go to the winner on top."""
    if not score.winner:
        return [non_winner(score)]
    if not score.items:
        return [said("arith.riichi.no_yaku", total=score.total)]
    han, fu, limit = score.subtotal, score.extra["fu"] or 0, score.extra["limit"] or ""
    lines: list[str] = [said("arith.riichi.han", sum=added(values(score, "han")))]
    if fu:  # a yakuman has none
        fus = [line.value for line in score.extra["fu_details"] or []]
        if sum(fus) != fu:
            lines.append(said("arith.riichi.fu_rounded", sum=added(fus), fu=fu))
        else:
            lines.append(said("arith.riichi.fu", sum=added(fus)))
    lines.append(basic_line(han, fu, limit))
    basic = limit_points(limit) if limit else fu * 2 ** (han + 2)
    hand = parse(score.hand, rules="riichi")  # the canonical line: its seat, counters and sticks as scored
    deal = deal_of(hand)
    return lines + payment_lines(basic, (hand.seat or "E") == "E", deal.honba or 0, deal.sticks or 0, score)


def basic_line(han: int, fu: int, limit: str) -> str:
    formula = said("arith.riichi.formula", fu=fu, han=han, points=fu * 2 ** (han + 2))
    if not limit:
        return said("arith.riichi.basic", formula=formula)
    if limit == "mangan" and han < 5:
        why = "arith.riichi.over_mangan" if fu * 2 ** (han + 2) > MANGAN else "arith.riichi.kiriage"
        return said(why, formula=formula, mangan=MANGAN)
    return said("arith.riichi.limit", han=han, limit=limit, points=limit_points(limit))


def payment_lines(basic: int, dealer: bool, honba: int, sticks: int, score: HandScore) -> list[str]:
    """Who pays what (a multiple of the basic points rounded up to 100, plus the counters), then the total."""
    payments = score.extra["payments"] or {}
    if "discarder" in payments:  # (who, how many pay, × basic, counters each)
        payers = [("arith.discarder_pays", 1, 6 if dealer else 4, 300 * honba)]
    elif "each" in payments:
        payers = [("arith.each_other_pays", 3, 2, 100 * honba)]
    else:
        payers = [("arith.dealer_pays", 1, 2, 100 * honba), ("arith.each_non_dealer_pays", 2, 1, 100 * honba)]
    lines: list[str] = []
    amounts = []
    for who, count, times, counters in payers:
        amount = up(basic * times)
        shown = {"who": said(who), "times": times, "basic": basic, "amount": rounded(basic * times, amount)}
        if counters:
            lines.append(said("arith.riichi.pays_honba", **shown, counters=counters, owed=amount + counters))
        else:
            lines.append(said("arith.riichi.pays", **shown))
        amounts.append(f"{count} × {amount + counters}" if count > 1 else str(amount + counters))
    paid = score.total - 1000 * sticks
    summed = len(amounts) > 1 or "×" in amounts[0]
    total = {"amounts": " + ".join(amounts)} | ({"paid": paid} if summed else {})
    if sticks:
        code = "arith.riichi.total_sum_sticks" if summed else "arith.riichi.total_sticks"
        return [*lines, said(code, **total, sticks=1000 * sticks, total=score.total)]
    return [*lines, said("arith.riichi.total_sum" if summed else "arith.riichi.total", **total)]


def up(points: int) -> int:
    return -(-points // 100) * 100
