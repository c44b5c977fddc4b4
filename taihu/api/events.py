"""`GET /ledgers/{id}/events`: a ledger's changes as server-sent events, as they happen (docs/ledger.md, "Live").

Each change of a ledger is a row of the store's `ledger_events`, numbered by the ledger's count of changes,
written in the change's own transaction: that number is the event's `id`, so a client that reconnects with
`Last-Event-ID` is sent exactly the events after it, whatever host it reaches. FastAPI's `EventSourceResponse`
writes the events and a keep-alive comment when the stream has been quiet for 15 s (for proxies' read
timeouts); the stream is an async generator, and reads the database on the thread pool only while it reads.

What wakes a stream (`Hub`, one per process and database): a change made by this process, at once; on
PostgreSQL, the `NOTIFY` every host's change sends, heard on one `LISTEN` connection per process; else (SQLite
changed by another process, or while PostgreSQL's listener is down) a look at the ledger's count every
`POLL_S`, one indexed row.

Who reads a stream is asked again (`still_reads`: the request that opened it, as `readable` judges a read)
after each event of the room that may take access away (a device or a read link revoked, the ledger edited:
made private) and every `RECHECK_S` besides (the owner token before a rotation, past its grace); a stream
that would now be refused sends a last `revoked` event, with the refusal's code, and ends.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import defaultdict
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from anyio import to_thread
from fastapi import APIRouter, Depends, Request
from fastapi.security import HTTPAuthorizationCredentials
from fastapi.sse import EventSourceResponse, ServerSentEvent

from taihu.api.headers import LAST_EVENT_ID
from taihu.api.language import request_language
from taihu.api.ledger import READ_CODE, bearer, problems, readable
from taihu.api.responses import Refusal
from taihu.api.settings import Settings, settings_of
from taihu.ledger import Ledger, shown_settlement
from taihu.messages import Language
from taihu.scorer import HandError
from taihu.store import (
    CHANGES_CHANNEL,
    DEAL_ADDED,
    DEAL_UNDONE,
    DEVICE_REVOKED,
    LEDGER_EDITED,
    READ_LINK_REVOKED,
    LedgerStore,
    database_url,
    engine_for,
)

router = APIRouter(tags=["ledgers"])
log = logging.getLogger("taihu.api")
POLL_S = 1.0  # how often a stream looks at its ledger when nothing tells it of changes
LISTENING_POLL_S = 30.0  # the same while PostgreSQL's NOTIFY is heard: only a safety net
RETRY_LISTEN_S = 2.0  # how soon a lost LISTEN connection is made again
BATCH = 100  # events read at once
RECHECK_S = 30.0  # how often a quiet stream asks again whether its reader still reads
LEDGER_DELETED = "ledger-deleted"
REVOKED = "revoked"  # the stream's last event: the access that opened it is gone
ACCESS_EVENTS = frozenset({DEVICE_REVOKED, READ_LINK_REVOKED, LEDGER_EDITED})  # after these, who reads is asked


class Hub:
    """Wakes the streams of a ledger when it changes: `changed(key)` from any thread, or PostgreSQL's NOTIFY."""

    def __init__(self, url: sa.URL) -> None:
        self.url = url
        self.loop: asyncio.AbstractEventLoop | None = None
        self.waiting: dict[int, set[asyncio.Event]] = defaultdict(set)
        self.listening = False
        self.listener: asyncio.Task[None] | None = None

    def start(self) -> None:
        """On the event loop, with the first stream: the PostgreSQL listener, if the database is PostgreSQL."""
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
        if self.listener is None and self.url.get_backend_name() == "postgresql":
            self.listener = self.loop.create_task(self.listen())

    @property
    def poll_s(self) -> float:
        return LISTENING_POLL_S if self.listening else POLL_S

    def changed(self, key: int) -> None:
        """A change of ledger `key` (called from the thread a sync route runs on, or from the loop)."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.wake, key)

    def wake(self, key: int) -> None:
        for event in self.waiting.get(key, ()):
            event.set()

    def wake_all(self) -> None:
        for events in self.waiting.values():
            for event in events:
                event.set()

    async def listen(self) -> None:
        """LISTEN on the changes' channel, for as long as the process runs; made again when it is lost."""
        import psycopg

        engine = engine_for(self.url)
        _, params = engine.dialect.create_connect_args(self.url)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(**params, autocommit=True) as connection:
                    await connection.execute(f"LISTEN {CHANGES_CHANNEL}")
                    self.listening = True
                    self.wake_all()  # what changed while no one listened is read now
                    async for note in connection.notifies():
                        if note.payload.isdigit():
                            self.wake(int(note.payload))
            except (psycopg.Error, OSError) as exc:
                log.warning("the ledger streams poll: no LISTEN connection (%s)", type(exc).__name__)
            finally:
                self.listening = False
            await asyncio.sleep(RETRY_LISTEN_S)


_hubs_made = threading.Lock()


def hub_for(request: Request, db: str | None) -> Hub:
    """This app's hub for the database `db`, made on first use."""
    url = database_url(db)
    state = request.app.state
    with _hubs_made:
        hubs: dict[str, Hub] | None = getattr(state, "ledger_hubs", None)
        if hubs is None:
            hubs = state.ledger_hubs = {}
        key = url.render_as_string(hide_password=False)
        if key not in hubs:
            hubs[key] = Hub(url)
        return hubs[key]


def event_data(kind: str, body: dict[str, Any], lang: Language) -> dict[str, Any]:
    """An event's `data`: the deal's number and the standings after the change; an add's or an undo's deal too
    (`entry`, its texts in the stream's language), an edit's title and expiry."""
    standings = body["standings"]
    if kind in (DEAL_ADDED, DEAL_UNDONE):
        deal = body["deal"]
        entry = deal | {"settlement": shown_settlement(deal["settlement"], lang)}
        return {"deal": deal["number"], "standings": standings, "entry": entry}
    return {"deal": standings["deal_count"]} | body


def as_json(responses: dict[int | str, dict[str, Any]]) -> dict[int | str, dict[str, Any]]:
    """Error answers of a stream's route, written as JSON (a `model` would take the route's media type)."""
    shape = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorAnswer"}}}
    return {
        status: {key: value for key, value in answer.items() if key != "model"} | {"content": shape}
        for status, answer in responses.items()
    }


@dataclass(frozen=True)
class Reader:
    """The ledger a stream reads, and what the request that opened it read it by (asked again as it runs)."""

    ledger: Ledger
    ledger_id: str
    read: str | None
    credentials: HTTPAuthorizationCredentials | None

    def refusal(self, store: LedgerStore) -> str | None:
        """The code of the refusal the opening request would get now (a 403), or None: it still reads. A ledger
        gone is not a refusal here: the stream says `ledger-deleted` of it."""
        try:
            readable(store, self.ledger_id, self.read, self.credentials)
        except Refusal as refused:
            return refused.code if refused.status_code == 403 else None
        return None


def stream_start(
    ledger_id: str,
    settings: Settings = Depends(settings_of),
    read: str | None = READ_CODE,
    credentials: HTTPAuthorizationCredentials | None = Depends(bearer),
) -> Reader:
    """The ledger streamed, looked up before the stream begins (a 403 or a 404 is an answer, not an event), as
    for reading it."""
    with LedgerStore(settings.db) as store:
        return Reader(readable(store, ledger_id, read, credentials), ledger_id, read, credentials)


@router.get(
    "/ledgers/{ledger_id}/events",
    operation_id="ledger_events",
    response_class=EventSourceResponse,
    responses={
        200: {
            "description": "`text/event-stream`: each event's `event` is `deal-added`, `deal-undone`, "
            "`ledger-edited`, `device-joined`, `device-revoked`, `read-link-made`, `read-link-revoked` or "
            "`ledger-deleted`, its "
            "`id` the ledger's count of changes (it only grows), its `data` JSON: `deal` (the deal's number), "
            "`standings`, for an add or undo `entry` (the deal), for a device's event `device` (its id), for a "
            "read link's `read_link` (its id). A stream whose reader no longer reads (its read link or device "
            "revoked, the ledger made private) ends with `revoked` (no `id`; `data`: `code`, the refusal's)",
        },
        **as_json(problems(403, 404)),
    },
)
async def ledger_events(
    http: Request,
    reader: Reader = Depends(stream_start),
    settings: Settings = Depends(settings_of),
    last_event_id: str | None = LAST_EVENT_ID,
) -> AsyncIterator[ServerSentEvent]:
    """The ledger's changes as they happen. Without `Last-Event-ID` it starts with the ledger as it stands (a
    `ledger-edited` event); with it, the events after that id (if they are no longer kept, that first event
    says so with `"resync": true`: read the ledger again). Who may read the ledger may stream it: the id alone,
    or for a private ledger a token (`Authorization`, as the page sends it: it reads the stream with fetch) or
    a read link (`?read=`). When that access is taken away, the stream ends with a `revoked` event."""
    lang = request_language(http)
    hub = hub_for(http, settings.db)
    hub.start()
    ledger = reader.ledger
    woken = asyncio.Event()
    hub.waiting[ledger.key].add(woken)
    store = LedgerStore(settings.db)
    after = int(last_event_id) if last_event_id is not None and last_event_id.strip().isdigit() else None
    try:
        async for event in changes_of(store, hub, reader, after, lang, woken):
            yield event
    except (sa.exc.SQLAlchemyError, HandError) as exc:  # the answer has begun: the client reconnects with its id
        log.warning("a ledger stream ends: the database failed (%s)", type(exc).__name__)
    finally:
        hub.waiting[ledger.key].discard(woken)
        if not hub.waiting[ledger.key]:
            del hub.waiting[ledger.key]


async def revoked(store: LedgerStore, reader: Reader) -> ServerSentEvent | None:
    """The stream's last event if its reader no longer reads: `revoked`, without an `id` (a client resumes from
    none after it), with the refusal's code."""
    refused = await to_thread.run_sync(reader.refusal, store)
    return None if refused is None else ServerSentEvent(event=REVOKED, data={"deal": None, "code": refused})


async def changes_of(
    store: LedgerStore, hub: Hub, reader: Reader, after: int | None, lang: Language, woken: asyncio.Event
) -> AsyncIterator[ServerSentEvent]:
    """The events of the stream: the start (the ledger as it stands, or what was missed), then each change; the
    last, `revoked`, when its reader no longer reads."""
    ledger = reader.ledger
    loop = asyncio.get_running_loop()
    asked = loop.time()  # when the reader was last asked about
    at = after or 0
    changes, events = await to_thread.run_sync(store.events_after, ledger.key, at, BATCH)
    if changes is None:
        yield ServerSentEvent(event=LEDGER_DELETED, id=str(at), data={"deal": None})
        return
    first = events[0][0] if events else changes + 1
    if after is None or after > changes or first > after + 1:  # a new stream, or one that cannot resume
        standing, _ = await to_thread.run_sync(store.state, ledger)
        data = {"deal": standing.deal_count, "standings": standing.to_json()} | ledger.heading()
        yield ServerSentEvent(event=LEDGER_EDITED, id=str(changes), data=data | {"resync": after is not None})
        at, events = changes, []
    while True:
        for number, kind, body in events:
            # asked before the event is sent: a reader who lost access is sent nothing from then on
            if kind in ACCESS_EVENTS and (last := await revoked(store, reader)) is not None:
                yield last
                return
            yield ServerSentEvent(event=kind, id=str(number), data=event_data(kind, body, lang))
            at = number
        if loop.time() - asked >= RECHECK_S:
            asked = loop.time()
            if (last := await revoked(store, reader)) is not None:
                yield last
                return
        if len(events) == BATCH:  # more are waiting
            changes, events = await to_thread.run_sync(store.events_after, ledger.key, at, BATCH)
        else:
            try:
                await asyncio.wait_for(woken.wait(), min(hub.poll_s, RECHECK_S))
            except TimeoutError:
                pass
            woken.clear()
            changes, events = await to_thread.run_sync(store.events_after, ledger.key, at, BATCH)
        if changes is None:
            yield ServerSentEvent(event=LEDGER_DELETED, id=str(at + 1), data={"deal": None})
            return
