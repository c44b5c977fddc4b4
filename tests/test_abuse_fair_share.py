"""Issue 21, review item D: one address's costly requests cannot hold both worker threads while another waits.

`FairShare` hands a freed worker to the waiting address that holds the
fewest, in turn; the live test sends six slow `/waits` from 127.0.0.2 and
then one `/score` from 127.0.0.1, and checks by the order of the answers
(no time is asserted) that the `/score` did not wait behind all six.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import threading
import time
from typing import Any

import pytest
from live_server import live_server

import taihu.api.waits as waits_module
from taihu.api.offload import CPU_THREADS, FairShare

BOUND = 60.0  # seconds any request may take before the test calls it a freeze
WAITS = {"rules": "luoshan", "hand": "123m 456m 789p 23s 55p"}
SCORE = {"rules": "lingxi", "hand": "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W"}  # a worker's, not the loop's


def test_a_freed_worker_goes_to_the_address_holding_fewest() -> None:
    async def run() -> list[str]:
        share = FairShare(2)
        order: list[str] = []
        await share.acquire("a")
        await share.acquire("a")  # a holds both

        async def wait_for(address: str) -> None:
            await share.acquire(address)
            order.append(address)

        waiting = [asyncio.ensure_future(wait_for(address)) for address in ("a", "a", "b", "c")]
        await asyncio.sleep(0)
        share.release("a")  # b, c and a wait: b holds none and came first of those
        share.release("a")
        await asyncio.sleep(0)
        assert order == ["b", "c"]
        share.release("b")  # a holds none now, as c holds one: a's turn
        await asyncio.sleep(0)
        share.release("c")
        await asyncio.sleep(0)
        await asyncio.gather(*waiting)
        return order

    assert asyncio.run(run()) == ["b", "c", "a", "a"]


def test_a_cancelled_wait_gives_its_turn_on() -> None:
    async def run() -> int:
        share = FairShare(1)
        await share.acquire("a")
        gone = asyncio.ensure_future(share.acquire("b"))
        kept = asyncio.ensure_future(share.acquire("c"))
        await asyncio.sleep(0)
        gone.cancel()
        await asyncio.sleep(0)
        share.release("a")
        await asyncio.wait_for(kept, BOUND)
        return share.free

    assert asyncio.run(run()) == 0


def post(address: tuple[str, int], source: str, path: str, body: dict[str, Any]) -> int:
    connection = http.client.HTTPConnection(*address, timeout=BOUND, source_address=(source, 0))
    try:
        connection.request("POST", path, body=json.dumps(body), headers={"content-type": "application/json"})
        reply = connection.getresponse()
        reply.read()
        return reply.status
    finally:
        connection.close()


def test_another_address_is_served_between_one_addresses_costly_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    search = waits_module.waits

    def slow_waits(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.4)  # a costly search, holding its worker
        return search(*args, **kwargs)

    monkeypatch.setattr(waits_module, "waits", slow_waits)
    finished: list[str] = []
    lock = threading.Lock()
    with live_server() as address:

        def send(source: str, path: str, body: dict[str, Any], name: str) -> None:
            assert post(address, source, path, body) == 200
            with lock:
                finished.append(name)

        costly = [threading.Thread(target=send, args=("127.0.0.2", "/waits", WAITS, f"waits {n}")) for n in range(6)]
        for thread in costly:
            thread.start()
        time.sleep(0.2)  # the six are in: two searching, four queued
        other = threading.Thread(target=send, args=("127.0.0.1", "/score", SCORE, "score"))
        other.start()
        for thread in [*costly, other]:
            thread.join(BOUND)
    assert len(finished) == 7, finished
    # without the share the score waits behind all six (last); with it, the next free worker is its
    assert finished.index("score") <= CPU_THREADS + 1, finished
