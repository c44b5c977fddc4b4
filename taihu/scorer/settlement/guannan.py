"""Guannan settlement (rules/guannan.md "Values and settlement").

The seed gives no values, so the winner's hand type is priced by the
table's house options, and each payment says which type and value it is.
"""

from __future__ import annotations

from .. import tiles as T
from ..errors import HandError
from ..models import HandScore, Payment, PlayerTotal, Settlement, Table
from ..rulesets.guannan import GUANNAN, copies
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
    next_seat,
    score_hands,
    seat_hands,
    table_options,
)

GUANNAN_EVENTS = ("foul",)  # foul: the seat counts 0 and cannot win (API.md); no false win or 包赔


def settle_guannan(table: Table) -> Settlement:
    options = table_options(table, GUANNAN)
    check_events(table, GUANNAN_EVENTS)
    fouls = foul_seats(table)
    hands, wild, flip = seat_hands(table)
    if wild is not None or flip is not None:  # the hands would not see them: say so rather than ignore them
        given = f"flip {T.name(flip)}" if flip is not None else f"wild {','.join(T.name(k) for k in wild or ())}"
        raise HandError(f"{'flip' if flip is not None else 'wild'}: Guannan has no wildcards ({given} given)")
    check_winner(table, hands)
    check_discarder(table, hands)
    check_winner_hand(table, hands, "Guannan")
    check_non_winners(table, hands, "Guannan non-winners count nothing (only the winner's hand type is paid)")
    check_tile_counts(hands, copies, lambda kind: " (Guannan has one of each wind)" if T.is_wind(kind) else "")
    scores: dict[str, HandScore | PlayerTotal] = score_hands(hands, GUANNAN, options)
    for seat in fouls:
        scores[seat] = count_zero(scores[seat], FOUL_NOTE)
    winner, discarder = table.winner, table.discarder
    payments: list[Payment] = []
    if winner is not None:
        score = scores[winner]
        assert isinstance(score, HandScore)  # check_winner_hand
        used = ", ".join(f"{item.key} {item.value}" for item in score.items)  # exactly one hand type
        payers = [discarder] if discarder is not None else [s for s in SEATS if s != winner]
        how = "discarder pays" if discarder is not None else "self-drawn: each pays"
        payments = [
            Payment(from_=seat, to=winner, amount=score.total, reason=f"{how} {used} (house value)")
            for seat in payers
            if score.total
        ]
    # Lingxi's rule: the dealer keeps the seat after winning or a drawn hand
    next_dealer = DEALER if winner in (None, DEALER) else next_seat(DEALER)
    return Settlement(
        rules=table.rules, scores=scores, payments=payments, net=net_of(payments), next_dealer=next_dealer
    )
