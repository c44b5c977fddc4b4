"""The rule sets by name, each module imported on its first use.

`taihu score -r luoshan` loads Luoshan's module and no other: `RULESETS`
and `CONDITIONS` are mappings that import a rule set's module the first
time one of its values is read. What must be known without importing them
(the names, the Chinese names, the hand sizes of "did you mean --rules …")
is plain data here; a test checks it against the modules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, MutableMapping
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, TypeVar

from .. import memo as M
from ..errors import HandError, quote

if TYPE_CHECKING:
    from .base import RuleSet

V = TypeVar("V")

# name: (module under taihu.scorer.rulesets, the RuleSet instance in it), in the order they are listed
MODULES: dict[str, tuple[str, str]] = {
    "lingxi": ("lingxi", "LINGXI"),
    "luoshan": ("luoshan", "LUOSHAN"),
    "guannan": ("guannan", "GUANNAN"),
    "putian": ("putian", "PUTIAN"),
    "jinhua": ("jinhua", "JINHUA"),
    "riichi": ("riichi", "RIICHI"),
}
# the counting rule sets' hand sizes, for "did you mean --rules …" (riichi, 13 like Luoshan, uses them too)
HAND_SIZES: dict[str, int] = {"lingxi": 16, "luoshan": 13, "guannan": 13, "putian": 16, "jinhua": 13}
# Any case, and the Chinese names in simplified and traditional forms: `-r LINGXI`, `-r 灌南`, rules="灵溪".
CHINESE_NAMES: dict[str, str] = {
    "灵溪": "lingxi",
    "靈溪": "lingxi",
    "螺山": "luoshan",
    "灌南": "guannan",
    "莆田": "putian",
    "金华": "jinhua",
    "金華": "jinhua",
    "立直": "riichi",
}


def module(name: str) -> ModuleType:
    """The module of the rule set `name` (a key of MODULES), imported now if it was not yet."""
    return import_module(f"{__name__}.{MODULES[name][0]}")


class Lazy(MutableMapping[str, V]):
    """A mapping of rule-set names whose values are made on first read (`load(name)`), then kept.

    Writable, so a test can add or replace an entry (`monkeypatch.setitem`) as it could in a dict.
    """

    def __init__(self, names: Iterable[str], load: Callable[[str], V]) -> None:
        self.load = load
        self.values_made: dict[str, V | None] = dict.fromkeys(names)

    def __getitem__(self, name: str) -> V:
        found = self.values_made[name]  # KeyError for an unknown name, as a dict
        if found is None:
            found = self.values_made[name] = self.load(name)
        return found

    def __setitem__(self, name: str, value: V) -> None:
        self.values_made[name] = value

    def __delitem__(self, name: str) -> None:
        del self.values_made[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.values_made)

    def __len__(self) -> int:
        return len(self.values_made)

    def __contains__(self, name: object) -> bool:
        return name in self.values_made  # never loads

    def loaded(self) -> list[V]:
        """The values made so far, loading nothing."""
        return [value for value in self.values_made.values() if value is not None]

    def __repr__(self) -> str:
        return f"Lazy({list(self.values_made)})"


RULESETS: Lazy[RuleSet] = Lazy(MODULES, lambda name: getattr(module(name), MODULES[name][1]))
CONDITIONS: Lazy[frozenset[str]] = Lazy(MODULES, lambda name: module(name).CONDITIONS)


def get(name: str) -> RuleSet:
    """The rule set by its name in any case, or its Chinese name; the answer's `rules` is the canonical name."""
    if name in RULESETS:
        return RULESETS[name]
    canonical = name.strip().lower()
    canonical = canonical if canonical in RULESETS else CHINESE_NAMES.get(name.strip(), "")
    if canonical not in RULESETS:
        raise HandError(f"unknown rule set '{quote(name)}'; known: {', '.join(RULESETS)}", code="unknown_rules")
    return RULESETS[canonical]


def _item_lines() -> int:
    return sum(len(item.lines) for rule_set in RULESETS.loaded() for item in rule_set.items)


def _clear_item_lines() -> None:
    for rule_set in RULESETS.loaded():
        for item in rule_set.items:
            item.lines.clear()


# each item's ScoreItem per (value, detail) scored so far (base.score_item)
M.register("rulesets.item_lines", _item_lines, _clear_item_lines, bytes_per_entry=700)
