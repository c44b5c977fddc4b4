"""Lingxi settlement (docs/rules/lingxi.md "Settlement" 1–8) and the table's validation."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from api_app import app as http_app
from fastapi.testclient import TestClient
from settle_helpers import API_TABLE, error, paid
from typer.testing import CliRunner

import taihu.scorer.rulesets as rulesets
from taihu.api.schemas import Payment as HttpPayment
from taihu.cli.main import app as cli_app
from taihu.scorer import Payment, PlayerTotal, Table, settle_table

EXAMPLE_PAYMENTS = [
    {"from": "E", "to": "S", "amount": 112, "reason": "winner; dealer x2"},
    {"from": "W", "to": "S", "amount": 56, "reason": "winner"},
    {"from": "N", "to": "S", "amount": 56, "reason": "winner"},
    {"from": "E", "to": "W", "amount": 4, "reason": "difference 2; dealer x2"},
    {"from": "E", "to": "N", "amount": 4, "reason": "difference 2; dealer x2"},
]
EXAMPLE_NET = {"E": -120, "S": 224, "W": -52, "N": -52}

WIN_56 = "555m 222p 777p 333s 888s 9m f1 f2 P P +9m"  # with wild 5m,E
SI_FENG_QI = "[EEE] [SSS] [WWW] 234m 567p N +N"  # with wild 3s,C: 42 at seat S
SHA_ZHU = "5m5m5m E 123p 456p 789s 11s 23m declare:sha-zhu"  # with wild 5m,E: 26


def table(**changes: Any) -> dict[str, Any]:
    """The docs/api.md example with some fields replaced (`players` merges seat by seat)."""
    data = copy.deepcopy(API_TABLE)
    players = changes.pop("players", {})
    data.update(changes)
    data["players"].update(players)
    return data


def totals(winner: str, hand: str, others: dict[str, int], **changes: Any) -> dict[str, Any]:
    """A table where only the winner's hand is written."""
    players: dict[str, Any] = {s: {"total": n} for s, n in others.items()}
    players[winner] = hand
    return {"rules": "lingxi", "wild": ["5m", "E"], "winner": winner, "players": players, **changes}


# -- the docs/api.md example, end to end -------------------------------------------------


def test_example_through_the_library() -> None:
    result = settle_table(API_TABLE)
    assert result.net == EXAMPLE_NET
    assert result.to_dict()["payments"] == EXAMPLE_PAYMENTS
    assert result.next_dealer == "S"
    assert result.scores["E"].total == 2
    assert result.scores["S"].total == 56
    assert result.scores["W"] == PlayerTotal(total=4)
    assert result.scores["N"].total == 4
    assert result.to_dict()["scores"]["W"] == {"total": 4}


def test_example_accepts_a_table_model() -> None:
    assert settle_table(Table.from_dict(API_TABLE)).net == EXAMPLE_NET


def test_example_through_the_cli_json(tmp_path) -> None:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(API_TABLE), encoding="utf-8")
    result = CliRunner().invoke(cli_app, ["settle", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["net"] == EXAMPLE_NET
    assert data["payments"] == EXAMPLE_PAYMENTS
    assert data["next_dealer"] == "S"


def test_example_through_the_cli_table_from_stdin() -> None:
    result = CliRunner().invoke(cli_app, ["settle", "-"], input=json.dumps(API_TABLE))
    assert result.exit_code == 0, result.output
    for text in ("winner; dealer x2", "difference 2; dealer x2", "-120", "+224", "-52", "next dealer: S"):
        assert text in result.stdout


def test_example_through_http() -> None:
    reply = TestClient(http_app).post("/settle", json=API_TABLE)
    assert reply.status_code == 200
    assert reply.json()["payments"] == EXAMPLE_PAYMENTS
    assert reply.json()["net"] == EXAMPLE_NET
    assert reply.json()["next_dealer"] == "S"


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        (json.dumps(table(winner="X")), "winner"),
        (json.dumps(table(players={"S": "123m"})), "players.S"),
    ],
)
def test_cli_bad_input_is_exit_2_without_traceback(content: str, message: str) -> None:
    result = CliRunner().invoke(cli_app, ["settle", "-"], input=content)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output + result.stderr


def test_cli_missing_file() -> None:
    result = CliRunner().invoke(cli_app, ["settle", "/no/such/table.json"])
    assert result.exit_code == 2
    assert "cannot read" in result.stderr


def test_payment_serialises_from_by_alias() -> None:
    payment = Payment(from_="E", to="S", amount=2, reason="winner; dealer x2")
    assert payment.to_dict() == {"from": "E", "to": "S", "amount": 2, "reason": "winner; dealer x2"}
    assert HttpPayment.model_validate({"from": "W", "to": "S", "amount": 1, "reason": "x"}).from_ == "W"


# -- 1. the winner collects from each of the other three -------------------------------


def test_1_winner_collects_its_tai_from_each_whoever_discarded() -> None:
    result = settle_table(totals("S", WIN_56, {"E": 0, "W": 0, "N": 0}, discarder="N"))
    assert paid(result) == [
        ("E", "S", 112, "winner; dealer x2"),
        ("W", "S", 56, "winner"),
        ("N", "S", 56, "winner"),
    ]


def test_1_a_winner_known_only_by_its_total() -> None:
    data = {
        "rules": "lingxi",
        "winner": "W",
        "players": {"E": {"total": 0}, "S": {"total": 0}, "W": {"total": 10}, "N": {"total": 0}},
    }
    assert settle_table(data).net == {"E": -20, "S": -10, "W": 40, "N": -10}


# -- 2. the non-winners settle pairwise differences ----------------------------------------


def test_2_pairwise_differences_between_non_winners() -> None:
    result = settle_table(totals("S", WIN_56, {"E": 0, "W": 3, "N": 10}, discarder="W"))
    assert paid(result)[3:] == [
        ("E", "W", 6, "difference 3; dealer x2"),
        ("E", "N", 20, "difference 10; dealer x2"),
        ("W", "N", 7, "difference 7"),
    ]


def test_2_equal_tai_pay_nothing() -> None:
    result = settle_table(totals("S", WIN_56, {"E": 4, "W": 4, "N": 4}, discarder="W"))
    assert [p.reason for p in result.payments] == ["winner; dealer x2", "winner", "winner"]


# -- 3. dealer doubling ----------------------------------------------------------------


def test_3_dealer_winner_collects_double_from_everyone() -> None:
    result = settle_table(totals("E", WIN_56, {"S": 1, "W": 1, "N": 1}, discarder="S"))
    assert paid(result) == [
        ("S", "E", 112, "winner; dealer x2"),
        ("W", "E", 112, "winner; dealer x2"),
        ("N", "E", 112, "winner; dealer x2"),
    ]
    assert result.net["E"] == 336


# -- 4. 包赔 ---------------------------------------------------------------------


def liable_table(**changes: Any) -> dict[str, Any]:
    data = totals("S", SI_FENG_QI, {"E": 1, "W": 5, "N": 6}, discarder="N", wild=["3s", "C"])
    data["events"] = [{"type": "liable", "seat": "N"}]
    data.update(changes)
    return data


def test_4_liable_player_pays_what_all_three_would_have() -> None:
    result = settle_table(liable_table())
    assert result.scores["S"].total == 42
    assert paid(result) == [
        ("N", "S", 84, "winner; liable for E; dealer x2"),
        ("N", "S", 42, "winner; liable for W"),
        ("N", "S", 42, "winner"),
        ("E", "W", 8, "difference 4; dealer x2"),
        ("E", "N", 10, "difference 5; dealer x2"),
        ("W", "N", 1, "difference 1"),
    ]
    assert result.net == {"E": -18, "S": 168, "W": 7, "N": -157}


def test_4_liable_dealer_pays_each_amount_as_computed_with_doubling() -> None:
    data = liable_table(discarder="E", events=[{"type": "liable", "seat": "E"}])
    result = settle_table(data)
    assert [(p.from_, p.amount) for p in result.payments[:3]] == [("E", 84), ("E", 42), ("E", 42)]


def test_4_liable_needs_a_si_feng_qi_win() -> None:
    data = totals("S", WIN_56, {"E": 0, "W": 0, "N": 0}, discarder="W", events=[{"type": "liable", "seat": "W"}])
    assert "四风齐" in error(data)


def test_4_liable_without_a_winner_or_on_the_winner() -> None:
    assert "no winner" in error(
        table(winner=None, discarder=None, players={"S": {"total": 3}}, events=[{"type": "liable", "seat": "W"}])
    )
    assert "is the winner" in error(liable_table(events=[{"type": "liable", "seat": "S"}]))
    two = [{"type": "liable", "seat": "N"}, {"type": "liable", "seat": "W"}]
    assert "only one player can be liable" in error(liable_table(events=two))


# -- 5. false win ------------------------------------------------------------------


def false_win(seat: str) -> dict[str, Any]:
    return table(winner=None, discarder=None, players={"S": {"total": 7}}, events=[{"type": "false-win", "seat": seat}])


def test_5_false_win_pays_26_to_each_doubled_with_the_dealer() -> None:
    result = settle_table(false_win("W"))
    assert paid(result) == [
        ("W", "E", 52, "false win; dealer x2"),
        ("W", "S", 26, "false win"),
        ("W", "N", 26, "false win"),
    ]
    assert result.next_dealer == "S"


def test_5_dealer_false_win_pays_52_to_each_and_loses_the_deal() -> None:
    result = settle_table(false_win("E"))
    assert result.net == {"E": -156, "S": 52, "W": 52, "N": 52}
    assert result.next_dealer == "S"


def test_5_false_win_ends_the_deal_without_a_winner() -> None:
    data = table(events=[{"type": "false-win", "seat": "W"}])
    assert "winner to null" in error(data)
    two = false_win("W")
    two["events"].append({"type": "false-win", "seat": "N"})
    assert "only one false win" in error(two)


# -- 6. foul ------------------------------------------------------------------------


def test_6_foul_counts_zero_but_still_pays_the_winner() -> None:
    result = settle_table(table(events=[{"type": "foul", "seat": "N"}]))
    assert result.scores["N"].total == 0
    assert "foul" in result.scores["N"].notes[-1]
    assert paid(result) == [
        ("E", "S", 112, "winner; dealer x2"),
        ("W", "S", 56, "winner"),
        ("N", "S", 56, "winner"),
        ("E", "W", 4, "difference 2; dealer x2"),
        ("N", "E", 4, "difference 2; dealer x2"),
        ("N", "W", 4, "difference 4"),
    ]


def test_6_foul_total_only_player() -> None:
    result = settle_table(table(events=[{"type": "foul", "seat": "W"}]))
    assert result.scores["W"] == PlayerTotal(total=0)


def test_6_the_winner_cannot_have_fouled() -> None:
    assert "cannot be the winner" in error(table(events=[{"type": "foul", "seat": "S"}]))


# -- declared wins ----------------------------------------------------------------------


def test_declared_win_makes_every_other_player_count_zero() -> None:
    data = table(winner="W", discarder=None, players={"S": {"total": 9}, "W": SHA_ZHU, "N": {"total": 4}})
    result = settle_table(data)
    assert result.scores["W"].total == 26
    assert {s: result.scores[s].total for s in "ESN"} == {"E": 0, "S": 0, "N": 0}
    assert "declared sha-zhu" in result.scores["E"].notes[-1]
    assert paid(result) == [("E", "W", 52, "winner; dealer x2"), ("S", "W", 26, "winner"), ("N", "W", 26, "winner")]


# -- 7. drawn hand ---------------------------------------------------------------------


def test_7_drawn_hand_everyone_zero_no_payments() -> None:
    data = table(winner=None, discarder=None, players={"S": {"total": 3}})
    result = settle_table(data)
    assert result.payments == []
    assert result.net == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert all(score.total == 0 for score in result.scores.values())
    assert result.next_dealer == "E"


# -- 8. next dealer ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "winner, discarder, expected", [("E", "S", "E"), ("S", "W", "S"), ("W", "E", "S"), ("N", "E", "S")]
)
def test_8_next_dealer(winner: str, discarder: str, expected: str) -> None:
    others = {s: 0 for s in "ESWN" if s != winner}
    assert settle_table(totals(winner, WIN_56, others, discarder=discarder)).next_dealer == expected


# -- zero sum ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [API_TABLE, liable_table(), false_win("N"), table(events=[{"type": "foul", "seat": "E"}])],
)
def test_net_sums_to_zero(data: dict[str, Any]) -> None:
    assert sum(settle_table(data).net.values()) == 0


# -- table validation ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, expected",
    [
        # copies across the table
        (
            table(players={"E": "[222p] 123p 456p 78s 11s 34p 9s f3 C"}),
            "2p appears 7 times across the table (E 4, S 3); at most 4 exist",
        ),
        (
            table(players={"E": "[CCC] 123p 456p 78s 11s 34p 9s f1"}),
            "f1 appears 2 times across the table (E 1, S 1); at most 1",
        ),
        (
            table(players={"N": "5m 123m 789m 12s 33p 66p 99p 5s f4"}),
            "5m appears 4 times across the table (S 3, N 1); at most 3 exist (revealed wildcard tiles are out of play)",
        ),
        # the winning hand
        (
            table(players={"N": "E 123m 789m 12s 33p 66p 99p 5s +5s"}),
            "players.N: the hand has a winning tile +5s, but the winner is S",
        ),
        (table(winner="N", discarder="W"), "players.S: the hand has a winning tile +9m, but the winner is N"),
        (
            table(players={"S": "555m 222p 777p 333s 888s 9m f1 f2 P P 9m"}),
            "players.S: S is the winner, but the hand has no winning tile",
        ),
        (table(winner=None, discarder=None), "players.S: the hand has a winning tile +9m, but winner is null"),
        # the discarder
        (table(winner=None, discarder="W", players={"S": {"total": 1}}), "discarder: there is no winner"),
        (table(discarder="S"), "discarder: S is the winner"),
        (table(players={"S": WIN_56 + " self"}), "discarder: S's win is on its own turn (self)"),
        (table(discarder=None), "discarder: S won on a discard"),
        (table(discarder="W", players={"S": WIN_56 + " earth"}), "discarder: 地胡 (earth)"),
        # seats
        (table(players={"S": WIN_56 + " seat:W"}), "players.S: the hand says seat:W but sits at S"),
        (
            {**API_TABLE, "players": {k: v for k, v in API_TABLE["players"].items() if k != "N"}},
            "players: must be exactly the seats E, S, W, N (missing N)",
        ),
        ({**API_TABLE, "players": {**API_TABLE["players"], "X": {"total": 1}}}, "unknown seat 'X'"),
        ({**API_TABLE, "players": [1, 2]}, "players: must be an object"),
        (table(players={"W": {"total": -1}}), 'players: W must be a hand string or {"total": N}'),
        (table(players={"W": {"total": 1, "x": 2}}), 'players: W must be a hand string or {"total": N}'),
        (table(players={"W": 7}), "players: W must be a hand string"),
        (table(players={"W": "1m" * 200}), "players: W is a hand string of 400 characters; at most 256"),
        # wild and flip
        (table(players={"S": WIN_56 + " wild:5m,W"}), "players.S: wild:5m,W disagrees with the table's wild:5m,E"),
        (
            table(
                wild=None,
                players={
                    "E": "[CCC] 123p 456p 78s 11s 34p 9s f3 wild:5m,E",
                    "N": "E 123m 789m 12s 33p 66p 99p 5s f4 wild:3s,C",
                },
            ),
            "players.N: wild:3s,C disagrees with players.E's wild:5m,E",
        ),
        (table(wild=["5m"]), "wild: Lingxi reveals two wildcard tiles"),
        (table(wild=["5m", "x"]), "wild[1]: unknown tile 'x'"),
        (table(wild=["5m", "56m"]), "wild[1]: '56m' must be one tile"),
        (table(flip="1m"), "flip: Lingxi has no flipped indicator"),
        (
            table(players={"N": "E 123m 789m 12s 33p 66p 99p 5s f4 flip:1m"}),
            "flip: Lingxi has no flipped indicator (flip:1m given)",
        ),
        (
            table(flip="1m", players={"N": "E 123m 789m 12s 33p 66p 99p 5s f4 flip:2m"}),
            "players.N: flip:2m disagrees with the table's flip:1m",
        ),
        # hands, events, options, rules
        (table(players={"E": "[CCC] 123p 456p 78s 11s 34p f3"}), "players.E: hand has 15 tiles"),
        (table(players={"E": "[CCC] 123p x"}), "players.E: unknown tile 'x' at column 12"),
        (table(events=[{"type": "gen-da", "seat": "W"}]), "events[0]: event type 'gen-da' is not used in lingxi"),
        (
            table(events=[{"type": "foul", "seat": "W"}, {"type": "foul", "seat": "W"}]),
            "events[1]: foul for W is given twice",
        ),
        (table(events=[{"type": "foul", "seat": "Q"}]), "events[0].seat: Input should be 'E', 'S', 'W' or 'N'"),
        (table(events=[{"type": "foul"}]), "events[0].seat: Field required"),
        (table(options={"double_at": 10, "nope": 1}), "options: unknown option 'nope' for lingxi"),
        (table(options={"double_at": "many"}), "options.double_at: Input should be a valid integer"),
        (table(rules="nowhere"), "unknown rule set 'nowhere'"),
        (table(winner="X"), "winner: Input should be 'E', 'S', 'W' or 'N'"),
        (table(surprise=1), "surprise: Extra inputs are not permitted"),
        ({"rules": "lingxi"}, "players: Field required"),
        ([API_TABLE], "table: must be a JSON object, got list"),
    ],
)
def test_table_errors(data: Any, expected: str) -> None:
    assert expected in error(data)


def test_table_wild_may_come_from_one_hand_and_applies_to_all() -> None:
    data = table(wild=None, players={"S": WIN_56 + " wild:E,5m"})
    result = settle_table(data)
    assert result.net == EXAMPLE_NET
    assert result.scores["E"].hand.endswith("wild:E,5m")


def test_hand_repeating_the_table_wild_and_seat_is_fine() -> None:
    data = table(players={"S": WIN_56 + " seat:S wild:E,5m"})
    assert settle_table(data).net == EXAMPLE_NET


def test_options_reach_every_hand() -> None:
    result = settle_table(table(options={"double_at": 10}))
    assert result.scores["S"].total == 56
    data = totals("S", "123m 456m 789p 234s 678s 5p +5p", {"E": 0, "W": 0, "N": 0}, discarder="W", wild=["9s", "N"])
    assert settle_table(data).scores["S"].total == 26


def test_settlement_for_a_rule_set_without_one(monkeypatch: pytest.MonkeyPatch) -> None:
    class Unsettled(type(rulesets.RULESETS["lingxi"])):  # type: ignore[misc]
        """Lingxi's scoring in a module (this one) with no `settlement` beside it."""

        name = "unsettled"

    monkeypatch.setitem(rulesets.RULESETS, "unsettled", Unsettled())
    assert error(table(rules="unsettled")) == "settlement for unsettled is not available yet"
