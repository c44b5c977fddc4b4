"""Instructions per MCR hand seen for the first time, counted by callgrind: a load-proof figure for the
work `bench.py --mcr-only` times (its hands, `seat:S round:E`, won on a discard).

Run with `.venv/bin/python bench/mcr_instructions.py` (valgrind needed; about a minute). Two runs of this
script under `valgrind --tool=callgrind`: one scores 200 warm-up hands, the other the same 200 and then
1000 hands new to it; the difference over 1000 is what a first-time hand costs, memo misses included.
Runs of the same code differ by about ±1,000.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

WARM_UP, COUNTED = 200, 1000


def score(counted: bool) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench import distinct_hands, mcr_line
    from taihu.scorer import score_hand

    lines = [mcr_line(tiles, win) for tiles, win in distinct_hands(random.Random(26), WARM_UP + COUNTED, set())]
    for line in lines[:WARM_UP]:
        score_hand(line, rules="mcr")
    if counted:
        for line in lines[WARM_UP:]:
            score_hand(line, rules="mcr")


def instructions(counted: bool) -> int:
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__, str(counted)],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(next(line for line in run.stderr.splitlines() if "Collected" in line).split()[-1])


def main() -> None:
    if len(sys.argv) > 1:  # one run under callgrind
        score(sys.argv[1] == "True")
        return
    per_hand = (instructions(True) - instructions(False)) / COUNTED
    print(f"instructions per first-time MCR hand: {per_hand:,.0f}")


if __name__ == "__main__":
    main()
