"""The CPU budget of a costly request (docs/limits.md "Costly requests"): the waits search, a batch.

CPU time of the worker thread, not the clock: the waits for the GIL and for
a thread do not count, so the same request is over the budget or not
whatever the load. A retry would not help, so it is a 422 `over_budget`,
not a 503.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from taihu.messages.error_shape import CatalogError

CPU_BUDGET = 1.0  # seconds of CPU a /waits search or a batch may take; the costliest waits hand takes 0.2 s


def cpu_budget(seconds: float, key: str = "api.error.over_budget") -> Callable[[], None]:
    """A `check` for costly work: raises `over_budget` (the catalog's `key`, with its `{seconds}`) once this
    thread has used `seconds` of CPU since now."""
    end = time.thread_time() + seconds

    def check() -> None:
        if time.thread_time() > end:
            raise CatalogError(key, code="over_budget", seconds=f"{seconds:g}")

    return check
