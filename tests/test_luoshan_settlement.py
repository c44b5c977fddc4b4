"""Luoshan settlement (rules/luoshan.md "Settlement"): the winner's total from each other player."""

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

WORKED_1 = "[EEE] (CCCC) [999m] 11p FF +1p self"  # flip 5s: 500 at seat E, 250 elsewhere
QING_PING = "123p 456p 789p 23p 99p +4p"  # 清三台平和: 240 at any seat, legal on a discard
CC_FF = "[CCC] (FFFF) 123m 456m 1s +1s"  # 200 on a discard; 210 rob-kong or self; 420 kong-draw
SMALL = "[CCC] [FFF] 123m 456m 9s +9s"  # 90 on a discard (< 200), 100 self-drawn (legal)


def luoshan(
    winner: str | None, hand: str | None = None, discarder: str | None = None, **changes: Any
) -> dict[str, Any]:
    """A Luoshan table: the winner's hand, everyone else {"total": 0} unless `players` says otherwise."""
    players: dict[str, Any] = {s: ZERO for s in SEATS}
    if winner is not None:
        players[winner] = hand
    players.update(changes.pop("players", {}))
    return {"rules": "luoshan", "winner": winner, "discarder": discarder, "players": players, **changes}


# -- who pays --------------------------------------------------------------------


def test_self_drawn_each_other_player_pays_the_total() -> None:
    result = settle_table(luoshan("E", WORKED_1, flip="5s"))
    assert result.scores["E"].total == 500
    assert paid(result) == [
        ("S", "E", 500, "winner 500 hu (self-drawn)"),
        ("W", "E", 500, "winner 500 hu (self-drawn)"),
        ("N", "E", 500, "winner 500 hu (self-drawn)"),
    ]
    assert result.net == {"E": 1500, "S": -500, "W": -500, "N": -500}


def test_on_a_discard_all_three_pay_the_same_not_only_the_discarder() -> None:
    result = settle_table(luoshan("W", QING_PING, discarder="N"))
    assert paid(result) == [
        ("E", "W", 240, "winner 240 hu (on N's discard)"),
        ("S", "W", 240, "winner 240 hu (on N's discard)"),
        ("N", "W", 240, "winner 240 hu (on N's discard)"),
    ]
    assert result.net == {"E": -240, "S": -240, "W": 720, "N": -240}


def test_no_dealer_doubling_either_way() -> None:
    as_dealer = settle_table(luoshan("E", QING_PING, discarder="S"))
    against_dealer = settle_table(luoshan("S", QING_PING, discarder="E"))
    assert as_dealer.net == {"E": 720, "S": -240, "W": -240, "N": -240}
    assert against_dealer.net == {"E": -240, "S": 720, "W": -240, "N": -240}


def test_the_winners_seat_wind_changes_the_total_it_is_paid() -> None:
    """Worked example 1 away from E: the E pung is no longer a seat wind (250, not 500)."""
    assert settle_table(luoshan("S", WORKED_1, flip="5s")).net == {"E": -250, "S": 750, "W": -250, "N": -250}


def test_rob_kong_names_the_robbed_player_and_all_three_still_pay() -> None:
    result = settle_table(luoshan("N", CC_FF + " rob-kong", discarder="W"))
    assert result.scores["N"].total == 210  # 抢杠当自摸: self-drawn wait values
    assert paid(result) == [
        ("E", "N", 210, "winner 210 hu (on W's discard)"),
        ("S", "N", 210, "winner 210 hu (on W's discard)"),
        ("W", "N", 210, "winner 210 hu (on W's discard)"),
    ]


def test_kong_draw_is_self_drawn() -> None:
    assert settle_table(luoshan("S", CC_FF + " kong-draw")).net == {"E": -420, "S": 1260, "W": -420, "N": -420}
    assert "its own turn (kong-draw)" in error(luoshan("S", CC_FF + " kong-draw", discarder="E"))


def test_non_winner_hands_are_scored_but_count_nothing() -> None:
    data = luoshan("E", WORKED_1, flip="5s", players={"W": "123m 456m 789p 23s 55p", "N": "123s 456s 789s 11m 22m"})
    result = settle_table(data)
    west = result.scores["W"]
    assert isinstance(west, HandScore) and west.total == 0 and west.winner is False
    assert "Luoshan non-winners score 0" in west.notes
    assert result.scores["S"] == PlayerTotal(total=0)
    assert result.net == {"E": 1500, "S": -500, "W": -500, "N": -500}


# -- a legal win ---------------------------------------------------------------------


def test_illegal_winner_cannot_be_settled_and_the_note_says_why() -> None:
    message = error(luoshan("S", "[CCC] 55m 789s 345m 99s +5m self", flip="1p"))
    assert message == (
        "players.S: S's hand is not a legal Luoshan win, so the deal cannot be settled: "
        "not a legal win: a self-drawn win (rob-kong and kong-draw count as self-drawn) "
        "needs at least 100 hu; this hand makes 40"
    )


def test_the_minimum_depends_on_how_the_hand_was_won() -> None:
    assert settle_table(luoshan("W", SMALL + " self")).net == {"E": -100, "S": -100, "W": 300, "N": -100}
    assert error(luoshan("W", SMALL, discarder="S")).endswith(
        "a win on a discard needs at least 200 hu; this hand makes 90"
    )


def test_ping_he_is_legal_at_30() -> None:
    result = settle_table(luoshan("W", "123m 456m 789p 23s 55p +4s", discarder="N", flip="9p"))
    assert result.net == {"E": -30, "S": -30, "W": 90, "N": -30}


def test_winner_must_be_a_hand_not_a_total() -> None:
    assert error(luoshan("S", None, players={"S": {"total": 300}})) == (
        "players.S: S is the winner; give the winning hand (a Luoshan win is settled from the hand itself, "
        'not from {"total": 300})'
    )


# -- drawn hand and next dealer ---------------------------------------------------------


def test_drawn_hand_no_payments_dealer_deals_again() -> None:
    result = settle_table(luoshan(None, flip="9p", players={"S": "123p 456p 789p 23p 99p"}))
    assert result.payments == []
    assert result.net == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert result.next_dealer == "E"
    assert result.scores["S"].total == 0


def test_drawn_hand_has_no_winning_tile() -> None:
    message = error(luoshan(None, players={"S": QING_PING}))
    assert message.startswith("players.S: the hand has a winning tile +4p, but winner is null")


@pytest.mark.parametrize("winner, discarder", [("E", "S"), ("S", "W"), ("W", "E"), ("N", "E")])
def test_the_winner_deals_next(winner: str, discarder: str) -> None:
    assert settle_table(luoshan(winner, QING_PING, discarder=discarder)).next_dealer == winner


# -- table checks ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["false-win", "liable"])
def test_side_events_are_not_luoshan_rules(kind: str) -> None:
    """foul is accepted by every rule set (Decision 2026-11-30); the others are not Luoshan's."""
    data = luoshan("E", WORKED_1, flip="5s", events=[{"type": kind, "seat": "S"}])
    assert error(data) == f"events[0]: event type '{kind}' is not used in luoshan; known: foul"


def test_luoshan_has_no_house_options() -> None:
    data = luoshan("E", WORKED_1, flip="5s", options={"double_at": 10})
    assert error(data) == "options: unknown option 'double_at' for luoshan; known options: none"


def test_non_winner_with_a_count_is_an_error_not_ignored() -> None:
    assert error(luoshan("E", WORKED_1, flip="5s", players={"N": {"total": 40}})) == (
        'players.N: Luoshan non-winners score 0 (there are no loser tai); give {"total": 0} or the hand, '
        'not {"total": 40}'
    )


@pytest.mark.parametrize(
    "changes, expected",
    [
        ({"wild": ["6s", "E"]}, 'wild: Luoshan has one wildcard kind, e.g. ["2m"] or flip "1m"; got 2'),
        (
            {"wild": ["6s"], "flip": "5s"},
            "flip: give either flip (5s) or wild (6s), not both: Luoshan has one wildcard kind",
        ),
        ({"flip": "f1"}, "flip: f1 is a flower; Luoshan plays 136 tiles, no flowers"),
    ],
)
def test_one_wildcard_kind_for_the_table(changes: dict[str, Any], expected: str) -> None:
    assert error(luoshan("E", WORKED_1, **changes)) == expected


def test_table_flip_applies_to_every_hand() -> None:
    """flip 1m makes 2m wild: the same 2m2m2m hand scores 260 and settles; without it, it forms no win."""
    data = luoshan("S", "2m2m2m CCC 123p 456p 9p +9p self", flip="1m")
    assert settle_table(data).net == {"E": -260, "S": 780, "W": -260, "N": -260}
    assert error(luoshan("S", "2m2m2m CCC 123p 456p 9p +9p self", flip="5s")).startswith("players.S: ")


def test_a_hand_disagreeing_with_the_table_flip() -> None:
    message = error(luoshan("E", WORKED_1 + " flip:1m", flip="5s"))
    assert message == (
        "players.E: flip:1m disagrees with the table's flip:5s; every hand at a table shares the same flip"
    )


def test_tile_copies_across_hands() -> None:
    data = luoshan("E", WORKED_1, flip="5s", players={"S": "C 123m 456m 789m 11s 23s"})
    assert error(data) == "players: C appears 5 times across the table (E 4, S 1); at most 4 exist"


def test_the_flipped_indicator_is_not_out_of_play() -> None:
    """All four 5s may be held with flip 5s (Lingxi would allow only three of a revealed tile)."""
    data = luoshan("E", WORKED_1, flip="5s", players={"S": "5555s 123m 456m 789m"})
    assert settle_table(data).net == {"E": 1500, "S": -500, "W": -500, "N": -500}


# -- the CLI and HTTP layers, and the example files ------------------------------------------


def test_cli_settle_json() -> None:
    result = CliRunner().invoke(cli_app, ["settle", str(TABLES / "luoshan-win.json"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["net"] == {"E": 1500, "S": -500, "W": -500, "N": -500}
    assert data["payments"][0] == {"from": "S", "to": "E", "amount": 500, "reason": "winner 500 hu (self-drawn)"}
    assert data["next_dealer"] == "E"


def test_cli_illegal_winner_is_exit_2() -> None:
    table = json.dumps(luoshan("W", SMALL, discarder="S"))
    result = CliRunner().invoke(cli_app, ["settle", "-", "--json"], input=table)
    assert result.exit_code == 2
    assert "not a legal Luoshan win" in result.stderr and "Traceback" not in result.stderr


def test_http_settle() -> None:
    client = TestClient(http_app)
    reply = client.post("/settle", json=luoshan("W", QING_PING, discarder="N"))
    assert reply.status_code == 200
    assert reply.json()["net"] == {"E": -240, "S": -240, "W": 720, "N": -240}
    assert reply.json()["next_dealer"] == "W"
    bad = client.post("/settle", json=luoshan("W", SMALL, discarder="S"))
    assert bad.status_code == 422
    assert bad.json()["detail"] == error(luoshan("W", SMALL, discarder="S"))


@pytest.mark.parametrize(
    "name, net, dealer",
    [
        ("luoshan-win.json", {"E": 1500, "S": -500, "W": -500, "N": -500}, "E"),
        ("luoshan-drawn.json", {"E": 0, "S": 0, "W": 0, "N": 0}, "E"),
    ],
)
def test_example_tables_match_the_readme(name: str, net: dict[str, int], dealer: str) -> None:
    result = settle_table(json.loads((TABLES / name).read_text(encoding="utf-8")))
    assert (result.net, result.next_dealer) == (net, dealer)


# -- zero sum ----------------------------------------------------------------------------------

# (hand, table changes, own turn, total) — legal at every seat, no seat winds involved
WINS = (
    (QING_PING, {}, False, 240),
    (QING_PING + " self", {}, True, 240),
    ("2m2m2m CCC 123p 456p 9p +9p self", {"wild": ["2m"]}, True, 260),
    ("123m 456m 789p 23s 55p +4s", {"flip": "9p"}, False, 30),
    (CC_FF + " rob-kong", {}, False, 210),
    (CC_FF + " kong-draw", {}, True, 420),
)


@settings(max_examples=50, deadline=None)
@given(st.one_of(st.none(), st.sampled_from(WINS)), st.sampled_from(SEATS), st.data())
def test_zero_sum_and_the_winner_takes_three_times_its_total(win: Any, winner: str, data: st.DataObject) -> None:
    if win is None:
        result = settle_table(luoshan(None))
        assert result.net == {s: 0 for s in SEATS} and result.next_dealer == "E"
        return
    hand, changes, own_turn, total = win
    discarder = None if own_turn else data.draw(st.sampled_from([s for s in SEATS if s != winner]))
    result = settle_table(luoshan(winner, hand, discarder, **changes))
    assert sum(result.net.values()) == 0
    assert result.net == {s: 3 * total if s == winner else -total for s in SEATS}
    assert result.next_dealer == winner


# -- checked by hand against the rules page (the review of the four regional rule sets) --


def test_luoshan_table_seat_decides_the_seat_wind() -> None:
    # at S the 东 pung is no tai: 62 × 4 = 248 → 250, paid by each of the three
    table = {
        "rules": "luoshan",
        "flip": "5s",
        "winner": "S",
        "discarder": None,
        "players": {"E": ZERO, "S": "[EEE] (CCCC) [999m] 11p FF +1p self", "W": ZERO, "N": ZERO},
    }
    assert net(table) == ({"E": -250, "S": 750, "W": -250, "N": -250}, "S")
