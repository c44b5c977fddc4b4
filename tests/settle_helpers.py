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
