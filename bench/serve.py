"""The server's cost around the scoring: a real `taihu serve` against in-process scoring, in one run.

Part of `make bench` (docs/performance.md "The server path"); alone:
`.venv/bin/python bench/bench.py --server-only` or `bench/serve.py --hands N`. A `taihu serve` process is started on a
free loopback port, and the same hands are scored in turns, in blocks: a block
in this process (`score_hand` and `to_dict`, this thread's CPU time), a block
as `POST /v1/score` requests over one keep-alive connection, and as
`POST /v1/score/batch` requests of 100 hands. The server's CPU time is read
from /proc/PID/stat (user + system, every thread of the process) before and
after all its blocks; the server does nothing between them, so that is the
CPU its requests took. The ratios set each against the in-process time of
the same hands.
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
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import NamedTuple

from taihu.scorer import score_hand

sys.path.insert(0, str(Path(__file__).resolve().parent))
from soak import free_port, stop_process  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BATCH = 100  # hands in one /v1/score/batch request
BLOCK = 100  # hands per turn
BUSY_CONNECTIONS = 2  # enough to keep one server process busy on two CPUs (the clients' threads share the other)


class Hand(NamedTuple):
    rules: str
    line: str


def cpu_seconds(pid: int) -> float:
    """CPU time of every thread of process `pid` (the scheduler's count in ns, /proc/PID/task/*/schedstat).

    Finer than /proc/PID/stat's clock ticks (10 ms), so a block of requests
    has its own figure; the server's threads (the event loop and its
    CPU_THREADS workers) live as long as it does.
    """
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass  # a thread that ended as it was read
    return total / 1e9


# uvicorn with taihu serve's protocol and loop, serving an app that reads the body and answers a fixed 700 bytes
# of JSON: what any request costs the server before taihu does anything
FLOOR_SERVER = """
import sys, uvicorn
from taihu.api.server import config_options
ANSWER = b'{"x":"' + b"1" * 692 + b'"}'
async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    while (await receive()).get("more_body"):
        pass
    headers = [(b"content-length", b"%d" % len(ANSWER)), (b"content-type", b"application/json")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": ANSWER})
options = config_options() | {"access_log": False, "log_level": "warning", "lifespan": "off"}
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), **options)
"""


class Server:
    """`taihu serve` in a subprocess; `options` are its own (e.g. `--no-access-log`); `floor`: FLOOR_SERVER."""

    def __init__(self, options: Sequence[str] = (), floor: bool = False) -> None:
        self.port = free_port()
        command = [str(Path(sys.executable).parent / "taihu"), "serve", "--port", str(self.port), *options]
        if floor:
            command = [sys.executable, "-c", FLOOR_SERVER, str(self.port)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
        deadline = time.monotonic() + 60
        while True:
            assert self.process.poll() is None, "taihu serve ended before it answered"
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("taihu serve did not start within 60 s") from None
                time.sleep(0.1)

    def stop(self) -> None:
        stop_process(self.process)


class Client:
    """One keep-alive connection over a bare socket; `post` sends bytes and returns the answer's status and bytes.

    Not http.client: its Python per request (some 0.1 ms, the email parser for
    the headers) ran on the virtual CPU the server had just left, and the
    server's next request then started with colder caches (2.8-3.2x against
    2.5-2.7x with this client, 2026-12-02, docs/performance.md). A phone's
    client is not on the server's CPU at all.
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


def in_process(hands: Sequence[Hand]) -> float:
    """This thread's CPU seconds to score `hands` and make each answer's dict, as the server does."""
    start = time.thread_time()
    for rules, line in hands:
        score_hand(line, rules=rules).to_dict()
    return time.thread_time() - start


def requests(client: Client, path: str, bodies: Sequence[bytes]) -> list[float]:
    """Sends each body in turn: each request's wall-clock seconds; a status other than 200 stops the bench."""
    times = []
    for body in bodies:
        start = time.perf_counter()
        status, answer = client.post(path, body)
        times.append(time.perf_counter() - start)
        if status != 200:
            raise SystemExit(f"{path} answered {status}: {answer[:300]!r}")
    return times


class Figures(NamedTuple):
    """Seconds per block of hands: in-process CPU, server CPU as single requests and as one batch, and the
    wall clock of each single request and each batch."""

    hands: int
    in_process: list[float]
    single_cpu: list[float]
    batch_cpu: list[float]
    single_wall: list[float]
    batch_wall: list[float]


def run(server: Server, hands: Sequence[Hand]) -> Figures:
    """The hands in blocks, each block three ways in turn (the first way switching from block to block)."""
    single = score_bodies(hands)
    client = Client(server.port)
    pid = server.process.pid
    figures = Figures(len(hands), [], [], [], [], [])
    for number, start in enumerate(range(0, len(hands), BLOCK)):
        block = hands[start : start + BLOCK]
        batch = json.dumps({"hands": [{"rules": r, "hand": h} for r, h in block]}).encode()

        def local(block: Sequence[Hand] = block) -> None:
            figures.in_process.append(in_process(block))

        def one_by_one(start: int = start, size: int = len(block)) -> None:
            before = cpu_seconds(pid)
            figures.single_wall.extend(requests(client, "/v1/score", single[start : start + size]))
            figures.single_cpu.append(cpu_seconds(pid) - before)

        def batched(batch: bytes = batch) -> None:
            before = cpu_seconds(pid)
            figures.batch_wall.extend(requests(client, "/v1/score/batch", [batch]))
            figures.batch_cpu.append(cpu_seconds(pid) - before)

        turns: list[Callable[[], None]] = [local, one_by_one, batched]
        shift = number % len(turns)
        for turn in turns[shift:] + turns[:shift]:
            turn()
    return figures


def bench_hands(rng: random.Random, count: int) -> list[Hand]:
    """`count` distinct winning hands, Luoshan and riichi in turn (the lines of bench/bench.py)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench import distinct_hands, luoshan_line, riichi_line

    pairs = distinct_hands(rng, count, set())
    return [
        Hand("luoshan", luoshan_line(t, w)) if n % 2 else Hand("riichi", riichi_line(t, w))
        for n, (t, w) in enumerate(pairs)
    ]


def report(label: str, figures: Figures) -> None:
    """Totals, and the median of the blocks' own ratios (a block's three ways ran within a second or so, so a
    change of load between blocks falls on its three alike)."""
    n = figures.hands
    ours = sum(figures.in_process) / n
    single = sum(figures.single_cpu) / n
    batch = sum(figures.batch_cpu) / n
    single_ratios = [s / o for s, o in zip(figures.single_cpu, figures.in_process, strict=True)]
    batch_rates = [o / b for b, o in zip(figures.batch_cpu, figures.in_process, strict=True)]
    batch_rate = n / sum(figures.batch_wall)
    print(f"  {label}")
    print(f"    in-process score_hand + to_dict      CPU {ours * 1e3:7.3f} ms a hand ({1 / ours:8.0f}/s)")
    print(
        f"    POST /v1/score, one keep-alive conn.  server CPU {single * 1e3:7.3f} ms a request"
        f"  ratio {single / ours:5.2f}×, blocks' median {statistics.median(single_ratios):5.2f}×  (target ≤ 3×)"
    )
    print(
        f"    {'':37} wall median {statistics.median(figures.single_wall) * 1e3:7.3f} ms"
        f"  ({n / sum(figures.single_wall):6.0f}/s)"
    )
    print(
        f"    POST /v1/score/batch of {BATCH}          server CPU {batch * 1e3:7.3f} ms a hand"
        f"  rate {ours / batch:5.2f}, blocks' median {statistics.median(batch_rates):5.2f} of in-process"
        f" (target ≥ 0.70)"
    )
    print(f"    {'':37} wall {batch_rate:8.0f} hands/s  rate {batch_rate * ours:5.2f} of in-process CPU rate")


def busy(warm: Sequence[Hand], hands: Sequence[Hand], connections: int = BUSY_CONNECTIONS) -> None:
    """`hands` as single requests over `connections` keep-alive connections at once (a thread each), so that the
    server is never idle; its CPU per request against in-process scoring of the same hands, before and after."""
    server = Server()
    try:
        clients = [Client(server.port) for _ in range(connections)]
        bodies = score_bodies(hands)
        for client in clients:
            requests(client, "/v1/score", score_bodies(warm))
        ours = in_process(hands[: len(hands) // 2])
        before, start = cpu_seconds(server.process.pid), time.perf_counter()
        shares = [
            threading.Thread(target=requests, args=(client, "/v1/score", bodies[n::connections]))
            for n, client in enumerate(clients)
        ]
        for thread in shares:
            thread.start()
        for thread in shares:
            thread.join()
        theirs, wall = cpu_seconds(server.process.pid) - before, time.perf_counter() - start
        ours += in_process(hands[len(hands) // 2 :])
    finally:
        server.stop()
    print(
        f"  taihu serve, {connections} connections at once: server CPU {theirs / len(hands) * 1e3:.3f} ms a request,"
        f" {theirs / ours:.2f}× in-process scoring, the server busy {theirs / wall:.0%} of the time,"
        f" {len(hands) / wall:.0f} requests/s"
    )


def floor(hands: Sequence[Hand], pinned: bool = False) -> None:
    """The same single requests to FLOOR_SERVER, in blocks in turns with in-process scoring; `pinned`: the bench
    and the server on one CPU (`one_cpu`)."""
    server = Server(floor=True)
    try:
        with one_cpu(server.process.pid) if pinned else nullcontext():
            theirs, ours = floor_blocks(server, hands)
    finally:
        server.stop()
    print(
        f"  the HTTP floor{', on one CPU' if pinned else ''}: uvicorn with taihu serve's protocol and loop, an app"
        f" answering 700 fixed bytes: server CPU {theirs / len(hands) * 1e3:.3f} ms a request,"
        f" {theirs / ours:.2f}× in-process scoring"
    )


def floor_blocks(server: Server, hands: Sequence[Hand]) -> tuple[float, float]:
    """FLOOR_SERVER's CPU seconds for `hands` as single requests, and this thread's for scoring them, in turns."""
    client = Client(server.port)
    bodies = score_bodies(hands)
    requests(client, "/v1/score", bodies[:BLOCK])
    ours = theirs = 0.0
    for start in range(0, len(hands), BLOCK):
        ours += in_process(hands[start : start + BLOCK])
        before = cpu_seconds(server.process.pid)
        requests(client, "/v1/score", bodies[start : start + BLOCK])
        theirs += cpu_seconds(server.process.pid) - before
    return theirs, ours


@contextmanager
def one_cpu(pid: int) -> Iterator[None]:
    """This thread and every thread of process `pid` on one CPU, the first this thread may use, until the end.

    On two CPUs the server's thread idles between one connection's requests and
    the scheduler moves it from CPU to CPU: each request then starts with cold
    caches, and the virtual CPU's wake-up is counted to it (the floor server's
    CPU per request doubles when the two sides are pinned to different CPUs,
    docs/performance.md). On one CPU the client runs while the server waits,
    so the server's requests run as on a server kept busy by many clients.
    """
    before = os.sched_getaffinity(0)
    cpu = {min(before)}
    for task in Path(f"/proc/{pid}/task").iterdir():
        os.sched_setaffinity(int(task.name), cpu)  # threads started later inherit it
    os.sched_setaffinity(0, cpu)
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


def bench_server(
    hands: int = 2000,
    seed: int = 26,
    options: Sequence[tuple[Sequence[str], bool]] = (((), False), (("--no-access-log",), False), ((), True)),
) -> None:
    """Each of `options` (`taihu serve`'s flags, and whether on one CPU with the bench) against in-process
    scoring, on hands new to both sides; then the HTTP floor, on two CPUs and on one."""
    rng = random.Random(seed)
    print(f"the server path (issue 26): {hands} distinct hands (Luoshan, riichi), blocks of {BLOCK} in turns")
    print(f"  load average (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for flags, pinned in options:
        warm, timed = bench_hands(rng, 300), bench_hands(rng, hands)  # new to both sides
        server = Server(flags)
        try:
            with one_cpu(server.process.pid) if pinned else nullcontext():
                run(server, warm)  # both sides warm: the first requests, the first hands
                figures = run(server, timed)
        finally:
            server.stop()
        where = ", the bench and the server on one CPU" if pinned else ""
        report(f"taihu serve {' '.join(flags)}".rstrip() + where, figures)
    busy(bench_hands(rng, 300), bench_hands(rng, hands))
    floor(bench_hands(rng, hands))
    floor(bench_hands(rng, hands), pinned=True)
    print(f"  load average (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=2000)
    args = parser.parse_args()
    bench_server(args.hands)


if __name__ == "__main__":
    main()
