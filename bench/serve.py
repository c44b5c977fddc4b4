"""The server's CPU per request against the framework's floor and in-process scoring, in one run.

Part of `make bench` (docs/performance.md "The server"); alone:
`.venv/bin/python bench/serve.py` (or `bench/bench.py --server-only`).
The servers are started on free loopback ports by bench/run_server.py, with
the same uvicorn settings (`uvicorn_options()`): taihu's app, and the floor
(bench/floor_app.py: a bare FastAPI endpoint answering fixed JSON of the size
of taihu's answers). The same hands are then taken in blocks, and each block
goes every way in turn (the first way switching from block to block): scored
in this process (`score_hand` and `to_dict`, this thread's CPU time), sent
to taihu as `POST /v1/score` requests over one keep-alive connection, sent
to the floor the same way by the same client, and sent to taihu as one
`POST /v1/score/batch`. A server's CPU time is the scheduler's count for
every thread of its process, read before and after each of its blocks; a
server does nothing between them, so that is what its requests took.

A third server, "the endpoint alone" (`create_endpoint_app` of
bench/floor_app.py: the floor's bare app serving taihu's own scoring
endpoint, nothing else), takes its turn too: the same ratio for it shows
what FastAPI and the scoring take before taihu's app adds any part of its
own. Every timed hand is new to each side: the floor's answer size is
taken from the warm-up hands, which both sides have seen, so the bench's
process has not scored a timed hand before it times it.

The figures: taihu's CPU per request against (the floor's + the in-process
scoring's), target ≤ 1.3; and the batch's rate against the in-process rate,
target ≥ 0.70. With `--gc` a fourth server, taihu's app with the collector's
thresholds raised and the heap frozen, takes its turn too.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import NamedTuple

from taihu.api.responses import json_bytes
from taihu.scorer import score_hand

sys.path.insert(0, str(Path(__file__).resolve().parent))
from floor_app import ANSWER_BYTES  # noqa: E402
from soak import free_port, stop_process  # noqa: E402

BENCH = Path(__file__).resolve().parent
BATCH = 100  # hands in one /v1/score/batch request, and hands per block
SERVER_TARGET = 1.3  # taihu's CPU per request / (the floor's + in-process scoring)
BATCH_TARGET = 0.70  # the batch's rate / the in-process rate
TUNED_GC = "50000,20,20"  # the thresholds of the `--gc` server
ALONE = "the endpoint alone"  # the server of `create_endpoint_app`
COMMAND = ".venv/bin/python bench/serve.py"


class Hand(NamedTuple):
    rules: str
    line: str


def cpu_seconds(pid: int) -> float:
    """CPU time of every thread of process `pid` (the scheduler's count in ns, /proc/PID/task/*/schedstat).

    Finer than /proc/PID/stat's clock ticks (10 ms), so a block of requests
    has its own figure. A thread that ended between two readings takes its
    time with it: the server's threads (the event loop, FastAPI's thread
    pool) live as long as it does.
    """
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass  # a thread that ended as it was read
    return total / 1e9


class Server:
    """`factory`'s app served by bench/run_server.py in a subprocess, once it accepts connections."""

    def __init__(self, factory: str, options: Sequence[str] = (), env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        command = [sys.executable, str(BENCH / "run_server.py"), factory, str(self.port), *options]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ | (env or {})
        )
        deadline = time.monotonic() + 60
        while True:
            assert self.process.poll() is None, f"{factory} ended before it answered"
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit(f"{factory} did not start within 60 s") from None
                time.sleep(0.1)

    def cpu(self) -> float:
        return cpu_seconds(self.process.pid)

    def stop(self) -> None:
        stop_process(self.process)


class Client:
    """One keep-alive connection over a bare socket; `post` sends bytes and returns the answer's status and bytes.

    Not http.client: its Python per request (some 0.1 ms, the email parser
    for the headers) runs on the CPU the server has just left, and the
    server's next request then starts with colder caches. A phone's client
    is not on the server's CPU at all.
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""

    def post(self, path: str, body: bytes) -> tuple[int, bytes]:
        head = (
            f"POST {path} HTTP/1.1\r\nhost: 127.0.0.1:{self.port}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\n\r\n"
        ).encode()
        self.sock.sendall(head + body)
        while b"\r\n\r\n" not in self.buffer:
            self.receive()
        head, _, rest = self.buffer.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        while len(rest) < length:
            self.buffer = rest
            self.receive()
            rest = self.buffer
        self.buffer = rest[length:]
        return int(head[9:12]), rest[:length]

    def receive(self) -> None:
        data = self.sock.recv(65536)
        if not data:
            raise SystemExit("the server closed the connection")
        self.buffer += data


def score_bodies(hands: Sequence[Hand]) -> list[bytes]:
    """Each hand as the body of a `POST /v1/score`."""
    return [json.dumps({"rules": rules, "hand": line}).encode() for rules, line in hands]


def batch_body(hands: Sequence[Hand]) -> bytes:
    return json.dumps({"hands": [{"rules": rules, "hand": line} for rules, line in hands]}).encode()


def in_process(hands: Sequence[Hand]) -> float:
    """This thread's CPU seconds to score `hands` and make each answer's dict, as the server does."""
    start = time.thread_time()
    for rules, line in hands:
        score_hand(line, rules=rules).to_dict()
    return time.thread_time() - start


def answer_bytes(hands: Sequence[Hand]) -> int:
    """The mean size of taihu's answers to `hands`, in bytes (the floor answers as many); the bench passes the
    warm-up hands, so that it scores no timed hand before timing it."""
    sizes = [len(json_bytes(score_hand(line, rules=rules).to_dict())) for rules, line in hands]
    return round(statistics.mean(sizes))


def requests(client: Client, path: str, bodies: Sequence[bytes]) -> None:
    """Sends each body in turn; a status other than 200 stops the bench."""
    for body in bodies:
        status, answer = client.post(path, body)
        if status != 200:
            raise SystemExit(f"{path} answered {status}: {answer[:300]!r}")


def timed(server: Server, client: Client, path: str, bodies: Sequence[bytes], into: list[float]) -> None:
    """`bodies` sent to `server`; its CPU seconds for them appended to `into`."""
    before = server.cpu()
    requests(client, path, bodies)
    into.append(server.cpu() - before)


def run(servers: dict[str, Server], hands: Sequence[Hand]) -> dict[str, list[float]]:
    """The hands in blocks, each block every way in turn (the first way switching from block to block): CPU
    seconds per block, for "in-process", each server's single requests, and "batch" (taihu's)."""
    bodies = score_bodies(hands)
    clients = {name: Client(server.port) for name, server in servers.items()}
    figures: dict[str, list[float]] = {"in-process": [], "batch": [], **{name: [] for name in servers}}

    def local(block: Sequence[Hand]) -> None:
        figures["in-process"].append(in_process(block))

    for number, start in enumerate(range(0, len(hands), BATCH)):
        block, singles = hands[start : start + BATCH], bodies[start : start + BATCH]
        turns: list[Callable[[], None]] = [partial(local, block)]
        for name, server in servers.items():
            turns.append(partial(timed, server, clients[name], "/v1/score", singles, figures[name]))
        batch = [batch_body(block)]
        turns.append(partial(timed, servers["taihu"], clients["taihu"], "/v1/score/batch", batch, figures["batch"]))
        shift = number % len(turns)
        for turn in turns[shift:] + turns[:shift]:
            turn()
    return figures


def bench_hands(rng: random.Random, count: int) -> list[Hand]:
    """`count` distinct winning hands, Luoshan and riichi in turn (the lines of bench/bench.py)."""
    from bench import distinct_hands, luoshan_line, riichi_line

    pairs = distinct_hands(rng, count, set())
    return [
        Hand("luoshan", luoshan_line(t, w)) if n % 2 else Hand("riichi", riichi_line(t, w))
        for n, (t, w) in enumerate(pairs)
    ]


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def per_hand(blocks: list[float], hands: int) -> float:
    return sum(blocks) / hands


def report(figures: dict[str, list[float]], hands: int, size: int) -> tuple[float, float]:
    """Prints each way's CPU per hand and the two ratios (totals, and the median of the blocks' own: a block's
    ways ran within a second or so, so a change of load between blocks falls on them alike); returns the
    blocks' medians of the server ratio and the batch rate."""
    ours, floor = per_hand(figures["in-process"], hands), per_hand(figures["floor"], hands)
    taihu, batch = per_hand(figures["taihu"], hands), per_hand(figures["batch"], hands)
    floors = zip(figures["taihu"], figures["floor"], figures["in-process"], strict=True)
    server_ratio = statistics.median(t / (f + o) for t, f, o in floors)
    batch_rate = statistics.median(o / b for b, o in zip(figures["batch"], figures["in-process"], strict=True))
    print(f"  in-process score_hand + to_dict                 CPU {ours * 1e3:6.3f} ms a hand")
    print(f"  the floor: bare FastAPI, {size} bytes of JSON     server CPU {floor * 1e3:6.3f} ms a request")
    print(f"  taihu POST /v1/score                            server CPU {taihu * 1e3:6.3f} ms a request")
    print(f"  taihu POST /v1/score/batch of {BATCH}               server CPU {batch * 1e3:6.3f} ms a hand")
    alone = per_hand(figures[ALONE], hands)
    rows = zip(figures[ALONE], figures["floor"], figures["in-process"], strict=True)
    alone_ratio = statistics.median(t / (f + o) for t, f, o in rows)
    print(
        f"  taihu's endpoint alone on a bare FastAPI app    server CPU {alone * 1e3:6.3f} ms a request"
        f"  ratio {alone / (floor + ours):4.2f}, blocks' median {alone_ratio:4.2f}"
    )
    if "taihu, gc tuned" in figures:
        tuned = per_hand(figures["taihu, gc tuned"], hands)
        rows = zip(figures["taihu, gc tuned"], figures["floor"], figures["in-process"], strict=True)
        tuned_ratio = statistics.median(t / (f + o) for t, f, o in rows)
        print(
            f"  the same, gc threshold {TUNED_GC} + freeze  server CPU {tuned * 1e3:6.3f} ms a request"
            f"  ratio {tuned / (floor + ours):4.2f}, blocks' median {tuned_ratio:4.2f}"
            f" (CPython's thresholds: {server_ratio:4.2f})"
        )
    print(
        f"  taihu / (floor + in-process): {taihu / (floor + ours):4.2f}, blocks' median {server_ratio:4.2f}"
        f" (target ≤ {SERVER_TARGET})"
    )
    print(
        f"  batch rate / in-process rate: {ours / batch:4.2f}, blocks' median {batch_rate:4.2f}"
        f" (target ≥ {BATCH_TARGET:.2f})"
    )
    return server_ratio, batch_rate


def bench_server(hands: int = 3000, seed: int = 26, gc: bool = True) -> None:
    """taihu's server and the floor on the same hands, new to both sides after a warm-up; `gc`: a third server,
    taihu's app with the collector tuned (`TUNED_GC`)."""
    rng = random.Random(seed)
    warm, timed_hands = bench_hands(rng, 300), bench_hands(rng, hands)
    size = answer_bytes(warm)
    print(f"the server: {hands} distinct hands (Luoshan, riichi), blocks of {BATCH} in turns, one keep-alive")
    print("  connection a server, both served by uvicorn.run with uvicorn_options() (bench/run_server.py)")
    print(f"  load average (1, 5, 15 min): {load()}")
    servers = {}
    try:
        servers["taihu"] = Server("taihu.api.app:create_app")
        servers["floor"] = Server("floor_app:create_app", env={ANSWER_BYTES: str(size)})
        servers[ALONE] = Server("floor_app:create_endpoint_app")
        if gc:
            servers["taihu, gc tuned"] = Server("taihu.api.app:create_app", ["--gc-threshold", TUNED_GC])
        run(servers, warm)  # both sides warm: the first requests, the first hands
        figures = run(servers, timed_hands)
    finally:
        for server in servers.values():
            server.stop()
    server_ratio, batch_rate = report(figures, hands, size)
    print(f"  load average (1, 5, 15 min): {load()}")
    print(
        f"server {server_ratio:4.2f}× the floor + scoring (≤ {SERVER_TARGET}), batch {batch_rate:4.2f} of the"
        f" in-process rate (≥ {BATCH_TARGET:.2f})   [{COMMAND}]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--no-gc", action="store_true", help="no third server with the collector tuned")
    args = parser.parse_args()
    bench_server(args.hands, gc=not args.no_gc)


if __name__ == "__main__":
    main()
