"""The access log of `taihu serve`: a line per answer, in uvicorn's words, written a few times a second.

Our own, not uvicorn's: its access log goes through the `logging` module,
whose record, filters, formatter and a write with a flush for each line cost
some 20 µs a request on this project's machine, a third of scoring a hand
(docs/performance.md "The access log"). This one formats the same line
(`INFO:     127.0.0.1:50000 - "POST /v1/score HTTP/1.1" 200 OK`, ledger ids
written `…`, taihu/api/security.py) with one f-string, keeps it, and writes
what it holds to standard output, uvicorn's stream for it, at most
FLUSH_SECONDS later, or at once when it holds MOST_LINES; what is held at
exit is written then. A write is at most PIPE_BUF bytes of whole lines, so
that the processes of `--workers` sharing one pipe never cut each other's
lines.

`taihu serve` turns uvicorn's own off and this one on (`--no-access-log`
leaves both off); it reaches uvicorn's worker processes as an environment
variable. The answers are logged where they are made: by the protocol for a
`/score` it answers itself, by the app's outermost layer for every other
(taihu/api/fast.py), and by the protocol for the answers given before any
app runs (taihu/api/server.py): uvicorn's 400 for a request its parser
refused and ours for headers too large, whose request is written `"-"`
unless its request line is known to have been read whole; uvicorn's 503
past the concurrency limit, with its request, as uvicorn's own log writes
it; the 503 to a connection over its address's share, `"-"`, as nothing
was read. A connection closed for a request late to arrive is not
answered, and has no line.
"""

from __future__ import annotations

import asyncio
import atexit
import http
import os
import select
import sys
from collections.abc import Mapping
from typing import Any, TextIO
from urllib.parse import quote

from taihu.api.security import redacted

ACCESS_LOG_VARIABLE = "TAIHU_ACCESS_LOG"  # "1": `taihu serve` logs each answer (read at import, in each process)
FLUSH_SECONDS = 0.1  # a line is written at most this long after its answer
MOST_LINES = 256  # held lines written at once, whatever the time: memory stays bounded under a flood
PIPE_BYTES = select.PIPE_BUF  # a write to a pipe this size or less is never interleaved with another's
NOT_READ = "-"  # the request of a line when it was not read whole: the common log format's "not known"
_PHRASES = {status.value: f"{status.value} {status.phrase}" for status in http.HTTPStatus}


def request_line(method: str, path: str, query: bytes, http_version: str) -> str:
    """The request as uvicorn's access log writes it: the path quoted, a ledger id written `…`."""
    target = quote(path)
    if query:
        target += "?" + query.decode("ascii", "replace")
    return f"{method} {redacted(target)} HTTP/{http_version}"


def scope_request_line(scope: Mapping[str, Any]) -> str:
    """`request_line` of an ASGI request's scope (what uvicorn's log reads there)."""
    return request_line(scope["method"], scope["path"], scope["query_string"], scope["http_version"])


def access_line(client: tuple[str, int] | None, line: str, status: int) -> str:
    """One line of the log, as uvicorn's default access format without colours."""
    where = f"{client[0]}:{client[1]}" if client else "-"
    return f'INFO:     {where} - "{line}" {_PHRASES.get(status, status)}\n'


class AccessLog:
    """The lines of one process's answers, held and written in a few writes a second."""

    def __init__(self, on: bool, stream: TextIO | None = None) -> None:
        self.on = on
        self.stream = stream  # None: sys.stdout at each write (a test's capture, a redirected stdout)
        self.held: list[str] = []
        self.timer: asyncio.TimerHandle | None = None

    def answered(self, client: tuple[str, int] | None, line: str, status: int) -> None:
        """Logs one answer; called on the event loop's thread."""
        self.held.append(access_line(client, line, status))
        if len(self.held) >= MOST_LINES:
            self.flush()
        elif self.timer is None:
            try:
                self.timer = asyncio.get_running_loop().call_later(FLUSH_SECONDS, self.flush)
            except RuntimeError:  # no loop runs (a test calling the app by hand): at once
                self.flush()

    def flush(self) -> None:
        """Writes what is held, in writes of whole lines of at most PIPE_BYTES bytes."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        held, self.held = self.held, []
        if not held:
            return
        stream = self.stream or sys.stdout
        chunks: list[list[str]] = [[]]
        size = 0
        for line in held:
            length = len(line.encode())
            if chunks[-1] and size + length > PIPE_BYTES:
                chunks.append([])
                size = 0
            chunks[-1].append(line)
            size += length
        try:
            for chunk in chunks:
                stream.write("".join(chunk))
                stream.flush()
        except (OSError, ValueError):  # standard output closed (a pipe whose reader ended): the lines are lost
            pass


ACCESS_LOG = AccessLog(on=os.environ.get(ACCESS_LOG_VARIABLE) == "1")
atexit.register(ACCESS_LOG.flush)
