"""Issue 15, part 4: no connection is held by a client that sends nothing, or a byte at a time.

Each test runs a real server whose read deadline is shortened (the served one
is `READ_TIMEOUT`), and waits, within a generous bound, for the server to
close the connection; without the guard the wait runs out and the test fails.
"""

from __future__ import annotations

import http.client
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from live_server import live_server

import taihu.api.app as api_module
import taihu.api.fast as fast_module
from taihu.api.security import HOSTS_ENV
from taihu.api.server import KEEP_ALIVE, MAX_HEADER_BYTES, READ_TIMEOUT, GuardedProtocol

SHORT = 0.5  # the read deadline in these tests, seconds
BOUND = 10.0  # how long a test waits for the server to act, seconds


class QuickProtocol(GuardedProtocol):
    read_timeout = SHORT


@pytest.fixture
def server() -> Iterator[tuple[str, int]]:
    with live_server(http=QuickProtocol) as address:
        yield address


def closed_by_server(sock: socket.socket, trickle: bytes = b"") -> bool:
    """Sends `trickle` a byte every 50 ms (nothing if empty) until the server closes the connection, or BOUND."""
    sock.settimeout(0.05)
    deadline = time.monotonic() + BOUND
    sent = 0
    while time.monotonic() < deadline:
        try:
            if sent < len(trickle):
                sock.sendall(trickle[sent : sent + 1])
                sent += 1
            if sock.recv(4096) == b"":
                return True
        except TimeoutError:
            continue
        except (ConnectionResetError, BrokenPipeError):
            return True
    return False


def test_the_served_deadlines_are_within_15_seconds() -> None:
    assert READ_TIMEOUT <= 15 and KEEP_ALIVE <= 15


def test_a_connection_that_sends_nothing_is_closed(server: tuple[str, int]) -> None:
    with socket.create_connection(server, timeout=BOUND) as sock:
        assert closed_by_server(sock)


def test_headers_sent_a_byte_at_a_time_are_cut(server: tuple[str, int]) -> None:
    headers = b"GET /health HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: " + b"a" * 1000 + b"\r\n\r\n"
    with socket.create_connection(server, timeout=BOUND) as sock:
        assert closed_by_server(sock, headers)


def test_a_body_sent_a_byte_at_a_time_is_cut(server: tuple[str, int]) -> None:
    body = b'{"hand": "' + b"1" * 1000 + b'"}'
    head = b"POST /score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    with socket.create_connection(server, timeout=BOUND) as sock:
        sock.sendall(head + b"Content-Length: %d\r\n\r\n" % len(body))
        assert closed_by_server(sock, body)


def test_a_slow_answer_is_not_the_clients_delay(server: tuple[str, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadline stops once the request is in: an answer taking longer than it still arrives."""
    score_hand = api_module.score_hand

    def slow_score(*args: Any, **kwargs: Any) -> Any:
        time.sleep(3 * SHORT)
        return score_hand(*args, **kwargs)

    monkeypatch.setattr(api_module, "score_hand", slow_score)
    monkeypatch.setattr(fast_module, "score_hand", slow_score)  # the served app scores /score there
    connection = http.client.HTTPConnection(*server, timeout=BOUND)
    try:
        body = b'{"hand": "123m 456m 789p 234s 678s 5p +5p wild:9s,N"}'
        connection.request("POST", "/score", body=body, headers={"content-type": "application/json"})
        assert connection.getresponse().status == 200
    finally:
        connection.close()


def test_each_answer_gives_the_next_request_its_own_deadline(server: tuple[str, int]) -> None:
    """One timer a connection: requests quicker than the deadline, for longer than it, are all answered; once
    they stop, a request trickled after the last answer is cut within its own deadline."""
    with socket.create_connection(server, timeout=BOUND) as sock:
        request = b"GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n"
        start = time.monotonic()
        while time.monotonic() - start < 4 * SHORT:
            sock.sendall(request)
            assert sock.recv(4096).startswith(b"HTTP/1.1 200 ")
            time.sleep(SHORT / 5)
        answered = time.monotonic()
        assert closed_by_server(sock, b"GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"a" * 1000)
        assert time.monotonic() - answered < SHORT + 1.0


def test_past_the_concurrency_limit_a_request_is_answered_503() -> None:
    """The connections are held from two other addresses, each within its share (issue 21: one is not enough)."""
    with live_server(limit_concurrency=2) as address:
        held = [socket.create_connection(address, timeout=BOUND, source_address=(f"127.0.0.{n}", 0)) for n in (2, 3)]
        try:
            deadline = time.monotonic() + BOUND
            status = 0
            while status != 503 and time.monotonic() < deadline:  # until the server has taken the held ones
                connection = http.client.HTTPConnection(*address, timeout=BOUND)
                connection.request("GET", "/health")
                status = connection.getresponse().status
                connection.close()
                time.sleep(0.05)
            assert status == 503
        finally:
            for sock in held:
                sock.close()


def test_taihu_serve_passes_workers_and_the_guards_to_uvicorn(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn
    from typer.testing import CliRunner

    from taihu.cli.main import app as cli_app

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: calls.append({"app": app, **kwargs}))
    monkeypatch.setenv(HOSTS_ENV, "")  # serve sets it; monkeypatch puts it back
    result = CliRunner().invoke(cli_app, ["serve", "--port", "8123", "--workers", "3", "--limit-concurrency", "7"])
    assert result.exit_code == 0, result.output
    (call,) = calls
    assert call["app"] == "taihu.api.app:served"  # an import string: each worker process loads the app itself
    assert (call["port"], call["workers"], call["limit_concurrency"]) == (8123, 3, 7)
    assert call["http"] is GuardedProtocol
    assert call["timeout_keep_alive"] == KEEP_ALIVE


@pytest.mark.server  # a listening socket of its own
def test_answers_are_sent_without_waiting_for_the_clients_ack() -> None:
    """uvicorn's `--workers` socket has proto 0, so asyncio leaves Nagle on: the protocol turns it off."""
    from taihu.api.server import no_delay

    class Transport:
        def __init__(self, sock: socket.socket) -> None:
            self.sock = sock

        def get_extra_info(self, name: str) -> Any:
            return self.sock if name == "socket" else None

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:  # as uvicorn's bind_socket makes it
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        with socket.create_connection(listener.getsockname()) as _, listener.accept()[0] as accepted:
            assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 0
            no_delay(Transport(accepted))  # type: ignore[arg-type]
            assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0


def test_headers_that_never_end_are_refused_at_the_size_cap(server: tuple[str, int]) -> None:
    with socket.create_connection(server, timeout=BOUND) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (MAX_HEADER_BYTES * 2))
        assert sock.recv(4096).startswith(b"HTTP/1.1 400 ")
