"""Every test gets its own ledger database, so no test writes to the user's data dir.

The app answers only the Host names `taihu serve` lists (the loopback names by
default); starlette's TestClient sends `Host: testserver`, so the tests list it
too, before any test imports the app (tests/test_abuse_server.py checks the default).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from taihu.api.security import HOSTS_ENV, LOOPBACK_NAMES

os.environ.setdefault(HOSTS_ENV, " ".join(("testserver", *LOOPBACK_NAMES)))


@pytest.fixture(autouse=True)
def ledger_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "ledger.db"
    monkeypatch.setenv("TAIHU_DB", str(path))
    return path


@pytest.fixture(autouse=True)
def ledger_rates() -> None:
    """Each test starts with the app's rate limits unused (they are the app's: docs/limits.md)."""
    api = sys.modules.get("taihu.api.app")
    if api is not None:
        api.app.state.ledger_rates = None
