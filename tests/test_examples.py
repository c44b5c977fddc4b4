"""Every example table settles to the nets written beside it in examples/tables/README.md.

`make demo` shows them; this keeps the documented figures true.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from taihu.scorer import settle_table
from taihu.scorer.rulesets import DEFAULT_RULES

ROOT = Path(__file__).parent.parent
TABLES = ROOT / "examples" / "tables"
RULES_PAGES = ROOT / "docs" / "rules"
ROW = re.compile(r"^\| `(?P<file>[\w-]+\.json)` \|[^|]*\|(?P<nets>(?:[^|]*\|){4})\s*(?P<dealer>[ESWN])\s*\|\s*$")


def documented() -> list[tuple[str, dict[str, int], str]]:
    rows = []
    for line in (TABLES / "README.md").read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            cells = [c.strip().replace("−", "-") for c in match.group("nets").split("|")[:4]]
            nets = dict(zip("ESWN", (int(c) for c in cells), strict=True))
            rows.append((match.group("file"), nets, match.group("dealer")))
    return rows


def test_every_table_file_is_documented() -> None:
    """Each table is a row above or settled, with its nets, on its rule set's page (where tests/test_docs.py
    checks them), so a new rule set's tables need no row here."""
    rows = {f for f, _, _ in documented()}
    for path in TABLES.glob("*.json"):
        rules = json.loads(path.read_text(encoding="utf-8")).get("rules", DEFAULT_RULES)
        page = RULES_PAGES / f"{rules}.md"
        shown = page.exists() and re.search(
            rf"taihu settle examples/tables/{re.escape(path.name)} .*# net", page.read_text()
        )
        assert path.name in rows or shown, f"{path.name}: no row in examples/tables/README.md nor on {page.name}"


@pytest.mark.parametrize(("file", "nets", "dealer"), documented(), ids=[row[0] for row in documented()])
def test_example_table_settles_as_documented(file: str, nets: dict[str, int], dealer: str) -> None:
    result = settle_table(json.loads((TABLES / file).read_text(encoding="utf-8")))
    assert result.net == nets
    assert result.next_dealer == dealer
