"""Putian settlement (rules/putian.md "Winning types" to "Next dealer").

Two steps, as the seed settles: the winner is paid its 底分 × the winning
type's rate by the type's payers; then the three losers settle among
themselves by 分 alone (白 and 金; kong points and 底 left out). Side
events (false win, 小相公, 跟打, 打金) change who may win and what is paid.
"""

from __future__ import annotations

from collections.abc import Callable

from ... import tiles as T
from ...errors import HandError, Joined, Text
from ...models import HandScore, Payment, PlayerTotal, Settlement, Table
from ...notation import ParsedHand
from ...said import said
from ...settlement import common as C
from ...settlement.common import DEALER, SEATS, event_error, settled
from . import PUTIAN
from .hand import WIN_TYPES, copies, is_putian_tile
from .items import KONG_KEYS

JIN_IN_PLAY = 3  # the flipped 金 is out of play; a fourth only through 抢金 (Decision 2026-11-30)
FALSE_WIN_PENALTY = 9  # 詐胡: 9 + own 分 to each other player
GEN_DA = 1  # 跟打: the dealer pays each non-dealer 1

Score = HandScore | PlayerTotal


def settle(table: Table) -> Settlement:
    deal = C.open_deal(table, PUTIAN, PUTIAN.events, fouls_first=False)
    wild = deal.wild
    if deal.flip is not None:
        raise HandError.of("error.table.putian_flip", code="bad_wild", field="flip")
    if wild is not None and len(wild) != 1:
        raise HandError.of("error.table.putian_wild", code="bad_wild", field="wild", count=len(wild))
    if wild is not None and not is_putian_tile(wild[0]):
        raise HandError.of("error.table.putian_jin", code="bad_wild", field="wild", tile=T.name(wild[0]))
    events = _putian_events(table, deal.hands)
    hands = C.check_claims(deal, *_jin_limits(deal.hands, wild[0] if wild is not None else None))
    scores: dict[str, Score] = C.score_hands(hands, PUTIAN, deal.options)
    won = scores[table.winner] if table.winner is not None else None
    if table.winner is not None and isinstance(won, HandScore) and not won.legal:
        raise HandError.at_seat(
            "error.winner.putian_not_legal",
            table.winner,
            code="not_legal",
            named="winner",
            why=Joined(won.notes),
        )
    for seat in events.get("xiao-xiang-gong", []):
        scores[seat] = C.count_zero(scores[seat], said("note.putian.xiao_xiang_gong"))
    for seat in C.foul_seats(table):
        scores[seat] = C.count_zero(scores[seat], said("note.foul"))

    winner = table.winner
    payments: list[Payment] = []
    next_dealer = DEALER  # a drawn hand keeps the dealer
    if winner is not None:
        payments += _to_winner(table, scores)
        payments += _losers(winner, scores)
        next_dealer = winner
    for offender in events.get("false-win", []):
        payments += _false_win(offender, scores[offender])
        if winner is None:
            next_dealer = offender  # 詐胡 deals next; a self-draw that broke it deals instead
    if events.get("gen-da"):
        payments += [
            Payment(from_=DEALER, to=s, amount=GEN_DA, reason=said("reason.putian.gen_da"))
            for s in SEATS
            if s != DEALER
        ]
    return settled(table, scores, payments, next_dealer)


def _putian_events(table: Table, hands: C.Hands) -> dict[str, list[str]]:
    """Checks the events against the deal; returns the seats of each event type."""
    winner = table.winner
    found: dict[str, list[str]] = {}
    for i, event in enumerate(table.events):
        seat = event.seat
        if event.type == "false-win":
            if found.get("false-win"):
                raise event_error("error.event.putian_one_false_win", i)
            if seat == winner:
                raise event_error("error.event.winner_not_false", i, seat)
            if winner is not None and table.discarder is not None:
                raise event_error("error.event.false_you_jin", i, winner=winner)
        if event.type == "xiao-xiang-gong" and seat == winner:
            raise event_error("error.event.xiao_xiang_gong", i, seat)
        if event.type == "da-jin" and seat == winner:
            # docs/api.md's legal=false for 打金: the win is not allowed, so there is nothing to settle as a win
            raise event_error("error.event.da_jin", i, seat)
        if event.type == "gen-da" and seat != DEALER:
            raise event_error("error.event.gen_da", i, dealer=DEALER)
        found.setdefault(event.type, []).append(seat)
    if winner is not None and not isinstance(hands[winner], ParsedHand):
        raise HandError.at_seat(
            "error.total.putian_winner",
            winner,
            code="bad_total",
            named="winner",
        )
    return found


def _jin_limits(hands: C.Hands, jin: int | None) -> tuple[Callable[[int], int], Callable[[int], Text | str]]:
    """Four of each kind; of the 金 three, or four when a hand declares 抢金 (Decision 2026-11-30)."""
    qiang_jin = any(isinstance(h, ParsedHand) and h.declare == "qiang-jin" for h in hands.values())

    def limit(kind: int) -> int:
        return JIN_IN_PLAY + (1 if qiang_jin else 0) if kind == jin else copies(kind)

    def why(kind: int) -> Text | str:
        return Text("error.tiles.putian_jin_out", most=JIN_IN_PLAY) if kind == jin else ""

    return limit, why


def _value(score: HandScore, keys: tuple[str, ...]) -> int:
    return sum(item.value for item in score.items if item.key in keys)


def fen(score: Score, with_kongs: bool) -> int:
    """A player's 分: 白 + 金 (+ kong points for a false win); {"total": N} gives N.

    A zeroed player (小相公) has 0.
    """
    if isinstance(score, PlayerTotal) or score.total == 0:
        return score.total
    keys = ("bai", "jin") + (KONG_KEYS if with_kongs else ())
    return _value(score, keys)


def _to_winner(table: Table, scores: dict[str, Score]) -> list[Payment]:
    """The winner's 底分 × the type's rate, from the discarder (平胡, 搶槓胡) or from each other."""
    winner = table.winner
    score = scores[winner]  # type: ignore[index]
    assert isinstance(score, HandScore) and winner is not None
    key = next(item.key for item in score.items if item.key in WIN_TYPES)
    wt = WIN_TYPES[key]
    amount = score.total * wt.pays
    reason = said("reason.putian.win", key=key, name=wt.name, total=score.total, pays=wt.pays)
    payers = [table.discarder] if wt.payers == "discarder" else [s for s in SEATS if s != winner]
    return [Payment(from_=p, to=winner, amount=amount, reason=reason) for p in payers if p is not None]


def _losers(winner: str, scores: dict[str, Score]) -> list[Payment]:
    """Each pair of losers: the one with less 分 pays the difference (kong points removed, no 底)."""
    others = [s for s in SEATS if s != winner]
    points = {s: fen(scores[s], with_kongs=False) for s in others}
    return [
        Payment(
            from_=payer,
            to=payee,
            amount=diff,
            reason=said("reason.putian.losers", payee=points[payee], payer=points[payer]),
        )
        for payer, payee, diff in C.pairwise(others, points)
    ]


def _false_win(offender: str, score: Score) -> list[Payment]:
    """詐胡: 9 + own 分, kong points included, to each other player."""
    own = fen(score, with_kongs=True)
    amount = FALSE_WIN_PENALTY + own
    reason = said("reason.putian.false_win", own=own)
    return [Payment(from_=offender, to=s, amount=amount, reason=reason) for s in SEATS if s != offender]
