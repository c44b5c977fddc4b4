"""Running the API: stock uvicorn with its public settings, on the app factory (docs/deploy.md).

`taihu serve` alone is for a table's LAN. uvicorn bounds what a process
holds (`limit_concurrency`: open connections beyond it get a 503), how long
an idle connection stays (`timeout_keep_alive`) and how large a request
head may grow (`h11_max_incomplete_event_size`, where the h11 parser runs);
connection floods, slow clients and TLS are the reverse proxy's job, on the
internet (docs/limits.md, and the nginx site of docs/deploy.md).

With one process the app is made here from the settings; with `workers` > 1
uvicorn's processes each import the factory by name, and the settings reach
them through the environment (`Settings.as_environment`).
"""

from __future__ import annotations

import os
from typing import Any

import uvicorn

from taihu.api.app import create_app
from taihu.api.settings import Settings

APP_FACTORY = "taihu.api.app:create_app"
KEEP_ALIVE = 5  # seconds a connection may sit idle after an answer
MAX_CONNECTIONS = 100  # open connections per process; beyond, a request is answered 503
MAX_HEAD_BYTES = 16 * 1024  # a request head still incomplete at this size is refused (h11)
# seconds a stop waits for answers in progress: a ledger's event stream never ends by itself, so without a
# bound one watching phone would keep the server from stopping (its reader reconnects, to another host)
SHUTDOWN_GRACE_S = 5


def uvicorn_options(
    limit_concurrency: int = MAX_CONNECTIONS,
    timeout_keep_alive: int = KEEP_ALIVE,
    forwarded_allow_ips: str | None = None,
    root_path: str = "",
    access_log: bool = True,
) -> dict[str, Any]:
    """uvicorn's settings for `taihu serve`, shared with the tests and the bench.

    `forwarded_allow_ips`: the proxies whose `X-Forwarded-For` names the client (uvicorn's
    `--forwarded-allow-ips`; by default only 127.0.0.1): the access log and the per-client rate
    limits then see the client's address, not the proxy's."""
    return {
        "limit_concurrency": limit_concurrency,
        "timeout_keep_alive": timeout_keep_alive,
        "h11_max_incomplete_event_size": MAX_HEAD_BYTES,
        "timeout_graceful_shutdown": SHUTDOWN_GRACE_S,
        "proxy_headers": True,
        "forwarded_allow_ips": forwarded_allow_ips,
        "root_path": root_path.rstrip("/"),
        "access_log": access_log,
    }


def serve(settings: Settings, host: str, port: int, workers: int = 1, **options: Any) -> None:
    """Runs the API until stopped; `options` are `uvicorn_options`' (`workers` > 1: uvicorn's worker mode)."""
    config = uvicorn_options(**options)
    if workers == 1:
        uvicorn.run(create_app(settings), host=host, port=port, **config)
        return
    os.environ.update(settings.as_environment())
    uvicorn.run(APP_FACTORY, factory=True, host=host, port=port, workers=workers, **config)
