"""Riichi settlement (docs/rules/riichi.md): honba, the pot and its invariant, 流局 with 不听罚符, 包, chombo."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taihu.scorer import HandError, settle_table
from taihu.scorer.models import Settlement

# S: worked example 1 (riichi, pinfu, tanyao, dora, ura); the others 13 tiles each, none of them ready
WIN_S = "234567m 234p 88p 67s +8s riichi dora:1p ura:7s"
NOT_READY = {"E": "19m 19p 19s ESWN 2m 5p 8s", "W": "147m 258p 369s EESW", "N": "147p 258s 369m NN 5m 5p"}
READY = {"E": "123m 456m 789p 11s 34p", "W": "EEE 567s 999m 12p 55s", "N": "NN 123s 456s 789s 34p"}


def table(**fields: Any) -> dict[str, Any]:
    return {"rules": "riichi", "events": [], "options": {}, **fields}


def check_invariant(result: Settlement) -> None:
    assert result.extra["pot_before"] is not None and result.extra["pot_after"] is not None
    assert sum(result.net.values()) == 1000 * (result.extra["pot_before"] - result.extra["pot_after"])


def riichi(*seats: str) -> list[dict[str, str]]:
    return [{"type": "riichi", "seat": seat} for seat in seats]


def test_win_on_a_discard_with_honba_and_the_pot() -> None:
    result = settle_table(
        table(winner="S", discarder="W", honba=1, pot=1, players={**NOT_READY, "S": WIN_S}, events=riichi("S"))
    )
    assert [(p.from_, p.to, p.amount) for p in result.payments] == [("W", "S", 8300)]
    assert result.net == {"E": 0, "S": 8300 + 2000 - 1000, "W": -8300, "N": 0}
    assert result.extra == {"pot_before": 1, "pot_after": 0, "next_honba": 0} and result.next_dealer == "S"
    check_invariant(result)


def test_dealer_self_drawn_keeps_the_deal_and_adds_a_honba() -> None:
    hand = "234567m 234p 88p 67s +8s self dora:1p"  # menzen_tsumo, pinfu, tanyao, dora 1: 4 han 20 fu
    result = settle_table(table(winner="E", honba=2, players={**NOT_READY, "E": hand, "S": NOT_READY["E"]}))
    assert sorted((p.from_, p.amount) for p in result.payments) == [("N", 2800), ("S", 2800), ("W", 2800)]
    assert (result.next_dealer, result.extra["next_honba"], result.extra["pot_after"]) == ("E", 3, 0)
    check_invariant(result)


@pytest.mark.parametrize(
    ("ready", "nets"),
    [
        pytest.param("", {"E": 0, "S": 0, "W": 0, "N": 0}, id="none-ready"),
        pytest.param("S", {"E": -1000, "S": 3000, "W": -1000, "N": -1000}, id="one-ready"),
        pytest.param("ES", {"E": 1500, "S": 1500, "W": -1500, "N": -1500}, id="two-ready"),
        pytest.param("ESW", {"E": 1000, "S": 1000, "W": 1000, "N": -3000}, id="three-ready"),
        pytest.param("ESWN", {"E": 0, "S": 0, "W": 0, "N": 0}, id="all-ready"),
    ],
)
def test_drawn_deal_pays_noten_bappu_from_the_hands(ready: str, nets: dict[str, int]) -> None:
    """taihu decides 听牌 from each 13-tile hand."""
    players = {seat: READY[seat] if seat in ready else NOT_READY[seat] for seat in "EWN"}
    players["S"] = "234567m 234p 88p 67s" if "S" in ready else "19m 19p 19s ESWN 2m 5p 8s"
    result = settle_table(table(winner=None, honba=1, pot=2, players=players))
    assert result.net == nets
    assert result.next_dealer == ("E" if "E" in ready else "S") and result.extra["next_honba"] == 2
    assert (result.extra["pot_before"], result.extra["pot_after"]) == (2, 2)
    check_invariant(result)


def test_drawn_deal_with_stated_tenpai_and_a_riichi_stick_left_in_the_pot() -> None:
    players = {
        "E": "123m 456m 789p 11s 34p riichi",
        "S": {"tenpai": True},
        "W": {"tenpai": False},
        "N": {"tenpai": False},
    }
    result = settle_table(table(winner=None, pot=1, players=players, events=riichi("E")))
    assert result.net == {"E": 1500 - 1000, "S": 1500, "W": -1500, "N": -1500}
    assert (result.extra["pot_after"], result.next_dealer) == (2, "E")
    check_invariant(result)
    # a seat given as {"tenpai": ...} keeps it in `scores`, beside the 0 it counts
    assert {s: result.to_dict()["scores"][s] for s in "SWN"} == {
        "S": {"total": 0, "tenpai": True},
        "W": {"total": 0, "tenpai": False},
        "N": {"total": 0, "tenpai": False},
    }


def test_noten_bappu_off() -> None:
    players = {"E": {"tenpai": True}, "S": {"tenpai": False}, "W": {"tenpai": False}, "N": {"tenpai": False}}
    result = settle_table(table(winner=None, players=players, options={"noten_bappu": 0}))
    assert result.payments == [] and result.next_dealer == "E"


DAISANGEN = "[CCC] [FFF] PP 123m 99p +P self"  # 大三元 with 中 and 发 exposed, 白 completed on the draw


def test_liable_pays_the_whole_yakuman_when_self_drawn() -> None:
    result = settle_table(
        table(winner="S", honba=1, players={**NOT_READY, "S": DAISANGEN}, events=[{"type": "liable", "seat": "N"}])
    )
    assert [(p.from_, p.amount) for p in result.payments] == [("N", 16100 + 8100 * 2)]
    check_invariant(result)


def test_liable_and_discarder_pay_half_each_on_a_discard() -> None:
    hand = DAISANGEN.replace(" self", "")
    result = settle_table(
        table(
            winner="S",
            discarder="W",
            honba=1,
            players={**NOT_READY, "S": hand},
            events=[{"type": "liable", "seat": "N"}],
        )
    )
    assert sorted((p.from_, p.amount) for p in result.payments) == [("N", 16000), ("W", 16300)]
    check_invariant(result)


def test_liable_discarder_pays_it_all() -> None:
    hand = DAISANGEN.replace(" self", "")
    result = settle_table(
        table(winner="S", discarder="N", players={**NOT_READY, "S": hand}, events=[{"type": "liable", "seat": "N"}])
    )
    assert [(p.from_, p.amount) for p in result.payments] == [("N", 32000)]


def test_liable_needs_the_fed_yakuman() -> None:
    with pytest.raises(HandError, match="daisangen or daisuushii"):
        settle_table(
            table(
                winner="S",
                discarder="W",
                players={**NOT_READY, "S": WIN_S},
                events=[*riichi("S"), {"type": "liable", "seat": "N"}],
            )
        )


@pytest.mark.parametrize(
    ("offender", "nets"),
    [
        pytest.param("S", {"E": 4000, "S": -8000, "W": 2000, "N": 2000}, id="non-dealer"),
        pytest.param("E", {"E": -12000, "S": 4000, "W": 4000, "N": 4000}, id="dealer"),
    ],
)
def test_chombo_pays_a_reversed_mangan(offender: str, nets: dict[str, int]) -> None:
    result = settle_table(
        table(
            winner=None,
            honba=2,
            pot=1,
            players=NOT_READY | {"S": {"tenpai": False}},
            events=[{"type": "false-win", "seat": offender}],
        )
    )
    assert result.net == nets
    assert (result.next_dealer, result.extra["next_honba"], result.extra["pot_after"]) == ("E", 2, 1)


@pytest.mark.parametrize(
    ("fields", "match"),
    [
        pytest.param({"events": []}, "events needs", id="riichi-hand-without-event"),
        pytest.param({"events": riichi("S", "E")}, "write 'riichi' in its hand", id="event-without-riichi-hand"),
        pytest.param(
            {"events": riichi("S"), "players": {**NOT_READY, "S": WIN_S + " sticks:3"}},
            "sticks:3 disagrees with the table's 1",
            id="sticks-disagree",
        ),
        pytest.param({"events": riichi("S"), "discarder": None}, "name the discarder", id="no-discarder"),
    ],
)
def test_table_errors(fields: dict[str, Any], match: str) -> None:
    base = table(winner="S", discarder="W", players={**NOT_READY, "S": WIN_S})
    with pytest.raises(HandError, match=match):
        settle_table({**base, **fields})


@pytest.mark.parametrize("field", [{"honba": 1}, {"pot": 1}, {"round": "S"}])
def test_other_rule_sets_refuse_the_riichi_table_fields(field: dict[str, Any]) -> None:
    base = {"rules": "guannan", "winner": None, "players": {s: {"total": 0} for s in "ESWN"}}
    with pytest.raises(HandError, match="riichi"):
        settle_table({**base, **field})


def test_other_rule_sets_refuse_a_tenpai_seat() -> None:
    players = {"E": {"tenpai": True}, "S": {"total": 0}, "W": {"total": 0}, "N": {"total": 0}}
    with pytest.raises(HandError, match="riichi"):
        settle_table({"rules": "guannan", "winner": None, "players": players})


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(
    declared=st.sets(st.sampled_from("ESWN")),
    pot=st.integers(0, 5),
    honba=st.integers(0, 5),
    win=st.booleans(),
    discarder=st.sampled_from("EWN"),
)
def test_nets_move_only_the_sticks_of_the_pot(
    declared: set[str], pot: int, honba: int, win: bool, discarder: str
) -> None:
    """sum(net) == 1000 × (pot_before − pot_after), win or draw, whoever declared."""
    players: dict[str, Any] = {s: ({"tenpai": s in declared} if s != "S" else "") for s in "ESWN"}
    players["S"] = (
        (WIN_S if win else "234567m 234p 88p 67s riichi")
        if "S" in declared
        else (WIN_S.replace(" riichi", "").replace(" ura:7s", "") if win else {"tenpai": False})
    )
    if win:
        players.update({s: NOT_READY[s] + (" riichi" if s in declared else "") for s in "EWN"})
    result = settle_table(
        table(
            winner="S" if win else None,
            discarder=discarder if win else None,
            pot=pot,
            honba=honba,
            players=players,
            events=riichi(*sorted(declared)),
        )
    )
    check_invariant(result)
    assert result.extra["pot_after"] == (0 if win else pot + len(declared))


@pytest.mark.parametrize("name", ["riichi-win.json", "riichi-drawn.json"])
def test_cli_settles_the_riichi_examples(name: str) -> None:
    from pathlib import Path

    from typer.testing import CliRunner

    from taihu.cli.main import app

    path = Path(__file__).parent.parent / "examples" / "tables" / name
    shown = CliRunner().invoke(app, ["settle", str(path)])
    assert shown.exit_code == 0, shown.output
    assert "不听罚符" in shown.stdout or "discarder pays" in shown.stdout


@pytest.mark.parametrize(
    ("fields", "match"),
    [
        pytest.param({"round": "S", "players": {**NOT_READY, "S": WIN_S + " round:E"}}, "round:E", id="round"),
        pytest.param({"events": [*riichi("S"), {"type": "liable", "seat": "S"}]}, "cannot be liable", id="liable-self"),
        pytest.param(
            {"events": [*riichi("S"), {"type": "false-win", "seat": "E"}]}, "winner must be null", id="chombo"
        ),
        pytest.param({"events": [*riichi("S"), {"type": "foul", "seat": "S"}]}, "cannot be the winner", id="foul"),
        pytest.param(
            {"winner": None, "players": {**NOT_READY, "S": "234567m 234p 88p 67s"}},
            "no discarder",
            id="drawn-discarder",
        ),
        pytest.param({"players": {**NOT_READY, "S": {"tenpai": True}}}, "give the winning hand", id="no-hand"),
        pytest.param({"discarder": "S", "events": riichi("S")}, "does not discard", id="own-discard"),
        pytest.param(
            {"players": {**NOT_READY, "S": WIN_S + " furiten"}, "events": riichi("S")},
            "振听",
            id="furiten-on-a-discard",
        ),
    ],
)
def test_more_table_errors(fields: dict[str, Any], match: str) -> None:
    base = table(winner="S", discarder="W", players={**NOT_READY, "S": WIN_S})
    with pytest.raises(HandError, match=match):
        settle_table({**base, **fields})


def test_a_drawn_riichi_deal_needs_hands_or_tenpai() -> None:
    players = {"E": {"total": 0}, "S": {"tenpai": True}, "W": {"tenpai": False}, "N": {"tenpai": False}}
    with pytest.raises(HandError, match="tenpai"):
        settle_table(table(winner=None, players=players))


def test_a_wait_on_a_tile_the_hand_holds_four_of_is_not_ready() -> None:
    """1111m 345p 678p 456s could only win on a fifth 1m: not ready."""
    players = {"E": "1111m 345p 678p 456s", "S": {"tenpai": True}, "W": {"tenpai": False}, "N": {"tenpai": False}}
    result = settle_table(table(winner=None, players=players))
    assert result.net == {"E": -1000, "S": 3000, "W": -1000, "N": -1000}
