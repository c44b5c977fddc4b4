"""What every rule set's settlement shares: reading the table, checking it, paying.

Each hand is parsed, checked against the table's wild/flip and its seat, and
given them, so a hand never needs to repeat what the table already says.
Every bad input is a HandError whose message starts with the place it is
about: in English the field (`players.S: ...`, `events[0]: ...`), in Chinese
the place as a player reads it (`南家：...`, `第 1 个事件：...`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from taihu.messages import Language
from taihu.messages import text as catalog_text

from .. import tiles as T
from ..errors import Field, HandError, Localized, Text, quote
from ..models import HandScore, Payment, PlayerTenpai, PlayerTotal, Settlement, Table
from ..notation import ParsedHand, parse
from ..rulesets import get, rules_word
from ..rulesets.base import RuleSet
from ..said import said

DEALER = "E"
SEATS = T.SEATS
Hands = dict[str, "ParsedHand | PlayerTotal"]
R = TypeVar("R")


def table_options(table: Table, rule_set: RuleSet) -> dict[str, int]:
    """The table's house options with the rule set's defaults; an error names the field."""
    try:
        return rule_set.resolve_options(table.options)
    except HandError as exc:
        raise within(exc, "options") from None


def within(exc: HandError, path: str, seat: str | None = None, *, at_a_table: bool = False) -> HandError:
    """The error of one part of the input (`options`, a seat's hand) named by its place: `options: …`,
    keeping its code, column and fix; `at_a_table`: a hand's, worded as a table chooses its rule set."""
    hint = exc.hint_text
    return HandError.of(
        "error.field.at",
        code=exc.code,
        column=exc.column,
        seat=seat or exc.seat,
        player=exc.player,
        field=str(path),
        hint=AtTable(hint) if at_a_table and hint is not None else hint,
        path=Field(path),
        problem=AtTable(exc) if at_a_table else exc,
    )


def in_seat(seat: str, call: Callable[..., R], *args: Any) -> R:
    """Runs a per-hand call so its error names the seat it came from, keeping its code and column."""
    try:
        return call(*args)
    except HandError as exc:
        raise within(exc, f"players.{seat}", seat, at_a_table=True) from None


RULES_FLAG = re.compile(r"--rules ([a-z]+(?: / [a-z]+)*)")


def at_table(message: str, lang: Language = "en") -> str:
    """A hand's hint as a table chooses its rule set: `--rules NAME` (the flag of `score`, which
    the rule sets' messages name, in every language) becomes the table's field, `the table's "rules": "NAME"`."""
    return RULES_FLAG.sub(
        lambda found: catalog_text(
            "error.at_table.rules", lang, names=" / ".join(f'"{name}"' for name in found.group(1).split(" / "))
        ),
        message,
    )


class AtTable:
    """A message (or its fix) of a hand as it reads at a table: `at_table` of its text in each language."""

    __slots__ = ("message",)

    def __init__(self, message: Localized) -> None:
        self.message = message

    def in_lang(self, lang: Language) -> str:
        return at_table(self.message.in_lang(lang), lang)


def parse_in_seat(seat: str, hand: str, rule_set: RuleSet) -> ParsedHand:
    """A seat's hand parsed as `score_hand` parses it: an unknown condition lists the rule set's own, nearest first."""
    return in_seat(seat, rule_set.read_line, hand)


def score_hands(hands: Hands, rule_set: RuleSet, options: dict[str, int]) -> dict[str, HandScore | PlayerTotal]:
    """Each written hand scored under the table's options; a count stays as given."""
    return {
        seat: in_seat(seat, rule_set.score, hand, options) if isinstance(hand, ParsedHand) else hand
        for seat, hand in hands.items()
    }


def _one_tile(text: str, where: str) -> int:
    try:
        hand = parse(text, conditions=())  # one tile: an unknown word lists no conditions
    except HandError as exc:
        raise within(exc, where) from None
    if len(hand.tiles) != 1 or hand.melds or hand.win is not None or hand.conditions:
        raise HandError.of(
            "error.table.one_tile", code="bad_tile", field=str(where), path=Field(where), given=quote(text)
        )
    return hand.tiles[0]


def _wild_text(kinds: tuple[int, ...]) -> str:
    return ",".join(T.name(k) for k in kinds)


def _agreed(name: str, table_value: Any, hands: dict[str, ParsedHand], show: Callable[[Any], str]) -> Any:
    """The one value of wild/flip for the table: the table's, or the hands' if they all agree."""
    source: Text | None = Text("error.table.the_tables") if table_value is not None else None
    agreed = table_value
    same = (lambda a, b: sorted(a) == sorted(b)) if name == "wild" else (lambda a, b: a == b)
    for seat, hand in hands.items():
        value = getattr(hand, name)
        if value is None:
            continue
        if agreed is None:
            source, agreed = Text("error.table.seats", seat=seat), value
        elif not same(value, agreed):
            raise HandError.at_seat(
                "error.table.disagrees",
                seat,
                code="table_disagrees",
                named="seat_word",
                name=name,
                value=show(value),
                source=source,
                agreed=show(agreed),
            )
    return agreed


def seat_hands(table: Table) -> tuple[Hands, tuple[int, ...] | None, int | None]:
    """Parses every hand and gives it its seat and the table's wild/flip.

    Returns the hands by seat (PlayerTotal where only the count is known),
    and the agreed wild and flip.
    """
    hands: Hands = {}
    for seat in SEATS:
        player = table.players[seat]
        assert not isinstance(player, PlayerTenpai)  # only where RuleSet.tenpai_seats, refused by settle_table before
        hands[seat] = parse_in_seat(seat, player, get(table.rules)) if isinstance(player, str) else player
    parsed = {s: h for s, h in hands.items() if isinstance(h, ParsedHand)}
    table_wild = None
    if table.wild is not None:
        wild_word = get(table.rules).wild_name  # where the rule set names its wildcard (金), the place says so
        table_wild = tuple(_one_tile(t, Field(f"wild[{i}]", wild=wild_word)) for i, t in enumerate(table.wild))
    table_flip = _one_tile(table.flip, "flip") if table.flip is not None else None
    wild = _agreed("wild", table_wild, parsed, _wild_text)
    flip = _agreed("flip", table_flip, parsed, T.name)
    for seat, hand in parsed.items():
        if hand.seat is not None and hand.seat != seat:
            raise seat_disagrees(seat, hand.seat)
        hands[seat] = hand._replace(seat=seat, wild=wild, flip=flip)
    return hands, wild, flip


def seat_disagrees(seat: str, written: str) -> HandError:
    """A seat's hand that says another seat (`seat:W` in the hand at S)."""
    return HandError.at_seat(
        "error.table.seat_disagrees",
        seat,
        code="bad_seat",
        named="seat_word",
        written=written,
    )


def round_disagrees(seat: str, written: str, round_wind: str) -> HandError:
    """A seat's hand that says another prevalent wind than the table's (`round:S` in a deal of round E)."""
    return HandError.at_seat(
        "error.table.round_disagrees",
        seat,
        code="table_disagrees",
        named="seat_word",
        written=written,
        round=round_wind,
    )


def event_error(key: str, index: int, seat: str | None = None, **params: Any) -> HandError:
    """An error of the table's event `events[index]` (about `seat`'s event, where it names one)."""
    return HandError.of(
        key,
        code="bad_event",
        seat=seat,
        field=f"events[{index}]",
        event=Field(f"events[{index}]"),
        seat_word=seat,
        **params,
    )


def discarder_is_winner(discarder: str) -> HandError:
    return HandError.of("error.discarder.is_winner", code="bad_discarder", field="discarder", discarder=discarder)


def is_win(hand: ParsedHand | PlayerTotal) -> bool:
    return isinstance(hand, ParsedHand) and (hand.win is not None or hand.declare is not None)


def check_events(table: Table, known: tuple[str, ...]) -> None:
    seen: set[tuple[str, str]] = set()
    for i, event in enumerate(table.events):
        if event.type not in known:
            rules = rules_word(table.rules)
            known_events = Text("error.event.known", known=", ".join(known)) if known else ""
            raise HandError.of(
                "error.event.unknown" if known else "error.event.none",
                code="unknown_event",
                field=f"events[{i}]",
                event=Field(f"events[{i}]"),
                type=quote(event.type),
                rules=rules,
                known=known_events,
            )
        if (event.type, event.seat) in seen:
            raise event_error("error.event.twice", i, event.seat, type=event.type)
        seen.add((event.type, event.seat))


def check_winner(table: Table, hands: Hands) -> None:
    """Exactly the winner's hand is a win; a drawn hand has none."""
    winner = table.winner
    for seat, hand in hands.items():
        if seat == winner or not is_win(hand):
            continue
        assert isinstance(hand, ParsedHand)
        what = (
            Text("error.winner.winning_tile", tile=T.name(hand.win))
            if hand.win is not None
            else f"declare:{hand.declare}"
        )
        if winner is None:
            raise HandError.at_seat(
                "error.winner.none_but_win",
                seat,
                code="bad_winner",
                named="seat_word",
                hint=Text("error.hint.set_winner", seat=seat),
                what=what,
            )
        raise HandError.at_seat(
            "error.winner.other_wins",
            seat,
            code="bad_winner",
            named="seat_word",
            what=what,
            winner=winner,
        )
    if winner is not None and isinstance(hands[winner], ParsedHand) and not is_win(hands[winner]):
        raise HandError.at_seat(
            "error.winner.no_win",
            winner,
            code="bad_winner",
            named="winner",
        )


SELF_DRAWN = ("self", "kong-draw", "last-tile", "heaven", "human")  # human: Jinhua 人胡 (Decision 2026-11-30)


def check_discarder(table: Table, hands: Hands, self_drawn: Sequence[str] = SELF_DRAWN) -> None:
    """A discarder only for a win on another player's tile; `self_drawn`: the flags of a win on one's own draw
    (a rule set where `last-tile` is won on a discard gives its own)."""
    winner, discarder = table.winner, table.discarder
    if discarder is not None and winner is None:
        raise HandError.of("error.discarder.no_winner", code="bad_discarder", field="discarder")
    if discarder is not None and discarder == winner:
        raise discarder_is_winner(discarder)
    hand = hands[winner] if winner is not None else None
    if not isinstance(hand, ParsedHand):
        return
    own = [f for f in self_drawn if f in hand.flags] + ([f"declare:{hand.declare}"] if hand.declare else [])
    if own and discarder is not None:
        raise HandError.of(
            "error.discarder.own_turn",
            code="bad_discarder",
            field="discarder",
            hint=Text("error.hint.no_discarder"),
            winner=winner,
            own=", ".join(own),
        )
    if not own and discarder is None:
        raise HandError.of(
            "error.discarder.missing",
            code="bad_discarder",
            field="discarder",
            hint=Text("error.hint.name_the_discarder"),
            winner=winner,
        )
    if "earth" in hand.flags and discarder != DEALER:
        raise HandError.of("error.discarder.earth", code="bad_discarder", field="discarder", dealer=DEALER)


def check_tile_counts(
    hands: Hands, copies: Callable[[int], int], why: Callable[[int], Text | str] | None = None
) -> None:
    """No tile beyond its copies over all four hands together; `why` explains a rule set's own limit."""
    per_seat: dict[str, Counter[int]] = {}
    for seat, hand in hands.items():
        if isinstance(hand, ParsedHand):
            kinds = list(hand.tiles) + [t for m in hand.melds for t in m.tiles]
            kinds += [hand.win] if hand.win is not None else []
            per_seat[seat] = Counter(kinds)
    total = sum(per_seat.values(), Counter())
    for kind in sorted(total):
        limit = copies(kind)
        if total[kind] > limit:
            where = ", ".join(f"{s} {c[kind]}" for s, c in per_seat.items() if c[kind])
            reason: Text | str = (
                why(kind)
                if why
                else ""
                if limit == (1 if T.is_flower(kind) else 4)
                else Text("error.tiles.wildcards_out")
            )
            raise HandError.of(
                "error.tiles.across_table",
                code="tile_copies",
                field="players",
                tile=T.name(kind),
                count=total[kind],
                where=where,
                most=limit,
                why=reason,
            )


WIN_FLAGS = frozenset({"self", "kong-draw", "rob-kong", "last-tile", "heaven", "earth", "human"})


def set_aside_false_claims(table: Table, hands: Hands, rule_set: RuleSet, options: dict[str, int]) -> Hands:
    """The false-win offender's claim (`+X`, `declare:`, how it claimed) is set aside (Decision 2026-11-30).

    Its shape is not checked: the hand is scored as a non-winner's, without the
    claimed tile. The tiles it claimed still count across the table, so the
    caller checks tile counts on the hands as written. A declared claim may
    hold the drawn tile among its tiles (a declared win takes 16 or 17): the
    offender then counts as holding the 16 that score most, its best claim.
    """
    offenders = {e.seat for e in table.events if e.type == "false-win"}
    out = dict(hands)
    for seat in offenders:
        hand = hands[seat]
        if isinstance(hand, ParsedHand) and is_win(hand):
            out[seat] = _without_drawn_tile(
                hand._replace(win=None, declare=None, flags=hand.flags - WIN_FLAGS), rule_set, options
            )
    return out


def _without_drawn_tile(hand: ParsedHand, rule_set: RuleSet, options: dict[str, int]) -> ParsedHand:
    """A hand one tile over a non-winner's size, less the tile whose absence scores most; any other hand as it is."""
    try:
        rule_set.score(hand, options)
        return hand
    except HandError as exc:
        first_problem = exc
    best: tuple[int, ParsedHand] | None = None
    for kind in sorted(set(hand.tiles)):
        tiles = list(hand.tiles)
        tiles.remove(kind)
        fewer = hand._replace(tiles=tuple(tiles))
        try:
            total = rule_set.score(fewer, options).total
        except HandError:
            continue
        if best is None or total > best[0]:
            best = (total, fewer)
    if best is None:
        raise first_problem
    return best[1]


def foul_seats(table: Table) -> dict[str, int]:
    """The seats that fouled (诈胡), by event index; a foul seat cannot be the winner (Decision 2026-11-30)."""
    fouls: dict[str, int] = {}
    for i, event in enumerate(table.events):
        if event.type != "foul":
            continue
        if event.seat == table.winner:
            raise event_error("error.event.foul_winner", i, event.seat)
        fouls.setdefault(event.seat, i)
    return fouls


def count_zero(score: HandScore | PlayerTotal, why: str) -> HandScore | PlayerTotal:
    """A player who counts 0 (a foul, 小相公, a declared win elsewhere), with the reason in its notes."""
    if isinstance(score, HandScore):
        return replace(score, total=0, notes=[*score.notes, why])
    return PlayerTotal(total=0)


def liable_hand(table: Table, hands: Hands, index: int, name: str) -> ParsedHand:
    """A liable event rests on the winner's melds, so it needs the winner's hand string (Decision 2026-11-30)."""
    winner = table.winner
    if winner is None:
        raise event_error("error.liable.no_winner", index, name=name)
    seat = table.events[index].seat
    if seat == winner:
        raise event_error("error.liable.is_winner", index, seat)
    hand = hands[winner]
    if not isinstance(hand, ParsedHand):
        raise event_error(
            "error.liable.needs_hand",
            index,
            hint=Text("error.hint.give_the_hand", winner=winner),
            name=name,
            winner=winner,
            total=hand.total,
        )
    return hand


def exposed_melds(hand: ParsedHand) -> list[str]:
    """The melds shown as `[..]` (claimed from other players); a concealed kong `(..)` was fed by nobody."""
    return [m.source or m.text() for m in hand.melds if not m.concealed and not m.is_flower_set]


def next_seat(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 1) % len(SEATS)]


def dealer_x2(a: str, b: str, amount: int, reason: str) -> tuple[int, str]:
    """Every payment to or from the dealer is doubled (Lingxi Settlement 3)."""
    return (amount * 2, said("reason.dealer_doubled", reason=reason)) if DEALER in (a, b) else (amount, reason)


def net_of(payments: list[Payment]) -> dict[str, int]:
    net = {s: 0 for s in SEATS}
    for p in payments:
        net[p.from_] -= p.amount
        net[p.to] += p.amount
    return net


def check_non_winners(table: Table, hands: Hands, why: Text) -> None:
    """Where non-winners count nothing, a non-zero total is a mistake, not something to ignore."""
    for seat, hand in hands.items():
        if seat != table.winner and isinstance(hand, PlayerTotal) and hand.total:
            raise HandError.at_seat(
                "error.total.non_winner",
                seat,
                code="bad_total",
                named="seat_word",
                why=why,
                total=hand.total,
            )


def check_winner_hand(table: Table, hands: Hands, name: str) -> None:
    """Where the win is settled from the hand (legal? which type?), a bare total will not do."""
    winner = table.winner
    hand = hands[winner] if winner is not None else None
    if winner is not None and isinstance(hand, PlayerTotal):
        raise HandError.at_seat(
            "error.total.winner",
            winner,
            code="bad_total",
            named="winner",
            rules=rules_word(name),
            total=hand.total,
        )


@dataclass
class Deal:
    """A table read and checked up to its rule set's own checks: what every settler starts from."""

    table: Table
    rule_set: RuleSet
    options: dict[str, int]
    hands: Hands
    wild: tuple[int, ...] | None
    flip: int | None
    fouls: dict[str, int]  # empty until checked (open_deal with fouls_first, or foul_seats)


def open_deal(table: Table, rule_set: RuleSet, events: tuple[str, ...], *, fouls_first: bool) -> Deal:
    """Options, the events' types, then the hands; `fouls_first` checks the fouls before the hands.

    A rule set with a false win checks its fouls among its own events instead.
    """
    options = table_options(table, rule_set)
    check_events(table, events)
    fouls = foul_seats(table) if fouls_first else {}
    hands, wild, flip = seat_hands(table)
    return Deal(table, rule_set, options, hands, wild, flip, fouls)


Scores = dict[str, HandScore | PlayerTotal]


def score_winner_only(
    deal: Deal,
    title: str,
    non_winners: Text,
    copies: Callable[[int], int],
    why: Callable[[int], Text | str],
    *,
    winner_hand: bool = True,
) -> Scores:
    """Where only the winner is paid: the win checked, non-winners count nothing, fouls count 0.

    `title` names the rule set in messages; `non_winners` says why a
    non-winner's total must be 0; `winner_hand` asks for the winner's hand
    string rather than a bare total.
    """
    table, hands = deal.table, deal.hands
    check_winner(table, hands)
    check_discarder(table, hands)
    if winner_hand:
        check_winner_hand(table, hands, title)
    check_non_winners(table, hands, non_winners)
    check_tile_counts(hands, copies, why)
    scores = score_hands(hands, deal.rule_set, deal.options)
    for seat in deal.fouls:
        scores[seat] = count_zero(scores[seat], said("note.foul"))
    return scores


def check_claims(deal: Deal, copies: Callable[[int], int], why: Callable[[int], Text | str] | None = None) -> Hands:
    """Where a false win can end the deal: tiles counted as written, then the false claims set aside."""
    table = deal.table
    check_tile_counts(deal.hands, copies, why)  # a false claim's tiles count too
    hands = set_aside_false_claims(table, deal.hands, deal.rule_set, deal.options)
    check_winner(table, hands)
    check_discarder(table, hands)
    return hands


def dealer_stays(winner: str | None) -> str:
    """Lingxi's rule (Settlement 8): the dealer keeps the seat after winning or a drawn hand."""
    return DEALER if winner in (None, DEALER) else next_seat(DEALER)


def pairwise(seats: list[str], points: dict[str, int]) -> Iterator[tuple[str, str, int]]:
    """Each pair of `seats` with different points: (payer, payee, difference), the fewer points paying."""
    for n, a in enumerate(seats):
        for b in seats[n + 1 :]:
            diff = points[a] - points[b]
            if diff:
                yield ((b, a) if diff > 0 else (a, b)) + (abs(diff),)


def settled(table: Table, scores: Scores, payments: list[Payment], next_dealer: str) -> Settlement:
    """The answer: the scores, the payments, each seat's net and the next dealer."""
    return Settlement(
        rules=table.rules, scores=scores, payments=payments, net=net_of(payments), next_dealer=next_dealer
    )
