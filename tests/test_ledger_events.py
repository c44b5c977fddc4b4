"""A ledger's changes as server-sent events (docs/ledger.md "Live"): on SQLite through a real uvicorn in this
process, and across two real `taihu serve` hosts on one PostgreSQL (a deal added on host A reaches a stream
opened on host B within a second); `Last-Event-ID` resumes with nothing missed and nothing repeated.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_server import live_server
from test_api import taihu_serve

ROOT = Path(__file__).resolve().parent.parent
NORMAL_WIN: dict[str, Any] = json.loads((ROOT / "examples/tables/normal-win.json").read_text(encoding="utf-8"))
NEW = {"rules": "lingxi", "players": ["甲", "乙", "丙", "丁"]}
WAIT_S = 10.0  # the most a test waits for an event it expects (the cross-host one is checked against 1 s apart)


class Stream:
    """A stream read in a thread: its events (`event`, `id`, `data` parsed) arrive on a queue, each with the
    monotonic time it was read."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.events: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
        self.status: int | None = None
        self.headers: httpx.Headers | None = None
        self.opened = threading.Event()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.read, args=(url, headers or {}), daemon=True)
        self.thread.start()
        assert self.opened.wait(WAIT_S), "the stream did not open"

    def read(self, url: str, headers: dict[str, str]) -> None:
        try:
            self.read_events(url, headers)
        except httpx.HTTPError:  # the server went away (stopped at the end of a test): the stream is over
            self.opened.set()

    def read_events(self, url: str, headers: dict[str, str]) -> None:
        with (
            httpx.Client(timeout=httpx.Timeout(5, read=None)) as client,
            client.stream("GET", url, headers=headers) as r,
        ):
            self.status, self.headers = r.status_code, r.headers
            self.opened.set()
            event: dict[str, Any] = {}
            for line in r.iter_lines():
                if self.stop.is_set():
                    return
                if not line:
                    if event:
                        self.events.put((time.monotonic(), event))
                    event = {}
                elif line.startswith(":"):
                    continue
                else:
                    name, _, value = line.partition(":")
                    event[name] = json.loads(value) if name == "data" else value.strip()

    def next(self) -> dict[str, Any]:
        return self.events.get(timeout=WAIT_S)[1]

    def close(self) -> None:
        self.stop.set()


def test_a_stream_on_sqlite_sends_each_change_and_resumes(store_db: Path | str) -> None:
    with live_server() as (host, port):
        base = f"http://{host}:{port}/v1"
        keys = httpx.post(f"{base}/ledgers", json=NEW).json()
        ledger, owner = keys["id"], {"Authorization": f"Bearer {keys['token']}"}
        stream = Stream(f"{base}/ledgers/{ledger}/events?lang=zh")
        assert stream.status == 200 and stream.headers is not None
        assert stream.headers["content-type"].startswith("text/event-stream")
        start = stream.next()
        assert (start["event"], start["data"]["deal"], start["data"]["resync"]) == ("ledger-edited", 0, False)

        httpx.post(f"{base}/ledgers/{ledger}/deals", json=NORMAL_WIN, headers=owner)
        added = stream.next()
        assert added["event"] == "deal-added" and added["data"]["deal"] == 1
        assert added["data"]["standings"]["totals"] == {"甲": -120, "乙": 224, "丙": -52, "丁": -52}
        assert any("赢" in p["reason"] or "庄" in p["reason"] for p in added["data"]["entry"]["settlement"]["payments"])
        httpx.delete(f"{base}/ledgers/{ledger}/deals/last?deal=1", headers=owner)
        undone = stream.next()
        assert (undone["event"], undone["data"]["deal"], undone["data"]["standings"]["deal_count"]) == (
            "deal-undone",
            1,
            0,
        )
        httpx.patch(f"{base}/ledgers/{ledger}", json={"title": "周五"}, headers=owner)
        edited = stream.next()
        assert edited["event"] == "ledger-edited" and edited["data"]["title"] == "周五"
        ids = [int(e["id"]) for e in (start, added, undone, edited)]
        assert ids == sorted(set(ids))  # only grows
        stream.close()

        # missed while away: two adds; a reconnect from the undo's id gets the edit and both, nothing repeated
        for _ in range(2):
            httpx.post(f"{base}/ledgers/{ledger}/deals", json=NORMAL_WIN, headers=owner)
        again = Stream(f"{base}/ledgers/{ledger}/events", {"Last-Event-ID": undone["id"]})
        replayed = [again.next() for _ in range(3)]
        assert [e["event"] for e in replayed] == ["ledger-edited", "deal-added", "deal-added"]
        assert [e["data"]["deal"] for e in replayed[1:]] == [1, 2]
        assert [int(e["id"]) for e in replayed] == list(range(int(undone["id"]) + 1, int(undone["id"]) + 4))
        assert again.events.empty()

        httpx.delete(f"{base}/ledgers/{ledger}", headers=owner)
        assert again.next()["event"] == "ledger-deleted"
        again.close()
        assert httpx.get(f"{base}/ledgers/{ledger}/events").status_code == 404


@pytest.mark.server
def test_a_deal_added_on_one_host_reaches_a_stream_on_another_within_a_second(pg_url: str) -> None:
    with taihu_serve("--db", pg_url) as first, taihu_serve("--db", pg_url) as second:
        keys = httpx.post(f"{first}/v1/ledgers", json=NEW).json()
        ledger, owner = keys["id"], {"Authorization": f"Bearer {keys['token']}"}
        stream = Stream(f"{second}/v1/ledgers/{ledger}/events")
        assert stream.next()["event"] == "ledger-edited"
        time.sleep(1.5)  # past the start: the stream now waits on host B's LISTEN, not on its first read
        for number in (1, 2):
            sent = time.monotonic()
            added = httpx.post(f"{first}/v1/ledgers/{ledger}/deals", json=NORMAL_WIN, headers=owner, timeout=30)
            assert added.status_code == 201
            arrived, event = stream.events.get(timeout=WAIT_S)
            assert event["event"] == "deal-added" and event["data"]["deal"] == number
            assert arrived - sent < 1.0, f"deal {number} reached host B {arrived - sent:.2f} s after it was sent"
        stream.close()
