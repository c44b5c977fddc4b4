"""Checks on a request body before FastAPI parses it (docs/limits.md)."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from taihu.api.offload import in_worker
from taihu.api.responses import SafeJSONResponse, error_body
from taihu.scorer.errors import HandError
from taihu.scorer.limits import check_json_text

INLINE_BYTES = 4 * 1024  # a body this small is checked on the event loop


class JsonGuard:
    """Refuses a body nested too deep or with too long a number, as a 422, before it is parsed.

    Installed inside BodyLimit, so the body it reads is already capped in size.
    A body of up to INLINE_BYTES is checked on the event loop (a few µs: a
    trip to a worker thread costs more); a larger one in a worker thread.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        body = b""
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        try:
            if len(body) <= INLINE_BYTES:
                check_json_text(body, "the request body")
            else:
                await in_worker(check_json_text, body, "the request body")  # linear, yet 0.4 ms for 64 KB
        except HandError as exc:
            await SafeJSONResponse(error_body(exc), status_code=422)(scope, receive, send)
            return
        await self.app(scope, replaying(body, receive), send)


def replaying(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the body already read once, then whatever the client sends next."""
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if replayed:
            return await receive()
        replayed = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay
