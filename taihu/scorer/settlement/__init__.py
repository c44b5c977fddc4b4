"""Settling one finished deal at a four-player table (docs/api.md "Table").

The shared reading and checking of the table is in `common`; each rule set
settles with its own function (`SETTLERS`), because who pays whom is where
the regional rules differ most.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from importlib import import_module
from typing import Any

from ..errors import HandError, require
from ..models import PlayerTenpai, Settlement, Table
from ..rulesets import MODULES, RULESETS, Lazy, get

# each rule set's `settle_NAME` in the module of its name, imported on first use: a table of one
# rule set loads that rule set's settlement and scoring only
SETTLERS: Lazy[Callable[[Table], Settlement]] = Lazy(
    MODULES, lambda name: getattr(import_module(f"{__name__}.{name}"), f"settle_{name}")
)
RIICHI_ONLY = ("honba", "pot", "round")


def settle_table(table: Table | Mapping[str, Any]) -> Settlement:
    """Scores every hand of a deal and says who pays whom; raises HandError on bad input."""
    model = load_table(table)
    if model.rules not in RULESETS:  # any case or the Chinese name, as score_hand takes it; unknown: the usual error
        model = replace(model, rules=get(model.rules).name)
    if model.rules != "riichi":
        refuse_riichi_fields(model)
    settle = SETTLERS.get(model.rules)
    if settle is None:
        raise HandError(f"settlement for {model.rules} is not available yet")
    try:
        return settle(model)
    except HandError as exc:
        player = model.players.get(exc.seat or "")
        if isinstance(player, str):  # the hand the error's column counts in, for a shell's caret
            exc.line = player
        raise


def refuse_riichi_fields(table: Table) -> None:
    """`honba`, `pot`, `round` and `{"tenpai": ...}` seats mean something in riichi only: say so, never ignore them."""
    for name in RIICHI_ONLY:
        if getattr(table, name) is not None:
            raise HandError(f'{name}: is a riichi table field; {table.rules} has none (use "rules": "riichi")')
    for seat, player in table.players.items():
        if isinstance(player, PlayerTenpai):
            raise HandError(
                f'players.{seat}: {{"tenpai": ...}} is a riichi seat of a drawn deal; in {table.rules} give '
                f'the hand or {{"total": N}}'
            )


def load_table(table: Table | Mapping[str, Any]) -> Table:
    """A Table as given, or read from its JSON dict (`Table.from_dict` names every place that is wrong)."""
    if isinstance(table, Table):
        return table
    require(table, Mapping, "table", "a JSON object")  # a mapping, or a Table (above)
    return Table.from_dict(table)
