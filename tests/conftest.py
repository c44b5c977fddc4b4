"""Every test gets its own ledger database, so no test writes to the user's data dir."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def ledger_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "ledger.db"
    monkeypatch.setenv("TAIHU_DB", str(path))
    return path
