"""Luoshan settlement (rules/luoshan.md "Settlement"): the winner is paid its total by each other player.

筹码统一: the same amount from all three whether self-drawn or on a discard,
no dealer doubling, and non-winners count nothing, so only the winner's hand
matters; it must be a legal win (the minimums of "A legal win").
"""

from __future__ import annotations

from ... import tiles as T
from ...errors import HandError, Joined, Text
from ...models import HandScore, Payment, Settlement, Table
from ...said import said
from ...settlement.common import DEALER, SEATS, open_deal, score_winner_only, settled
from . import LUOSHAN
from .hand import LUOSHAN_TILES, NOT_LEGAL_CODES


def settle(table: Table) -> Settlement:
    deal = open_deal(table, LUOSHAN, LUOSHAN.events, fouls_first=True)
    check_wildcard(deal.wild, deal.flip)
    scores = score_winner_only(
        deal,
        "Luoshan",
        Text("error.total.luoshan_non_winners"),
        lambda kind: 4,  # the flipped indicator is not out of play: four of every kind over the table
        lambda kind: "",
    )
    winner = table.winner
    payments: list[Payment] = []
    if winner is not None:
        score = scores[winner]
        assert isinstance(score, HandScore)  # check_winner_hand
        if not score.legal:
            why = [n for n in score.notes if getattr(n, "code", "") in NOT_LEGAL_CODES] or score.notes
            raise HandError.at_seat(
                "error.winner.luoshan_not_legal",
                winner,
                code="not_legal",
                named="winner",
                why=Joined(why),
            )
        how = said("reason.self_drawn") if table.discarder is None else said("reason.on_discard", seat=table.discarder)
        reason = said("reason.luoshan.winner", total=score.total, how=how)
        payments = [
            Payment(from_=seat, to=winner, amount=score.total, reason=reason)
            for seat in SEATS
            if seat != winner and score.total
        ]
    return settled(table, scores, payments, winner or DEALER)  # 荒和: the dealer deals again; otherwise the winner


def check_wildcard(wild: tuple[int, ...] | None, flip: int | None) -> None:
    """One wildcard kind, by flip or wild, checked once for the table rather than per hand."""
    if wild is not None and flip is not None:
        raise HandError.of(
            "error.table.luoshan_both",
            code="bad_wild",
            field="flip",
            flip=T.name(flip),
            wild=",".join(T.name(k) for k in wild),
        )
    if wild is not None and len(wild) != 1:
        raise HandError.of("error.table.luoshan_one", code="bad_wild", field="wild", count=len(wild))
    for kind in (*(wild or ()), *((flip,) if flip is not None else ())):
        if T.is_flower(kind):
            name = "flip" if kind == flip else "wild"
            raise HandError.of(
                "error.table.luoshan_flower",
                code="bad_wild",
                field=name,
                name=name,
                tile=T.name(kind),
                tiles=LUOSHAN_TILES,
            )
