"""No request leaves reference cycles behind (issue 21: `/health` under 50 ms beside the escaped-quote body).

`taihu serve` raises the collector's first threshold to 50,000 objects
(taihu/api/server.py `settle_heap`), so what only the collector frees piles
up and is freed in one pause: with ~50 objects of cyclic garbage a refused
request (an exception's traceback holding the frames it went through, a
frame or a future holding the exception), a young collection every ~1,000
such requests took 80–110 ms, on the event loop, with `/health` behind it.

Each kind of request, a success and every way of refusing one, is sent to a
real uvicorn server in this process (tests/live_server.py, `taihu serve`'s
protocol and app) over a raw socket (the client itself makes no cycles),
with the collector off; then `gc.collect()` with DEBUG_SAVEALL keeps what it
would have freed, and that must stay under one object a request. A failure
names the types found and each frame's function.
"""

from __future__ import annotations

import gc
import json
import re
import socket
import types
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from abuse_cases import ESCAPED_QUOTES
from live_server import live_server

from taihu.api import batch, server, waits
from taihu.api.schemas import SCORE_EXAMPLES, TABLE_EXAMPLES

ROOT = Path(__file__).resolve().parent.parent
NORMAL_WIN = json.loads((ROOT / "examples/tables/normal-win.json").read_text(encoding="utf-8"))
PLAYERS = ["甲", "乙", "丙", "丁"]
TIMES = 12  # requests of a kind measured together
WARM_UP = 3  # sent first: a first request fills caches and imports lazily (not garbage, not cycles of requests)
LIMIT = 8  # the server's --limit-concurrency: one address's share is 2 (taihu.api.server.client_limit)
RIICHI = b'{"rules":"riichi","hand":"123m 456m 789m 234p 5s +5s self"}'
WILD = json.dumps(SCORE_EXAMPLES[0]).encode()
LARGE = b'{"rules":"riichi","hand":"123m 456m 789m 234p 5s +5s self"' + b" " * 5000 + b"}"  # past the fast path
NESTED = b"[" * 200 + b"]" * 200  # deeper than the JSON check allows, checked on the loop
NESTED_LARGE = b"[" * 3000 + b"]" * 3000  # the same, past INLINE_BYTES: checked in a worker thread


def head(method: str, path: str, body: bytes, headers: dict[str, str]) -> bytes:
    given = {"Host": "127.0.0.1"} | headers
    if body or method in ("POST", "PUT", "PATCH"):
        given["Content-Length"] = str(len(body))
    lines = [f"{method} {path} HTTP/1.1", *(f"{name}: {value}" for name, value in given.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8")


def answer_of(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 answer read off `sock`: its status, headers (lower-case names) and body."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed after {data!r}")
        data += chunk
    top, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = top.decode("latin-1").split("\r\n")
    headers = dict((name.lower(), value.strip()) for name, _, value in (line.partition(":") for line in header_lines))
    size = int(headers.get("content-length", "0"))
    while len(body) < size:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(status_line.split()[1]), headers, body


@dataclass
class Client:
    """Raw HTTP/1.1 over one keep-alive socket, opened again when the server closes it."""

    port: int
    sock: socket.socket | None = None
    token: str = ""
    ledger: str = ""
    etag: str = ""

    def send(self, raw: bytes) -> tuple[int, dict[str, str], bytes]:
        if self.sock is None:
            self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        self.sock.sendall(raw)
        status, headers, body = answer_of(self.sock)
        if headers.get("connection") == "close":
            self.close()
        return status, headers, body

    def request(
        self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        given = {"Content-Type": "application/json"} if body else {}
        return self.send(head(method, path, body, given | (headers or {})) + body)

    def keeper(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None


def new_ledger(client: Client) -> None:
    status, _, body = client.request(
        "POST", "/v1/ledgers", json.dumps({"rules": "lingxi", "players": PLAYERS}).encode()
    )
    assert status == 201, body
    keys = json.loads(body)
    client.ledger, client.token = keys["id"], keys["token"]


def add_deal(client: Client) -> tuple[int, dict[str, str], bytes]:
    return client.request(
        "POST", f"/v1/ledgers/{client.ledger}/deals", json.dumps(NORMAL_WIN).encode(), client.keeper()
    )


def with_deal(client: Client) -> None:
    new_ledger(client)
    status, headers, _ = add_deal(client)
    assert status == 201
    client.etag = headers["etag"]


def new_token(client: Client) -> tuple[int, dict[str, str], bytes]:
    answer = client.request("POST", ledger_path(client, "/token"), b"", client.keeper())
    client.token = json.loads(answer[2])["token"]
    return answer


def chunked(client: Client, body: bytes) -> tuple[int, dict[str, str], bytes]:
    raw = b"POST /v1/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    raw += b"Transfer-Encoding: chunked\r\n\r\n"
    raw += b"".join(b"%x\r\n%s\r\n" % (len(body[i : i + 8192]), body[i : i + 8192]) for i in range(0, len(body), 8192))
    return client.send(raw + b"0\r\n\r\n")


def fresh_connection(client: Client, raw: bytes, source: str = "127.0.0.1") -> tuple[int, dict[str, str], bytes]:
    """`raw` on a connection of its own, from `source`; the answer, or status 0 when the server closed without one."""
    with socket.create_connection(("127.0.0.1", client.port), timeout=30, source_address=(source, 0)) as sock:
        if not raw:
            return 0, {}, b""  # opened and closed
        sock.sendall(raw)
        try:
            return answer_of(sock)
        except ConnectionError:
            return 0, {}, b""


def held(client: Client, count: int, source: str) -> list[socket.socket]:
    sockets = [socket.create_connection(("127.0.0.1", client.port), source_address=(source, 0)) for _ in range(count)]
    client.request("GET", "/health")  # the server has taken them in
    return sockets


@dataclass
class Case:
    """A kind of request: `send` sends one (after `prepare`, once); every answer's status is `status`."""

    send: Callable[[Client], tuple[int, dict[str, str], bytes]]
    status: int
    prepare: Callable[[Client], Any] = lambda client: None
    patch: dict[tuple[Any, str], Any] = field(default_factory=dict)  # module attributes set for the case


def post(path: str, body: bytes, **headers: str) -> Callable[[Client], tuple[int, dict[str, str], bytes]]:
    return lambda client: client.request("POST", path, body, headers)


def get(path: str, **headers: str) -> Callable[[Client], tuple[int, dict[str, str], bytes]]:
    return lambda client: client.request("GET", path, b"", headers)


def ledger_path(client: Client, rest: str = "") -> str:
    return f"/v1/ledgers/{client.ledger}{rest}"


BATCH = json.dumps({"hands": [json.loads(RIICHI), {"hand": "1x"}]}).encode()
TABLES = json.dumps({"tables": TABLE_EXAMPLES}).encode()
WAITS = b'{"rules":"riichi","hand":"123m 456m 789m 234p 5s"}'
WRONG = {"Authorization": "Bearer not-the-token"}
CASES: dict[str, Case] = {
    # answered
    "GET /health": Case(get("/health"), 200),
    "GET /v1/rules": Case(get("/v1/rules"), 200),
    "POST /score (on the loop)": Case(post("/v1/score", RIICHI), 200),
    "POST /score?arithmetic=true&lang=zh": Case(post("/v1/score?arithmetic=true&lang=zh", RIICHI), 200),
    "POST /score, a wildcard (in a worker)": Case(post("/v1/score", WILD), 200),
    "POST /score, a 5 KB body (the app's route)": Case(post("/v1/score", LARGE), 200),
    "POST /settle": Case(post("/v1/settle", json.dumps(TABLE_EXAMPLES[0]).encode()), 200),
    "POST /waits": Case(post("/v1/waits", WAITS), 200),
    "POST /score/batch": Case(post("/v1/score/batch", BATCH), 200),
    "POST /settle/batch": Case(post("/v1/settle/batch", TABLES), 200),
    "GET / (the page)": Case(get("/"), 200),
    "POST /ledgers": Case(
        lambda c: c.request("POST", "/v1/ledgers", b'{"rules":"lingxi","players":["a","b","c","d"]}'), 201
    ),
    "POST /ledgers/{id}/deals": Case(add_deal, 201, prepare=new_ledger),
    "GET /ledgers/{id}": Case(lambda c: c.request("GET", ledger_path(c)), 200, prepare=with_deal),
    "GET /ledgers/{id}, If-None-Match": Case(
        lambda c: c.request("GET", ledger_path(c), headers={"If-None-Match": c.etag}), 304, prepare=with_deal
    ),
    "GET /ledgers/{id}/deals": Case(
        lambda c: c.request("GET", ledger_path(c, "/deals?limit=5")), 200, prepare=with_deal
    ),
    "GET /ledgers/{id}.csv": Case(lambda c: c.request("GET", ledger_path(c, ".csv")), 200, prepare=with_deal),
    "PATCH /ledgers/{id}": Case(
        lambda c: c.request("PATCH", ledger_path(c), b'{"title":"friday"}', c.keeper()), 200, prepare=new_ledger
    ),
    "POST /ledgers/{id}/token": Case(new_token, 200, prepare=new_ledger),
    # refused: the body
    "POST /score, bad notation": Case(post("/v1/score", b'{"rules":"riichi","hand":"1x"}'), 422),
    "POST /score, broken JSON": Case(post("/v1/score", b'{"hand":'), 422),
    "POST /score, the 64 KB escaped-quote body": Case(post("/v1/score", ESCAPED_QUOTES), 422),
    "POST /score, a field of the wrong type": Case(post("/v1/score", b'{"hand": 3}'), 422),
    "POST /score, not UTF-8": Case(post("/v1/score", b'{"hand": "\xff"}'), 422),
    "POST /score, no body": Case(post("/v1/score", b"", **{"Content-Type": "application/json"}), 422),
    "POST /score, not JSON by type (415)": Case(post("/v1/score", b"{}", **{"Content-Type": "text/plain"}), 415),
    "POST /score, nested too deep": Case(post("/v1/score", NESTED), 422),
    "POST /score, nested too deep, 6 KB (checked in a worker)": Case(post("/v1/score", NESTED_LARGE), 422),
    "POST /score, 70 KB declared (413)": Case(post("/v1/score", b"1" * 70_000), 413),
    "POST /score, 70 KB chunked (413)": Case(lambda c: chunked(c, b"1" * 70_000), 413),
    "POST /settle, a bad table": Case(post("/v1/settle", b'{"rules":"lingxi"}'), 422),
    "POST /settle, a bad hand": Case(
        post("/v1/settle", json.dumps({**TABLE_EXAMPLES[0], "winner": "N"}).encode()), 422
    ),
    "POST /waits, over the budget": Case(post("/v1/waits", WAITS), 422, patch={(waits, "WAITS_BUDGET"): -1.0}),
    "POST /score/batch, over the budget": Case(
        post("/v1/score/batch", BATCH), 200, patch={(batch, "CPU_BUDGET"): -1.0}
    ),
    "POST /score/batch, not a batch": Case(post("/v1/score/batch", b'{"hands": 3}'), 422),
    "POST /score/batch, broken JSON": Case(post("/v1/score/batch", b"{"), 422),
    # refused: the request
    "GET /nothing (404)": Case(get("/nothing"), 404),
    "GET /v1/score (405)": Case(get("/v1/score"), 405),
    "a Host not served (400)": Case(get("/health", Host="evil.example"), 400),
    "POST /ledgers, a bad ledger": Case(post("/v1/ledgers", b'{"players":["a"]}'), 422),
    "POST /ledgers, broken JSON": Case(post("/v1/ledgers", b'{"players":'), 422),
    "POST /ledgers, over the rate (429)": Case(
        post("/v1/ledgers", b'{"rules":"lingxi","players":["a","b","c","d"]}'),
        429,
        prepare=lambda c: [
            c.request("POST", "/v1/ledgers", json.dumps({"players": PLAYERS}).encode()) for _ in range(21)
        ],
    ),
    "POST /ledgers/{id}/deals, no token (401)": Case(
        lambda c: c.request("POST", ledger_path(c, "/deals"), json.dumps(NORMAL_WIN).encode()), 401, prepare=new_ledger
    ),
    "POST /ledgers/{id}/deals, a wrong token (403)": Case(
        lambda c: c.request("POST", ledger_path(c, "/deals"), json.dumps(NORMAL_WIN).encode(), WRONG),
        403,
        prepare=new_ledger,
    ),
    "POST /ledgers/{id}/deals, a bad deal": Case(
        lambda c: c.request(
            "POST", ledger_path(c, "/deals"), json.dumps({**NORMAL_WIN, "winner": "W"}).encode(), c.keeper()
        ),
        422,
        prepare=new_ledger,
    ),
    "POST /ledgers/{id}/deals, broken JSON": Case(
        lambda c: c.request("POST", ledger_path(c, "/deals"), b"{", c.keeper()), 422, prepare=new_ledger
    ),
    "POST /ledgers/{id}/deals, deal number taken (409)": Case(
        lambda c: c.request(
            "POST", ledger_path(c, "/deals"), json.dumps({**NORMAL_WIN, "deal": 1}).encode(), c.keeper()
        ),
        409,
        prepare=with_deal,
    ),
    "GET /ledgers/nope (404)": Case(get("/v1/ledgers/nope"), 404),
    "PATCH /ledgers/{id}, a bad edit": Case(
        lambda c: c.request("PATCH", ledger_path(c), b'{"expires_in_hours": 0}', c.keeper()), 422, prepare=new_ledger
    ),
    "DELETE /ledgers/{id}/deals/last, none left": Case(
        lambda c: c.request("DELETE", ledger_path(c, "/deals/last"), b"", c.keeper()), 422, prepare=new_ledger
    ),
    # refused by the server's protocol, on a connection of their own
    "a connection opened and closed": Case(lambda c: fresh_connection(c, b""), 0),
    "headers past 16 KB (400)": Case(
        lambda c: fresh_connection(c, b"GET /health HTTP/1.1\r\nX-Big: " + b"a" * 20_000), 400
    ),
    "not HTTP (400)": Case(lambda c: fresh_connection(c, b"\x00\x01 nonsense\r\n\r\n"), 400),
    "past one address's share (503)": Case(
        lambda c: fresh_connection(c, head("GET", "/health", b"", {}), "127.0.0.2"),
        503,
        prepare=lambda c: held(c, 2, "127.0.0.2"),
    ),
    "past the connection limit (503)": Case(
        lambda c: c.request("GET", "/health"),
        503,
        prepare=lambda c: [s for n in range(4) for s in held(c, 2, f"127.0.0.{3 + n}")],
    ),
}


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with live_server(limit_concurrency=LIMIT) as (_, port):
        yield port


def describe(garbage: list[Any]) -> str:
    """The types of the garbage, and the function (file:line) of each frame in it."""
    kinds = Counter(type(o).__qualname__ for o in garbage)
    frames = Counter(
        f"{o.f_code.co_qualname} ({Path(o.f_code.co_filename).name}:{o.f_lineno})"
        for o in garbage
        if isinstance(o, types.FrameType)
    )
    lines = [f"{len(garbage)} objects: " + ", ".join(f"{n} {kind}" for kind, n in kinds.most_common(12))]
    lines += [f"  frame {name} × {n}" for name, n in frames.most_common(20)]
    return "\n".join(lines)


def cyclic_garbage(send: Callable[[], object], times: int) -> list[Any]:
    """What `gc.collect()` frees (and only it could) after `times` calls of `send`, the collector off meanwhile."""
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(times):
            send()
        gc.collect()
        return list(gc.garbage)
    finally:
        gc.garbage.clear()
        gc.set_debug(0)
        gc.enable()


@pytest.mark.parametrize("name", CASES)
def test_a_request_leaves_no_reference_cycles(port: int, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    case = CASES[name]
    for (module, attribute), value in case.patch.items():
        monkeypatch.setattr(module, attribute, value)
    client = Client(port)
    kept = case.prepare(client)  # what it holds (sockets) stays open while the case runs
    try:
        statuses: Counter[int] = Counter()

        def send() -> None:
            statuses[case.send(client)[0]] += 1

        for _ in range(WARM_UP):
            send()
        garbage = cyclic_garbage(send, TIMES)
        assert statuses == {case.status: WARM_UP + TIMES}, statuses
        assert len(garbage) < TIMES, f"{name}: {TIMES} requests left cyclic garbage\n{describe(garbage)}"
    finally:
        client.close()
        for sock in kept if isinstance(kept, list) and all(isinstance(s, socket.socket) for s in kept) else ():
            sock.close()


def test_the_check_finds_a_cycle_and_names_its_frames() -> None:
    """The measure itself: a request path that kept its exception in a frame would be found, and named."""

    def refused() -> None:
        try:
            raise ValueError("bad input")
        except ValueError as exc:
            kept = exc  # the frame holds the exception, whose traceback holds the frame
        assert kept is not None

    garbage = cyclic_garbage(refused, TIMES)
    assert len(garbage) >= TIMES
    assert re.search(r"frame test_the_check_finds_a_cycle_and_names_its_frames.<locals>.refused", describe(garbage))


def test_the_server_under_test_is_taihu_serves() -> None:
    """The protocol and the limits the cases rely on (a share of 2 connections an address of LIMIT)."""
    assert server.client_limit(LIMIT) == 2
    assert server.config_options()["http"] is server.GuardedProtocol
