"""Every test gets its own ledger database, so no test writes to the user's data dir.

The app answers only the Host names `taihu serve` lists (the loopback names by
default); starlette's TestClient sends `Host: testserver`, so the tests list it
too, before any test imports the app (tests/test_abuse_server.py checks the default).

`postgres` is one throwaway PostgreSQL cluster for the whole run (tests/pg_cluster.py); `pg_url` is a
schema of its own in it for one test. Where PostgreSQL cannot start, its tests are skipped with the
reason in the run's summary — and under CI=true they fail instead: CI must run them.
"""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from markers import mark_by_what_runs, note_duration, report_slow, require_marker
from markers import unmarked_servers as unmarked_servers  # an autouse fixture: a server only where marked
from pg_cluster import Cluster, ClusterError

from taihu.api.access_log import ACCESS_LOG, ACCESS_LOG_VARIABLE
from taihu.api.security import HOSTS_ENV, LOOPBACK_NAMES
from taihu.store import dispose_engines

_schemas = itertools.count(1)
_not_started: list[str] = []

os.environ.setdefault(HOSTS_ENV, " ".join(("testserver", *LOOPBACK_NAMES)))


@pytest.fixture(autouse=True)
def english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """No locale set, as on a bare machine: the CLI speaks its default (`--lang both`) whatever the developer's
    locale; the tests of a Chinese locale set LANG themselves (tests/test_cli_languages.py)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(autouse=True)
def access_log_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """`taihu serve` (run by the CLI tests, with uvicorn.run replaced) turns the process's access log on or off
    and says it in the environment: both are put back after each test."""
    monkeypatch.setattr(ACCESS_LOG, "on", ACCESS_LOG.on)
    monkeypatch.setenv(ACCESS_LOG_VARIABLE, os.environ.get(ACCESS_LOG_VARIABLE, "0"))


@pytest.fixture(autouse=True)
def ledger_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "ledger.db"
    monkeypatch.setenv("TAIHU_DB", str(path))
    yield path
    dispose_engines()  # each test's database has its own pool: close it with the test


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    try:
        cluster = Cluster()
    except (ClusterError, OSError) as exc:
        _not_started.append(str(exc))
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL did not start, and CI runs the store's tests on it: {exc}")
        pytest.skip(f"PostgreSQL did not start: {exc}")
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(postgres: Cluster, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A schema of this test's own in the run's cluster, as $TAIHU_DB; dropped after the test."""
    require_marker(request, "postgres")
    schema = f"test_{next(_schemas)}"
    postgres.sql("taihu", f"CREATE SCHEMA {schema}")
    url = postgres.url(schema=schema)
    monkeypatch.setenv("TAIHU_DB", url)
    yield url
    dispose_engines()
    postgres.sql("taihu", f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", "postgresql"])
def store_db(request: pytest.FixtureRequest, ledger_db: Path) -> Path | str:
    """The test's database, as $TAIHU_DB says too: its SQLite file, then a schema of its own in the run's PostgreSQL."""
    return ledger_db if request.param == "sqlite" else str(request.getfixturevalue("pg_url"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    mark_by_what_runs(items)  # server, browser, postgres: what the test and its fixtures start


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    note_duration(report)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    report_slow(terminalreporter)
    if _not_started:
        terminalreporter.write_line(
            f"PostgreSQL did not start, so its tests were skipped: {_not_started[0]}", red=True, bold=True
        )


@pytest.fixture(autouse=True)
def ledger_rates() -> None:
    """Each test starts with the app's rate limits unused (they are the app's: docs/limits.md)."""
    api = sys.modules.get("taihu.api.app")
    if api is not None:
        api.app.state.ledger_rates = None
