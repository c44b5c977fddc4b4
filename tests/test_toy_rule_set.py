"""A rule set added as docs/architecture.md "Adding a rule set" says, touching no module of taihu.

The toy rule set is defined here: a hand of 13 tiles wins as 4 sets + a pair,
平胡 scores 1 and 清一色 (one suit) 4 more. It is registered with one registry
line (`register`), and then the shared machinery — `score_hand`, `rule_sets`,
`waits`, `arithmetic` and `settle_table` — takes it by name like any other.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

import pytest

from taihu.scorer import arithmetic, rule_sets, score_hand, settle_table, waits
from taihu.scorer import tiles as T
from taihu.scorer.engine import Group, ReadingFacts, kinds_readings
from taihu.scorer.errors import HandError
from taihu.scorer.models import HandScore, Payment, Settlement, Table
from taihu.scorer.notation import ParsedHand
from taihu.scorer.rulesets import RULESETS, Registered, register, unregister
from taihu.scorer.rulesets.base import (
    FOUND,
    HAND_TYPE,
    NONE,
    WINNER_ONLY,
    Found,
    Item,
    Outcome,
    Prepared,
    RuleSet,
    Variant,
    check_known_conditions,
)


@dataclass
class ToyHand(Prepared):
    kinds: bytes = b""  # the concealed tiles with the winning one, sorted


CONDITIONS = frozenset({"seat", "self"})


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
    conditions = CONDITIONS
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
        assert winner is not None and isinstance(table.players[winner], str)
        total = self.score_line(str(table.players[winner])).total
        payments = [Payment(from_=seat, to=winner, amount=total, reason="toy") for seat in "ESWN" if seat != winner]
        net = {seat: (3 * total if seat == winner else -total) for seat in "ESWN"}
        return Settlement(rules=self.name, scores={}, payments=payments, net=net, next_dealer="E")

    def arithmetic(self, score: HandScore) -> list[str]:
        return [f"{' + '.join(str(i.value) for i in score.items)} = {score.total} points"]


TOY = Toy()
ONE_SUIT = "1112345678999m +5m"
MIXED = "123m 456p 789s 234m 5s +5s"


@pytest.fixture(autouse=True)
def toy_registered() -> Iterable[None]:
    register(Registered("toy", ("玩具",), 13, load=lambda: TOY))  # the one registry line
    yield
    unregister("toy")


@pytest.mark.parametrize(
    ("line", "items", "total"),
    [(ONE_SUIT, ["ping_hu", "qing_yi_se"], 5), (MIXED, ["ping_hu"], 1)],
)
def test_the_toy_rule_set_scores_by_its_name_and_its_chinese_name(line: str, items: list[str], total: int) -> None:
    for name in ("toy", "玩具", "TOY"):
        score = score_hand(line, name)
        assert score.rules == "toy"
        assert [i.key for i in score.items] == items and score.total == total


def test_its_errors_and_conditions_are_its_own() -> None:
    with pytest.raises(HandError, match="a toy hand holds 13"):
        score_hand("123m +5m", "toy")
    with pytest.raises(HandError, match="condition 'wild' at column .* is not used in toy"):
        score_hand(MIXED + " wild:5m", "toy")


def test_it_is_listed_with_its_items() -> None:
    listed = {info.name: info for info in rule_sets()}
    assert [item.key for item in listed["toy"].items] == ["ping_hu", "qing_yi_se"]
    assert "toy" in RULESETS


def test_waits_search_it_with_the_defaults() -> None:
    found = waits("1112345678999m", "toy").to_dict()
    assert [w["tile"] for w in found["waits"]] == [f"{rank}m" for rank in range(1, 10)]  # 九莲宝灯
    assert {w["discard"]["total"] for w in found["waits"]} == {5}


def test_arithmetic_and_settlement_ask_the_rule_set() -> None:
    assert arithmetic(score_hand(ONE_SUIT, "toy")) == ["1 + 4 = 5 points"]
    table: Mapping[str, object] = {
        "rules": "toy",
        "winner": "S",
        "discarder": None,
        "players": {"E": {"total": 0}, "S": ONE_SUIT + " self", "W": {"total": 0}, "N": {"total": 0}},
    }
    settled = settle_table(table)
    assert settled.net == {"E": -5, "S": 15, "W": -5, "N": -5}


def test_unregistered_it_is_unknown() -> None:
    unregister("toy")
    with pytest.raises(HandError, match="unknown rule set 'toy'"):
        score_hand(MIXED, "toy")
    register(Registered("toy", ("玩具",), 13, load=lambda: TOY))
