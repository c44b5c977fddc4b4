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


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Room:
    """A ledger on a live server with its owner, a scorer device and a read link, private or not."""

    def __init__(self, base: str, private: bool) -> None:
        self.base = base
        keys = httpx.post(f"{base}/ledgers", json=NEW).json()
        self.id, self.owner = keys["id"], bearer(keys["token"])
        code = httpx.post(self.at("/invites"), json={}, headers=self.owner).json()["code"]
        joined = httpx.post(self.at("/devices"), json={"invite": code, "name": "乙的手机"}).json()
        self.device, self.scorer = joined["device"]["id"], bearer(joined["token"])
        link = httpx.post(self.at("/read-links"), json={"name": "screen"}, headers=self.owner).json()
        self.link, self.code = link["id"], link["code"]
        if private:
            assert httpx.patch(self.at(""), json={"private": True}, headers=self.owner).status_code == 200

    def at(self, path: str) -> str:
        return f"{self.base}/ledgers/{self.id}{path}"

    def stream(self, by: str) -> Stream:
        """A stream opened by `by`: the id alone, the read link, the device's token or the owner's."""
        query, headers = {
            "id": ("", {}),
            "read link": (f"?read={self.code}", {}),
            "device": ("", self.scorer),
            "owner": ("", self.owner),
        }[by]
        stream = Stream(self.at(f"/events{query}"), headers)
        assert stream.status == 200
        assert stream.next()["event"] == "ledger-edited"
        return stream

    def take_away(self, what: str) -> None:
        """Takes access away: revokes the read link or the device, makes the ledger private, or rotates the
        owner token and uses the new one (which ends the grace of the one before; `owner` is then the new)."""
        if what == "revoke the read link":
            answer = httpx.delete(self.at(f"/read-links/{self.link}"), headers=self.owner)
        elif what == "revoke the device":
            answer = httpx.delete(self.at(f"/devices/{self.device}"), headers=self.owner)
        elif what == "make it private":
            answer = httpx.patch(self.at(""), json={"private": True}, headers=self.owner)
        else:
            self.owner = bearer(httpx.post(self.at("/token"), headers=self.owner).json()["token"])
            answer = httpx.get(self.at("/devices"), headers=self.owner)
        assert answer.status_code in (200, 204), answer.text


# a stream opened by one reader, the change that takes its access away, the refusal its last event names, and
# another reader's stream that goes on; on a private ledger, but for the id alone (which a private one refuses)
TAKEN_AWAY = [
    ("read link", "revoke the read link", "read_link_wrong", "device", "read-link-revoked", True),
    ("device", "revoke the device", "token_wrong", "read link", "device-revoked", True),
    ("id", "make it private", "ledger_private", "owner", "ledger-edited", False),
    ("owner", "rotate the owner token", "token_wrong", "device", None, True),
]


@pytest.mark.parametrize(("by", "what", "code", "other", "heard", "private"), TAKEN_AWAY)
def test_a_stream_ends_when_its_access_is_taken_away(
    store_db: Path | str,
    monkeypatch: pytest.MonkeyPatch,
    by: str,
    what: str,
    code: str,
    other: str,
    heard: str | None,
    private: bool,
) -> None:
    from taihu.api import events

    monkeypatch.setattr(events, "RECHECK_S", 0.5)  # the rotation's grace ends with no event: asked again soon
    with live_server() as (host, port):
        room = Room(f"http://{host}:{port}/v1", private)
        ended, going = room.stream(by), room.stream(other)
        try:
            room.take_away(what)
            last = ended.next()
            assert (last["event"], last["data"]) == ("revoked", {"deal": None, "code": code})
            assert "id" not in last  # a client resumes from the event before it, if it tries
            ended.thread.join(WAIT_S)
            assert not ended.thread.is_alive()  # the server ended the stream
            assert ended.events.empty()
            if heard is not None:
                assert going.next()["event"] == heard
            assert httpx.post(room.at("/deals"), json=NORMAL_WIN, headers=room.owner).status_code == 201
            assert going.next()["event"] == "deal-added"  # the other reader's stream goes on
        finally:
            ended.close()
            going.close()


def test_the_room_s_changes_are_events_naming_ids_alone(store_db: Path | str) -> None:
    with live_server() as (host, port):
        room = Room(f"http://{host}:{port}/v1", private=False)
        stream = room.stream("id")
        try:
            code = httpx.post(room.at("/invites"), json={}, headers=room.owner).json()["code"]
            joined = httpx.post(room.at("/devices"), json={"invite": code, "name": "丙的手机"}).json()["device"]
            assert httpx.delete(room.at(f"/devices/{joined['id']}"), headers=room.owner).status_code == 204
            made = httpx.post(room.at("/read-links"), json={"name": "丙的屏"}, headers=room.owner).json()
            assert httpx.delete(room.at(f"/read-links/{room.link}"), headers=room.owner).status_code == 204
            seen = [stream.next() for _ in range(4)]
            assert [(e["event"], e["data"]["deal"]) for e in seen] == [
                ("device-joined", 0),
                ("device-revoked", 0),
                ("read-link-made", 0),
                ("read-link-revoked", 0),
            ]
            assert [e["data"].get("device") or e["data"].get("read_link") for e in seen] == [
                joined["id"],
                joined["id"],
                made["id"],
                room.link,
            ]
            shown = json.dumps([e["data"] for e in seen], ensure_ascii=False)
            assert "丙的手机" not in shown and "丙的屏" not in shown and made["code"] not in shown  # the owner's alone
            assert [int(e["id"]) for e in seen] == sorted({int(e["id"]) for e in seen})
        finally:
            stream.close()
