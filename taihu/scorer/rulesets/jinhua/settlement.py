"""Jinhua settlement (rules/jinhua.md "Settlement").

Only the winner is paid: X = unit × the winner's multiplier. On a discard
the discarder pays 2X and the other two X; self-drawn, each pays 2X; a
liable player (承包) pays all of it.
"""

from __future__ import annotations

from ... import tiles as T
from ...errors import HandError, Text
from ...models import Payment, Settlement, Table
from ...said import said
from ...settlement.common import (
    SEATS,
    Hands,
    dealer_stays,
    event_error,
    exposed_melds,
    liable_hand,
    open_deal,
    score_winner_only,
    settled,
    table_options,
)
from . import JINHUA
from .hand import JINHUA_WILD_OUT, copies

LIABLE_MELDS = 3  # 承包: the liable player fed three or more claims


def settle(table: Table) -> Settlement:
    unit = table_unit(table)
    deal = open_deal(table, JINHUA, JINHUA.events, fouls_first=True)
    liable = _liable(table, deal.hands)
    wild, flip = deal.wild, deal.flip
    if flip is not None:
        raise HandError.of("error.table.jinhua_flip", code="bad_wild", field="flip", tile=T.name(flip))
    if wild is not None and len(wild) != 1:
        raise HandError.of("error.table.jinhua_wild", code="bad_wild", field="wild", count=len(wild))
    scores = score_winner_only(
        deal,
        "Jinhua",
        Text("error.total.jinhua_non_winners"),
        lambda kind: copies(kind, wild),
        lambda kind: JINHUA_WILD_OUT,
        winner_hand=False,
    )
    winner = table.winner
    payments: list[Payment] = []
    if winner is not None:
        multiplier = scores[winner].total
        if multiplier < 1:
            raise HandError.at_seat(
                "error.total.jinhua_zero",
                winner,
                code="bad_total",
                named="winner",
            )
        payments = _to_winner(winner, table.discarder, unit, multiplier, liable)
    return settled(table, scores, payments, dealer_stays(winner))  # the seed is silent: Lingxi's rule


def table_unit(table: Table) -> int:
    """What one 倍 is worth, checked before anything else at the table."""
    unit = table_options(table, JINHUA)["unit"]
    if unit < 1:
        raise HandError.of("error.option.jinhua_unit", code="bad_option", field="options.unit")
    return unit


def _liable(table: Table, hands: Hands) -> str | None:
    """The one 承包 seat, checked against the winner's hand: three exposed melds or more (Decision 2026-11-30)."""
    seats = [(i, e.seat) for i, e in enumerate(table.events) if e.type == "liable"]
    if len(seats) > 1:
        raise event_error("error.event.one_liable_jinhua", seats[1][0])
    for i, _ in seats:
        hand = liable_hand(table, hands, i, "承包")
        shown = exposed_melds(hand)
        if len(shown) < LIABLE_MELDS:
            raise event_error(
                "error.liable.jinhua_one" if len(shown) == 1 else "error.liable.jinhua",
                i,
                hint=Text("error.hint.jinhua_liable"),
                most=LIABLE_MELDS,
                winner=table.winner,
                count=len(shown),
                shown=" (" + " ".join(shown) + ")" if shown else "",
            )
    return seats[0][1] if seats else None


def _to_winner(winner: str, discarder: str | None, unit: int, multiplier: int, liable: str | None) -> list[Payment]:
    x = unit * multiplier
    x_text = said("reason.jinhua.x", unit=unit, multiplier=multiplier)
    payments = []
    for seat in SEATS:
        if seat == winner:
            continue
        if discarder is None:
            amount, reason = 2 * x, said("reason.jinhua.self_drawn", x=x_text)
        elif seat == discarder:
            amount, reason = 2 * x, said("reason.jinhua.discarder", x=x_text)
        else:
            amount, reason = x, said("reason.jinhua.other", x=x_text)
        if liable is not None and liable != seat:
            reason = said("reason.jinhua.liable", seat=seat, reason=reason)
        payments.append(Payment(from_=liable or seat, to=winner, amount=amount, reason=reason))
    return payments
