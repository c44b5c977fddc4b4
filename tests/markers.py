"""The markers of what a test needs beyond its own process (pyproject.toml lists them), so that `make check`
can leave those tests out and stay fast.

`server` and `browser` are read from what a test calls: its own code, its fixtures' code and the helpers of
tests/ those call, for the names in CALLS. `postgres` is every test whose fixtures start the cluster, and the
PostgreSQL half of a `store_db` fixture (it asks for `pg_url` only for that half). `slow` and `nginx` are
written on the tests themselves.

What the reading misses cannot pass unseen: a test not marked `server` that binds an internet socket or
starts `taihu serve` fails (`unmarked_servers`), and `pg_url` fails in a test not marked `postgres`.
"""

from __future__ import annotations

import inspect
import socket
import subprocess
import types
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).resolve().parent
MARKERS = ("slow", "server", "browser", "postgres", "nginx")
# a name a test's code calls, and what calling it needs
CALLS = {
    "live_server": "server",  # tests/live_server.py: uvicorn in a thread
    "Server": "server",  # uvicorn.Server, run by the test itself
    "taihu_serve": "server",  # a `taihu serve` process (tests/test_api.py)
    "free_port": "server",  # a port picked for a server to listen on
    "sync_playwright": "browser",
    "Cluster": "postgres",  # tests/pg_cluster.py, as the `postgres` fixture starts it
}
SLOW_S = 3.0  # a test of `make check` longer than this is named at the end of the run


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    """A function's code and the code of the functions and lambdas written inside it."""
    yield code
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from _codes(constant)


@cache
def _in_tests(filename: str) -> bool:
    return Path(filename).resolve().is_relative_to(TESTS)


def _own(function: object) -> Callable[..., Any] | None:
    """The function as written in tests/ (under decorators such as @contextmanager or @given), or None."""
    function = getattr(getattr(function, "hypothesis", None), "inner_test", function)
    function = inspect.unwrap(function) if callable(function) else function
    code = getattr(function, "__code__", None)
    if code is None or not _in_tests(code.co_filename):
        return None
    return function  # type: ignore[return-value]


@cache
def _needs_of(function: Callable[..., Any]) -> frozenset[str]:
    """What `function` needs by the names it calls, through the helpers of tests/ it calls."""
    needs: set[str] = set()
    seen: set[Callable[..., Any]] = set()
    todo = [function]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        for code in _codes(current.__code__):
            for name in code.co_names:
                if name in CALLS:
                    needs.add(CALLS[name])
                elif (helper := _own(current.__globals__.get(name))) is not None:
                    todo.append(helper)
    return frozenset(needs)


def needs(item: pytest.Item) -> set[str]:
    """The markers `item` needs by what it and its fixtures call."""
    found: set[str] = set()
    functions: list[object] = [getattr(item, "function", None)]
    info = getattr(item, "_fixtureinfo", None)
    for definitions in info.name2fixturedefs.values() if info is not None else ():
        functions += [definition.func for definition in definitions]
    for function in functions:
        if (own := _own(function)) is not None:
            found |= _needs_of(own)
    callspec = getattr(item, "callspec", None)
    if callspec is not None and callspec.params.get("store_db") == "postgresql":
        found.add("postgres")
    return found


def mark_by_what_runs(items: Iterable[pytest.Item]) -> None:
    for item in items:
        for name in sorted(needs(item) - {mark.name for mark in item.iter_markers()}):
            item.add_marker(name)


def require_marker(request: pytest.FixtureRequest, name: str) -> None:
    if request.node.get_closest_marker(name) is None:
        pytest.fail(f"{request.node.nodeid} uses {request.fixturename} but is not marked {name}", pytrace=False)


@pytest.fixture(autouse=True)
def unmarked_servers(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """What a test not marked `server` did that a server does; the test fails with it at teardown."""
    done: list[str] = []
    if request.node.get_closest_marker("server") is None:
        bind, start = socket.socket.bind, subprocess.Popen.__init__

        def watched_bind(sock: socket.socket, address: Any) -> None:
            if sock.family in (socket.AF_INET, socket.AF_INET6):
                done.append(f"bound a socket to {address}")
            bind(sock, address)

        def watched_start(process: subprocess.Popen[Any], args: Any, *rest: Any, **options: Any) -> None:
            if isinstance(args, list | tuple) and "serve" in map(str, args):
                done.append(f"started {' '.join(map(str, args))}")
            start(process, args, *rest, **options)

        monkeypatch.setattr(socket.socket, "bind", watched_bind)
        monkeypatch.setattr(subprocess.Popen, "__init__", watched_start)
    yield done
    if done:
        pytest.fail(f"not marked server, but it {done[0]}: mark it @pytest.mark.server", pytrace=False)


_slow: list[tuple[float, str]] = []


def note_duration(report: pytest.TestReport) -> None:
    if report.when == "call" and report.duration > SLOW_S and not set(MARKERS) & set(report.keywords):
        _slow.append((report.duration, report.nodeid))


def report_slow(terminalreporter: pytest.TerminalReporter) -> None:
    if _slow:
        terminalreporter.write_line(f"tests over {SLOW_S:g} s not marked slow (make check runs them):", yellow=True)
        for duration, nodeid in sorted(_slow, reverse=True)[:10]:
            terminalreporter.write_line(f"  {duration:5.1f} s  {nodeid}")
