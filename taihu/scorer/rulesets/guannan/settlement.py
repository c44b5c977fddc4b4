"""Guannan settlement (rules/guannan.md "Values and settlement").

The seed gives no values, so the winner's hand type is priced by the
table's house options, and each payment says which type and value it is.
"""

from __future__ import annotations

from ... import tiles as T
from ...errors import HandError, Text
from ...models import HandScore, Payment, Settlement, Table
from ...said import said
from ...settlement.common import SEATS, dealer_stays, open_deal, score_winner_only, settled
from . import GUANNAN
from .hand import copies


def settle(table: Table) -> Settlement:
    deal = open_deal(table, GUANNAN, GUANNAN.events, fouls_first=True)
    wild, flip = deal.wild, deal.flip
    if wild is not None or flip is not None:  # the hands would not see them: say so rather than ignore them
        name = "flip" if flip is not None else "wild"
        given = T.name(flip) if flip is not None else ",".join(T.name(k) for k in wild or ())
        raise HandError.of("error.table.guannan_wild", code="bad_wild", field=name, name=name, given=given)
    scores = score_winner_only(
        deal,
        "Guannan",
        Text("error.total.guannan_non_winners"),
        copies,
        lambda kind: Text("error.tiles.guannan_one_wind") if T.is_wind(kind) else "",
    )
    winner, discarder = table.winner, table.discarder
    payments: list[Payment] = []
    if winner is not None:
        score = scores[winner]
        assert isinstance(score, HandScore)  # check_winner_hand
        used = ", ".join(f"{item.key} {item.value}" for item in score.items)  # exactly one hand type
        payers = [discarder] if discarder is not None else [s for s in SEATS if s != winner]
        how = "reason.guannan.discarder" if discarder is not None else "reason.guannan.self_drawn"
        payments = [
            Payment(from_=seat, to=winner, amount=score.total, reason=said(how, used=used))
            for seat in payers
            if score.total
        ]
    return settled(table, scores, payments, dealer_stays(winner))
