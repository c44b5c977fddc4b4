"""Start-up of the `taihu` command, side by side with `python -c pass`.

Run with `.venv/bin/python bench/startup.py` (after `make install`). Not a
test: figures depend on the machine. The commands take turns, round after
round, so a change in the machine's load moves them all alike; each line
is the median wall time of its runs and its ratio to `python -c pass`.
Bytecode is cached (as an installed package has it) even where
PYTHONDONTWRITEBYTECODE is set: otherwise taihu's own modules are
compiled from source on every start.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HAND = "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S"
TAIHU = str(Path(sys.executable).parent / "taihu")
TABLE = str(Path(__file__).parent.parent / "examples" / "tables" / "normal-win.json")
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "taihu score HAND --json": [TAIHU, "score", HAND, "--json"],
    "taihu score HAND": [TAIHU, "score", HAND],
    "taihu settle TABLE --json": [TAIHU, "settle", TABLE, "--json"],
    "taihu --version": [TAIHU, "--version"],
    "python -c 'import pydantic.type_adapter'": [sys.executable, "-c", "import pydantic.type_adapter"],
}


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def wall(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for command in COMMANDS.values():
        wall(command)  # warm the file cache and the .pyc files
    for _ in range(args.runs):
        for name, command in COMMANDS.items():
            times[name].append(wall(command))
    base = statistics.median(times["python -c pass"])
    print(f"{args.runs} runs each, taking turns; load average {os.getloadavg()[0]:.2f} at the end")
    for name, runs in times.items():
        median = statistics.median(runs)
        print(f"  {name:<42} median {median * 1e3:6.1f} ms   {median / base:4.1f} × python -c pass")


if __name__ == "__main__":
    main()
