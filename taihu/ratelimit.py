"""A per-client rate limit: a token bucket for each client, on a clock the caller gives.

Our own rather than a library's: slowapi (on `limits`) keys its limits by
route decorators on one global limiter, reads the wall clock and would add
two dependencies for about forty lines. This one is a plain object: the HTTP
shell keeps one per app (so two apps, or two tests, do not share buckets),
and a test gives it a fake clock and small limits. The ledger's limits
themselves are named in `taihu.ledger` (docs/limits.md).
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

MAX_CLIENTS = 10_000  # buckets kept at most; beyond, the least recently seen client's is forgotten


@dataclass(frozen=True)
class Rate:
    """`burst` actions at once, then one more every `every_s` seconds."""

    burst: int
    every_s: float

    def describe(self) -> str:
        return f"{self.burst} at once, then one every {self.every_s:g} s"


class RateLimiter:
    """Token buckets by client key; thread-safe (the server answers in a thread pool); memory bounded."""

    def __init__(self, rate: Rate, clock: Callable[[], float] = time.monotonic, max_clients: int = MAX_CLIENTS) -> None:
        self.rate = rate
        self.clock = clock
        self.max_clients = max_clients
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key → (tokens, when counted)
        self._lock = threading.Lock()

    def take(self, key: str) -> float:
        """Takes one action for `key`: 0.0 if it may go ahead, else the seconds until it may (nothing taken)."""
        now = self.clock()
        with self._lock:
            tokens, then = self._buckets.pop(key, (float(self.rate.burst), now))
            tokens = min(float(self.rate.burst), tokens + (now - then) / self.rate.every_s)
            wait = 0.0 if tokens >= 1.0 else (1.0 - tokens) * self.rate.every_s
            self._buckets[key] = (tokens - 1.0 if wait == 0.0 else tokens, now)  # most recently seen last
            while len(self._buckets) > self.max_clients:
                self._buckets.popitem(last=False)  # a forgotten client starts again with a full bucket
            return wait


def retry_after(wait_s: float) -> str:
    """The `Retry-After` header's value: whole seconds, rounded up, at least 1."""
    return str(max(1, math.ceil(wait_s)))


def client_key(host: str | None) -> str:
    """The key a client is limited by: its IPv4 address, or its IPv6 /64 (one host holds a whole /64)."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host  # not an address (a test client's name): the name itself
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)
