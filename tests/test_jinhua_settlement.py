"""Jinhua settlement (rules/jinhua.md "Settlement"): X = unit × multiplier;
the discarder pays 2X and the others X, self-drawn each pays 2X, 承包 pays all."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from settle_helpers import ZERO, error, net, paid

from taihu.scorer import settle_table

SEATS = ("E", "S", "W", "N")
PENG_QUAN = "[111m] [222m] [333p] [444s] 5s +5s"  # peng_peng_hu × quan_qiu_ren = 4, on a discard
BAO_TOU_SELF = "123m 456p 789s 234s 9m +5s self"  # bao_tou = 2, self-drawn
BAO_TOU_SELF_FED = "[123m] [456p] [789s] 234s 9m +5s self"  # the same, three claims shown: 承包 may apply
LOSER = "123m 456p 789s 234s 7p"


def jinhua(winner: str | None, hand: str | None = None, **changes: Any) -> dict[str, Any]:
    players: dict[str, Any] = {s: {"total": 0} for s in SEATS}
    if winner is not None and hand is not None:
        players[winner] = hand
    players.update(changes.pop("players", {}))
    return {"rules": "jinhua", "wild": ["9m"], "winner": winner, "players": players, **changes}


def test_won_on_a_discard() -> None:
    result = settle_table(jinhua("S", PENG_QUAN, discarder="W", players={"E": LOSER}))
    assert result.scores["S"].total == 4 and result.scores["E"].total == 0
    assert paid(result) == [
        ("E", "S", 4, "X, X = 1 × 4"),
        ("W", "S", 8, "discarder: 2X, X = 1 × 4"),
        ("N", "S", 4, "X, X = 1 × 4"),
    ]
    assert result.net == {"E": -4, "S": 16, "W": -8, "N": -4}
    assert result.next_dealer == "S"


def test_self_drawn_each_pays_2x() -> None:
    result = settle_table(jinhua("W", BAO_TOU_SELF))
    assert paid(result) == [
        ("E", "W", 4, "self-drawn: 2X, X = 1 × 2"),
        ("S", "W", 4, "self-drawn: 2X, X = 1 × 2"),
        ("N", "W", 4, "self-drawn: 2X, X = 1 × 2"),
    ]
    assert result.net == {"E": -4, "S": -4, "W": 12, "N": -4}


def test_dealer_keeps_the_seat_after_winning() -> None:
    result = settle_table(jinhua("E", BAO_TOU_SELF))
    assert result.net == {"E": 12, "S": -4, "W": -4, "N": -4}
    assert result.next_dealer == "E"


def test_liable_pays_what_the_others_would() -> None:
    data = jinhua("S", PENG_QUAN, discarder="W", events=[{"type": "liable", "seat": "N"}])
    result = settle_table(data)
    assert paid(result) == [
        ("N", "S", 4, "liable (承包) for E: X, X = 1 × 4"),
        ("N", "S", 8, "liable (承包) for W: discarder: 2X, X = 1 × 4"),
        ("N", "S", 4, "X, X = 1 × 4"),
    ]
    assert result.net == {"E": 0, "S": 16, "W": 0, "N": -16}


def test_liable_on_a_self_drawn_win() -> None:
    result = settle_table(jinhua("W", BAO_TOU_SELF_FED, events=[{"type": "liable", "seat": "E"}]))
    assert result.net == {"E": -12, "S": 0, "W": 12, "N": 0}


def test_drawn_hand_pays_nothing_and_the_dealer_stays() -> None:
    result = settle_table(jinhua(None, players={"S": LOSER}))
    assert (result.payments, result.net, result.next_dealer) == ([], {s: 0 for s in SEATS}, "E")
    assert result.scores["S"].total == 0


def test_unit_option() -> None:
    result = settle_table(jinhua("S", PENG_QUAN, discarder="W", options={"unit": 5}))
    assert result.net == {"E": -20, "S": 80, "W": -40, "N": -20}
    assert paid(result)[1] == ("W", "S", 40, "discarder: 2X, X = 5 × 4")


def test_winner_known_by_total() -> None:
    result = settle_table(jinhua("N", None, discarder="E", players={"N": {"total": 8}}))
    assert result.net == {"E": -16, "S": -8, "W": -8, "N": 32}


ERRORS = [
    ("two wild tiles", jinhua("S", PENG_QUAN, discarder="W", wild=["9m", "E"]), "wild: Jinhua flips one 财神 tile"),
    ("a flip", jinhua("S", PENG_QUAN, discarder="W", wild=None, flip="8m"), "flip: Jinhua has no flipped indicator"),
    (
        "false-win is not a Jinhua event",
        jinhua("S", PENG_QUAN, discarder="W", events=[{"type": "false-win", "seat": "E"}]),
        "events[0]: event type 'false-win' is not used in jinhua; known: foul, liable",
    ),
    (
        "liable winner",
        jinhua("S", PENG_QUAN, discarder="W", events=[{"type": "liable", "seat": "S"}]),
        "events[0]: liable S is the winner",
    ),
    (
        "two liable",
        jinhua(
            "S", PENG_QUAN, discarder="W", events=[{"type": "liable", "seat": "E"}, {"type": "liable", "seat": "N"}]
        ),
        "events[1]: only one player can be liable (承包)",
    ),
    ("liable in a drawn hand", jinhua(None, events=[{"type": "liable", "seat": "E"}]), "there is no winner"),
    (
        "a non-winner with a count",
        jinhua("S", PENG_QUAN, discarder="W", players={"E": {"total": 3}}),
        "players.E: Jinhua non-winners count nothing",
    ),
    ("a winner worth nothing", jinhua("S", None, discarder="W"), "players.S: a Jinhua win is worth at least ×1"),
    ("unit 0", jinhua("S", PENG_QUAN, discarder="W", options={"unit": 0}), "options: option 'unit' must be at least 1"),
    (
        "an unknown option",
        jinhua("S", PENG_QUAN, discarder="W", options={"dealer_x2": 1}),
        "options: unknown option 'dealer_x2' for jinhua",
    ),
    (
        "a self-drawn win with a discarder",
        jinhua("W", BAO_TOU_SELF, discarder="E"),
        "discarder: W's win is on its own turn",
    ),
    (
        "a flower in a hand",
        jinhua("S", PENG_QUAN, discarder="W", players={"E": LOSER.replace("7p", "f1")}),
        "players.E: flower f1 is not a Jinhua tile",
    ),
    (
        "the 财神 beyond three across the table",
        jinhua("W", BAO_TOU_SELF, players={"E": "9m9m9m 123p 456p 789p 3s"}),
        "players: 9m appears 4 times across the table (E 3, W 1); at most 3 exist (the flipped 财神 is out of play)",
    ),
]


@pytest.mark.parametrize("why, data, message", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(why: str, data: dict[str, Any], message: str) -> None:
    assert message in error(data)


# -- zero-sum -------------------------------------------------------------------------

WINS = (  # (hand, multiplier, self-drawn)
    (PENG_QUAN, 4, False),
    (BAO_TOU_SELF, 2, True),
    (BAO_TOU_SELF_FED, 2, True),
    ("9m9m9m 456p 789s 234s 5s +5s", 8, False),
    ("112233m 4455p 66s 9m +7s self", 8, True),
)


@st.composite
def tables(draw: st.DrawFn) -> tuple[dict[str, Any], int]:
    """A valid table and the winner's expected gain."""
    unit = draw(st.integers(1, 10))
    if draw(st.booleans()):
        return jinhua(None, options={"unit": unit}), 0
    hand, multiplier, self_drawn = draw(st.sampled_from(WINS))
    winner = draw(st.sampled_from(SEATS))
    others = [s for s in SEATS if s != winner]
    discarder = None if self_drawn else draw(st.sampled_from(others))
    fed = hand.count("[") >= 3  # 承包 needs three exposed melds (Decision 2026-11-30)
    events = [{"type": "liable", "seat": draw(st.sampled_from(others))}] if fed and draw(st.booleans()) else []
    data = jinhua(winner, hand, discarder=discarder, events=events, options={"unit": unit})
    return data, unit * multiplier * (6 if self_drawn else 4)


@settings(max_examples=50, deadline=None)
@given(tables())
def test_net_sums_to_zero(case: tuple[dict[str, Any], int]) -> None:
    data, gain = case
    result = settle_table(data)
    assert sum(result.net.values()) == 0
    winner = data["winner"]
    if winner is None:
        assert result.payments == [] and result.next_dealer == "E"
    else:
        assert result.net[winner] == gain
        assert result.next_dealer == ("E" if winner == "E" else "S")
        liable = [e["seat"] for e in data["events"]]
        assert {p.from_ for p in result.payments} == (set(liable) or set(SEATS) - {winner})


# -- checked by hand against the rules page (the review of the four regional rule sets) --


def test_jinhua_liable_pays_all() -> None:
    table = {
        "rules": "jinhua",
        "wild": ["3s"],
        "winner": "S",
        "discarder": "W",
        # 承包 needs three exposed melds (Decision 2026-11-30): peng_peng_hu × qing_yi_se = 8
        "players": {"E": ZERO, "S": "[111m] [222m] [666m] 444m 5m +5m", "W": ZERO, "N": ZERO},
        "events": [{"type": "liable", "seat": "N"}],
    }
    assert net(table) == ({"E": 0, "S": 32, "W": 0, "N": -32}, "S")
