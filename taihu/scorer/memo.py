"""One memory budget for every cache of the core: register a cache here, or make it with a helper here.

Each cache alone was bounded, but not all of them together: the search
keeps one table per wildcard kind and suit mix, and 100,000 distinct hands
filled a gigabyte. Here every cache is registered with an estimate of its
bytes per entry, and the caches together are held to one budget
(`set_budget_mb`, `taihu serve --cache-mb`, 64 MB by default).

How to make a cache (the obvious thing to use for a new one):

- `lru_cache(name, maxsize, bytes_per_entry)`: `functools.lru_cache`, registered;
- `Memo(name, maxsize, bytes_per_entry)`: a dict-like memo, least-recently used out;
- `Tables(name, bytes_per_entry)`: a family of plain dicts (one per key, as the
  search's tables per StandIns), which takes what the budget leaves and
  drops the least-recently used table when it is over;
- `register(...)` for anything else that can count and clear itself.

Sizes are estimates (entries × bytes per entry, measured on typical
entries), so the budget bounds memory, not to the byte. `clear_caches()`
empties them all (tests; a server that wants its memory back).
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
F = TypeVar("F", bound=Callable[..., Any])

DEFAULT_BUDGET_MB = 64
MB = 1024 * 1024


@dataclass(frozen=True)
class Cache:
    """A registered cache: how to count its entries and to empty it."""

    name: str
    entries: Callable[[], int]
    clear: Callable[[], None]
    bytes_per_entry: int

    def estimated_bytes(self) -> int:
        return self.entries() * self.bytes_per_entry


CACHES: dict[str, Cache] = {}
_budget = [DEFAULT_BUDGET_MB * MB]  # a list, so the setter needs no `global`
_lock = threading.Lock()  # the API scores in a thread pool: eviction must not race lookups of the tables


def register(name: str, entries: Callable[[], int], clear: Callable[[], None], bytes_per_entry: int) -> None:
    """Puts a cache under the budget; a name is registered once (a reload replaces it)."""
    CACHES[name] = Cache(name, entries, clear, bytes_per_entry)


def set_budget_mb(megabytes: float) -> None:
    """The budget of all caches together, in MB; the growing caches shrink to it at their next use."""
    if megabytes <= 0:
        raise ValueError(f"the cache budget must be above 0 MB, got {megabytes}")
    _budget[0] = int(megabytes * MB)


def budget_bytes() -> int:
    return _budget[0]


def usage() -> dict[str, int]:
    """Each cache's estimated bytes, by name."""
    return {name: cache.estimated_bytes() for name, cache in CACHES.items()}


def clear_caches() -> None:
    """Empties every registered cache."""
    for cache in CACHES.values():
        cache.clear()


def lru_cache(name: str, maxsize: int, bytes_per_entry: int) -> Callable[[F], F]:
    """`functools.lru_cache(maxsize)`, registered under `name`: C speed, least-recently used out."""

    def decorate(function: F) -> F:
        cached = functools.lru_cache(maxsize=maxsize)(function)
        register(name, lambda: cached.cache_info().currsize, cached.cache_clear, bytes_per_entry)
        return cached  # type: ignore[return-value]

    return decorate


class Memo(Generic[K, V]):
    """A memo of at most `maxsize` entries; the least-recently used goes first."""

    def __init__(self, name: str, maxsize: int, bytes_per_entry: int) -> None:
        self.maxsize = maxsize
        self.entries: OrderedDict[K, V] = OrderedDict()
        register(name, self.__len__, self.clear, bytes_per_entry)

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, key: K) -> V | None:
        with _lock:
            value = self.entries.get(key)
            if value is not None:
                self.entries.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> V:
        with _lock:
            self.entries[key] = value
            self.entries.move_to_end(key)
            while len(self.entries) > self.maxsize:
                self.entries.popitem(last=False)
        return value

    def clear(self) -> None:
        self.entries.clear()


class Tables(Generic[K]):
    """Plain dicts, one per key, that together take what the budget leaves after the other caches.

    The caller fills a table as it likes (the search writes into it while it
    recurses); the family counts the entries when a table is asked for and,
    over its share, drops the least-recently used tables, then the table in
    use itself if it alone is over.
    """

    RECOUNT_EVERY = 64  # `table()` calls between full counts; in between, only the table asked for is recounted

    def __init__(self, name: str, bytes_per_entry: int) -> None:
        self.name = name
        self.bytes_per_entry = bytes_per_entry
        self.tables: OrderedDict[K, dict[Any, Any]] = OrderedDict()
        self.counted: dict[K, int] = {}  # each table's entries when last counted
        self.total = 0  # the sum of `counted`
        self.calls = 0
        register(name, self.entries, self.clear, bytes_per_entry)

    def entries(self) -> int:
        return sum(len(t) for t in list(self.tables.values()))

    def clear(self) -> None:
        with _lock:
            self.tables.clear()
            self.counted.clear()
            self.total = 0

    def share(self) -> int:
        """Entries this family may hold: the budget less what the other caches hold now."""
        others = sum(c.estimated_bytes() for c in list(CACHES.values()) if c.name != self.name)
        return max(0, budget_bytes() - others) // self.bytes_per_entry

    def table(self, key: K) -> dict[Any, Any]:
        """The table for `key`, made if new, marked most recently used; the family kept within its share."""
        with _lock:
            found = self.tables.get(key)
            if found is None:
                found = self.tables[key] = {}
                self.counted[key] = 0
            else:
                self.tables.move_to_end(key)
                self.total += len(found) - self.counted[key]
                self.counted[key] = len(found)
            self.calls += 1
            if self.calls % self.RECOUNT_EVERY == 0:  # tables filled since they were last asked for
                self.counted = {k: len(t) for k, t in self.tables.items()}
                self.total = sum(self.counted.values())
                self.limit = self.share()
            if self.total > self.limit:
                self._trim(key, found)
            return found

    limit = 0  # `share()` as of the last count: the other caches change slowly

    def _trim(self, key: K, found: dict[Any, Any]) -> None:
        self.limit = self.share()
        while self.total > self.limit and len(self.tables) > 1:  # `key` is the newest: it goes last
            oldest, _ = self.tables.popitem(last=False)
            self.total -= self.counted.pop(oldest)
        if self.total > self.limit:  # the table in use alone is over: it starts afresh
            found.clear()
            self.total -= self.counted[key]
            self.counted[key] = 0
