"""The arithmetic each rule set does to reach a hand's total, as lines a player can check by hand.

`arithmetic(score)` reads only the HandScore it explains (the items, their
units, the totals) and the rule set's own item data (which kind an item is,
Putian's winning types), so the lines show the numbers the scorer used, in
the order the rule set combines them: Lingxi adds the tai and doubles;
Luoshan adds the hu, counts the tai and doubles the hu once per tai, then
rounds up to 10; Putian adds the 底分 and multiplies it by the winning type;
Jinhua multiplies; Guannan takes the one hand type; riichi goes from han
and fu to the basic points, the limit and the payments.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from . import memo as M
from .models import HandScore
from .notation import parse_red_fives
from .rulesets import get
from .rulesets.base import TOTAL

SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def arithmetic(score: HandScore) -> list[str]:
    """How the rule set of `score` reached its total, one step a line (`62 hu × 2³ = 496 → 500 hu`).

    A hand that a table counts 0 (a foul, a drawn deal, another's declared
    win) keeps what it scored; the last line says it counts 0, and why.
    """
    lines = RULE_SETS[get(score.rules).name](score)
    if score.total == 0 and score.subtotal > 0 and score.notes:  # settlement's count_zero: its note is the last
        lines.append(f"counted 0 at this table ({score.notes[-1]}): 0 {score.unit}")
    return lines


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


def lingxi(score: HandScore) -> list[str]:
    """The tai add up; the winner's total at or over `double_at` doubles (翻)."""
    subtotal = score.subtotal
    lines = [f"{added(values(score, 'tai'))} tai"]
    if score.doubled:
        lines.append(f"doubled (≥ double_at): {subtotal} × 2 = {score.total} tai")
    else:
        why = "under double_at" if score.winner else "a non-winner"
        lines.append(f"not doubled ({why}): {subtotal} tai")
    return lines


@M.lru_cache("arithmetic.kinds", maxsize=8, bytes_per_entry=3000)
def kinds(rules: str) -> dict[str, str]:
    """Each item key of a rule set and its kind (`Item.kind`), from the rule set's item data."""
    return {item.key: item.kind for item in get(rules).items}


def luoshan(score: HandScore) -> list[str]:
    """Base hu + 10 (底和, an item), doubled once per tai, rounded up to 10; a special hand is its fixed total."""
    if not score.winner:
        return [f"non-winner: {score.total} hu"]
    kind = kinds(score.rules)
    special = [i for i in score.items if kind[i.key] == TOTAL]
    if special:
        return [f"special hand: a fixed total, {score.total} hu"]
    hu, tai = values(score, "hu"), sum(values(score, "tai"))
    doubled = sum(hu) * 2**tai
    return [
        f"hu: {added(hu)}",
        f"tai: {added(values(score, 'tai'))}",
        f"{sum(hu)} hu × 2{str(tai).translate(SUPERSCRIPT)} = {rounded(doubled, score.total)} hu",
    ]


def putian(score: HandScore) -> list[str]:
    """底分 = 底 + 分; the winner is paid it times the winning type's multiplier, each payer a part."""
    from .rulesets.putian import WIN_TYPES  # a rule set's module only for its own hands

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


def jinhua(score: HandScore) -> list[str]:
    """Every hand type that applies multiplies (Decision); a non-winner counts 0."""
    if not score.winner:
        return [f"non-winner: {score.total} bei"]
    factors = values(score, "multiplier")
    product = f"{' × '.join(map(str, factors))} = " if len(factors) > 1 else ""
    return [f"{product}{score.total} bei"]


def guannan(score: HandScore) -> list[str]:
    """Exactly one hand type applies, the highest: its (house) value is the total."""
    if not score.items:  # a winning shape always has a hand type
        return [f"non-winner: {score.total} points"]
    return [f"one hand type counts, the highest: {score.total} points"]


def limit_points(limit: str) -> int:
    """The basic points of a limit by its name (`haneman` 3000, `yakuman x2` 16000, `kazoe yakuman` 8000)."""
    from .rulesets.riichi.fu import MANGAN, TIERS

    name, _, times = limit.removeprefix("kazoe ").partition(" x")
    points = {tier: value for _, value, tier in TIERS} | {"mangan": MANGAN}
    return points[name] * int(times or 1)


def riichi(score: HandScore) -> list[str]:
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
    from .rulesets.riichi.fu import MANGAN

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


RULE_SETS: dict[str, Callable[[HandScore], list[str]]] = {
    "lingxi": lingxi,
    "luoshan": luoshan,
    "putian": putian,
    "jinhua": jinhua,
    "guannan": guannan,
    "riichi": riichi,
}
