"""The shared machinery names no rule set (docs/architecture.md): outside `taihu/scorer/rulesets/`, no
module of `taihu/` writes a rule set's key, in code, a string, a comment or a docstring. What it needs of
a rule set it asks the registry or the `RuleSet`; an example is the rule set's own (`RuleSet.examples`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import taihu
from taihu.scorer.rulesets import REGISTRY

PACKAGE = Path(taihu.__file__).parent
RULESETS = PACKAGE / "scorer" / "rulesets"
SHARED = sorted(path for path in PACKAGE.rglob("*.py") if RULESETS not in path.parents)


def named(text: str, names: list[str]) -> list[tuple[int, str]]:
    """The lines (number, text) of `text` that write one of `names`."""
    pattern = re.compile("|".join(map(re.escape, names)))
    return [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1) if pattern.search(line)]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ('rules = "lingxi"\n', [1]),
        ("x = 1\n# riichi's honba\n", [2]),
        ('rules = DEFAULT_RULES  # "Lingxi" in a capital is a word of prose\n', []),
        ("honba = 0\n", []),
    ],
)
def test_the_check_finds_a_rule_set_key(text: str, found: list[int]) -> None:
    assert [number for number, _ in named(text, ["lingxi", "riichi"])] == found


def test_no_shared_module_names_a_rule_set() -> None:
    assert len(SHARED) > 30  # the package's modules were found
    names = list(REGISTRY)
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{number}: {line}"
        for path in SHARED
        for number, line in named(path.read_text(encoding="utf-8"), names)
    ]
    assert not found, "ask the registry or the RuleSet instead:\n" + "\n".join(found)
