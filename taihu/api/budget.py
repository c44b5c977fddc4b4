"""The CPU budget of a costly request (docs/limits.md "Costly requests"): the waits search, a batch; and the
worker threads such work runs on.

CPU time of the worker thread, not the clock: the waits for the GIL and for
a thread do not count, so the same request is over the budget or not
whatever the load. A retry would not help, so it is a 422 `over_budget`,
not a 503.

Costly work runs on anyio's worker threads (`run_costly`), one at a time
(`COSTLY_AT_ONCE`): the interpreter runs one thread at a time, so more
threads would not answer sooner; the event loop then waits for the
interpreter behind one search rather than eight, and a flood of costly
requests leaves FastAPI's thread pool to `/score` and `/settle`. The
requests past the limit wait for a thread without using any. What it does
to `/health` beside eight clients of the costliest `/waits` is in
docs/soak.md (against eight at once, in turns: a median twice as long,
the longest about the same).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import anyio
import anyio.lowlevel
import anyio.to_thread

from taihu.messages.error_shape import CatalogError

CPU_BUDGET = 1.0  # seconds of CPU a /waits search or a batch may take; the costliest waits hand takes 0.2 s
COSTLY_AT_ONCE = 1  # costly requests (a /waits search, a batch) running at once in a process; the rest wait
CHECKS_AT_ONCE = 1  # large bodies checked at once (taihu/api/guards.py), apart from the costly requests

T = TypeVar("T")

# one limiter per event loop, as anyio's own default limiter is kept (a RunVar)
_COSTLY: anyio.lowlevel.RunVar[anyio.CapacityLimiter] = anyio.lowlevel.RunVar("taihu_costly_limiter")
_CHECKS: anyio.lowlevel.RunVar[anyio.CapacityLimiter] = anyio.lowlevel.RunVar("taihu_checks_limiter")


def cpu_budget(seconds: float, key: str = "api.error.over_budget") -> Callable[[], None]:
    """A `check` for costly work: raises `over_budget` (the catalog's `key`, with its `{seconds}`) once this
    thread has used `seconds` of CPU since now. Made on the thread that does the work."""
    end = time.thread_time() + seconds

    def check() -> None:
        if time.thread_time() > end:
            raise CatalogError(key, code="over_budget", seconds=f"{seconds:g}")

    return check


def _limiter(var: anyio.lowlevel.RunVar[anyio.CapacityLimiter], at_once: int) -> anyio.CapacityLimiter:
    try:
        return var.get()
    except LookupError:
        limiter = anyio.CapacityLimiter(at_once)
        var.set(limiter)
        return limiter


async def run_costly(work: Callable[[], T]) -> T:
    """`work()` on a worker thread, at most `COSTLY_AT_ONCE` of them at once."""
    return await anyio.to_thread.run_sync(work, limiter=_limiter(_COSTLY, COSTLY_AT_ONCE))


async def run_check(work: Callable[[], T]) -> T:
    """`work()` on a worker thread, at most `CHECKS_AT_ONCE` at once: a large body's checks, off the event loop."""
    return await anyio.to_thread.run_sync(work, limiter=_limiter(_CHECKS, CHECKS_AT_ONCE))
