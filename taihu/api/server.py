"""Running the API: uvicorn with bounds on what one connection may hold (docs/limits.md "Connections").

uvicorn cuts a connection idle after an answer (`timeout_keep_alive`), but
not one that sends nothing after connecting, nor one that trickles its
headers or body a byte at a time: its HTTP parsers have no header timeout
of their own. The protocol below (on httptools and uvloop, docs/performance.md
"The server path") gives each request a deadline to arrive whole.

uvicorn's `limit_concurrency` counts every open connection, so one address
holding them all (idle, each reopened when cut) kept everyone else at 503;
the protocol also holds each client address to a share of them
(`CLIENT_SHARE`), refusing the connections beyond it as they open.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import socket
from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import Any, NamedTuple
from urllib.parse import unquote

import httptools
import uvicorn
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from taihu.api.access_log import ACCESS_LOG, ACCESS_LOG_VARIABLE, NOT_READ, request_line, scope_request_line
from taihu.api.fast import SCORE_PATHS, Asked, FastPath
from taihu.api.security import trust_hosts_in_every_worker, trusted_hosts
from taihu.messages import catalog
from taihu.scorer import HandError, memo, rule_sets, score_hand
from taihu.scorer import tiles as T
from taihu.scorer.rulesets import RULESETS

APP = "taihu.api.app:served"  # an import string, so uvicorn's worker processes can each load it
READ_TIMEOUT = 10.0  # seconds for a request, headers and body, to arrive whole
KEEP_ALIVE = 5  # seconds a connection may sit idle after an answer
MAX_CONNECTIONS = 100  # open connections per process; beyond, a request is answered 503
CLIENT_SHARE = 4  # one client address may hold at most a quarter of them (25 of 100); beyond, refused at once
MAX_HEADER_BYTES = 16 * 1024  # headers still incomplete at this size get a 400 (GuardedProtocol)
HEADERS_TOO_LARGE = "Request headers too large."  # that 400's body
TOO_MANY_STATUS = 503  # the answer to a connection over its address's share
TIMER_SLACK = 0.005  # seconds: a read deadline this close when its timer goes off is reached (timers are in ms)
CACHE_MB_VARIABLE = "TAIHU_CACHE_MB"  # how `--cache-mb` reaches the worker processes
API_ONLY_VARIABLE = "TAIHU_API_ONLY"  # how `--api-only` does (taihu/api/app.py reads it)
WARM_UP_HANDS = 300  # hands scored at start-up before the heap is frozen (docs/soak.md "Garbage collection")
# `gc.set_threshold` after the freeze (CPython's are 700, 10, 10; None keeps them): measured in docs/soak.md
GC_THRESHOLDS: tuple[int, int, int] | None = (50_000, 20, 20)
SCORE_URL_PATHS = frozenset(path.encode() for path in SCORE_PATHS)


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol that closes a connection whose request has not arrived whole within
    `read_timeout`, holds each client address to its share of the connections, and refuses headers past
    MAX_HEADER_BYTES.

    The clock starts when the connection opens and again after each answer,
    and stops once the request's last byte is in: the time the server takes
    to answer is not the client's. httptools (llhttp, in C) parses a request
    for a fraction of h11's cost, but bounds neither the time nor the size of
    the headers; both are counted here, from the parser's callbacks.

    One timer a connection: a request moves the deadline (`taihu_due`) and
    the timer, when it goes off before it, is set again for then, rather
    than a timer made and cancelled for each request.
    """

    read_timeout: float = READ_TIMEOUT
    taihu_deadline: asyncio.TimerHandle | None = None  # the connection's timer, when one is set
    taihu_due: float | None = None  # the loop's time by which the coming request must be in; None: one is in
    taihu_unanswered = 0  # requests in whole, not yet answered
    taihu_head_bytes: int | None = 0  # bytes read of the coming request's headers; None: its headers are in
    taihu_lane: Lane | None = None  # the request being read is answered below uvicorn's request cycle
    taihu_lane_body = b""  # its body so far
    taihu_idle = False  # waiting, keep-alive, after an answer of the lane (uvicorn's own wait is not set then)
    taihu_fast_path: FastPath | None = None  # the app's layer that answers a plain /score, where it is the app

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(OneWrite(transport, self.loop))  # type: ignore[arg-type]
        self.taihu_fast_path = fast_path_of(self.config)
        no_delay(transport)
        if self.taihu_over_client_share():
            transport.write(TOO_MANY_FROM_CLIENT)
            transport.close()
            if ACCESS_LOG.on:
                ACCESS_LOG.answered(self.client, NOT_READ, TOO_MANY_STATUS)
            return
        self.taihu_arm()

    def taihu_over_client_share(self) -> bool:
        """Whether this connection's address already holds its share of the open connections."""
        if self.client is None or self.limit_concurrency is None:
            return False
        host = self.client[0]
        held = sum(1 for c in self.connections if c is not self and c.client is not None and c.client[0] == host)
        return held >= client_limit(self.limit_concurrency)

    def data_received(self, data: bytes) -> None:
        if self.taihu_idle:  # the keep-alive wait after an answer of the lane ends with the first byte
            self.taihu_idle = False
            self.taihu_arm()
        if self.taihu_head_bytes is not None:
            self.taihu_head_bytes += len(data)
        super().data_received(data)
        # what arrived in one read is parsed whole; headers still incomplete past the cap are refused
        if (
            self.taihu_head_bytes is not None
            and self.taihu_head_bytes > MAX_HEADER_BYTES
            and not self.transport.is_closing()
        ):
            # a read of empty lines alone begins no request (the parser skips them): what it holds is the last one's
            self.taihu_refuse(HEADERS_TOO_LARGE, request_begun=bool(data.strip(b"\r\n")))

    def send_400_response(self, msg: str) -> None:
        """uvicorn's 400 for a request its parser refused, with its line in the access log."""
        self.taihu_refuse(msg, request_begun=True)  # the parser begins a request at its first byte, good or not

    def taihu_refuse(self, msg: str, request_begun: bool) -> None:
        """A 400 and the close, with its line: the request line where the request being read has one whole."""
        super().send_400_response(msg)
        if ACCESS_LOG.on:
            line = self.taihu_request_line_read() if request_begun else None
            client = self.client if line is None else self.taihu_forwarded_client()
            ACCESS_LOG.answered(client, line or NOT_READ, 400)

    def taihu_request_line_read(self) -> str | None:
        """The request line of the request being read, as uvicorn's access log writes it, where one of its headers
        is in (the line then was read whole; the parser's state does not say where within the line it stopped).
        httptools hands a header on once the next one's name is read: a request refused in its first header, or
        in the second's name, is written `"-"`."""
        if not self.headers:
            return None
        try:
            url = httptools.parse_url(self.url)
            path = url.path.decode("ascii")
        except (httptools.HttpParserInvalidURLError, UnicodeDecodeError):  # uvicorn would not have read it either
            return None
        if "%" in path:
            path = unquote(path)
        method = self.parser.get_method().decode("ascii")
        return request_line(method, self.root_path + path, url.query or b"", self.parser.get_http_version())

    def on_headers_complete(self) -> None:
        self.taihu_head_bytes = None
        self.taihu_lane = self.taihu_plain_score()
        if self.taihu_lane is not None:
            self.taihu_lane_body = b""
            return
        # past the limit uvicorn answers its own 503, which no app sees: its line is written here, as the request
        # is handed to it (an upgrade request uvicorn takes before that test gets none)
        unavailable = ACCESS_LOG.on and not self.parser.should_upgrade() and self.taihu_over_limit()
        super().on_headers_complete()
        if unavailable:
            ACCESS_LOG.answered(self.taihu_forwarded_client(), scope_request_line(self.scope), 503)

    def on_body(self, body: bytes) -> None:
        if self.taihu_lane is None:
            super().on_body(body)
        else:
            self.taihu_lane_body += body  # at most MOST_BODY bytes: the parser holds a body to its Content-Length

    def on_message_complete(self) -> None:
        lane, self.taihu_lane = self.taihu_lane, None
        self.taihu_unanswered += 1
        self.taihu_head_bytes = 0  # the next request's headers, which may already be arriving
        self.taihu_disarm()
        if lane is None:
            super().on_message_complete()
            return
        body, self.taihu_lane_body = self.taihu_lane_body, b""
        answer = lane.fast_path.on_loop(body, lane.asked)
        if answer is None:  # handed to uvicorn's request cycle, as if this layer had not looked
            super().on_headers_complete()
            if body:
                super().on_body(body)
            super().on_message_complete()
            return
        headers, content = answer
        head = [STATUS_LINE[200]]
        for name, value in (*self.server_state.default_headers, *headers):
            head += (name, b": ", value, b"\r\n")
        head += (b"\r\n", content)
        self.transport.write_now(b"".join(head))  # type: ignore[attr-defined]  # OneWrite's: the answer is whole
        self.taihu_unanswered -= 1
        self.taihu_idle = True
        self.taihu_arm(self.timeout_keep_alive)
        if ACCESS_LOG.on:
            line = request_line("POST", self.root_path + lane.path.decode("ascii"), lane.query, "1.1")
            ACCESS_LOG.answered(self.taihu_forwarded_client(), line, 200)

    def taihu_over_limit(self) -> bool:
        """Whether a request whose headers are in now is past `limit_concurrency`: uvicorn's own test, on the same
        public state, so that it holds before uvicorn adds the request's task (it then answers uvicorn's 503)."""
        return self.limit_concurrency is not None and (
            len(self.connections) >= self.limit_concurrency or len(self.tasks) >= self.limit_concurrency
        )

    def taihu_forwarded_client(self) -> tuple[str, int] | None:
        """The client address as uvicorn's ProxyHeadersMiddleware reads it (X-Forwarded-For from a trusted proxy),
        for the access log of an answer that did not pass through it; that middleware itself does the reading."""
        if not self.config.proxy_headers or not any(name == b"x-forwarded-for" for name, _ in self.headers):
            return self.client
        scope: dict[str, Any] = {"type": "http", "client": self.client, "headers": self.headers, "scheme": self.scheme}
        trusted = self.config.forwarded_allow_ips
        middleware = proxy_headers(tuple(trusted) if isinstance(trusted, list) else trusted)
        reading = middleware(scope, no_receive, no_send)  # type: ignore[arg-type]
        try:
            reading.send(None)  # its app returns at once: the coroutine ends on its first step
        except StopIteration:
            pass
        else:
            reading.close()
            raise RuntimeError("ProxyHeadersMiddleware waited on something")
        client: tuple[str, int] | None = scope["client"]
        return client

    def taihu_plain_score(self) -> Lane | None:
        """Where the request whose headers are in is a `POST /score` that FastPath would answer alone, and
        nothing else is under way on the connection: what it asks; None: uvicorn's request cycle takes it."""
        fast_path = self.taihu_fast_path
        if (
            fast_path is None
            or self.config.access_log  # uvicorn's own access log is on: it says every answer (`taihu serve`'s is off)
            or self.expect_100_continue
            or self.parser.get_method() != b"POST"
            or self.parser.get_http_version() != "1.1"
            or not self.parser.should_keep_alive()
            or self.parser.should_upgrade()
            or (self.cycle is not None and not self.cycle.response_complete)
            or self.pipeline
            or self.taihu_over_limit()
        ):
            return None
        url = httptools.parse_url(self.url)
        if url.path not in SCORE_URL_PATHS:
            return None
        query = url.query or b""
        asked = fast_path.plain_request(self.headers, query)
        return None if asked is None else Lane(fast_path, asked, url.path, query)

    def on_response_complete(self) -> None:
        self.taihu_idle = False
        self.taihu_unanswered = max(0, self.taihu_unanswered - 1)
        super().on_response_complete()
        if not self.transport.is_closing() and self.taihu_unanswered == 0:
            self.taihu_arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self.taihu_disarm()
        if self.taihu_deadline is not None:
            self.taihu_deadline.cancel()
            self.taihu_deadline = None
        super().connection_lost(exc)

    def taihu_arm(self, timeout: float | None = None) -> None:
        """The coming request's deadline, `timeout` (else `read_timeout`) from now; the timer is set if none is,
        or set again if it goes off later than that (the keep-alive wait after a lane answer is the shorter)."""
        self.taihu_due = due = self.loop.time() + (self.read_timeout if timeout is None else timeout)
        if self.taihu_deadline is not None and self.taihu_deadline.when() > due:
            self.taihu_deadline.cancel()
            self.taihu_deadline = None
        if self.taihu_deadline is None:
            self.taihu_deadline = self.loop.call_at(self.taihu_due, self.taihu_timed_out)

    def taihu_disarm(self) -> None:
        """No deadline while a request is in; the timer, if set, finds none when it goes off."""
        self.taihu_due = None

    def taihu_timed_out(self) -> None:
        self.taihu_deadline = None
        due = self.taihu_due
        if due is None or self.transport.is_closing():
            return  # a request is in: answering it sets the next deadline, and the timer with it
        if self.loop.time() < due - TIMER_SLACK:  # moved on since the timer was set
            self.taihu_deadline = self.loop.call_at(due, self.taihu_timed_out)
        elif self.taihu_unanswered == 0:
            self.transport.close()


class Lane(NamedTuple):
    """A plain `POST /score` being read by the protocol: the layer that answers it, what it asks, and its URL's
    path and query as the parser read them."""

    fast_path: FastPath
    asked: Asked
    path: bytes
    query: bytes


async def _no_app(scope: Any, receive: Any, send: Any) -> None:
    """The app behind the ProxyHeadersMiddleware that reads a lane request's client address: nothing."""


async def no_receive() -> Any:
    raise RuntimeError("not called")


async def no_send(message: Any) -> None:
    raise RuntimeError("not called")


@cache
def proxy_headers(trusted: str | tuple[str, ...]) -> ProxyHeadersMiddleware:
    """uvicorn's ProxyHeadersMiddleware trusting `trusted` (`--forwarded-allow-ips`, uvicorn's setting), made once."""
    return ProxyHeadersMiddleware(_no_app, trusted_hosts=list(trusted) if isinstance(trusted, tuple) else trusted)


def fast_path_of(config: uvicorn.Config) -> FastPath | None:
    """The FastPath uvicorn serves (`taihu serve`'s app, or one given as the app itself), else None."""
    if isinstance(config.app, FastPath):
        return config.app
    if config.app == APP:
        from taihu.api.app import served

        return served
    return None


class OneWrite:
    """A connection's transport whose writes within one turn of the event loop go out as one.

    uvicorn writes an answer's head and its body apart: two system calls, two
    TCP segments and two wake-ups of the client, for an answer of a few
    hundred bytes (a fifth of a `/score` request's CPU in the server). The
    writes are joined and sent once the turn's callbacks have run; `close`
    sends what is pending first. Everything else is the transport's own.
    """

    __slots__ = ("transport", "loop", "pending")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self.transport = transport
        self.loop = loop
        self.pending: list[bytes] = []

    def write(self, data: bytes) -> None:
        if not self.pending:
            self.loop.call_soon(self.flush)
        self.pending.append(data)

    def write_now(self, data: bytes) -> None:
        """Sends `data` at once, after what is pending: a whole answer, with nothing to join it to."""
        self.pending.append(data)
        self.flush()

    def writelines(self, chunks: Sequence[bytes]) -> None:
        for chunk in chunks:
            self.write(chunk)

    def flush(self) -> None:
        if self.pending:
            data = b"".join(self.pending)
            self.pending = []
            if not self.transport.is_closing():
                self.transport.write(data)

    def close(self) -> None:
        self.flush()
        self.transport.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


def client_limit(limit_concurrency: int) -> int:
    """The open connections one client address may hold: a share of the process's, at least one."""
    return max(1, limit_concurrency // CLIENT_SHARE)


def too_many_body() -> bytes:
    """The one error shape (taihu/messages/error_shape.py) of the 503 past an address's share: written before a
    request is read, so its language is not known, and its message is in both, Chinese first."""
    code = "error.server.too_many_connections"
    message = f"{catalog('zh').gettext(code)} / {catalog('en').gettext(code)}"
    shape = {"code": "too_many_connections", "message": message, "detail": message}
    shape |= dict.fromkeys(("column", "seat", "player", "field", "hint"))
    return json.dumps(shape, ensure_ascii=False, separators=(",", ":")).encode()


_TOO_MANY_BODY = too_many_body()
TOO_MANY_FROM_CLIENT = (  # the one error shape (taihu/api/responses.py), written before the app is reached
    STATUS_LINE[TOO_MANY_STATUS] + b"content-type: application/json; charset=utf-8\r\nconnection: close\r\n"
    b"retry-after: 5\r\ncontent-length: %d\r\n\r\n%s" % (len(_TOO_MANY_BODY), _TOO_MANY_BODY)
)


def no_delay(transport: asyncio.BaseTransport) -> None:
    """Sends small writes at once (TCP_NODELAY).

    asyncio sets it only on sockets made with proto IPPROTO_TCP; the socket
    uvicorn binds for `--workers` is made with proto 0, so an answer's body,
    written after its headers, waited for the client's delayed ACK: 40 ms a
    request on a keep-alive connection.
    """
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def apply_cache_budget() -> None:
    """Sets the core's cache budget from `--cache-mb`, which reaches each worker process as an environment variable."""
    megabytes = os.environ.get(CACHE_MB_VARIABLE)
    if megabytes:
        memo.set_budget_mb(float(megabytes))


def sets_and_pair(rng: random.Random, tiles: int) -> list[int]:
    """The tile kinds of a random winning shape: sets (chows or pungs) and a pair, no kind over four times."""
    while True:
        kinds: list[int] = []
        for _ in range((tiles - 2) // 3):
            if rng.random() < 0.5:
                start = rng.randrange(3) * 9 + rng.randrange(7)
                kinds += [start, start + 1, start + 2]
            else:
                kinds += [rng.randrange(34)] * 3
        kinds += [rng.randrange(34)] * 2
        if all(kinds.count(k) <= 4 for k in set(kinds)):
            return kinds


def warm_up(hands: int = WARM_UP_HANDS) -> Counter[str]:
    """Scores `hands` random hands under each rule set in turn, a wildcard in every other one; the wins per rule set.

    What a server builds once and keeps (each rule set's lazily made tables,
    the engine's table of suit stretches, built after some 300 of them) is
    then made before the heap is frozen, not while the first clients wait.
    """
    rng = random.Random(0)
    names = [info.name for info in rule_sets()]
    wins: Counter[str] = Counter()
    for count in range(hands):
        rules = names[count % len(names)]
        rule_set = RULESETS[rules]
        kinds = sets_and_pair(rng, rule_set.hand_size + 1)
        wild = f" wild:{T.name(rng.choice(kinds))}" if count % 2 and "wild" in rule_set.conditions else ""
        tiles = [T.name(k) for k in kinds]
        try:
            score_hand(" ".join(tiles[:-1]) + f" +{tiles[-1]}{wild} self", rules=rules)
            wins[rules] += 1
        except HandError:
            pass  # a shape the rule set does not take: it warmed what it reached
    return wins


def settle_heap() -> None:
    """Warms up, then freezes the heap: full collections then walk only what requests made since.

    Without the freeze, each full collection walks every object of the
    imports and start-up tables (some hundred thousand) however few requests
    made. `GC_THRESHOLDS`, when set, is applied after: a request makes
    thousands of objects, nearly all freed by their counts, so CPython's 700
    set off several collections a request, each walking the memo tables
    that requests had just grown (bench/gc_server.py: p99 and max request
    time halved, the same RSS). Both are read at the call, so the bench can
    start servers that differ in them.
    """
    warm_up(WARM_UP_HANDS)
    gc.collect()
    gc.freeze()
    if GC_THRESHOLDS is not None:
        gc.set_threshold(*GC_THRESHOLDS)


def config_options(limit_concurrency: int = MAX_CONNECTIONS) -> dict[str, Any]:
    """The uvicorn settings of `taihu serve`, shared with the tests and the soak."""
    return {
        "http": GuardedProtocol,
        "loop": "uvloop",  # libuv's event loop: a request's wake-ups and writes for less CPU than asyncio's
        "timeout_keep_alive": KEEP_ALIVE,
        "limit_concurrency": limit_concurrency,
    }


def serve(
    host: str,
    port: int,
    workers: int = 1,
    limit_concurrency: int = MAX_CONNECTIONS,
    cache_mb: int | None = None,
    allowed_hosts: Sequence[str] = (),
    root_path: str = "",
    access_log: bool = True,
    api_only: bool = False,
) -> None:
    """Runs the API until stopped; `workers` > 1 is uvicorn's own worker mode (one process each).

    `allowed_hosts` (`--allowed-host`): the Host names answered besides the loopback names and the
    address bound (taihu/api/security.py); a ValueError names one that is not a host name.
    `root_path`: the path a reverse proxy serves the API under; `api_only`: no page, no /docs (docs/deploy.md).
    """
    names = trusted_hosts(host, allowed_hosts)
    trust_hosts_in_every_worker(names)  # read by the app in each process at start-up
    if cache_mb is not None:
        os.environ[CACHE_MB_VARIABLE] = str(cache_mb)  # read by the app in each process at start-up
    if api_only:
        os.environ[API_ONLY_VARIABLE] = "1"  # read by the app in each process at start-up
    # the access log is ours (taihu/api/access_log.py), uvicorn's own is off
    ACCESS_LOG.on = access_log
    os.environ[ACCESS_LOG_VARIABLE] = "1" if access_log else "0"  # read by the app in each process at start-up
    options = config_options(limit_concurrency) | {"root_path": root_path.rstrip("/"), "access_log": False}
    uvicorn.run(APP, host=host, port=port, workers=workers, **options)
