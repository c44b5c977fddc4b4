"""Riichi settlement (docs/rules/riichi.md "Settling a table"): payments with honba, the pot, 流局, 包 and chombo.

The pot of riichi sticks is no seat, so a stick put in or taken out shows in
`net` (and `pot_before`/`pot_after`), not as a payment between seats:
`sum(net) == 1000 × (pot_before − pot_after)`.
"""

from __future__ import annotations

from ... import tiles as T
from ...errors import HandError, Text
from ...models import HandScore, Payment, PlayerTenpai, PlayerTotal, Settlement, Table, TenpaiTotal
from ...notation import ParsedHand
from ...said import said
from ...settlement.common import (
    DEALER,
    SEATS,
    check_events,
    check_tile_counts,
    check_winner,
    discarder_is_winner,
    in_seat,
    net_of,
    next_seat,
    parse_in_seat,
    round_disagrees,
    seat_disagrees,
    table_options,
)
from . import RIICHI, is_ready
from .hand import deal_of

STICK = 1000
NOTEN_BAPPU = 3000
DRAGONS = (T.RED, T.GREEN, T.WHITE)
LIABLE_YAKUMAN = {"daisangen": DRAGONS.__contains__, "daisuushii": T.is_wind}  # 包: the kinds of the fed set
RiichiSeat = ParsedHand | PlayerTotal | PlayerTenpai


def _hands(table: Table) -> dict[str, RiichiSeat]:
    """Each seat parsed (red fives allowed), given its seat and the table's round; a repeated value must agree."""
    hands: dict[str, RiichiSeat] = {}
    round_wind = table.extra.get("round") or "E"
    for seat in SEATS:
        player = table.players[seat]
        if not isinstance(player, str):
            hands[seat] = player
            continue
        hand = parse_in_seat(seat, player, RIICHI)
        if hand.seat is not None and hand.seat != seat:
            raise seat_disagrees(seat, hand.seat)
        written = deal_of(hand).round
        if written is not None and written != round_wind:
            raise round_disagrees(seat, written, round_wind)
        hands[seat] = hand._replace(seat=seat).with_values(round=round_wind)
    return hands


def _agree(hand: ParsedHand, seat: str, honba: int, sticks: int) -> ParsedHand:
    """The winner's hand with the table's honba and sticks; a hand that repeats them must agree."""
    deal = deal_of(hand)
    for name, written, value in (("honba", deal.honba, honba), ("sticks", deal.sticks, sticks)):
        if written is not None and written != value:
            why = Text("error.table.sticks_why") if name == "sticks" else ""
            raise HandError.at_seat(
                "error.table.count_disagrees",
                seat,
                code="table_disagrees",
                named="seat_word",
                name=name,
                written=written,
                value=value,
                why=why,
            )
    return hand.with_values(honba=honba, sticks=sticks)


def _check_riichi_events(hands: dict[str, RiichiSeat], declared: list[str]) -> None:
    for seat, hand in hands.items():
        if not isinstance(hand, ParsedHand):
            continue
        wrote = "riichi" in hand.flags or "double-riichi" in hand.flags
        if wrote and seat not in declared:
            raise HandError.at_seat(
                "error.event.riichi_missing",
                seat,
                code="bad_event",
                named="seat_word",
            )
        if not wrote and seat in declared:
            raise HandError.at_seat(
                "error.event.riichi_unwritten",
                seat,
                code="bad_event",
                named="seat_word",
            )


def _ready(seat: str, hand: RiichiSeat) -> bool:
    if isinstance(hand, PlayerTenpai):
        return hand.tenpai
    if isinstance(hand, PlayerTotal):
        raise HandError.at_seat(
            "error.total.riichi_drawn",
            seat,
            code="bad_total",
            named="seat_word",
        )
    return in_seat(seat, is_ready, hand)


def _drawn(hands: dict[str, RiichiSeat], options: dict[str, int]) -> tuple[list[Payment], str]:
    ready = {seat: _ready(seat, hand) for seat, hand in hands.items()}
    tenpai = [s for s in SEATS if ready[s]]
    noten = [s for s in SEATS if not ready[s]]
    payments: list[Payment] = []
    if options["noten_bappu"] and tenpai and noten:
        each = NOTEN_BAPPU // len(noten) // len(tenpai)
        for payer in noten:
            for taker in tenpai:
                payments.append(Payment(from_=payer, to=taker, amount=each, reason=said("reason.riichi.noten_bappu")))
    dealer = DEALER if ready[DEALER] else next_seat(DEALER)
    return payments, dealer


def _win_payments(table: Table, winner: str, score: HandScore, liable: str | None) -> list[Payment]:
    """The hand's payments (honba included), or 包's share of them."""
    pays = score.extra.get("payments") or {}
    discarder = table.discarder
    if discarder is not None:
        amount = pays["discarder"]
        if liable is None or liable == discarder:
            why = said("reason.riichi.liable_and_discarder" if liable else "reason.riichi.discarder")
            return [Payment(from_=discarder, to=winner, amount=amount, reason=why)]
        honba = 300 * (table.extra.get("honba") or 0)
        half = (amount - honba) // 2
        return [
            Payment(from_=liable, to=winner, amount=half, reason=said("reason.riichi.liable_half")),
            Payment(from_=discarder, to=winner, amount=amount - half, reason=said("reason.riichi.discarder_half")),
        ]
    others = [s for s in SEATS if s != winner]
    owed = {s: pays["each"] if "each" in pays else pays["dealer" if s == DEALER else "non_dealer"] for s in others}
    if liable is not None:
        return [Payment(from_=liable, to=winner, amount=sum(owed.values()), reason=said("reason.riichi.liable_whole"))]
    return [Payment(from_=s, to=winner, amount=owed[s], reason=said("reason.riichi.self_drawn")) for s in others]


def _liable(table: Table, winner: str, hand: ParsedHand, score: HandScore) -> str | None:
    events = [e for e in table.events if e.type == "liable"]
    if not events:
        return None
    if len(events) > 1:
        raise HandError.of("error.event.riichi_one_liable", code="bad_event", field="events")
    seat = events[0].seat
    if seat == winner:
        raise HandError.of("error.event.riichi_liable_winner", code="bad_event", field="events", winner=winner)
    keys = {item.key for item in score.items}
    for key, fed in LIABLE_YAKUMAN.items():
        if key in keys and any(not m.concealed and len(set(m.tiles)) == 1 and fed(m.tiles[0]) for m in hand.melds):
            return seat
    raise HandError.of("error.event.riichi_liable", code="bad_event", field="events", seat_word=seat)


def _chombo(table: Table, offender: str) -> list[Payment]:
    """A reversed mangan: a non-dealer pays the dealer 4000 and each non-dealer 2000; a dealer pays each 4000."""
    payments = []
    for seat in SEATS:
        if seat == offender:
            continue
        amount = 4000 if DEALER in (seat, offender) else 2000
        payments.append(Payment(from_=offender, to=seat, amount=amount, reason=said("reason.riichi.chombo")))
    return payments


def _counted(seat: PlayerTotal | PlayerTenpai) -> PlayerTotal:
    """A seat known without its hand counts 0 in `scores` (a riichi non-winner's hand is worth nothing);
    a `{"tenpai": ...}` seat keeps its tenpai there (`{"total": 0, "tenpai": false}`)."""
    return seat if isinstance(seat, PlayerTotal) else TenpaiTotal(total=0, tenpai=seat.tenpai)


def settle(table: Table) -> Settlement:
    options = table_options(table, RIICHI)
    check_events(table, RIICHI.events)
    hands = _hands(table)
    honba, pot_before = table.extra.get("honba") or 0, table.extra.get("pot") or 0
    declared: list[str] = [e.seat for e in table.events if e.type == "riichi"]
    false_wins = [e.seat for e in table.events if e.type == "false-win"]
    _check_riichi_events(hands, declared)
    if false_wins:
        if table.winner is not None or len(false_wins) > 1:
            raise HandError.of("error.event.chombo", code="bad_event", field="events")
        payments = _chombo(table, false_wins[0])
        zeros: dict[str, HandScore | PlayerTotal] = {s: PlayerTotal(total=0) for s in SEATS}
        return _settled(zeros, payments, net_of(payments), DEALER, (pot_before, pot_before), honba)
    fouls = {e.seat for e in table.events if e.type == "foul"}
    if table.winner in fouls:
        raise HandError.of("error.event.riichi_foul", code="bad_event", field="events", winner=table.winner)
    check_winner(table, hands)  # type: ignore[arg-type]  # tenpai seats hold no win
    check_tile_counts({s: h for s, h in hands.items() if isinstance(h, ParsedHand)}, lambda kind: 4)
    winner = table.winner
    scores: dict[str, HandScore | PlayerTotal] = {}
    sticks = pot_before + len(declared)
    if winner is None:
        if table.discarder is not None:
            raise HandError.of("error.discarder.riichi_drawn", code="bad_discarder", field="discarder")
        payments, next_dealer = _drawn(hands, options)
        for seat, hand in hands.items():
            scores[seat] = (
                in_seat(seat, RIICHI.score, hand, options) if isinstance(hand, ParsedHand) else _counted(hand)
            )
        pot_after, next_honba = sticks, honba + 1
    else:
        hand = hands[winner]
        if not isinstance(hand, ParsedHand):
            raise HandError.at_seat(
                "error.total.riichi_winner",
                winner,
                code="bad_total",
                named="winner",
            )
        hand = _agree(hand, winner, honba, sticks)
        own_turn = bool(hand.flags & {"self", "kong-draw", "heaven", "earth"})
        if own_turn == (table.discarder is not None):
            raise HandError.of(
                "error.discarder.riichi_self" if own_turn else "error.discarder.riichi_missing",
                code="bad_discarder",
                field="discarder",
                winner=winner,
            )
        if table.discarder == winner:
            raise discarder_is_winner(winner)
        score = in_seat(winner, RIICHI.score, hand, options)
        if not score.legal:
            raise HandError.at_seat(
                "error.winner.riichi_not_legal",
                winner,
                code="not_legal",
                named="winner",
                why=score.notes[-1],
            )
        for seat, other in hands.items():
            if seat == winner:
                scores[seat] = score
            elif isinstance(other, ParsedHand):
                scores[seat] = in_seat(seat, RIICHI.score, other, options)
            else:
                scores[seat] = _counted(other)
        payments = _win_payments(table, winner, score, _liable(table, winner, hand, score))
        next_dealer = DEALER if winner == DEALER else next_seat(DEALER)
        pot_after, next_honba = 0, (honba + 1 if winner == DEALER else 0)
    net = net_of(payments)
    for seat in declared:
        net[seat] -= STICK
    if winner is not None:
        net[winner] += STICK * sticks
    return _settled(scores, payments, net, next_dealer, (pot_before, pot_after), next_honba)


def _settled(
    scores: dict[str, HandScore | PlayerTotal],
    payments: list[Payment],
    net: dict[str, int],
    next_dealer: str,
    pot: tuple[int, int],
    next_honba: int,
) -> Settlement:
    """The answer with what riichi carries to the next deal: the sticks (before, after) and the 本场."""
    return Settlement(
        rules="riichi",
        scores=scores,
        payments=payments,
        net=net,
        next_dealer=next_dealer,
        extra={"pot_before": pot[0], "pot_after": pot[1], "next_honba": next_honba},
    )
