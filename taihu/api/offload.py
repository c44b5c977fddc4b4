"""CPU-bound work in a few worker threads, off the event loop (docs/limits.md "Costly requests").

The event loop answers every connection, `/health` included, so nothing that
takes CPU runs on it: the JSON check of a body, scoring, settling and the
waits search are handed to `in_worker`, answer JSON included (FastAPI would
validate and encode a returned model on the loop of an `async` route).

The workers are few (`CPU_THREADS`, one thread pool per process): pure-Python
work holds the GIL, and the loop gets it back between a worker's turns of
`sys.getswitchinterval()` (5 ms), so each further busy thread lengthens the
loop's wait for no more throughput. Requests beyond them queue for a worker,
not for the loop.

The queue is fair between client addresses (`FairShare`, issue 21): a free
worker goes to the waiting address that holds the fewest workers, the
addresses taking turns among equals, so one address's costly `/waits`
cannot hold both workers while another address's `/score` waits behind
them. The address is the request's (`client_address`, set for each request
by taihu/api/fast.py; behind a reverse proxy, the one uvicorn reads from
X-Forwarded-For).

The costly requests (the waits search, a batch) also hold to a budget of
the worker thread's CPU time (`cpu_budget`): CPU time, not the clock, so the
waits for the GIL and for a worker do not count, and the same request is
over the budget or not whatever the load (a retry would not help, so it is
a 422 `over_budget`, not a 503).
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar, cast

from anyio.lowlevel import RunVar

from taihu.messages.error_shape import CatalogError

CPU_THREADS = 2  # worker threads for CPU-bound work, per process
CPU_BUDGET = 1.0  # seconds of CPU a /waits search or a batch may take; the costliest waits hand takes 0.2 s

T = TypeVar("T")
client_address: contextvars.ContextVar[str] = contextvars.ContextVar("taihu_client_address", default="")
_workers = ThreadPoolExecutor(CPU_THREADS, thread_name_prefix="taihu-cpu")
_share: RunVar[FairShare] = RunVar("taihu_fair_share")


class FairShare:
    """The worker slots of one event loop, handed out fairly between client addresses.

    A request takes a slot at once while one is free and no one waits;
    otherwise it waits in its address's queue. A slot set free goes to the
    waiting address holding the fewest slots, and among those to the one
    served least recently: one address's queue of costly requests then takes
    turns with every other address's, whatever its length.
    """

    def __init__(self, slots: int) -> None:
        self.free = slots
        self.held: Counter[str] = Counter()
        self.waiting: dict[str, deque[asyncio.Future[None]]] = {}
        self.served: dict[str, int] = {}  # address → when it last got a slot (addresses holding or waiting)
        self.grants = 0

    def grant(self, address: str) -> None:
        self.free -= 1
        self.held[address] += 1
        self.grants += 1
        self.served[address] = self.grants

    async def acquire(self, address: str) -> None:
        if self.free and not self.waiting:
            self.grant(address)
            return
        turn = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(address, deque()).append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # granted as it was cancelled: give the slot on
                self.release(address)
            raise

    def release(self, address: str) -> None:
        self.held[address] -= 1
        if not self.held[address]:
            del self.held[address]
        self.free += 1
        while self.free and self.waiting:
            chosen = min(self.waiting, key=lambda a: (self.held[a], self.served.get(a, 0)))
            queue = self.waiting[chosen]
            turn = queue.popleft()
            if not queue:
                del self.waiting[chosen]
            if not turn.cancelled():
                self.grant(chosen)
                turn.set_result(None)
            else:
                self.forget(chosen)
        self.forget(address)

    def forget(self, address: str) -> None:
        """An address that neither holds nor waits is dropped from `served`, so the table stays small."""
        if address not in self.held and address not in self.waiting:
            self.served.pop(address, None)


def fair_share() -> FairShare:
    """The slots of the running event loop (a loop's futures belong to it; the tests run several loops)."""
    try:
        return _share.get()
    except LookupError:
        share = FairShare(CPU_THREADS)
        _share.set(share)
        return share


async def in_worker(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`function(*args, **kwargs)` in a worker thread, at most CPU_THREADS at once, fairly by client address.

    The thread runs in a copy of the caller's context (its context variables),
    and wakes the loop once, with the result; the slot is given back when the
    function has returned, even if the caller stopped waiting for it.

    An exception the function raises is raised here, and nothing this call
    leaves behind holds it: its traceback holds the frames it went through
    (the worker's, this one), so a frame or a future still holding it would
    make a reference cycle, freed only by the collector, with the request's
    body (docs/soak.md "Garbage collection"; tests/test_abuse_cycles.py).
    """
    share = fair_share()
    address = client_address.get()
    await share.acquire(address)
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[list[Any]] = loop.create_future()
    call = partial(contextvars.copy_context().run, function, *args, **kwargs)

    def settle(result: Any, error: BaseException | None) -> None:
        share.release(address)
        if not answer.cancelled():
            answer.set_result([result, error])  # not set_exception: the future would keep the error

    def work() -> None:
        try:
            result, error = call(), None
        except BaseException as exc:  # handed to the caller, as if the function had run in its task
            result, error = None, exc
        try:
            loop.call_soon_threadsafe(settle, result, error)
        except RuntimeError:  # the loop is closed: nobody waits for the answer
            pass
        result = error = None  # this frame is in the error's traceback

    try:
        _workers.submit(work)
    except BaseException:
        share.release(address)
        raise
    outcome = await answer
    result, error = outcome
    outcome.clear()  # the future keeps the list
    if error is None:
        return cast(T, result)
    try:
        raise error
    finally:
        error = None  # this frame is in its traceback


def cpu_budget(seconds: float, key: str = "api.error.over_budget") -> Callable[[], None]:
    """A `check` for costly work: raises `over_budget` (the catalog's `key`, with its `{seconds}`) once this
    thread has used `seconds` of CPU since now."""
    end = time.thread_time() + seconds

    def check() -> None:
        if time.thread_time() > end:
            raise CatalogError(key, code="over_budget", seconds=f"{seconds:g}")

    return check
