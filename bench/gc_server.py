"""The garbage collector's settings of `taihu serve`, compared side by side (docs/soak.md "Garbage collection").

Starts one server per setting (all freeze the heap at start-up), warms each with the soak's 1,000 hands, then
sends each the same distinct hands of the soak (`tests/abuse_cases.py`), one
request at a time, the servers taking turns in blocks whose order changes
from block to block, so a change of load on a shared machine falls on all
alike. Prints each setting's median, p99 and max request time and its RSS.
Not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from itertools import islice

from soak import Client, Server, distinct_hands, rss_mb, score_bodies  # soak puts tests/ (abuse_cases) on the path

# Run in each server before `taihu serve`: times each collection once the heap is frozen (gc.callbacks),
# and prints the figures so far as a line of the server's log after each one (uvicorn ends on SIGTERM
# by the signal itself: no atexit runs); the bench reads the last.
WATCH = """
import gc, json, time
pauses, began = {0: [], 1: [], 2: []}, [0.0]
def watch(phase, info):
    if phase == "start":
        began[0] = time.perf_counter()
    elif gc.get_freeze_count():
        pauses[info["generation"]].append(time.perf_counter() - began[0])
        print("GC-PAUSES", json.dumps(pauses), flush=True)
gc.callbacks.append(watch)
"""
# name: code run in the server process before `taihu serve` (the settings of taihu/api/server.py)
SETTINGS = {
    "no warm-up, CPython's thresholds": "import taihu.api.server as s; s.WARM_UP_HANDS = 0; s.GC_THRESHOLDS = None",
    "warm-up, CPython's thresholds": "import taihu.api.server as s; s.GC_THRESHOLDS = None",
    "warm-up, threshold 10,000, 10, 10": "import taihu.api.server as s; s.GC_THRESHOLDS = (10_000, 10, 10)",
    "warm-up, 50,000, 20, 20 (taihu serve)": "",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=20_000, help="distinct hands sent to each server")
    parser.add_argument("--block", type=int, default=100, help="hands a server gets before the next one's turn")
    args = parser.parse_args()
    servers = {name: Server(64, 100, WATCH + code) for name, code in SETTINGS.items()}
    try:
        for server in servers.values():
            server.wait_ready()
        started = {name: rss_mb(server.process.pid) for name, server in servers.items()}
        clients = {name: Client(server.port) for name, server in servers.items()}
        for client in clients.values():
            for body in islice(score_bodies(distinct_hands(seed=1)), 1000):
                client.post(*body)
        warmed = {name: rss_mb(server.process.pid) for name, server in servers.items()}
        clients = {name: Client(server.port) for name, server in servers.items()}  # the first ones sat idle: cut
        times: dict[str, list[float]] = {name: [] for name in servers}
        hands = list(islice(score_bodies(distinct_hands(seed=2)), args.hands))
        names = list(servers)
        for block, first in enumerate(range(0, len(hands), args.block)):
            turn = block % len(names)
            for name in names[turn:] + names[:turn]:
                for body in hands[first : first + args.block]:
                    start = time.perf_counter()
                    clients[name].post(*body)
                    times[name].append(time.perf_counter() - start)
        print(f"{args.hands} distinct hands to each server, one at a time, load average {os.getloadavg()}")
        print(f"{'setting':38} {'median':>8} {'p99':>8} {'max':>8}  RSS: start, after warm-up, after")
        for name, server in servers.items():
            ms = sorted(t * 1e3 for t in times[name])
            p99 = ms[int(len(ms) * 0.99)]
            rss = f"{started[name]:.0f}, {warmed[name]:.0f}, {rss_mb(server.process.pid):.0f} MB"
            print(f"{name:38} {statistics.median(ms):6.2f}ms {p99:6.2f}ms {ms[-1]:6.1f}ms  {rss}")
            statuses = dict(clients[name].statuses)
            print(f"{'':38} statuses {statuses}, dropped {clients[name].dropped}")
    finally:
        logs = {name: server.stop() for name, server in servers.items()}
    print("collections after the freeze (start-up, warm-up and timed hands): count, total and max per generation")
    for name, log in logs.items():
        found = [line for line in log.splitlines() if line.startswith("GC-PAUSES ")]
        if not found:
            print(f"{name:38} no GC-PAUSES line in the log")
            continue
        pauses = json.loads(found[-1].removeprefix("GC-PAUSES "))
        shown = [
            f"gen {g}: {len(p)}, {sum(p) * 1e3:.0f} ms, max {max(p, default=0) * 1e3:.1f} ms" for g, p in pauses.items()
        ]
        print(f"{name:38} {'; '.join(shown)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
