"""What the tests read of a rule set beside its module: its example hand lines, and which rule sets the
package's documents describe. A rule set registered by a test (the toy of `pytest --toy-rule-set`) has no
page under docs/rules/ and no examples/hands file: its example hands are those of its `examples`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from taihu.scorer.rulesets import REGISTRY, RULESETS, register, unregister

ROOT = Path(__file__).resolve().parent.parent


def documented() -> list[str]:
    """The rule sets of the package (a folder each), in the registry's order: those its documents describe."""
    return [name for name, line in REGISTRY.items() if not line.module]


def example_lines(rules: str) -> list[str]:
    """The rule set's example hand lines, comments left out: its examples/hands file, or the hands of its
    `examples` where it has no file (a test's rule set)."""
    path = ROOT / "examples" / "hands" / f"{rules}.txt"
    if not path.exists() and REGISTRY[rules].module:
        return [example["hand"] for example in RULESETS[rules].examples]
    lines = (line.split("#")[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line]


@contextmanager
def package_rule_sets_only() -> Iterator[None]:
    """The registry as the package has it for the length of the block: the documents are generated from it."""
    added = [line for line in REGISTRY.values() if line.module]
    for line in added:
        unregister(line.name)
    try:
        yield
    finally:
        for line in added:
            register(line)
