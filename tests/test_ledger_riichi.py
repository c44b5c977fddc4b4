"""A riichi ledger carries honba (本场) and the pot of riichi sticks from deal to deal (docs/ledger.md).

Each deal is settled by the test itself with the honba and pot the previous
settlement left (`next_honba`, `pot_after`) and compared with what the
ledger stored; the sticks are conserved: what the players have won or lost
together is always the pot on the table, 1000 a stick.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from taihu.scorer import HandError, settle_table
from taihu.store import LedgerStore

WINDS = ("E", "S", "W", "N")
PLAYERS = ["甲", "乙", "丙", "丁"]
WIN = "234567m 234p 88p 67s +8s dora:1p"  # pinfu, tanyao, dora: a win at any seat, on a discard or self-drawn
NOT_READY = ("19m 19p 19s ESWN 2m 5p 8s", "147m 258p 369s EESW", "147p 258s 369m NN 5m 5p")


def random_riichi_deal(rng: random.Random) -> dict[str, Any]:
    """A valid riichi deal in winds: a win (on a discard or self-drawn) or a 流局, riichi declared at random."""
    declared = sorted(w for w in WINDS if rng.random() < 0.3)
    events = [{"type": "riichi", "seat": w} for w in declared]
    if rng.random() < 0.35:  # drawn: who was ready (a seat that declared riichi was)
        players = {w: {"tenpai": w in declared or rng.random() < 0.4} for w in WINDS}
        return {"rules": "riichi", "winner": None, "players": players, "events": events}
    winner = rng.choice(WINDS)
    self_drawn = rng.random() < 0.4
    losers = [w for w in WINDS if w != winner]
    players: dict[str, Any] = {w: NOT_READY[i] + (" riichi" if w in declared else "") for i, w in enumerate(losers)}
    players[winner] = WIN + (" riichi" if winner in declared else "") + (" self" if self_drawn else "")
    discarder = None if self_drawn else rng.choice(losers)
    return {"rules": "riichi", "winner": winner, "discarder": discarder, "players": players, "events": events}


@settings(max_examples=15, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 2**32), deals=st.integers(1, 25))
def test_honba_and_pot_carry_and_the_sticks_are_conserved(seed: int, deals: int, tmp_path_factory: Any) -> None:
    rng = random.Random(seed)
    path = tmp_path_factory.mktemp("ledger") / "riichi.db"
    counters = {"honba": 0, "pot": 0}
    paid_in = 0  # the players' nets summed over the evening
    with LedgerStore(path) as store:
        ledger = store.create("evening", "riichi", PLAYERS)
        for _ in range(deals):
            deal = random_riichi_deal(rng)
            stored = store.add(ledger, deal)
            expected = settle_table({**deal, **counters, "options": {}})
            assert stored.settlement == expected.to_dict(codes=True)
            assert (stored.table["honba"], stored.table["pot"]) == (counters["honba"], counters["pot"])
            assert expected.extra["pot_before"] == counters["pot"]
            counters = {"honba": expected.extra["next_honba"] or 0, "pot": expected.extra["pot_after"] or 0}
            paid_in += sum(expected.net.values())
            assert paid_in == -1000 * counters["pot"]  # every stick not on the table went to a winner
        standing = store.standing(ledger)
        view = store.view(ledger).to_json()
    assert standing.carried == {"honba": counters["honba"], "pot": counters["pot"]}
    assert (view["next_honba"], view["next_pot"]) == (counters["honba"], counters["pot"])
    assert sum(view["totals"].values()) == -1000 * counters["pot"]


def drawn_with_a_stick(seat: str = "E") -> dict[str, Any]:
    players = {w: {"tenpai": w == seat} for w in WINDS}
    return {"winner": None, "players": players, "events": [{"type": "riichi", "seat": seat}]}


def test_a_stick_is_carried_over_a_draw_and_taken_by_the_next_winner(ledger_db: Path) -> None:
    """Deal 1: 甲 (E) declares riichi, ready, drawn: 甲 keeps the deal, honba 1, the stick stays.
    Deal 2: 甲 wins again as dealer (a repeat) with that honba, and takes the stick."""
    with LedgerStore(ledger_db) as store:
        ledger = store.create("evening", "riichi", PLAYERS)
        first = store.add(ledger, drawn_with_a_stick())
        assert (first.settlement["next_honba"], first.settlement["pot_after"], first.next_dealer) == (1, 1, "甲")
        players = {"甲": WIN, "乙": NOT_READY[0], "丙": NOT_READY[1], "丁": NOT_READY[2]}
        second = store.add(ledger, {"winner": "甲", "discarder": "丙", "players": players, "events": []})
        assert (second.table["honba"], second.table["pot"]) == (1, 1)
        assert second.settlement["pot_before"] == 1 and second.settlement["pot_after"] == 0
        assert second.next_dealer == "甲" and second.settlement["next_honba"] == 2
        # dealer 3 han 30 fu on a discard 5800, + 300 for the honba; + the stick
        assert second.net()["甲"] == 5800 + 300 + 1000 and second.net()["丙"] == -6100
        standing = store.standing(ledger)
    assert standing.carried == {"honba": 2, "pot": 0}
    assert sum(standing.totals.values()) == 0  # the stick 甲 paid in came back to 甲


def test_a_table_may_repeat_the_counters_not_contradict_them(ledger_db: Path) -> None:
    with LedgerStore(ledger_db) as store:
        ledger = store.create("evening", "riichi", PLAYERS)
        store.add(ledger, {**drawn_with_a_stick(), "honba": 2, "pot": 3})  # the first deal states its own
        again = store.add(ledger, {**drawn_with_a_stick("S"), "honba": 3, "pot": 4})  # as carried: agrees
        assert (again.table["honba"], again.table["pot"]) == (3, 4)
        with pytest.raises(HandError, match="honba: the table says 0 but ledger 'evening' carries honba 4 from deal 2"):
            store.add(ledger, {**drawn_with_a_stick(), "honba": 0})
        with pytest.raises(HandError, match="pot: the table says 1 but ledger 'evening' carries pot 5"):
            store.add(ledger, {**drawn_with_a_stick(), "pot": 1})
        assert len(store.view(ledger).deals) == 2  # a refused table changes nothing


def test_other_rule_sets_carry_nothing(ledger_db: Path) -> None:
    with LedgerStore(ledger_db) as store:
        ledger = store.create("evening", "guannan", PLAYERS)
        view = store.view(ledger).to_json()
        standing = store.standing(ledger)
    assert "next_honba" not in view and standing.carried is None


def test_cli_show_prints_honba_and_pot_and_the_json_gives_them(ledger_db: Path, tmp_path: Path) -> None:
    from taihu.cli.main import app

    runner = CliRunner()
    db = ["--db", str(ledger_db)]
    assert (
        runner.invoke(app, ["ledger", "new", "evening", "-r", "riichi", "--players", "甲,乙,丙,丁", *db]).exit_code == 0
    )
    deal = tmp_path / "deal.json"
    deal.write_text(json.dumps(drawn_with_a_stick()), encoding="utf-8")
    added = runner.invoke(app, ["ledger", "add", "evening", str(deal), *db])
    assert added.exit_code == 0, added.output
    assert "honba 0, pot 0 → 1" in added.stdout and "next deal: honba 1, pot 1 riichi stick" in added.stdout
    shown = runner.invoke(app, ["ledger", "show", "evening", *db], env={"COLUMNS": "160"})
    assert "honba 0, pot 0 → 1" in shown.stdout and "next deal: honba 1, pot 1 riichi stick" in shown.stdout
    as_json = json.loads(runner.invoke(app, ["ledger", "show", "evening", "--json", *db]).stdout)
    assert (as_json["next_honba"], as_json["next_pot"]) == (1, 1)


def test_http_gives_the_counters_for_riichi_only(ledger_db: Path) -> None:
    from api_app import app

    client = TestClient(app)
    made = client.post("/ledgers", json={"rules": "riichi", "players": PLAYERS}).json()
    auth = {"Authorization": f"Bearer {made['token']}"}
    answer = client.post(f"/ledgers/{made['id']}/deals", json=drawn_with_a_stick(), headers=auth)
    assert answer.status_code == 201, answer.text
    standings = answer.json()["standings"]
    assert (standings["next_honba"], standings["next_pot"]) == (1, 1)
    assert client.get(f"/ledgers/{made['id']}").json()["next_honba"] == 1
    other = client.post("/ledgers", json={"rules": "guannan", "players": PLAYERS}).json()
    assert "next_honba" not in client.get(f"/ledgers/{other['id']}").json()
