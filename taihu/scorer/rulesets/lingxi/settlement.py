"""Lingxi settlement (rules/lingxi.md, "Settlement" 1–8)."""

from __future__ import annotations

from ... import tiles as T
from ...errors import HandError, Joined, Text
from ...models import HandScore, Payment, Settlement, Table
from ...notation import ParsedHand, to_text
from ...said import said
from ...settlement import common as C
from ...settlement.common import DEALER, SEATS, dealer_x2, settled
from . import LINGXI
from .hand import copies

FALSE_WIN_PENALTY = 26
DECLARED = {"sha-zhu": "note.lingxi.declare.sha_zhu", "hua-hu": "note.lingxi.declare.hua_hu"}  # each, as a word


def settle(table: Table) -> Settlement:
    deal = C.open_deal(table, LINGXI, LINGXI.events, fouls_first=False)
    wild, flip = deal.wild, deal.flip
    if flip is not None:
        raise HandError.of("error.table.lingxi_flip", code="bad_wild", field="flip", tile=T.name(flip))
    if wild is not None and len(wild) != 2:
        raise HandError.of("error.table.lingxi_wild", code="bad_wild", field="wild", count=len(wild))
    events = _lingxi_events(table)
    hands = C.check_claims(deal, lambda kind: copies(kind, wild or ()))
    liable = events.get("liable")
    liable_winner = C.liable_hand(table, hands, liable, "包赔") if liable is not None else None
    scores = C.score_hands(hands, LINGXI, deal.options)
    winner = table.winner
    if liable is not None and liable_winner is not None and winner is not None:
        score = scores[winner]
        assert isinstance(score, HandScore)  # liable_hand: the winner's hand is written
        _check_liable(liable, winner, liable_winner, score)
    if "false-win" in events:  # 5: the penalty and nothing else; the deal passes on
        offender = table.events[events["false-win"]].seat
        return settled(table, scores, _penalty(offender), C.next_seat(DEALER))
    for seat, why in _zeroed(table, hands).items():  # 6, declared wins, 7
        scores[seat] = C.count_zero(scores[seat], why)
    if winner is None:
        return settled(table, scores, [], DEALER)
    tai = {seat: score.total for seat, score in scores.items()}
    liable_seat = table.events[liable].seat if liable is not None else None
    payments = _to_winner(winner, tai[winner], liable_seat) + _differences(winner, tai)
    return settled(table, scores, payments, C.dealer_stays(winner))  # 8


def _lingxi_events(table: Table) -> dict[str, int]:
    """Checks the events against the deal; returns the index of the false win and the liable one."""
    winner = table.winner
    found: dict[str, int] = {}
    for i, event in enumerate(table.events):
        if event.type in ("false-win", "liable") and event.type in found:
            twice = "error.event.one_false_win" if event.type == "false-win" else "error.event.one_liable_lingxi"
            raise C.event_error(twice, i)
        if event.type == "false-win" and winner is not None:
            raise C.event_error("error.event.false_win_winner", i)
        found.setdefault(event.type, i)
    C.foul_seats(table)
    return found


def _zeroed(table: Table, hands: C.Hands) -> dict[str, str]:
    """Who counts 0 tai, and why: everyone in a drawn hand, all but a declared winner, a foul."""
    winner = table.winner
    if winner is None:
        return {seat: said("note.drawn") for seat in SEATS}
    zeroed: dict[str, str] = {}
    hand = hands[winner]
    if isinstance(hand, ParsedHand) and hand.declare:
        why = said("note.declared_elsewhere", winner=winner, declared=said(DECLARED[hand.declare]))
        zeroed = {s: why for s in SEATS if s != winner}
    for seat in C.foul_seats(table):
        zeroed[seat] = said("note.foul_in", unit=said("unit.tai"))
    return zeroed


def _penalty(offender: str) -> list[Payment]:
    """5: a false win pays 26 to each other player, doubled to or from the dealer."""
    payments = []
    for other in SEATS:
        if other != offender:
            amount, reason = dealer_x2(offender, other, FALSE_WIN_PENALTY, said("reason.false_win"))
            payments.append(Payment(from_=offender, to=other, amount=amount, reason=reason))
    return payments


def _to_winner(winner: str, tai: int, liable: str | None) -> list[Payment]:
    """1, 3, 4: each other player pays the winner's tai (x2 with the dealer), or the liable one pays it all."""
    payments = []
    for seat in SEATS:
        if seat == winner or not tai:
            continue
        why = (
            said("reason.winner_liable", seat=seat) if liable is not None and liable != seat else said("reason.winner")
        )
        amount, reason = dealer_x2(seat, winner, tai, why)
        payments.append(Payment(from_=liable or seat, to=winner, amount=amount, reason=reason))
    return payments


def _differences(winner: str, tai: dict[str, int]) -> list[Payment]:
    """2, 3: each pair of non-winners settles the difference, x2 with the dealer."""
    payments = []
    for payer, payee, diff in C.pairwise([s for s in SEATS if s != winner], tai):
        amount, reason = dealer_x2(payer, payee, diff, said("reason.difference", difference=diff))
        payments.append(Payment(from_=payer, to=payee, amount=amount, reason=reason))
    return payments


def _check_liable(index: int, winner: str, hand: ParsedHand, score: HandScore) -> None:
    """Lingxi's 包赔 is only for 四风齐 on three wind pungs/kongs exposed `[..]` (Decision 2026-11-30).

    A concealed kong `(..)` was fed by nobody, so it does not count.
    """
    exposed = [m for m in hand.melds if not m.concealed and T.is_wind(m.tiles[0]) and len(set(m.tiles)) == 1]
    problems = []
    if not any(item.key == "si_feng_qi" for item in score.items):
        problems.append(Text("error.liable.lingxi_no_si_feng_qi"))
    if len(exposed) < 3:
        shown = " ".join(m.source or m.text() for m in exposed)
        problems.append(
            Text(
                "error.liable.lingxi_exposed_one" if len(exposed) == 1 else "error.liable.lingxi_exposed",
                count=len(exposed),
                shown=f" ({shown})" if shown else "",
            )
        )
    if problems:
        raise C.event_error(
            "error.liable.lingxi",
            index,
            winner=winner,
            hand=to_text(hand),
            problems=Joined(problems),
        )
