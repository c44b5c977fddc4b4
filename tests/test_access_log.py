"""Issue 26, part 3: `taihu serve`'s access log (taihu/api/access_log.py): a line per answer in uvicorn's words,
the same whether the protocol or the app made the answer, ledger ids left out, written soon and in whole lines;
the answers given before any app runs (uvicorn's 400 and 503, ours to a client over its share) have theirs too.
"""

from __future__ import annotations

import asyncio
import io
import re
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any, NamedTuple

import pytest
import uvicorn
from live_server import live_server
from test_api_lane import HEALTH, Reader, exchange, lane_answers, score_request
from typer.testing import CliRunner

from taihu.api import access_log
from taihu.api.access_log import ACCESS_LOG, ACCESS_LOG_VARIABLE, FLUSH_SECONDS, MOST_LINES, AccessLog
from taihu.api.server import MAX_HEADER_BYTES, GuardedProtocol

__all__ = ["lane_answers"]  # a fixture, used by name
BOUND = 10.0
SECRET = "Zq3fSecretLedgerId9"
LINE = re.compile(r'INFO:     127\.0\.0\.1:\d+ - "(.*)" (\d{3} .*)\n')
ANY_CLIENT_LINE = re.compile(r'INFO:     ([\d.]+):\d+ - "(.*)" (\d{3} .*)\n')


@pytest.fixture
def log(monkeypatch: pytest.MonkeyPatch) -> Iterator[io.StringIO]:
    """The process's access log on, written to a string."""
    stream = io.StringIO()
    monkeypatch.setattr(ACCESS_LOG, "on", True)
    monkeypatch.setattr(ACCESS_LOG, "stream", stream)
    yield stream
    ACCESS_LOG.flush()


def lines_of(log: io.StringIO) -> list[str]:
    deadline = time.monotonic() + BOUND
    while not log.getvalue() and time.monotonic() < deadline:
        time.sleep(FLUSH_SECONDS / 4)
    time.sleep(2 * FLUSH_SECONDS)  # the rest of the lines, held as the first were written
    ACCESS_LOG.flush()
    return log.getvalue().splitlines(keepends=True)


def get(path: str) -> bytes:
    return f"GET {path} HTTP/1.1\r\nhost: localhost\r\n\r\n".encode()


def test_each_answer_has_its_line_whoever_made_it(log: io.StringIO, lane_answers: list[bool]) -> None:
    with live_server() as address:
        exchange(address, score_request())  # the lane's
        exchange(address, score_request(b'{"rules": "lingxi", "hand": "1m"}'))  # an error: the app's
        exchange(address, get("/health?x=1"))
        exchange(address, get(f"/v1/ledgers/{SECRET}"))
    assert lane_answers == [True, False]
    found = [LINE.fullmatch(line) for line in lines_of(log)]
    assert all(found), log.getvalue()
    assert [m.groups() for m in found if m] == [
        ("POST /v1/score HTTP/1.1", "200 OK"),
        ("POST /v1/score HTTP/1.1", "422 Unprocessable Entity"),
        ("GET /health?x=1 HTTP/1.1", "200 OK"),
        ("GET /v1/ledgers/… HTTP/1.1", "404 Not Found"),
    ]
    assert SECRET not in log.getvalue()


def test_the_lanes_line_is_the_request_cycles(log: io.StringIO, monkeypatch: pytest.MonkeyPatch) -> None:
    """Behind a proxy too: the client is read from X-Forwarded-For (127.0.0.1 is trusted by default), and under
    a root path the path written is the app's (with its prefix), as uvicorn writes it."""
    data = score_request(extra={"x-forwarded-for": "203.0.113.7"})
    with live_server(root_path="/taihu") as address:
        lane = exchange(address, data)
        monkeypatch.setattr(GuardedProtocol, "taihu_plain_score", lambda self: None)
        cycle = exchange(address, data)
    assert lane == cycle
    lines = lines_of(log)
    assert lines == ['INFO:     203.0.113.7:0 - "POST /taihu/v1/score HTTP/1.1" 200 OK\n'] * 2, lines


def padded_head(first_lines: str) -> bytes:
    """A request head past MAX_HEADER_BYTES, its last header still arriving."""
    return (first_lines + "x-pad: " + "a" * MAX_HEADER_BYTES).encode()


class Refusal(NamedTuple):
    """Answers the server gives before any app runs: the writes of one connection, each once the answer to the one
    before is in (after `held`, connections from those addresses that each had an answer and stay open), the status
    line of each write's answer, and the log's lines."""

    writes: tuple[bytes, ...]
    statuses: tuple[bytes, ...]
    lines: list[tuple[str, str, str]]  # client address, request, status; the held connections' lines first
    limit_concurrency: int = 100
    held: tuple[str, ...] = ()


HEALTH_LINE = ("GET /health HTTP/1.1", "200 OK")
REFUSALS = {
    "a malformed request line": Refusal(
        (b"GARBAGE / HTTP/1.1\r\nhost: localhost\r\n\r\n",),
        (b"HTTP/1.1 400 Bad Request",),
        [("127.0.0.1", "-", "400 Bad Request")],
    ),
    "a malformed header after headers": Refusal(  # httptools hands a header on once the next one's name is read
        (b"GET /health HTTP/1.1\r\nhost: localhost\r\naccept: */*\r\nno colon\r\n\r\n",),
        (b"HTTP/1.1 400 Bad Request",),
        [("127.0.0.1", "GET /health HTTP/1.1", "400 Bad Request")],
    ),
    "headers too large, after a header": Refusal(
        (padded_head(f"GET /v1/ledgers/{SECRET}?x=1 HTTP/1.1\r\nhost: localhost\r\n"),),
        (b"HTTP/1.1 400 Bad Request",),
        [("127.0.0.1", "GET /v1/ledgers/…?x=1 HTTP/1.1", "400 Bad Request")],
    ),
    "headers too large, in the first header": Refusal(  # the request line's end is not known to have been read
        (padded_head("GET /health HTTP/1.1\r\n"),),
        (b"HTTP/1.1 400 Bad Request",),
        [("127.0.0.1", "-", "400 Bad Request")],
    ),
    "empty lines past the cap after an answer": Refusal(  # the parser skips them: no request begun
        (HEALTH, b"\r\n" * MAX_HEADER_BYTES),
        (b"HTTP/1.1 200 OK", b"HTTP/1.1 400 Bad Request"),
        [("127.0.0.1", *HEALTH_LINE), ("127.0.0.1", "-", "400 Bad Request")],
    ),
    "past the concurrency limit": Refusal(
        (score_request(),),
        (b"HTTP/1.1 503 Service Unavailable",),
        [("127.0.0.2", *HEALTH_LINE), ("127.0.0.1", "POST /v1/score HTTP/1.1", "503 Service Unavailable")],
        limit_concurrency=2,
        held=("127.0.0.2",),
    ),
    "past the concurrency limit, behind a proxy": Refusal(
        (score_request(extra={"x-forwarded-for": "203.0.113.7"}),),
        (b"HTTP/1.1 503 Service Unavailable",),
        [("127.0.0.2", *HEALTH_LINE), ("203.0.113.7", "POST /v1/score HTTP/1.1", "503 Service Unavailable")],
        limit_concurrency=2,
        held=("127.0.0.2",),
    ),
    "over the client's share": Refusal(  # refused as the connection opens: nothing is read
        (b"",),  # nothing written: the answer is there before a request
        (b"HTTP/1.1 503 Service Unavailable",),
        [("127.0.0.1", *HEALTH_LINE), ("127.0.0.1", "-", "503 Service Unavailable")],
        limit_concurrency=4,  # a share of one
        held=("127.0.0.1",),
    ),
}


@pytest.mark.parametrize("name", list(REFUSALS))
def test_each_refusal_before_the_app_has_its_line(name: str, log: io.StringIO) -> None:
    writes, statuses, lines, limit_concurrency, held = REFUSALS[name]
    with live_server(limit_concurrency=limit_concurrency) as address, ExitStack() as stack:
        for host in held:
            sock = stack.enter_context(socket.create_connection(address, timeout=BOUND, source_address=(host, 0)))
            sock.sendall(HEALTH)
            assert Reader(sock).answer().startswith(b"HTTP/1.1 200 OK\r\n")  # taken by the server, kept open
        with socket.create_connection(address, timeout=BOUND) as sock:
            reader = Reader(sock)
            answers = []
            for data in writes:
                sock.sendall(data)
                answers.append(reader.answer().split(b"\r\n")[0])
    assert tuple(answers) == statuses
    found = [ANY_CLIENT_LINE.fullmatch(line) for line in lines_of(log)]
    assert all(found), log.getvalue()
    assert [m.groups() for m in found if m] == lines
    assert SECRET not in log.getvalue()


def test_serve_turns_uvicorns_log_off_and_its_own_on(monkeypatch: pytest.MonkeyPatch) -> None:
    from taihu.cli.main import app as cli_app

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: calls.append(kwargs))
    for flags, on in (([], True), (["--no-access-log"], False)):
        assert CliRunner().invoke(cli_app, ["serve", "--port", "8123", *flags]).exit_code == 0
        assert calls.pop()["access_log"] is False  # uvicorn's own
        assert ACCESS_LOG.on is on
        assert access_log.os.environ[ACCESS_LOG_VARIABLE] == ("1" if on else "0")  # for --workers' processes


class Writes(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.writes: list[str] = []

    def write(self, text: str) -> int:
        self.writes.append(text)
        return super().write(text)


def test_lines_are_held_then_written_in_whole_lines_of_at_most_pipe_buf() -> None:
    stream = Writes()
    held = AccessLog(on=True, stream=stream)
    for n in range(MOST_LINES - 1):
        held.answered(("192.0.2.1", n), "GET /" + "x" * 40 + f" {n} HTTP/1.1", 200)  # no loop: written at once
    assert len(stream.writes) == MOST_LINES - 1
    stream.writes.clear()
    held.flush()
    assert stream.writes == []


def test_on_the_loop_lines_wait_for_the_timer_or_the_most_lines() -> None:
    stream = Writes()
    held = AccessLog(on=True, stream=stream)

    async def answers() -> None:
        held.answered(("192.0.2.1", 1), "GET / HTTP/1.1", 200)
        assert stream.writes == [] and held.timer is not None
        for n in range(MOST_LINES - 1):
            held.answered(("192.0.2.1", n), "GET /" + "é" * 60 + " HTTP/1.1", 404)
        assert held.held == [] and held.timer is None  # MOST_LINES: written at once, the timer cancelled
        held.answered(None, "GET / HTTP/1.1", 599)
        assert len(held.held) == 1
        await asyncio.sleep(2 * FLUSH_SECONDS)  # the timer's
        assert held.held == []

    asyncio.run(answers())
    assert all(len(w.encode()) <= access_log.PIPE_BYTES and w.endswith("\n") for w in stream.writes)
    text = "".join(stream.writes)
    assert len(stream.writes) > 2 and text.count("\n") == MOST_LINES + 1
    assert text.endswith('INFO:     - - "GET / HTTP/1.1" 599\n')


def test_a_closed_standard_output_loses_the_lines_quietly() -> None:
    stream = io.StringIO()
    stream.close()
    held = AccessLog(on=True, stream=stream)
    held.answered(None, "GET / HTTP/1.1", 200)  # no loop: written at once, into nothing
    assert held.held == []
