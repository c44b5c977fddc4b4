"""Guannan settlement (rules/guannan.md "Values and settlement"): house values, discarder or all three pay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from api_app import app as http_app
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from settle_helpers import error, net, paid
from typer.testing import CliRunner

from taihu.cli.main import app as cli_app
from taihu.scorer import HandScore, PlayerTotal, settle_table

SEATS = ("E", "S", "W", "N")
TABLES = Path(__file__).parent.parent / "examples" / "tables"
ZERO = {"total": 0}

PING_PAI = "123m 456p 789s 234m 5s +5s"
QI_DUI = "1133557799m 11p 2s +2s"
PENG_PENG = "111m 222p 333s 444m 5s +5s"
LONG = "123456789m 111p 5s +5s"
PAIRS_OR_CHOWS = "1122334455667m +7m"  # 七对, or 123 123 456 456 77 (平牌)
KONG = "[5555m] 123p 456p 789s 1s +1s"  # 平牌 with an open kong


def guannan(
    winner: str | None, hand: str | None = None, discarder: str | None = None, **changes: Any
) -> dict[str, Any]:
    """A Guannan table: the winner's hand, everyone else {"total": 0} unless `players` says otherwise."""
    players: dict[str, Any] = {s: ZERO for s in SEATS}
    if winner is not None:
        players[winner] = hand
    players.update(changes.pop("players", {}))
    return {"rules": "guannan", "winner": winner, "discarder": discarder, "players": players, **changes}


# -- who pays --------------------------------------------------------------------


def test_on_a_discard_only_the_discarder_pays() -> None:
    result = settle_table(guannan("S", PENG_PENG, discarder="W"))
    assert paid(result) == [("W", "S", 2, "discarder pays peng_peng_he 2 (house value)")]
    assert result.net == {"E": 0, "S": 2, "W": -2, "N": 0}


def test_self_drawn_each_other_player_pays() -> None:
    result = settle_table(guannan("W", PING_PAI + " self"))
    assert paid(result) == [
        ("E", "W", 1, "self-drawn: each pays ping_pai 1 (house value)"),
        ("S", "W", 1, "self-drawn: each pays ping_pai 1 (house value)"),
        ("N", "W", 1, "self-drawn: each pays ping_pai 1 (house value)"),
    ]
    assert result.net == {"E": -1, "S": -1, "W": 3, "N": -1}


def test_no_dealer_doubling() -> None:
    assert settle_table(guannan("E", LONG, discarder="N")).net == {"E": 2, "S": 0, "W": 0, "N": -2}
    assert settle_table(guannan("N", LONG, discarder="E")).net == {"E": -2, "S": 0, "W": 0, "N": 2}


def test_rob_kong_the_robbed_player_pays_as_the_discarder() -> None:
    result = settle_table(guannan("N", PING_PAI + " rob-kong", discarder="S"))
    assert paid(result) == [("S", "N", 1, "discarder pays ping_pai 1 (house value)")]
    assert error(guannan("N", PING_PAI + " rob-kong")).startswith("discarder: N won on a discard")


def test_kong_draw_is_self_drawn() -> None:
    assert settle_table(guannan("S", KONG + " kong-draw")).net == {"E": -1, "S": 3, "W": -1, "N": -1}


def test_non_winner_hands_are_scored_but_count_nothing() -> None:
    data = guannan("S", QI_DUI, discarder="E", players={"W": "E 123p 456p 789p 1s 23s"})
    result = settle_table(data)
    west = result.scores["W"]
    assert isinstance(west, HandScore) and west.total == 0 and west.winner is False
    assert result.scores["N"] == PlayerTotal(total=0)
    assert result.net == {"E": -2, "S": 2, "W": 0, "N": 0}


# -- house values ---------------------------------------------------------------------------


def test_options_set_the_value_and_the_output_says_which_were_used() -> None:
    result = settle_table(guannan("S", QI_DUI + " self", options={"qi_dui": 4}))
    assert paid(result)[0] == ("E", "S", 4, "self-drawn: each pays qi_dui 4 (house value)")
    assert result.net == {"E": -4, "S": 12, "W": -4, "N": -4}
    winner = result.scores["S"]
    assert isinstance(winner, HandScore)
    assert winner.notes == ["house values used: ping_pai 1, qi_dui 4, peng_peng_he 2, yi_tiao_long 2"]


def test_the_highest_valued_type_is_paid() -> None:
    """The same tiles read as 七对 or as 平牌: the house values decide which is paid."""
    assert paid(settle_table(guannan("S", PAIRS_OR_CHOWS, discarder="E"))) == [
        ("E", "S", 2, "discarder pays qi_dui 2 (house value)")
    ]
    assert paid(settle_table(guannan("S", PAIRS_OR_CHOWS, discarder="E", options={"ping_pai": 5}))) == [
        ("E", "S", 5, "discarder pays ping_pai 5 (house value)")
    ]


def test_a_value_of_zero_pays_nothing() -> None:
    result = settle_table(guannan("W", PING_PAI + " self", options={"ping_pai": 0}))
    assert result.payments == [] and result.net == {s: 0 for s in SEATS}
    assert result.next_dealer == "S"


@pytest.mark.parametrize(
    "options, expected",
    [
        (
            {"double_at": 10},
            "options: unknown option 'double_at' for guannan; "
            "known options: ping_pai, qi_dui, peng_peng_he, yi_tiao_long",
        ),
        ({"qi_dui": -1}, "options: option 'qi_dui' must be a whole number ≥ 0, got -1"),
    ],
)
def test_bad_options(options: dict[str, int], expected: str) -> None:
    assert error(guannan("S", QI_DUI, discarder="E", options=options)) == expected


# -- drawn hand and next dealer -----------------------------------------------------------------


def test_drawn_hand_no_payments_dealer_keeps_the_seat() -> None:
    result = settle_table(guannan(None, players={"E": "1133557799m 11p 2s"}))
    assert result.payments == [] and result.net == {s: 0 for s in SEATS}
    assert result.next_dealer == "E"


@pytest.mark.parametrize(
    "winner, discarder, expected", [("E", "S", "E"), ("S", "W", "S"), ("W", "E", "S"), ("N", "E", "S")]
)
def test_next_dealer(winner: str, discarder: str, expected: str) -> None:
    assert settle_table(guannan(winner, PING_PAI, discarder=discarder)).next_dealer == expected


# -- table checks ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["false-win", "liable"])
def test_side_events_are_not_guannan_rules(kind: str) -> None:
    """foul is accepted by every rule set (Decision 2026-11-30); the others are not Guannan's."""
    data = guannan("S", PENG_PENG, discarder="W", events=[{"type": kind, "seat": "W"}])
    assert error(data) == f"events[0]: event type '{kind}' is not used in guannan; known: foul"


@pytest.mark.parametrize(
    "changes, expected",
    [
        ({"wild": ["5m"]}, "wild: Guannan has no wildcards (wild 5m given)"),
        ({"flip": "4m"}, "flip: Guannan has no wildcards (flip 4m given)"),
    ],
)
def test_no_wildcards(changes: dict[str, Any], expected: str) -> None:
    assert error(guannan("S", PENG_PENG, discarder="W", **changes)) == expected


def test_winner_must_be_a_hand_and_non_winners_count_nothing() -> None:
    assert error(guannan("S", None, discarder="W", players={"S": {"total": 2}})).startswith(
        "players.S: S is the winner; give the winning hand (a Guannan win"
    )
    assert error(guannan("S", PENG_PENG, discarder="W", players={"E": {"total": 1}})) == (
        "players.E: Guannan non-winners count nothing (only the winner's hand type is paid); "
        'give {"total": 0} or the hand, not {"total": 1}'
    )


def test_one_of_each_wind_across_the_table() -> None:
    data = guannan(
        "S", PENG_PENG, discarder="W", players={"W": "E 123p 456p 789p 1s 23s", "N": "E 123m 567m 789p 1s 24s"}
    )
    assert error(data) == (
        "players: E appears 2 times across the table (W 1, N 1); at most 1 exist (Guannan has one of each wind)"
    )


def test_four_of_each_suited_kind_across_the_table() -> None:
    data = guannan("S", PENG_PENG, discarder="W", players={"W": "11m 123p 456p 789p 23s"})
    assert error(data) == "players: 1m appears 5 times across the table (S 3, W 2); at most 4 exist"


def test_dragons_are_not_guannan_tiles() -> None:
    data = guannan("S", PENG_PENG, discarder="W", players={"W": "C 123p 456p 789p 1s 23s"})
    assert error(data).startswith("players.W: dragon C is not a Guannan tile")


# -- the CLI and HTTP layers, and the example files ------------------------------------------


def test_cli_settle_json() -> None:
    result = CliRunner().invoke(cli_app, ["settle", str(TABLES / "guannan-win.json"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["net"] == {"E": -4, "S": -4, "W": -4, "N": 12}
    assert data["payments"][0] == {
        "from": "E",
        "to": "N",
        "amount": 4,
        "reason": "self-drawn: each pays peng_peng_he 4 (house value)",
    }
    assert data["next_dealer"] == "S"


def test_http_settle() -> None:
    client = TestClient(http_app)
    reply = client.post("/settle", json=guannan("S", PENG_PENG, discarder="W", options={"peng_peng_he": 3}))
    assert reply.status_code == 200
    assert reply.json()["payments"] == [
        {"from": "W", "to": "S", "amount": 3, "reason": "discarder pays peng_peng_he 3 (house value)"}
    ]
    assert reply.json()["net"] == {"E": 0, "S": 3, "W": -3, "N": 0}
    bad = client.post("/settle", json=guannan("S", PENG_PENG, discarder="W", wild=["5m"]))
    assert bad.status_code == 422
    assert bad.json()["detail"] == "wild: Guannan has no wildcards (wild 5m given)"


@pytest.mark.parametrize(
    "name, net, dealer",
    [
        ("guannan-win.json", {"E": -4, "S": -4, "W": -4, "N": 12}, "S"),
        ("guannan-drawn.json", {"E": 0, "S": 0, "W": 0, "N": 0}, "E"),
    ],
)
def test_example_tables_match_the_readme(name: str, net: dict[str, int], dealer: str) -> None:
    result = settle_table(json.loads((TABLES / name).read_text(encoding="utf-8")))
    assert (result.net, result.next_dealer) == (net, dealer)


# -- zero sum ----------------------------------------------------------------------------------

# (hand, the one hand type it can be read as)
WINS = ((PING_PAI, "ping_pai"), (QI_DUI, "qi_dui"), (PENG_PENG, "peng_peng_he"), (LONG, "yi_tiao_long"))
VALUES = st.fixed_dictionaries({k: st.integers(0, 9) for k in ("ping_pai", "qi_dui", "peng_peng_he", "yi_tiao_long")})


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(WINS), st.sampled_from(SEATS), st.booleans(), VALUES, st.data())
def test_zero_sum_and_who_pays(
    win: tuple[str, str], winner: str, own_turn: bool, options: dict[str, int], data: st.DataObject
) -> None:
    hand, key = win
    value = options[key]
    discarder = None if own_turn else data.draw(st.sampled_from([s for s in SEATS if s != winner]))
    result = settle_table(guannan(winner, hand + (" self" if own_turn else ""), discarder, options=options))
    assert sum(result.net.values()) == 0
    expected = {s: 0 for s in SEATS}
    for payer in [s for s in SEATS if s != winner] if own_turn else [discarder]:
        expected[payer], expected[winner] = -value, expected[winner] + value
    assert result.net == expected
    assert result.next_dealer == ("E" if winner == "E" else "S")


# -- checked by hand against the rules page (the review of the four regional rule sets) --


def test_guannan_rob_kong_paid_by_the_kong_player_next_dealer_rotates() -> None:
    table = {
        "rules": "guannan",
        "winner": "W",
        "discarder": "N",
        "players": {"E": ZERO, "S": ZERO, "W": "123456789m 111p 5s +5s rob-kong", "N": ZERO},
    }
    assert net(table) == ({"E": 0, "S": 0, "W": 2, "N": -2}, "S")
