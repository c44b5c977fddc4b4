"""Each registered rule set's own example hands, for the suites that test every rule set of the registry.

A rule set's examples are the lines of examples/hands/NAME.txt, where there is one, and the hands of its
`RuleSet.examples` (the API's examples), so a rule set added with none of the former (the tests' toy) is
tested from the latter. The registry is read when asked, so a rule set registered for the run is in it.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from taihu.messages import catalog_paths
from taihu.scorer.rulesets import REGISTRY, RULESETS, hand_sizes

HANDS = Path(__file__).resolve().parent.parent / "examples" / "hands"


def examples_file(name: str) -> str:
    """The text of examples/hands/NAME.txt, comments included; "" for a rule set with none."""
    path = HANDS / f"{name}.txt"
    return path.read_text(encoding="utf-8") if path.exists() else ""


def example_lines(name: str) -> list[str]:
    """The rule set's example hands, one a line: its file's first (comments and blank lines left out)."""
    lines = examples_file(name).splitlines()
    hands = [hand for hand in (line.partition("#")[0].strip() for line in lines) if hand]
    return hands + [e["hand"] for e in RULESETS[name].examples if e["hand"] not in hands]


def example_hands() -> list[tuple[str, str]]:
    """(rules, hand) for every example hand of every registered rule set, in the registry's order."""
    return [(name, hand) for name in REGISTRY for hand in example_lines(name)]


class Sized(NamedTuple):
    """The rule sets "did you mean --rules …" names for a hand size, from the registry, so a rule set added
    changes no test that checks the hint: as a message names them (`Luoshan / Guannan / Jinhua`), as
    `--rules` takes them (`luoshan / guannan / jinhua`) and as a table's `"rules"` field would
    (`"luoshan" / "guannan" / "jinhua"`)."""

    names: str
    rules: str
    fields: str


def sized(size: int) -> Sized:
    names = [name for name, hand_size in hand_sizes().items() if hand_size == size]
    return Sized(" / ".join(n.capitalize() for n in names), " / ".join(names), " / ".join(f'"{n}"' for n in names))


def catalog_files(lang: str, suffix: str = ".po") -> list[Path]:
    """taihu's message catalog and every registered rule set's own (each rule set loaded, which adds its own)."""
    for _ in RULESETS.values():
        pass
    return catalog_paths(lang, suffix)  # type: ignore[arg-type]
