"""The item table and exclusions of a rules page (docs/rules/NAME.md), as the page shows them.

The page's items block is made from the code by `make docs`, and tests/test_docs.py holds it current: a
test reads the page instead of a copy of its own, so a value is written once, in the code, and seen in
review where it shows (the page's diff).
"""

from __future__ import annotations

import re
from pathlib import Path

PAGES = Path(__file__).resolve().parent.parent / "docs" / "rules"
CELL = re.compile(r"(?<!\\)\|")  # a cell ends at a `|` the page did not escape


def items_block(name: str) -> str:
    text = (PAGES / f"{name}.md").read_text(encoding="utf-8")
    return text.split(f"<!-- begin generated (make docs): items {name} -->\n", 1)[1].split("<!-- end generated -->")[0]


def page_items(name: str) -> list[tuple[str, str]]:
    """(key, value) of each row of the page's item table, in its order."""
    rows: list[tuple[str, str]] = []
    for line in items_block(name).splitlines():
        if not line.startswith("| `"):
            if rows:
                break  # the item table ends; the options table follows
            continue
        cells = [cell.strip().replace("\\|", "|") for cell in CELL.split(line)[1:-1]]
        rows.append((cells[0].strip("`"), cells[3]))
    return rows


def page_exclusions(name: str) -> list[str]:
    """The page's exclusions, one a line: `a excludes b, c` (the rule it comes from, after ` — `, left out)."""
    lines = [line[2:] for line in items_block(name).splitlines() if line.startswith("- ")]
    return [line.partition(" — ")[0].replace("\\|", "|") for line in lines]
