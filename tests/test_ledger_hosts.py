"""Several hosts, one ledger: two real `taihu serve` processes on one PostgreSQL database.

Twenty clients add and undo deals of one ledger at once, each alternating between the two hosts (two
ports on 127.0.0.1); an undo names the deal it removes by the ETag it read just before. Every answer is a
success (or, for an undo, the 412 of a ledger changed since its read, or the 422 of an empty one);
afterwards the deals are numbered 1..n without a gap, n is the adds acknowledged less the undos
acknowledged, no deal is stored twice, and replaying the stored deals in order — seating each from the
one before, settling each with `settle_table` — gives the seats, settlements, totals and next dealer the
ledger shows.
"""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Any

import httpx
from test_api import taihu_serve

from taihu.scorer import settle_table
from taihu.store import LedgerStore

ROOT = Path(__file__).resolve().parent.parent
NORMAL_WIN: dict[str, Any] = json.loads((ROOT / "examples/tables/normal-win.json").read_text(encoding="utf-8"))
PLAYERS = ["甲", "乙", "丙", "丁"]
WINDS = ("E", "S", "W", "N")
CLIENTS, REQUESTS_EACH = 20, 6
TIMEOUT_S = 60  # per request and for the start barrier: catches a hang, measures nothing


def drawn(marker: int) -> dict[str, Any]:
    """A drawn deal that carries its marker as N's count (a drawn lingxi deal pays nothing for it)."""
    return {"winner": None, "players": {**dict.fromkeys(WINDS, {"total": 0}), "N": {"total": marker}}}


def test_two_hosts_on_one_postgresql_keep_one_ledger(pg_url: str) -> None:
    with taihu_serve("--db", pg_url) as first, taihu_serve("--db", pg_url) as second:
        hosts = (first, second)
        keys = httpx.post(f"{first}/ledgers", json={"rules": "lingxi", "players": PLAYERS}, timeout=TIMEOUT_S).json()
        ledger, keeper = keys["id"], {"Authorization": f"Bearer {keys['token']}"}
        start = threading.Barrier(CLIENTS)
        answers: list[tuple[str, int | None, int]] = []  # (what, marker, status)
        failures: list[BaseException] = []

        def client(number: int) -> None:
            rng = random.Random(number)
            try:
                with httpx.Client(headers=keeper, timeout=TIMEOUT_S) as http:
                    start.wait(timeout=TIMEOUT_S)
                    for request in range(REQUESTS_EACH):
                        host = hosts[(number + request) % 2]
                        if rng.random() < 0.25:
                            tag = http.get(f"{host}/ledgers/{ledger}?deals=none").headers["ETag"]
                            reply = http.delete(f"{host}/ledgers/{ledger}/deals/last", headers={"If-Match": tag})
                            answers.append(("undo", None, reply.status_code))
                        elif rng.random() < 0.5:
                            reply = http.post(f"{host}/ledgers/{ledger}/deals", json=NORMAL_WIN)
                            answers.append(("win", None, reply.status_code))
                        else:
                            marker = number * 100 + request
                            reply = http.post(f"{host}/ledgers/{ledger}/deals", json=drawn(marker))
                            answers.append(("drawn", marker, reply.status_code))
            except BaseException as exc:  # pragma: no cover - reported below
                failures.append(exc)

        workers = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=4 * TIMEOUT_S)
        assert failures == [] and not any(worker.is_alive() for worker in workers)
        view = httpx.get(f"{second}/ledgers/{ledger}", timeout=TIMEOUT_S).json()
        assert view == httpx.get(f"{first}/ledgers/{ledger}", timeout=TIMEOUT_S).json()

    assert len(answers) == CLIENTS * REQUESTS_EACH
    assert {status for what, _, status in answers if what != "undo"} == {201}
    # 412: another client changed the ledger since the undo read it; 422: nothing left to undo
    assert {status for what, _, status in answers if what == "undo"} <= {200, 412, 422}
    added = sum(1 for what, _, _ in answers if what != "undo")
    undone = sum(1 for what, _, status in answers if what == "undo" and status == 200)
    stored = view["deals"]
    assert len(stored) == added - undone > 0
    with LedgerStore(pg_url) as store:
        found = store.shared(ledger)
        assert found is not None
        assert [deal.number for deal in store.view(found[0]).deals] == list(range(1, len(stored) + 1))
    markers = [d["table"]["players"]["N"]["total"] for d in stored if d["table"]["winner"] is None]
    assert len(markers) == len(set(markers))  # none stored twice
    assert set(markers) <= {marker for what, marker, _ in answers if what == "drawn"}
    dealer, totals = PLAYERS[0], dict.fromkeys(PLAYERS, 0)
    for deal in stored:  # the rotation and totals of settling the same deals in order
        at = PLAYERS.index(dealer)
        seats = {wind: PLAYERS[(at + i) % 4] for i, wind in enumerate(WINDS)}
        settlement = settle_table(deal["table"])
        assert deal["seats"] == seats and deal["settlement"] == settlement.to_dict()
        for wind, amount in settlement.net.items():
            totals[seats[wind]] += amount
        dealer = seats[settlement.next_dealer]
    assert view["totals"] == totals and view["next_dealer"] == dealer
    assert len({d["dealer"] for d in stored}) > 1  # the deals did rotate
