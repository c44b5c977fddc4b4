"""The server's settings: one object, read once, passed to the app factory (docs/deploy.md).

`taihu serve` makes it from its options; without them, each field is read
from its `TAIHU_*` environment variable (`TAIHU_DB`, `TAIHU_ALLOWED_HOSTS`,
`TAIHU_CORS_ORIGINS`, `TAIHU_API_ONLY`, `TAIHU_CACHE_MB`, `TAIHU_TELEMETRY`), as pydantic-settings
reads them: a list as JSON. No other module of taihu reads the environment.

uvicorn's worker processes (`--workers` > 1) import the app by name and
call its factory with no argument: the environment is the one channel into
them, so `taihu serve` writes these settings there (`as_environment`) and
each worker reads them back here.
"""

from __future__ import annotations

import json

from fastapi import Request
from pydantic import field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from taihu.api.page import check_origin
from taihu.api.security import LOOPBACK_NAMES, check_host

PREFIX = "TAIHU_"


class Settings(BaseSettings):
    """What the app serves and how; the server's own settings (port, workers, …) are uvicorn's."""

    model_config = SettingsConfigDict(env_prefix=PREFIX, frozen=True, extra="forbid")

    db: str | None = None
    """The ledger database: a SQLite file or a `postgresql://` URL; None: the user data dir's file."""
    allowed_hosts: tuple[str, ...] = LOOPBACK_NAMES
    """The Host names answered (taihu/api/security.py); any other is a 400 `bad_host`."""
    cors_origins: tuple[str, ...] = ()
    """The origins whose pages may call the API from a browser; none: no CORS headers at all."""
    api_only: bool = False
    """The API alone: no page at `/`, no `/docs` or `/redoc`."""
    cache_mb: float | None = None
    """Memory for the core's caches, per process; None: the core's default."""
    telemetry: bool = False
    """FastAPI's own OpenTelemetry spans, metrics and logs, through the providers the process configures
    (`opentelemetry-instrument`). Off, FastAPI does not look for those providers on every request (some 23 K
    instructions, 1.5% of a `POST /v1/score`: docs/performance.md)."""

    @field_validator("allowed_hosts")
    @classmethod
    def host_names(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(check_host(name, PREFIX + "ALLOWED_HOSTS") for name in names)

    @field_validator("cors_origins")
    @classmethod
    def origins(cls, origins: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(check_origin(origin, PREFIX + "CORS_ORIGINS") for origin in origins)

    def as_environment(self) -> dict[str, str]:
        """The variables that make the same settings in another process (a uvicorn worker)."""
        values = self.model_dump(exclude_none=True)
        return {
            PREFIX + name.upper(): json.dumps(value) if isinstance(value, tuple | list | bool) else str(value)
            for name, value in values.items()
        }


def settings_of(request: Request) -> Settings:
    """A dependency: the app's settings (a test overrides it, as FastAPI's docs show)."""
    settings: Settings = request.app.state.settings
    return settings
