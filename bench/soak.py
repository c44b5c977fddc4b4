"""`make soak`: a real `taihu serve` under hostile and busy clients, bounded in time (docs/soak.md).

Starts the server, then: every hostile request of tests/abuse_cases.py, a
fuzz run, distinct hands for the memory (RSS before and after), the costly
hands against the median request, costly bodies while /health is timed,
and the connection limit. Prints the figures; exits 1 if a target fails.
Not a test: the figures depend on the machine.

Slow and idle connections are not sent: `taihu serve` leaves them to the
reverse proxy in front of it (docs/limits.md), and tests/test_deploy.py
holds them against the nginx site.

The busy clients beside which /health is timed (eight senders of a costly
body) run in a process of their own (bench/load.py; `--load-cpus` pins it),
so /health's time is the server's, not this process's wait for its own
interpreter lock behind the clients.
"""

from __future__ import annotations

import argparse
import base64
import http.client
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from abuse_cases import (  # noqa: E402
    ESCAPED_QUOTES,
    costly_hands,
    costly_waits,
    distinct_hands,
    fuzz_request,
    hostile_requests,
)

JSON = {"content-type": "application/json"}
HEALTH_TARGET = 0.100  # seconds for /health while 8 clients send the costliest /waits hand
WORST_TARGET = 10.0  # a costly hand's time at most this many times the median valid request
BODY_TARGET = 0.100  # seconds for the 64 KB escaped-quote body
BUSY_HEALTH_TARGET = 0.050  # seconds for /health while 8 clients send that body
RSS_SLACK_MB = 32


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def stop_process(process: subprocess.Popen[bytes]) -> None:
    """Ends a server: SIGTERM (uvicorn's graceful stop), SIGKILL after 15 s."""
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Server:
    """`taihu serve` in a subprocess, its log in a file."""

    def __init__(self, cache_mb: int, limit: int) -> None:
        self.port = free_port()
        self.log_path = Path(tempfile.mkdtemp(prefix="taihu-soak-")) / "server.log"
        self.log = self.log_path.open("wb")
        command = [str(Path(sys.executable).parent / "taihu")]
        command += ["serve", "--port", str(self.port), "--cache-mb", str(cache_mb)]
        command += ["--limit-concurrency", str(limit)]
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, cwd=ROOT)

    def wait_ready(self, bound: float = 60.0) -> None:
        deadline = time.monotonic() + bound
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log_path.read_text()
            try:
                status, _ = request("GET", "/health", b"", self.port, timeout=2)
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise SystemExit(f"the server did not answer /health within {bound} s")

    def stop(self) -> str:
        stop_process(self.process)
        self.log.close()
        return self.log_path.read_text(encoding="utf-8", errors="replace")


def request(method: str, path: str, body: bytes, port: int, timeout: float = 30) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=JSON)
        reply = connection.getresponse()
        return reply.status, reply.read()
    finally:
        connection.close()


class Client:
    """One keep-alive connection; counts statuses and connections the server dropped, and times each request."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.statuses: Counter[int] = Counter()
        self.dropped = 0
        self.seconds: list[float] = []

    def post(self, path: str, body: bytes) -> int:
        start = time.perf_counter()
        try:
            self.connection.request("POST", path, body=body, headers=JSON)
            reply = self.connection.getresponse()
            reply.read()
            status = reply.status
            if reply.getheader("connection") == "close":
                self.dropped += 1
                self.connection.close()
        except (OSError, http.client.HTTPException):
            status, self.dropped = 0, self.dropped + 1  # 0: no answer
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        self.statuses[status] += 1
        self.seconds.append(time.perf_counter() - start)
        return status


Work = Iterator[tuple[str, bytes]]


def in_threads(port: int, threads: int, work: Work, seconds: float) -> tuple[Counter[int], int, int, list[float]]:
    """Sends `work` over `threads` keep-alive connections until done or `seconds`.

    Returns the statuses, the connections dropped, the requests sent, and each request's seconds.
    """
    lock = threading.Lock()
    deadline = time.monotonic() + seconds
    clients = [Client(port) for _ in range(threads)]

    def run(client: Client) -> None:
        while time.monotonic() < deadline:
            with lock:
                item = next(work, None)
            if item is None:
                return
            client.post(*item)

    workers = [threading.Thread(target=run, args=(c,)) for c in clients]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    statuses: Counter[int] = sum((c.statuses for c in clients), Counter())
    return statuses, sum(c.dropped for c in clients), sum(statuses.values()), [t for c in clients for t in c.seconds]


def score_bodies(cases: Iterator[tuple[str, str]]) -> Iterator[tuple[str, bytes]]:
    for rules, line in cases:
        yield "/score", json.dumps({"rules": rules, "hand": line}).encode()


def connection_limit(port: int, limit: int) -> Counter[int]:
    """Holds `limit` idle connections and asks for /health: the answers beyond the limit."""
    held = [socket.create_connection(("127.0.0.1", port)) for _ in range(limit)]
    try:
        time.sleep(0.5)
        statuses: Counter[int] = Counter()
        for _ in range(5):
            try:
                statuses[request("GET", "/health", b"", port, timeout=5)[0]] += 1
            except OSError:
                statuses[0] += 1
        return statuses
    finally:
        for sock in held:
            sock.close()


def health_times(port: int, seconds: float) -> list[float]:
    """/health every 20 ms for `seconds`: each one's time (inf if not a 200)."""
    times: list[float] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        start = time.perf_counter()
        try:
            status, _ = request("GET", "/health", b"", port, timeout=30)
        except OSError:
            status = 0
        times.append(time.perf_counter() - start if status == 200 else float("inf"))
        time.sleep(0.02)
    return times


LOAD = Path(__file__).resolve().parent / "load.py"


@contextmanager
def in_load_process(spec: dict[str, Any], cpus: list[int] | None = None) -> Iterator[dict[str, Any]]:
    """Busy clients in a process of their own (bench/load.py), so that the /health timer of this process
    does not wait for its own interpreter lock behind them; `cpus` pins that process (`os.sched_setaffinity`).

    Yields, once the clients have started, a dict that holds what they saw after the block (their statuses)."""
    process = subprocess.Popen(
        [sys.executable, str(LOAD)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    assert process.stdin is not None and process.stdout is not None
    result: dict[str, Any] = {}
    try:
        process.stdin.write(json.dumps(spec | {"cpus": cpus or []}) + "\n")
        process.stdin.flush()
        if process.stdout.readline().strip() != "ready":
            raise SystemExit("the load process did not start")
        yield result
    finally:
        process.stdin.close()  # the clients stop, and the process prints what they saw
        line = process.stdout.readline()
        process.wait(timeout=60)
        result.update(json.loads(line) if line else {})


def busy_health(
    port: int, path: str, body: bytes, threads: int, seconds: float, cpus: list[int] | None = None
) -> tuple[Counter[int], list[float]]:
    """`threads` clients, in another process, send `body` to `path` again and again while /health is timed
    from this one: their statuses, its times."""
    spec = {"kind": "senders", "port": port, "path": path, "body": base64.b64encode(body).decode(), "threads": threads}
    with in_load_process(spec, cpus) as seen:
        time.sleep(0.5)
        health = health_times(port, seconds)
    return Counter({int(status): n for status, n in seen["statuses"].items()}), health


def timed_posts(port: int, bodies: list[tuple[str, bytes]]) -> list[float]:
    client = Client(port)
    for path, body in bodies:
        client.post(path, body)
    return client.seconds


def percentiles(seconds: list[float]) -> str:
    """The median, p99 and max of request times, in ms."""
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"median {statistics.median(ordered) * 1e3:.1f} ms, p99 {p99 * 1e3:.1f} ms, max {ordered[-1] * 1e3:.1f} ms"


def worst_cases(port: int, tries: int) -> tuple[float, list[tuple[float, float, str, str]]]:
    """The median valid request, and each costly hand's (median of its tries, first try, rules, line), in seconds.

    Each costly hand is sent `tries` times, all of them in turn each round, so
    one collector pause or a scheduler hiccup on a shared machine does not
    decide its figure; the first try meets a cold memo. The median request is
    a winning hand of the distinct ones, each sent a second time, so both
    sides are warm.
    """
    valid = list(score_bodies(_take(distinct_hands(seed=3), 1500)))
    client = Client(port)
    winning = [body for body in valid if client.post(*body) == 200][:300]
    median = statistics.median(timed_posts(port, winning))
    costly = costly_hands()
    rounds = [timed_posts(port, list(score_bodies(iter(costly)))) for _ in range(tries)]
    tries_of_each = zip(*rounds, strict=True)
    per_hand = [(statistics.median(times), times[0], *case) for times, case in zip(tries_of_each, costly, strict=True)]
    return median, per_hand


def phase(name: str, call: Callable[[], Any]) -> Any:
    print(f"-- {name}", flush=True)
    start = time.monotonic()
    result = call()
    print(f"   ({time.monotonic() - start:.1f} s)", flush=True)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=100_000, help="distinct hands to send at most")
    parser.add_argument("--hand-seconds", type=float, default=240, help="time for the distinct hands at most")
    parser.add_argument("--fuzz", type=int, default=20_000, help="fuzzed requests")
    parser.add_argument("--threads", type=int, default=8, help="client connections at once")
    parser.add_argument("--cache-mb", type=int, default=64)
    parser.add_argument("--limit", type=int, default=100, help="the server's --limit-concurrency")
    parser.add_argument("--tries", type=int, default=5, help="times each costly hand is sent (its median counts)")
    parser.add_argument(
        "--load-cpus",
        type=lambda text: [int(cpu) for cpu in text.split(",")],
        default=None,
        help="pin the busy clients' process to these CPUs (0,1 …); default: unpinned",
    )
    args = parser.parse_args()
    failures: list[str] = []
    server = Server(args.cache_mb, args.limit)
    try:
        phase("start", server.wait_ready)
        pid = server.process.pid
        rss_started = rss_mb(pid)
        warm_up = _take(score_bodies(distinct_hands(seed=1)), 1000)
        phase("warm-up: 1,000 distinct hands", lambda: in_threads(server.port, args.threads, warm_up, 120))
        rss_before = rss_mb(pid)

        hostile = hostile_requests()
        client = Client(server.port)
        phase(f"hostile: {len(hostile)} requests, one connection", lambda: [client.post(p, b) for _, p, b in hostile])
        print(f"   statuses {dict(client.statuses)}, connections dropped {client.dropped}")
        if set(client.statuses) - {413, 422} or client.dropped:
            failures.append("a hostile request got other than a clean 413/422 on a kept connection")

        rng = random.Random(15)
        fuzz = (fuzz_request(rng) for _ in range(args.fuzz))
        statuses, dropped, sent, _ = phase(
            f"fuzz: {args.fuzz} requests, {args.threads} connections",
            lambda: in_threads(server.port, args.threads, fuzz, 600),
        )
        print(f"   sent {sent}, statuses {dict(statuses)}, connections dropped {dropped}")
        if set(statuses) - {200, 413, 422} or dropped:
            failures.append("a fuzzed request got a 5xx, no answer, or a dropped connection")

        hands = _take(score_bodies(distinct_hands(seed=2)), args.hands)
        started = time.monotonic()
        statuses, dropped, sent, seconds = phase(
            f"memory: up to {args.hands} distinct hands in up to {args.hand_seconds:.0f} s",
            lambda: in_threads(server.port, args.threads, hands, args.hand_seconds),
        )
        rate = sent / (time.monotonic() - started)
        rss_after = rss_mb(pid)
        print(f"   sent {sent} ({rate:.0f}/s), statuses {dict(statuses)}, dropped {dropped}")
        print(f"   request times ({args.threads} at once): {percentiles(seconds)}")
        print(f"   RSS: {rss_started:.0f} MB started, {rss_before:.0f} MB after warm-up, {rss_after:.0f} MB after")
        if rss_after > rss_before + args.cache_mb + RSS_SLACK_MB:
            failures.append(f"RSS grew by more than the cache budget + {RSS_SLACK_MB} MB")

        median, per_hand = phase(
            f"cost per hand: the costly hands, {args.tries} tries each", lambda: worst_cases(server.port, args.tries)
        )
        print(f"   median valid request {median * 1e3:.2f} ms; each costly hand: median of its tries (first try)")
        for seconds, first, rules, line in sorted(per_hand, key=lambda case: -case[0])[:8]:
            print(f"   {seconds * 1e3:7.2f} ms ({seconds / median:5.1f}×)  ({first * 1e3:6.2f} ms)  {rules:8} {line}")
        for seconds, first, _, line in per_hand[:2]:
            form = " as 抢金" if "qiang" in line else ""
            figures = f"{seconds * 1e3:.2f} ms ({seconds / median:.1f}×), first try {first * 1e3:.2f} ms"
            print(f"   the Putian hand{form}: {figures}")
        worst = max(seconds for seconds, *_ in per_hand) / median
        print(f"   worst {worst:.1f}× the median (target {WORST_TARGET:.0f}×)")
        if worst > WORST_TARGET:
            failures.append(f"a costly hand took over {WORST_TARGET:.0f}× the median request (median of its tries)")

        quotes = [("/score", ESCAPED_QUOTES)] * 20
        seconds = phase("the 64 KB escaped-quote body, 20 times", lambda: timed_posts(server.port, quotes))
        print(f"   {len(seconds)} requests, {percentiles(seconds)}")
        if statistics.median(seconds) > BODY_TARGET:
            failures.append(f"the escaped-quote body took over {BODY_TARGET * 1e3:.0f} ms")
        statuses, health = phase(
            f"/health while {args.threads} clients send the escaped-quote body",
            lambda: busy_health(server.port, "/score", ESCAPED_QUOTES, args.threads, 10, args.load_cpus),
        )
        print(f"   their statuses {dict(statuses)}; /health: {len(health)} requests, {percentiles(health)}")
        if max(health) > BUSY_HEALTH_TARGET:
            failures.append(
                f"/health took over {BUSY_HEALTH_TARGET * 1e3:.0f} ms while the escaped-quote body was sent"
            )

        bodies = [json.dumps(body).encode() for body in costly_waits()]
        rounds = phase(
            f"/waits: the costly hands, {args.tries} tries each",
            lambda: [timed_posts(server.port, [("/waits", b) for b in bodies]) for _ in range(args.tries)],
        )
        for body, times in zip(costly_waits(), zip(*rounds, strict=True), strict=True):
            print(
                f"   median {statistics.median(times) * 1e3:7.1f} ms (first {times[0] * 1e3:6.1f})  "
                f"{body['rules']:8} {body['hand']}"
            )
        statuses, health = phase(
            f"/health while {args.threads} clients send the costliest /waits hand",
            lambda: busy_health(server.port, "/waits", bodies[0], args.threads, 10, args.load_cpus),
        )
        print(f"   their statuses {dict(statuses)}; /health: {len(health)} requests, {percentiles(health)}")
        if set(statuses) - {200, 422} or max(health) > HEALTH_TARGET:
            failures.append(f"/waits got other than 200/422, or /health took over {HEALTH_TARGET * 1e3:.0f} ms")

        limit = phase(
            f"connection limit: {args.limit} held, then /health", lambda: connection_limit(server.port, args.limit)
        )
        print(f"   statuses {dict(limit)}")
        if 503 not in limit:
            failures.append("no 503 past the connection limit")
    finally:
        log = server.stop()
    tracebacks = log.count("Traceback")
    errors = sum(1 for line in log.splitlines() if line.startswith("ERROR"))
    warnings = Counter(line for line in log.splitlines() if line.startswith("WARNING"))
    print(f"-- server log {server.log_path}: {tracebacks} tracebacks, {errors} ERROR lines")
    print(f"   warnings {dict(warnings)}")
    if tracebacks or errors:
        failures.append("tracebacks or errors in the server log")
    print("soak: " + ("all targets met" if not failures else "FAILED: " + "; ".join(failures)))
    return 1 if failures else 0


def _take(items: Iterator[Any], count: int) -> Iterator[Any]:
    for _, item in zip(range(count), items, strict=False):
        yield item


if __name__ == "__main__":
    sys.exit(main())
