"""CPU-bound work in a few worker threads, off the event loop (docs/limits.md "Costly requests").

The event loop answers every connection, `/health` included, so nothing that
takes CPU runs on it: the JSON check of a body, scoring, settling and the
waits search are handed to `in_worker`, answer JSON included (FastAPI would
validate and encode a returned model on the loop of an `async` route).

The workers are few (`CPU_THREADS`, through one anyio limiter per event
loop): pure-Python work holds the GIL, and the loop gets it back between
a worker's turns of `sys.getswitchinterval()` (5 ms), so each further busy
thread lengthens the loop's wait for no more throughput. Requests beyond
them queue for a worker, not for the loop.

The costly requests (the waits search, a batch) also hold to a budget of
the worker thread's CPU time (`cpu_budget`): CPU time, not the clock, so the
waits for the GIL and for a worker do not count, and the same request is
over the budget or not whatever the load (a retry would not help, so it is
a 422 `over_budget`, not a 503).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

import anyio.to_thread
from anyio import CapacityLimiter
from anyio.lowlevel import RunVar

from taihu.messages.error_shape import CatalogError

CPU_THREADS = 2  # worker threads for CPU-bound work, per process
CPU_BUDGET = 1.0  # seconds of CPU a /waits search or a batch may take; the costliest waits hand takes 0.2 s

T = TypeVar("T")
_limiter: RunVar[CapacityLimiter] = RunVar("taihu_cpu_limiter")


def cpu_limiter() -> CapacityLimiter:
    """The limiter of the running event loop (an anyio limiter belongs to one loop; tests run several)."""
    try:
        return _limiter.get()
    except LookupError:
        limiter = CapacityLimiter(CPU_THREADS)
        _limiter.set(limiter)
        return limiter


async def in_worker(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`function(*args, **kwargs)` in a worker thread, at most CPU_THREADS at once."""
    return await anyio.to_thread.run_sync(partial(function, *args, **kwargs), limiter=cpu_limiter())


def cpu_budget(seconds: float, key: str = "api.error.over_budget") -> Callable[[], None]:
    """A `check` for costly work: raises `over_budget` (the catalog's `key`, with its `{seconds}`) once this
    thread has used `seconds` of CPU since now."""
    end = time.thread_time() + seconds

    def check() -> None:
        if time.thread_time() > end:
            raise CatalogError(key, code="over_budget", seconds=f"{seconds:g}")

    return check
