"""MCR settlement (rules/mcr.md "Settlement"): 8 from each of the three, and the fan from whoever pays it.

Self-drawn, each of the other three pays 8 + the total (flowers included);
on a discard the discarder pays 8 + the total and the other two 8 each. A
false win (错和) costs the offender 10 to each of the other three, and the
others play on: the same table may name another winner. No dealer bonus,
no 包; the deal passes to the next seat after every deal.
"""

from __future__ import annotations

from ... import tiles as T
from ...errors import HandError, Joined, Text
from ...models import HandScore, Payment, Settlement, Table
from ...notation import ParsedHand
from ...said import said
from ...settlement import common as C
from ...settlement.common import DEALER, SEATS, settled
from . import RULE_SET
from .hand import SELF_DRAWN

BASE = 8  # what each of the three pays the winner before the fan
FALSE_WIN_PENALTY = 10  # to each of the other three


def settle(table: Table) -> Settlement:
    deal = C.open_deal(table, RULE_SET, RULE_SET.events, fouls_first=True)
    hands = _with_round(table, deal.hands)
    offenders = _false_winners(table)
    winner, discarder = table.winner, table.discarder
    C.check_tile_counts(hands, lambda kind: 1 if T.is_flower(kind) else 4)  # the hands as written, claims too
    hands = C.set_aside_false_claims(table, hands, RULE_SET, deal.options)  # an offender's claim wins nothing
    C.check_winner(table, hands)
    C.check_discarder(table, hands, self_drawn=sorted(SELF_DRAWN))  # 海底捞月 (last-tile) is won on a discard
    C.check_winner_hand(table, hands, "MCR")
    C.check_non_winners(table, hands, Text("error.total.mcr_non_winners"))
    scores = C.score_hands(hands, RULE_SET, deal.options)
    for seat in deal.fouls:
        scores[seat] = C.count_zero(scores[seat], said("note.foul"))
    payments: list[Payment] = []
    for offender in offenders:
        reason = said("reason.mcr.false_win", penalty=FALSE_WIN_PENALTY)
        payments += [
            Payment(from_=offender, to=s, amount=FALSE_WIN_PENALTY, reason=reason) for s in SEATS if s != offender
        ]
    if winner is not None:
        if winner in offenders or winner in deal.fouls:
            raise HandError.of("error.winner.mcr_offender", code="bad_winner", field="winner", winner=winner)
        score = scores[winner]
        assert isinstance(score, HandScore)  # check_winner_hand
        if not score.legal:
            raise HandError.at_seat(
                "error.winner.mcr_not_legal", winner, code="not_legal", named="winner", why=Joined(score.notes)
            )
        for seat in SEATS:
            if seat == winner:
                continue
            pays_fan = discarder is None or seat == discarder
            amount = BASE + score.total if pays_fan else BASE
            if pays_fan:
                how = "reason.mcr.self_drawn" if discarder is None else "reason.mcr.discarder"
                reason = said(how, base=BASE, total=score.total)
            else:
                reason = said("reason.mcr.base", base=BASE)
            payments.append(Payment(from_=seat, to=winner, amount=amount, reason=reason))
    return settled(table, scores, payments, C.next_seat(DEALER))  # the deal passes on every time


def _with_round(table: Table, hands: C.Hands) -> C.Hands:
    """Each hand with the table's prevalent wind (E unless given); a hand that repeats `round:` must agree."""
    round_wind = table.extra.get("round") or "E"
    out = dict(hands)
    for seat, hand in hands.items():
        if not isinstance(hand, ParsedHand):
            continue
        written = hand.values.get("round")
        if written is not None and written != round_wind:
            raise C.round_disagrees(seat, written, round_wind)
        out[seat] = hand.with_values(round=round_wind)
    return out


def _false_winners(table: Table) -> list[str]:
    return [event.seat for event in table.events if event.type == "false-win" and event.seat is not None]
