"""A toy rule set, added as docs/architecture.md "Adding a rule set" says, touching no module of taihu.

A hand of 13 tiles wins as 4 sets + a pair, 平胡 scores 1 and 清一色 (one suit) 4 more. Its registry line
(`LINE`) names this module, which holds `RULE_SET` as a rule set's folder does: `tests/test_toy_rule_set.py`
registers it for its own tests, and `pytest --toy-rule-set` for the whole run, so that every suite iterating
the registry tests it too (tests/conftest.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from taihu.scorer import tiles as T
from taihu.scorer.engine import Group, ReadingFacts, kinds_readings
from taihu.scorer.errors import HandError
from taihu.scorer.models import HandScore, Payment, Settlement, Table
from taihu.scorer.notation import ParsedHand
from taihu.scorer.rulesets import Registered
from taihu.scorer.rulesets.base import RuleSet
from taihu.scorer.rulesets.interface import (
    FOUND,
    NONE,
    SUITED_TILES,
    WINNER_ONLY,
    Found,
    Item,
    Kind,
    Outcome,
    Prepared,
    Variant,
)
from taihu.scorer.rulesets.validation import check_known_conditions

HAND_TYPE = Kind("hand type", "points")  # how its items count: the best type is the total


@dataclass
class ToyHand(Prepared):
    kinds: bytes = b""  # the concealed tiles with the winning one, sorted


CONDITIONS = frozenset({"seat", "self"})
ONE_SUIT = "1112345678999m +5m"
MIXED = "123m 456p 789s 234m 5s +5s"


def prepare(parsed: ParsedHand, options: dict[str, int]) -> ToyHand:
    check_known_conditions(parsed, "toy", CONDITIONS)
    if parsed.melds or any(not T.is_suited(k) for k in parsed.tiles):
        raise HandError("a toy hand is suited tiles only, no melds")
    winner = parsed.win is not None
    if len(parsed.tiles) != 13:
        raise HandError(f"hand has {len(parsed.tiles)} tiles, a toy hand holds 13", code="tile_count")
    kinds = sorted(parsed.tiles + ((parsed.win,) if parsed.win is not None else ()))
    return ToyHand(parsed, winner, False, options, kinds=bytes(kinds))


def readings(hand: ToyHand) -> Iterator[tuple[Group, ...]]:
    yield from kinds_readings(hand.kinds, 4, True)


def ping_hu(hand: ToyHand, facts: None) -> list[tuple[Variant, str]]:
    return FOUND


def qing_yi_se(hand: ToyHand, facts: ReadingFacts) -> list[tuple[Variant, str]]:
    return FOUND if facts.one_suit else NONE


class Toy(RuleSet):
    name = "toy"
    chinese = "玩具"
    unit = "points"
    tiles = SUITED_TILES  # one suit or mixed, no honours
    conditions = CONDITIONS
    examples = (
        {"hand": ONE_SUIT, "options": {}},
        {"hand": MIXED + " self seat:S", "options": {}},
        {"hand": "123p 456p 789p 123s 5s +5s", "options": {}},
        {"hand": "1112345678999s +9s self", "options": {}},
    )
    items = (
        Item("ping_hu", "平胡", "Plain win", 1, HAND_TYPE, WINNER_ONLY, ping_hu),
        Item("qing_yi_se", "清一色", "One suit", 4, HAND_TYPE, WINNER_ONLY, qing_yi_se, reads=("one_suit",)),
    )
    prepare = staticmethod(prepare)
    readings = staticmethod(readings)

    def finish(self, hand: ToyHand, found: Found) -> Outcome:
        total = sum(points for _, points, _ in found)
        return Outcome(total, False, total)

    # a rule set defined outside a folder of its own says here what its settlement.py and arithmetic.py would
    def settle(self, table: Table) -> Settlement:
        winner = table.winner
        # the deal passes on every time (to S, the next dealer), won or drawn; a drawn deal: nobody pays
        if winner is None:
            return Settlement(rules=self.name, scores={}, payments=[], net=dict.fromkeys("ESWN", 0), next_dealer="S")
        assert isinstance(table.players[winner], str)
        total = self.score_line(str(table.players[winner])).total
        payments = [Payment(from_=seat, to=winner, amount=total, reason="toy") for seat in "ESWN" if seat != winner]
        net = {seat: (3 * total if seat == winner else -total) for seat in "ESWN"}
        return Settlement(rules=self.name, scores={}, payments=payments, net=net, next_dealer="S")

    def arithmetic(self, score: HandScore) -> list[str]:
        return [f"{' + '.join(str(i.value) for i in score.items)} = {score.total} points"]


RULE_SET = Toy()
LINE = Registered("toy", ("玩具",), 13, module=__name__)  # the one registry line
