"""No request holds the event loop, and `/waits` stops at its time budget (the connections one address
may hold are the reverse proxy's to bound: tests/test_deploy.py).

Real uvicorn servers on 127.0.0.1 (tests/live_server.py); a hostile client
binds its sockets to 127.0.0.2. Every wait is bounded by a generous timeout
that catches a freeze; no speed is asserted (the figures are `make soak`'s,
docs/soak.md).
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from abuse_cases import COSTLY_WAITS, ESCAPED_QUOTES
from api_app import app
from fastapi.testclient import TestClient
from live_server import live_server

import taihu.api.waits as waits_module
from taihu.scorer.waiting import waits

BOUND = 10.0  # seconds: how long any one request may take before the test calls it a freeze
HOLD = 3.0  # seconds the hostile clients keep at it
JSON = {"content-type": "application/json"}


def get_health(address: tuple[str, int]) -> int:
    connection = http.client.HTTPConnection(*address, timeout=BOUND)
    try:
        connection.request("GET", "/health")
        return connection.getresponse().status
    finally:
        connection.close()


@contextmanager
def hostile(count: int, run: Callable[[threading.Event], None]) -> Iterator[None]:
    """`count` threads doing `run(stop)` until the block ends."""
    stop = threading.Event()
    threads = [threading.Thread(target=run, args=(stop,), daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    try:
        yield
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=BOUND + 5)


def health_meanwhile(address: tuple[str, int]) -> list[int]:
    """/health asked every 50 ms for HOLD seconds: the statuses."""
    statuses = []
    deadline = time.monotonic() + HOLD
    while time.monotonic() < deadline:
        statuses.append(get_health(address))
        time.sleep(0.05)
    return statuses


@pytest.mark.parametrize(
    ("path", "body"),
    [("/score", ESCAPED_QUOTES), ("/waits", json.dumps(COSTLY_WAITS).encode())],
    ids=["escaped quotes", "costly waits"],
)
def test_health_answers_while_eight_clients_send_costly_bodies(path: str, body: bytes) -> None:
    sent: list[int] = []
    with live_server() as address:

        def send(stop: threading.Event) -> None:
            connection = http.client.HTTPConnection(*address, timeout=60)
            while not stop.is_set():
                connection.request("POST", path, body=body, headers=JSON)
                sent.append(connection.getresponse().read() and 1)
            connection.close()

        with hostile(8, send):
            time.sleep(0.5)  # let them start
            statuses = health_meanwhile(address)
    assert sent, "the costly requests were answered"
    assert set(statuses) == {200}


def test_the_search_stops_where_its_check_raises() -> None:
    calls = []

    class Stop(Exception):
        pass

    def check() -> None:
        calls.append(1)
        if len(calls) == 3:
            raise Stop

    with pytest.raises(Stop):
        waits(COSTLY_WAITS["hand"], rules=COSTLY_WAITS["rules"], check=check)
    assert len(calls) == 3


RIICHI_DISCARDS = {"rules": "riichi", "hand": "1s 1s 1s 2s 3s 4s 5s 6s 7s 8s 9s 9s 9s 5s"}


@pytest.mark.parametrize("body", [COSTLY_WAITS, RIICHI_DISCARDS], ids=["jinhua", "riichi"])
def test_a_hand_over_the_budget_is_a_422_and_its_search_stops(
    body: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    checks_after: list[float] = []
    made = waits_module.budget

    def watched(seconds: float) -> Callable[[], None]:
        check = made(seconds)
        over = [False]

        def watching() -> None:
            if over[0]:
                checks_after.append(time.monotonic())
            try:
                check()
            except Exception:
                over[0] = True
                raise

        return watching

    monkeypatch.setattr(waits_module, "budget", watched)
    monkeypatch.setattr(waits_module, "WAITS_BUDGET", 1e-4)
    reply = TestClient(app).post("/waits", json=body)
    assert reply.status_code == 422, reply.text
    answer: dict[str, Any] = reply.json()
    assert answer["code"] == "over_budget" and "0.0001 s" in answer["detail"]
    time.sleep(0.3)
    assert checks_after == []  # nothing went on searching after the answer


def test_within_the_budget_the_answer_is_the_librarys(monkeypatch: pytest.MonkeyPatch) -> None:
    # a budget no run can spend: under coverage, on a busy machine, the costly hand can take over the 1 s
    monkeypatch.setattr(waits_module, "WAITS_BUDGET", 600.0)
    reply = TestClient(app).post("/waits", json=COSTLY_WAITS)
    assert reply.status_code == 200
    assert reply.json() == waits(COSTLY_WAITS["hand"], rules=COSTLY_WAITS["rules"]).to_dict()
