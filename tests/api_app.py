"""The app the tests call in-process: `create_app` with the settings of a test.

starlette's TestClient sends `Host: testserver`, so the app answers that name
besides the loopback names (tests/test_abuse_server.py checks the default).
The ledger database is each test's own: tests/conftest.py overrides the
settings dependency per test, as FastAPI's docs show for settings.
"""

from __future__ import annotations

from taihu.api.app import create_app
from taihu.api.security import LOOPBACK_NAMES
from taihu.api.settings import Settings

TEST_SETTINGS = Settings(db=None, allowed_hosts=("testserver", *LOOPBACK_NAMES))
app = create_app(TEST_SETTINGS)
