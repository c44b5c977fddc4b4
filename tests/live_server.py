"""A real uvicorn server in a thread of the test process, on 127.0.0.1 at a free port, serving the app
`taihu serve` serves, with its uvicorn settings (`taihu.api.server.uvicorn_options`).

In-process so the test sees the server's log records (caplog) and can hold
connections open against it; bounded in time at start and at stop.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from api_app import app

from taihu.api.server import uvicorn_options

START_TIMEOUT = 30.0  # seconds; generous, since a loaded machine is slow to start a server


@contextmanager
def live_server(**config: Any) -> Iterator[tuple[str, int]]:
    """Yields (host, port) of a running server with `taihu serve`'s settings; `config` overrides them."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)  # as uvicorn binds for --workers: proto 0
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    settings: dict[str, Any] = uvicorn_options() | {"log_config": None, "access_log": False, "lifespan": "off"}
    server = uvicorn.Server(uvicorn.Config(app, **(settings | config)))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not server.started:
            assert thread.is_alive(), "the server thread ended before it started"
            assert time.monotonic() < deadline, f"the server did not start within {START_TIMEOUT} s"
            time.sleep(0.02)
        yield "127.0.0.1", port
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()
