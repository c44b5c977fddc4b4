"""`RuleSet.read_line` alone, on the bench's lines, for this tree and an older commit, in turns; and on the
hands read, `to_text` and `ParsedHand.conditions`, which scoring asks of each.

    .venv/bin/python bench/read_line.py --ref c7a23fd [--rounds 5] [--lines 3000]

For each of `make bench`'s line shapes (MCR's `mcr_line`, Luoshan's `luoshan_line`, riichi's
`riichi_line`), 300 lines of other hands are read first, then `--lines` lines each read once, every one
new, each call timed alone; the garbage collector's heap is frozen before. The commit is exported with
`git archive` into a temporary folder; each round runs both trees, each in a fresh process importing its
own code, the first switching from round to round, so a change of load falls on both alike. Printed: each
tree's median of its rounds' medians, and this tree's over the older one's.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHAPES = ("mcr", "luoshan", "riichi")  # `make bench`'s line makers, by the rule set that reads them


def measure(count: int) -> dict[str, float]:
    """Median µs of `read_line`, `to_text` and `conditions` per shape, in this process (whose `taihu` is the
    tree on sys.path)."""
    sys.path.insert(0, str(HERE))
    from bench import distinct_hands, luoshan_line, mcr_line, riichi_line
    from taihu.scorer import to_text
    from taihu.scorer.rulesets import get

    makers = {"mcr": mcr_line, "luoshan": luoshan_line, "riichi": riichi_line}
    gc.freeze()
    out = {}
    for name in SHAPES:
        read = get(name).read_line
        make = makers[name]
        seen: set[tuple[int, ...]] = set()
        for tiles, win in distinct_hands(random.Random(99), 300, seen):
            read(make(tiles, win))
        lines = [make(tiles, win) for tiles, win in distinct_hands(random.Random(7), count, seen)]
        clock = time.perf_counter_ns
        times, texts, conditions = [], [], []
        for line in lines:
            start = clock()
            hand = read(line)
            read_at = clock()
            to_text(hand)
            text_at = clock()
            hand.conditions  # noqa: B018 (a property, timed)
            times.append(read_at - start)
            texts.append(text_at - read_at)
            conditions.append(clock() - text_at)
        out[name] = statistics.median(times) / 1000
        out[f"{name} to_text"] = statistics.median(texts) / 1000
        out[f"{name} conditions"] = statistics.median(conditions) / 1000
    return out


def run(tree: Path, count: int) -> dict[str, float]:
    code = f"import sys; sys.path.insert(0, {str(tree)!r}); sys.path.insert(1, {str(HERE)!r}); "
    code += f"import read_line, json; print(json.dumps(read_line.measure({count})))"
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    answer = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(answer.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ref", required=True, help="the older commit")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--lines", type=int, default=3000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as old:
        archive = subprocess.run(["git", "archive", args.ref], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", old], input=archive, check=True)
        trees = {"this tree": ROOT, args.ref: Path(old)}
        found: dict[str, dict[str, list[float]]] = {label: {} for label in trees}
        for round_ in range(args.rounds):
            order = list(trees) if round_ % 2 == 0 else list(reversed(trees))
            for label in order:
                for name, median in run(trees[label], args.lines).items():
                    found[label].setdefault(name, []).append(median)
    print(f"read_line, {args.lines} new lines a shape, {args.rounds} rounds in turns; load {os.getloadavg()[0]:.2f}")
    for name in found["this tree"]:
        ours, theirs = (statistics.median(found[label][name]) for label in trees)
        print(f"  {name:19} this tree {ours:6.2f} µs   {args.ref} {theirs:6.2f} µs   ratio {ours / theirs:.3f}")


if __name__ == "__main__":
    main()
