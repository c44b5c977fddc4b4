"""Runs every example through the real `taihu` command and checks the totals.

Hands: examples/hands/<rule set>.txt, one per line, `# expect N` checks the
total. Tables: examples/tables/*.json, settled with `taihu settle`.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
TAIHU = shutil.which("taihu", path=str(Path(sys.executable).parent)) or "taihu"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([TAIHU, *args], capture_output=True, text=True, check=False)


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
            shown = run("score", hand, "--rules", rules)
            print(shown.stdout + shown.stderr)
            got = json.loads(run("score", hand, "--rules", rules, "--json").stdout or "{}").get("total")
            if expect and str(got) != expect:
                print(f"!! expected {expect}, got {got}: {hand}")
                failures += 1
    tables = HERE / "tables"
    for path in sorted(tables.glob("*.json")) if tables.is_dir() else []:
        shown = run("settle", str(path))
        print(f"== {path.name}\n{shown.stdout}{shown.stderr}")
        failures += shown.returncode != 0
    print("all examples ran" if not failures else f"{failures} example(s) failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
