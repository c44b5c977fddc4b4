"""Luoshan settlement (rules/luoshan.md "Settlement"): the winner is paid its total by each other player.

筹码统一: the same amount from all three whether self-drawn or on a discard,
no dealer doubling, and non-winners count nothing, so only the winner's hand
matters; it must be a legal win (the minimums of "A legal win").
"""

from __future__ import annotations

from .. import tiles as T
from ..errors import HandError
from ..models import HandScore, Payment, PlayerTotal, Settlement, Table
from ..rulesets.luoshan import LUOSHAN
from .common import (
    DEALER,
    FOUL_NOTE,
    SEATS,
    check_discarder,
    check_events,
    check_non_winners,
    check_tile_counts,
    check_winner,
    check_winner_hand,
    count_zero,
    foul_seats,
    net_of,
    score_hands,
    seat_hands,
    table_options,
)

LUOSHAN_EVENTS = ("foul",)  # foul: the seat counts 0 and cannot win (API.md); no false win or 包赔


def settle_luoshan(table: Table) -> Settlement:
    options = table_options(table, LUOSHAN)
    check_events(table, LUOSHAN_EVENTS)
    fouls = foul_seats(table)
    hands, wild, flip = seat_hands(table)
    check_wildcard(wild, flip)
    check_winner(table, hands)
    check_discarder(table, hands)
    check_winner_hand(table, hands, "Luoshan")
    check_non_winners(table, hands, "Luoshan non-winners score 0 (there are no loser tai)")
    # the flipped indicator is not out of play: four of every kind over the table
    check_tile_counts(hands, lambda kind: 4, lambda kind: "")
    scores: dict[str, HandScore | PlayerTotal] = score_hands(hands, LUOSHAN, options)
    for seat in fouls:
        scores[seat] = count_zero(scores[seat], FOUL_NOTE)
    winner = table.winner
    payments: list[Payment] = []
    if winner is not None:
        score = scores[winner]
        assert isinstance(score, HandScore)  # check_winner_hand
        if not score.legal:
            why = [n for n in score.notes if n.startswith("not a legal win")] or score.notes
            raise HandError(
                f"players.{winner}: {winner}'s hand is not a legal Luoshan win, so the deal cannot be settled: "
                + "; ".join(why)
            )
        how = "self-drawn" if table.discarder is None else f"on {table.discarder}'s discard"
        payments = [
            Payment(from_=seat, to=winner, amount=score.total, reason=f"winner {score.total} hu ({how})")
            for seat in SEATS
            if seat != winner and score.total
        ]
    return Settlement(
        rules=table.rules,
        scores=scores,
        payments=payments,
        net=net_of(payments),
        next_dealer=winner or DEALER,  # 荒和: the dealer deals again; otherwise the winner
    )


def check_wildcard(wild: tuple[int, ...] | None, flip: int | None) -> None:
    """One wildcard kind, by flip or wild, checked once for the table rather than per hand."""
    if wild is not None and flip is not None:
        raise HandError(
            f"flip: give either flip ({T.name(flip)}) or wild ({','.join(T.name(k) for k in wild)}), "
            f"not both: Luoshan has one wildcard kind"
        )
    if wild is not None and len(wild) != 1:
        raise HandError(f'wild: Luoshan has one wildcard kind, e.g. ["2m"] or flip "1m"; got {len(wild)}')
    for kind in (*(wild or ()), *((flip,) if flip is not None else ())):
        if T.is_flower(kind):
            raise HandError(
                f"{'flip' if kind == flip else 'wild'}: {T.name(kind)} is a flower; Luoshan plays 136 tiles, no flowers"
            )
