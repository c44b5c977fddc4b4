"""Settling one finished deal at a four-player table (API.md "Table").

The shared reading and checking of the table is in `common`; each rule set
settles with its own function (`SETTLERS`), because who pays whom is where
the regional rules differ most.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import ValidationError

from ..errors import HandError, describe_validation, require
from ..models import Settlement, Table
from ..rulesets import RULESETS, get
from .guannan import settle_guannan
from .jinhua import settle_jinhua
from .lingxi import settle_lingxi
from .luoshan import settle_luoshan
from .putian import settle_putian

SETTLERS: dict[str, Callable[[Table], Settlement]] = {
    "lingxi": settle_lingxi,
    "luoshan": settle_luoshan,
    "guannan": settle_guannan,
    "putian": settle_putian,
    "jinhua": settle_jinhua,
}


def settle_table(table: Table | Mapping[str, Any]) -> Settlement:
    """Scores every hand of a deal and says who pays whom; raises HandError on bad input."""
    model = load_table(table)
    if model.rules not in RULESETS:  # any case or the Chinese name, as score_hand takes it; unknown: the usual error
        model = model.model_copy(update={"rules": get(model.rules).name})
    settle = SETTLERS.get(model.rules)
    if settle is None:
        raise HandError(f"settlement for {model.rules} is not available yet")
    return settle(model)


def load_table(table: Table | Mapping[str, Any]) -> Table:
    """A Table from a model or a dict; pydantic's errors become one HandError."""
    if isinstance(table, Table):
        return table
    require(table, Mapping, "table", "a JSON object")  # a mapping, or a Table (above)
    try:
        return Table.model_validate(dict(table))
    except ValidationError as exc:
        raise HandError(describe_validation(exc.errors())) from None
