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
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

import anyio.to_thread
from anyio import CapacityLimiter
from anyio.lowlevel import RunVar

CPU_THREADS = 2  # worker threads for CPU-bound work, per process

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
