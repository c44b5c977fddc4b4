"""The standings each deal row keeps (revision 0004) are the plain sums of the deals, whatever was added and undone.

An add or an undo reads the standings from the last deal row alone; `taihu.ledger.standing_of` sums every deal
plainly. On random evenings of every rule set, with undos among the adds, the two agree after each change, on
SQLite and on a real PostgreSQL; and the answer to an add does not grow with the ledger.
"""

from __future__ import annotations

import itertools
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
from api_app import app
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_ledger import NORMAL_WIN, PLAYERS, random_deal
from test_ledger_riichi import random_riichi_deal

from taihu.ledger import standing_of
from taihu.scorer.rulesets import RULESETS
from taihu.store import LedgerStore

Where = Path | str
_evenings = itertools.count()


def plain(store: LedgerStore, ledger: Any) -> Any:
    """The reference: every deal summed in order."""
    return standing_of(ledger.players, store.view(ledger).deals, counters=ledger.counters)


@pytest.fixture
def client() -> TestClient:
    return TestClient(app)


# each step: add a deal (its seed) or undo the last one
STEPS = st.lists(st.one_of(st.integers(0, 2**32), st.just("undo")), min_size=1, max_size=20)


@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(rules=st.sampled_from(sorted(RULESETS)), steps=STEPS)
def test_the_kept_standings_are_the_plain_sums(rules: str, steps: list[int | str], store_db: Where) -> None:
    with LedgerStore(store_db) as store:
        ledger = store.create(f"evening {next(_evenings)}", rules, PLAYERS)
        for step in steps:
            kept = store.standing(ledger)
            if step == "undo":
                if kept.deal_count == 0:
                    continue
                change = store.undo_with_standing(ledger)
            else:
                rng = random.Random(step)
                if rules == "riichi":
                    deal = random_riichi_deal(rng)
                    deal.pop("rules")
                else:
                    deal = random_deal(rng, rules, kept.next_seats)
                change = store.add_once(ledger, deal).answer
            reference = plain(store, ledger)
            assert store.standing(ledger) == reference
            answered = change["standings"] if isinstance(change, dict) else change.standing.to_json()
            assert answered == reference.to_json()


def digits_as_one(text: bytes) -> str:
    """The answer with every number written as one digit: what is left is its size apart from the numbers' widths."""
    return re.sub(r"-?\d+", "0", text.decode("utf-8"))


@pytest.mark.slow  # it adds a thousand deals
def test_the_answer_to_adding_deal_1000_is_no_larger_than_to_deal_1(client: TestClient) -> None:
    """Over HTTP, on the default SQLite store (the deals between are added through the store, not by requests).

    The same deal each time: deal 1,000's answer has only wider numbers (its number, the totals) than deal 1's."""
    keys = client.post("/ledgers", json={"rules": "lingxi", "players": PLAYERS}).json()
    auth = {"Authorization": f"Bearer {keys['token']}"}
    first = client.post(f"/ledgers/{keys['id']}/deals", json=NORMAL_WIN, headers=auth)
    assert first.status_code == 201
    with LedgerStore(os.environ["TAIHU_DB"]) as store:
        ledger, _ = store.shared(keys["id"]) or pytest.fail("the ledger is not there")
        for _ in range(998):
            store.add(ledger, NORMAL_WIN)
    last = client.post(f"/ledgers/{keys['id']}/deals", json=NORMAL_WIN, headers=auth)
    assert last.status_code == 201 and last.json()["deal"]["number"] == 1000
    assert set(last.json()) == set(first.json()) == {"deal", "standings"}
    assert len(digits_as_one(last.content)) <= len(digits_as_one(first.content))
    assert len(last.content) < len(first.content) + 40  # the numbers' extra digits: a few dozen bytes
