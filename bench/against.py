"""The Luoshan row of `make bench` for this tree and for an older commit, in turns.

Run with `make bench-against` (REF=1f0c049 by default: the code of
2026-11-29, the baseline of the Luoshan row). The commit is exported with
`git archive` into a temporary folder; each round then runs the Luoshan
bench once per tree, each in a fresh process, the tree going first
alternating from round to round, so load that changes during the run falls
on both. Each run times its tree's `score_hand` against `mahjong` on the
same hands (bench.py's hands, warm-up and blocks), so the two ratios share
their yardstick. Before the `taihu` namespace the core was the top-level
package `scorer`: both layouts are read.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def child(tree: str, hands: int) -> None:
    """One run: `tree`'s score_hand and mahjong in turns; prints taihu's median, mahjong's, and their ratio."""
    sys.path.insert(0, tree)  # the tree's own code before the installed package
    sys.path.insert(1, str(HERE))
    import random

    if (Path(tree) / "taihu").is_dir():
        from taihu.scorer import score_hand
    else:  # the layout before the namespace
        from scorer import score_hand  # type: ignore[import-not-found,no-redef]

    from bench import alternate, distinct_hands, freeze_heap, luoshan_line, mahjong_call

    rng = random.Random(2026)
    seen: set[tuple[int, ...]] = set()
    warmup = distinct_hands(rng, 200, seen)
    timed_hands = distinct_hands(rng, hands, seen)
    mahjong = mahjong_call()
    for tiles, win in warmup:
        score_hand(luoshan_line(tiles, win), "luoshan")
        mahjong(tiles, win)
    freeze_heap()
    lines = [luoshan_line(t, w) for t, w in timed_hands]
    calls = [
        (lambda line=line: score_hand(line, "luoshan"), lambda hand=hand: mahjong(*hand))
        for line, hand in zip(lines, timed_hands, strict=True)
    ]
    ours, theirs = alternate(calls)
    ours_med, theirs_med = statistics.median(ours.wall), statistics.median(theirs.wall)
    print(f"{ours_med * 1e3:.4f} {theirs_med * 1e3:.4f} {ours_med / theirs_med:.4f}")


def run(tree: str, hands: int) -> tuple[float, float, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", tree, "--hands", str(hands)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    ours, theirs, ratio = map(float, out)
    return ours, theirs, ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ref", default="1f0c049", help="the older commit (default: 1f0c049, 2026-11-29)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.hands)
        return
    with tempfile.TemporaryDirectory() as old:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.ref], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", old], input=archive.stdout, check=True)
        trees = {"this tree": str(ROOT), args.ref: old}
        ratios: dict[str, list[float]] = {name: [] for name in trees}
        print(f"load average (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"Luoshan, {args.hands} distinct closed 14-tile hands, taihu's median / mahjong's, in turns:")
        for round_number in range(args.rounds):
            order = list(trees.items())
            if round_number % 2:
                order.reverse()
            for name, tree in order:
                ours, theirs, ratio = run(tree, args.hands)
                ratios[name].append(ratio)
                print(f"  round {round_number + 1}  {name:10s} {ours:.4f} ms / {theirs:.4f} ms = {ratio:.3f}")
        print(f"load average (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
        for name, found in ratios.items():
            listed = ", ".join(f"{r:.3f}" for r in found)
            print(f"  {name:10s} ratios {listed}  (median {statistics.median(found):.3f})")


if __name__ == "__main__":
    main()
