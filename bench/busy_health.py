"""`/health` beside the busy clients of issue 21, for several servers in turns (docs/soak.md "Garbage collection").

The phases of `make soak` whose target is /health's time: eight clients
sending the 64 KB escaped-quote body (target 50 ms), one address holding
100 idle sockets, each reopened when closed (target 100 ms), and, with
`--phases`, eight clients sending the costliest /waits hand (100 ms). The clients run
in a process of their own (bench/load.py). Each server (a setting, or another
checkout's code with `--against`) gets each phase in turn, round after round,
so a change of load on a shared machine falls on all alike; a `gc.callbacks`
hook in each server counts and times its collections. Prints /health's
median, p99 and max per server and phase, and the load average.
Not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
from pathlib import Path

from gc_server import WATCH
from soak import ESCAPED_QUOTES, Server, busy_health, costly_waits, one_address

PHASES = ("escaped", "idle", "waits")  # the escaped-quote senders, one address's sockets, the costliest /waits


def collections(log: str) -> str:
    """The collections after the freeze, from the last GC-PAUSES line of a server's log."""
    lines = [line for line in log.splitlines() if line.startswith("GC-PAUSES")]
    if not lines:
        return "no collection"
    pauses = json.loads(lines[-1].split(" ", 1)[1])
    return "; ".join(
        f"gen {gen}: {len(times)}, max {max(times) * 1e3:.1f} ms" for gen, times in pauses.items() if times
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument(
        "--against", type=Path, help="another checkout, run beside this one (its taihu first on the path)"
    )
    parser.add_argument("--load-cpus", type=lambda text: [int(c) for c in text.split(",")], default=None)
    parser.add_argument("--phases", default="escaped,idle", help=f"of {', '.join(PHASES)}, comma-separated")
    parser.add_argument("--no-cpython", action="store_true", help="no server with CPython's thresholds")
    args = parser.parse_args()
    phases = args.phases.split(",")
    settings = {"this tree (50,000, 20, 20)": ""}
    if not args.no_cpython:
        settings["this tree, CPython's thresholds"] = "import taihu.api.server as s; s.GC_THRESHOLDS = None"
    if args.against:
        settings[f"{args.against}"] = f"import sys; sys.path.insert(0, {str(args.against.resolve())!r})"
    servers = {name: Server(64, 100, WATCH + code) for name, code in settings.items()}
    figures: dict[tuple[str, str], list[float]] = {}
    loads = [os.getloadavg()]
    try:
        for server in servers.values():
            server.wait_ready()
        names = list(servers)
        for round_ in range(args.rounds):
            turn = names[round_ % len(names) :] + names[: round_ % len(names)]
            for name in turn:
                port = servers[name].port
                if "escaped" in phases:
                    _, health = busy_health(port, "/score", ESCAPED_QUOTES, 8, args.seconds, args.load_cpus)
                    figures.setdefault((name, "escaped-quote body"), []).extend(health)
                if "idle" in phases:
                    _, health = one_address(port, 100, args.seconds, args.load_cpus)
                    figures.setdefault((name, "one address's sockets"), []).extend(health)
                if "waits" in phases:
                    body = json.dumps(costly_waits()[0]).encode()
                    _, health = busy_health(port, "/waits", body, 8, args.seconds, args.load_cpus)
                    figures.setdefault((name, "the costliest /waits"), []).extend(health)
            loads.append(os.getloadavg())
    finally:
        logs = {name: server.stop() for name, server in servers.items()}
    print(f"load average (1, 5, 15 min) at the start and after each round: {loads}")
    for (name, phase), times in figures.items():
        ms = sorted(t * 1e3 for t in times)
        p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        print(
            f"{name:40} {phase:22} {len(ms)} requests: median {statistics.median(ms):5.1f} ms, "
            f"p99 {p99:5.1f} ms, max {ms[-1]:6.1f} ms"
        )
    for name, log in logs.items():
        print(f"{name:40} collections after the freeze: {collections(log)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
