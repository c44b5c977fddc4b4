"""The checks made of a rule set's data when its class is made (`RuleSet.__init_subclass__`): every key a row
names is one of its own, and every fact of a reading an item reads is one its search keeps."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING

from .interface import Exclusion, Option

if TYPE_CHECKING:
    from .base import RuleSet


def check_rule_data(rule_set: type[RuleSet]) -> None:
    """Every key a row of the rule set's data names is one of its own, checked when the class is made.

    A key is a plain string: a misspelt one in an exclusion would exclude nothing (or keep what the rule
    removes) without a sound, and one in an item's `option` would fail on the first hand that scores it.
    So an item key is declared once for whom it counts (a won and a declared item may share theirs), an
    exclusion and the search's contract (`search_keeps`) name items, an item's `option` names a house option,
    and an option is declared once; the error names the file, the line and the row.
    """
    problems: list[str] = []
    keys: set[str] = set()
    scoped: set[tuple[str, str]] = set()
    for item in rule_set.items:
        if (item.key, item.scope) in scoped:
            problems.append(f"{item.written_at}: Item({item.key!r}, …): item '{item.key}' is declared twice")
        keys.add(item.key)
        scoped.add((item.key, item.scope))
    options: dict[str, Option] = {}
    for option in rule_set.options:
        if option.name in options:
            problems.append(
                f"{option.written_at}: Option({option.name!r}, …): option '{option.name}' is declared twice"
            )
        options.setdefault(option.name, option)
    for item in rule_set.items:
        if item.option and item.option not in options:
            known = ", ".join(options) or "none"
            problems.append(
                f"{item.written_at}: Item({item.key!r}, …, option={item.option!r}): no house option "
                f"'{item.option}' (its options: {known})"
            )
    problems += exclusion_problems(rule_set.exclusions, keys)
    keeps = rule_set.search_keeps or {}
    for key in keeps:
        if key not in keys:
            declared_by = next(c for c in rule_set.__mro__ if "search_keeps" in c.__dict__)
            where = f"{declared_by.__module__.replace('.', '/')}/search.py"
            problems.append(f"{where}: KEPT_FOR_ITEMS[{key!r}]: no item '{key}'")
    if problems:
        raise TypeError(f"the rule data of {rule_set.name or rule_set.__name__}: " + "; ".join(problems))


def exclusion_problems(exclusions: Iterable[Exclusion], keys: Collection[str]) -> list[str]:
    """Each key an exclusion names that is none of `keys` (the rule set's items), with the row naming it."""
    return [
        f"{e.written_at}: {e.row()}: no item '{key}'"
        for e in exclusions
        for key in (e.present, *e.removes)
        if key not in keys
    ]


def check_search_contract(rule_set: type[RuleSet]) -> None:
    """An item reading a fact of a reading that the rule set's search does not declare it keeps is an error.

    The wildcard search tries an all-wildcard group only as the representatives the rule set gives
    and merges readings whose groups are of one class (docs/architecture.md, the wildcard search): an
    item reading what those erase (a "terminal pung" reading ranks of suited pungs) would score
    wrong without a sound. So the declaration beside the classes (`search_keeps`) names the facts kept
    for each item, and an item reading more is refused here, naming the declaration to fix.
    """
    keeps = rule_set.search_keeps
    if keeps is None:
        return
    declared_by = next(c for c in rule_set.__mro__ if "search_keeps" in c.__dict__)
    where = f"{declared_by.__module__.replace('.', '/')}/search.py"
    for item in rule_set.items:
        erased = [fact for fact in item.reads if fact not in keeps.get(item.key, ())]
        if erased:
            raise TypeError(
                f"{rule_set.name} item '{item.key}' reads {', '.join(erased)} of a reading, which its search "
                f"does not declare it keeps: all-wildcard groups are tried only as the representatives of "
                f"`stand_ins` and readings of one class are merged (the class functions of {where}). "
                f"Make those keep what '{item.key}' reads, then add it to `KEPT_FOR_ITEMS` in {where}"
            )
