"""What the settlement test files share: payments as plain tuples, and the error a table raises."""

from __future__ import annotations

from typing import Any

import pytest

from taihu.scorer import HandError, Settlement, settle_table

# The Table example of docs/api.md, verbatim: the settlement tests and the model tests check it against the contract.
API_TABLE: dict[str, Any] = {
    "rules": "lingxi",
    "wild": ["5m", "E"],
    "winner": "S",
    "discarder": "W",
    "players": {
        "E": "[CCC] 123p 456p 78s 11s 34p 9s f3",
        "S": "555m 222p 777p 333s 888s 9m f1 f2 P P +9m",
        "W": {"total": 4},
        "N": "E 123m 789m 12s 33p 66p 99p 5s f4",
    },
    "events": [],
    "options": {},
}


def paid(result: Settlement) -> list[tuple[str, str, int, str]]:
    return [(p.from_, p.to, p.amount, p.reason) for p in result.payments]


def error(data: Any) -> str:
    with pytest.raises(HandError) as info:
        settle_table(data)
    return str(info.value)


ZERO: dict[str, int] = {"total": 0}


def net(table: dict[str, Any]) -> tuple[dict[str, int], str]:
    """A table's net (checked to sum to zero) and its next dealer."""
    result = settle_table(table)
    assert sum(result.net.values()) == 0
    return result.net, result.next_dealer
