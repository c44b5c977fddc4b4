"""Issue 26, part 3: a plain `POST /score` answered by the protocol (taihu/api/server.py, the lane) is the
answer of uvicorn's request cycle and the app, byte for byte, over a real connection.

Each request of tests/test_api_fast.py's table is sent over a socket to a
real server twice: as it is, and with the lane turned away (every request
then goes through uvicorn's request cycle to the app). The answers must be
the same bytes but for the Date header; the requests the lane should answer
must be its own (counted), or the comparison would say nothing. Then what a
connection does around the lane: pipelined requests, a body that comes
later, `Expect: 100-continue`, `Connection: close`, HTTP/1.0, the keep-alive
wait and the concurrency limit.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from live_server import live_server
from test_api_fast import CASES, GOOD, LINGXI, Case

import taihu.api.fast as fast_module
from taihu.api.server import GuardedProtocol

BOUND = 10.0  # seconds a test waits for the server
SCORE = json.dumps(GOOD[0]).encode()  # a Lingxi hand without a wildcard: the lane's
HEALTH = b"GET /health HTTP/1.1\r\nhost: localhost\r\n\r\n"


def request(path: str, headers: dict[str, str], body: bytes, version: str = "1.1") -> bytes:
    lines = [f"POST {path} HTTP/{version}"]
    if not any(name.lower() == "host" for name in headers):
        lines.append("host: localhost")
    lines += [f"{name}: {value}" for name, value in headers.items()]
    lines.append(f"content-length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def score_request(body: bytes = SCORE, extra: dict[str, str] | None = None) -> bytes:
    return request("/v1/score", {"content-type": "application/json"} | (extra or {}), body)


class Reader:
    """Answers read off one connection, in order; each without its Date header (the clock's)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = b""

    def fill(self) -> None:
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("closed by the server")
        self.buffer += data

    def answer(self) -> bytes:
        while b"\r\n\r\n" not in self.buffer:
            self.fill()
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        while len(self.buffer) < length:
            self.fill()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        kept = [line for line in lines if not line.lower().startswith(b"date:")]
        return b"\r\n".join(kept) + b"\r\n\r\n" + body


def exchange(address: tuple[str, int], data: bytes, answers: int = 1) -> list[bytes]:
    with socket.create_connection(address, timeout=BOUND) as sock:
        sock.sendall(data)
        reader = Reader(sock)
        return [reader.answer() for _ in range(answers)]


@pytest.fixture
def lane_answers(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether the lane answered, for each request it looked into."""
    answered: list[bool] = []
    made = fast_module.FastPath.on_loop

    def counting(self: fast_module.FastPath, *args: Any) -> Any:
        answer = made(self, *args)
        answered.append(answer is not None)
        return answer

    monkeypatch.setattr(fast_module.FastPath, "on_loop", counting)
    return answered


@pytest.fixture(scope="module")
def address() -> Iterator[tuple[str, int]]:
    with live_server() as served_at:
        yield served_at


def on_the_loop(case: Case) -> bool:
    """Whether the request is one the lane answers: FastPath's alone, and its hand scores on the loop."""
    path, fast, _, body = case
    request = fast_module.score_request(body)
    return fast and "arithmetic=1" not in path and request is not None and fast_module.loop_line(request) is not None


@pytest.mark.parametrize("name", list(CASES))
def test_the_lane_answers_as_the_request_cycle(
    name: str, address: tuple[str, int], lane_answers: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _, headers, body = case = CASES[name]
    data = request(path, headers, body)
    lane = exchange(address, data)
    assert any(lane_answers) == on_the_loop(case), "the lane answered as expected"
    monkeypatch.setattr(GuardedProtocol, "taihu_plain_score", lambda self: None)
    cycle = exchange(address, data)
    assert lane == cycle
    if on_the_loop(case):
        assert lane[0].startswith(b"HTTP/1.1 200 OK\r\n")


def test_some_of_the_table_is_the_lanes_and_some_is_not() -> None:
    lanes = [on_the_loop(case) for case in CASES.values()]
    assert sum(lanes) >= 10 and not all(lanes)


def test_pipelined_requests_are_answered_in_order(address: tuple[str, int], lane_answers: list[bool]) -> None:
    """The lane's answers and the request cycle's, in one write from the client, come back in its order."""
    wild = json.dumps(LINGXI).encode()  # scored in a worker thread, through the request cycle
    sequence = [score_request(), HEALTH, score_request(wild), score_request(), HEALTH, score_request()]
    alone = [exchange(address, data)[0] for data in sequence]
    assert exchange(address, b"".join(sequence), answers=len(sequence)) == alone
    # alone: three of the lane's and the wildcard hand (looked into, then the cycle's); pipelined: the first is
    # the lane's, and those behind the cycle's /health wait in uvicorn's pipeline (the lane never looks)
    assert lane_answers[:5] == [True, False, True, True, True]


def test_a_body_that_comes_later_is_read_whole(address: tuple[str, int], lane_answers: list[bool]) -> None:
    data = score_request()
    head, body = data[: -len(SCORE)], data[-len(SCORE) :]
    with socket.create_connection(address, timeout=BOUND) as sock:
        sock.sendall(head)
        time.sleep(0.2)
        sock.sendall(body[:10])
        time.sleep(0.2)
        sock.sendall(body[10:])
        answer = Reader(sock).answer()
    assert answer == exchange(address, data)[0] and answer.startswith(b"HTTP/1.1 200 ")
    assert lane_answers == [True, True]


def test_expect_100_continue_goes_through_the_request_cycle(address: tuple[str, int], lane_answers: list[bool]) -> None:
    data = score_request(extra={"expect": "100-continue"})
    head, body = data[: -len(SCORE)], data[-len(SCORE) :]
    with socket.create_connection(address, timeout=BOUND) as sock:
        sock.sendall(head)
        reader = Reader(sock)
        while b"\r\n\r\n" not in reader.buffer:
            reader.fill()
        assert reader.buffer.startswith(b"HTTP/1.1 100 Continue\r\n\r\n")
        reader.buffer = reader.buffer[len(b"HTTP/1.1 100 Continue\r\n\r\n") :]
        sock.sendall(body)
        assert reader.answer().startswith(b"HTTP/1.1 200 ")
    assert lane_answers == []


@pytest.mark.parametrize(
    "data",
    [
        score_request(extra={"connection": "close"}),
        request("/v1/score", {"content-type": "application/json"}, SCORE, "1.0"),
    ],
    ids=["Connection: close", "HTTP/1.0"],
)
def test_a_request_that_ends_its_connection_goes_through_the_request_cycle(
    data: bytes, address: tuple[str, int], lane_answers: list[bool]
) -> None:
    with socket.create_connection(address, timeout=BOUND) as sock:
        sock.sendall(data)
        reader = Reader(sock)
        assert reader.answer().startswith(b"HTTP/1.1 200 ")
        sock.settimeout(BOUND)
        assert sock.recv(100) == b""  # closed after the answer
    assert lane_answers == []


def closed_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        return sock.recv(100) == b""
    except TimeoutError:
        return False


def test_after_an_answer_of_the_lane_an_idle_connection_is_closed_at_keep_alive(lane_answers: list[bool]) -> None:
    with live_server(timeout_keep_alive=1) as address, socket.create_connection(address, timeout=BOUND) as sock:
        sock.sendall(score_request())
        Reader(sock).answer()
        start = time.monotonic()
        assert closed_within(sock, BOUND)
        assert 0.8 < time.monotonic() - start < 3  # the keep-alive wait (1 s), not the read deadline (10 s)
    assert lane_answers == [True]


def test_the_keep_alive_wait_ends_with_the_first_byte_of_the_next_request(lane_answers: list[bool]) -> None:
    """As uvicorn's own: a request begun within the wait has the read deadline, not the wait, to arrive."""
    with live_server(timeout_keep_alive=1) as address, socket.create_connection(address, timeout=BOUND) as sock:
        sock.sendall(score_request())
        reader = Reader(sock)
        reader.answer()
        data = score_request()
        sock.sendall(data[:5])
        time.sleep(1.6)  # past the keep-alive wait, within the read deadline
        sock.sendall(data[5:])
        assert reader.answer().startswith(b"HTTP/1.1 200 ")
    assert lane_answers == [True, True]


def test_past_the_concurrency_limit_a_score_is_answered_503(lane_answers: list[bool]) -> None:
    with live_server(limit_concurrency=2) as address:
        held = [socket.create_connection(address, timeout=BOUND, source_address=(f"127.0.0.{n}", 0)) for n in (2, 3)]
        try:
            deadline = time.monotonic() + BOUND
            answer = b""
            while not answer.startswith(b"HTTP/1.1 503 ") and time.monotonic() < deadline:
                answer = exchange(address, score_request())[0]  # until the server has taken the held ones
                time.sleep(0.05)
            assert answer.startswith(b"HTTP/1.1 503 ")
        finally:
            for sock in held:
                sock.close()
