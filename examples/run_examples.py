"""Runs every example through the `taihu` command and checks the totals, all in this one process.

Hands: examples/hands/<rule set>.txt, one per line, `# expect N` checks the
total. Tables: examples/tables/*.json, settled with `taihu settle`. The
command runs in-process (typer's CliRunner): what it prints is what a
terminal shows, without starting Python once per example.
"""

from __future__ import annotations

import sys
from pathlib import Path

from typer.testing import CliRunner

from taihu import HandError, score_hand
from taihu.cli.main import app

HERE = Path(__file__).parent
RUNNER = CliRunner()


def taihu(*args: str) -> tuple[int, str]:
    """The exit status and the output of `taihu ARGS`, as a terminal would show them."""
    result = RUNNER.invoke(app, list(args))
    return result.exit_code, result.output


def total_of(hand: str, rules: str) -> str:
    try:
        return str(score_hand(hand, rules=rules).total)
    except HandError as exc:
        return f"error ({exc})"


def main() -> int:
    failures = 0
    for path in sorted((HERE / "hands").glob("*.txt")):
        rules = path.stem
        for line in path.read_text(encoding="utf-8").splitlines():
            hand, _, comment = line.partition("#")
            hand = hand.strip()
            if not hand:
                continue
            expect = comment.strip().removeprefix("expect").strip()
            print(f'$ taihu score "{hand}" --rules {rules}')
            print(taihu("score", hand, "--rules", rules)[1])
            got = total_of(hand, rules)
            if expect and got != expect:
                print(f"!! expected {expect}, got {got}: {hand}")
                failures += 1
    for path in sorted((HERE / "tables").glob("*.json")):
        status, shown = taihu("settle", str(path))
        print(f"$ taihu settle {path.relative_to(HERE.parent)}\n{shown}")
        failures += status != 0
    print("all examples ran" if not failures else f"{failures} example(s) failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
