"""Checks on a request body before FastAPI parses it (docs/limits.md): sent as JSON, not nested too deep."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from taihu.api.language import scope_language
from taihu.api.responses import error_answer, hand_error_answer
from taihu.scorer.errors import HandError
from taihu.scorer.limits import REQUEST_BODY, check_json_text


def media_type(scope: Scope) -> str | None:
    """The request's Content-Type without its parameters, in lower case; None when it has none."""
    value = next((v for k, v in scope["headers"] if k == b"content-type"), None)
    return value.decode("latin-1").split(";", 1)[0].strip().lower() if value is not None else None


def is_json(media: str | None) -> bool:
    """JSON, or no Content-Type at all (read as JSON, as FastAPI does)."""
    return media is None or media == "application/json" or media.endswith("+json")


class JsonGuard:
    """Refuses a body sent as something else than JSON (a 415), or nested too deep or with too long a number
    (a 422), before it is parsed.

    Installed inside BodyLimit, so the body it reads is already capped in size; the check is linear,
    0.4 ms for the largest body, so it runs on the event loop.
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
        media = media_type(scope)
        if body and not is_json(media):
            refused = error_answer(415, "api.error.unsupported_media_type", scope_language(scope), media=media)
            await refused(scope, receive, send)
            return
        try:
            check_json_text(body, REQUEST_BODY)
        except HandError as exc:
            await hand_error_answer(exc, scope_language(scope))(scope, receive, send)
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
