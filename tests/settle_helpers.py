"""What the settlement test files share: payments as plain tuples, and the error a table raises."""

from __future__ import annotations

from typing import Any

import pytest

from taihu.scorer import HandError, Settlement, settle_table


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
