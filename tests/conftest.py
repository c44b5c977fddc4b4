"""Every test gets its own ledger database, so no test writes to the user's data dir.

The in-process app (tests/api_app.py) reads each test's database through its
settings dependency, overridden here; the command line reads it from `$TAIHU_DB`.

`pytest --toy-rule-set` adds the toy rule set of tests/toy_rule_set.py to the registry before the tests are
collected, by its one registry line: the suites that iterate the registry then test it as they test the six.

`postgres` is one throwaway PostgreSQL cluster for the whole run (tests/pg_cluster.py); `pg_url` is a
schema of its own in it for one test. Where PostgreSQL cannot start, its tests are skipped with the
reason in the run's summary — and under CI=true they fail instead: CI must run them.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from api_app import TEST_SETTINGS
from api_app import app as test_app
from markers import mark_by_what_runs, note_duration, report_slow, require_marker
from markers import unmarked_servers as unmarked_servers  # an autouse fixture: a server only where marked
from pg_cluster import Cluster, ClusterError

from taihu.api.settings import Settings, settings_of
from taihu.scorer.rulesets import register
from taihu.store import dispose_engines

_schemas = itertools.count(1)
_not_started: list[str] = []


@pytest.fixture(autouse=True)
def english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """No locale set, as on a bare machine: the CLI speaks its default (`--lang both`) whatever the developer's
    locale; the tests of a Chinese locale set LANG themselves (tests/test_cli_languages.py)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(autouse=True)
def ledger_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "ledger.db"
    monkeypatch.setenv("TAIHU_DB", str(path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the store's default, never the user's own
    test_app.dependency_overrides[settings_of] = settings_of_this_test
    yield path
    test_app.dependency_overrides.pop(settings_of, None)
    dispose_engines()  # each test's database has its own pool: close it with the test


def settings_of_this_test() -> Settings:
    """The app's settings with this test's database: `$TAIHU_DB` as the test set it (pg_url sets another)."""
    return TEST_SETTINGS.model_copy(update={"db": os.environ["TAIHU_DB"]})


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


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--toy-rule-set",
        action="store_true",
        help="register the toy rule set of tests/toy_rule_set.py for the run, as a new rule set would be",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--toy-rule-set"):
        from toy_rule_set import LINE

        register(LINE)  # before collection: the suites' parameters are made from the registry


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
    test_app.state.ledger_rates = None
