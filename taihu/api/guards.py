"""Checks on a request body before FastAPI parses it (docs/limits.md): its size, sent as JSON, not too deep."""

from __future__ import annotations

import json
from functools import partial

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from taihu.api.budget import run_check
from taihu.api.errors import validation_shape
from taihu.api.language import scope_language
from taihu.api.responses import JSON, error_answer, hand_error_answer
from taihu.messages import Language
from taihu.scorer.errors import HandError
from taihu.scorer.limits import REQUEST_BODY, check_json_text


def media_type(scope: Scope) -> str | None:
    """The request's Content-Type without its parameters, in lower case; None when it has none."""
    value = next((v for k, v in scope["headers"] if k == b"content-type"), None)
    return value.decode("latin-1").split(";", 1)[0].strip().lower() if value is not None else None


def is_json(media: str | None) -> bool:
    """JSON, or no Content-Type at all (read as JSON, as FastAPI does)."""
    return media is None or media == "application/json" or media.endswith("+json")


MAX_BODY = 64 * 1024  # a table is ~1 KB; the cap keeps a single request from tying up the server
# bodies larger than this are checked on a worker thread: 0.4 ms of checks and 0.6 ms of parsing at MAX_BODY,
# which eight clients sending such bodies would keep the event loop busy with. A batch of 100 hands (9 KB) stays
# on the loop: on a thread it would be parsed twice and cross to the thread and back once more.
CHECK_ON_LOOP_UP_TO = 16 * 1024
CHECKED_METHODS = frozenset({"POST", "PUT", "PATCH"})  # the methods whose body is checked as JSON


def too_large(size: int | None, lang: Language) -> JSONResponse:
    if size is None:  # counted while it arrived: its size is not known
        return error_answer(413, "api.error.body_too_large_streamed", lang, code="body_too_large", limit=MAX_BODY)
    return error_answer(413, "api.error.body_too_large", lang, size=size, limit=MAX_BODY)


class BodyChecks:
    """Reads the body once, and refuses before FastAPI parses it: a body too large (a 413), and for a POST,
    PUT or PATCH one sent as something else than JSON (a 415), or nested too deep or with too long a number
    (a 422). What passes goes on whole.

    The size is checked by Content-Length, then by counting what arrives: a chunked request has no
    Content-Length, and a client may send more than it announced. The JSON check is linear; a body over
    `CHECK_ON_LOOP_UP_TO` is checked on a worker thread (`run_check`), and parsed there too, so that a body
    that is not JSON is refused there, as FastAPI would refuse it (`not_json`), and not parsed on the loop.
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = next((v for k, v in scope["headers"] if k == b"content-length"), None)
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await too_large(int(declared), scope_language(scope))(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                await too_large(None, scope_language(scope))(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        body = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        if scope["method"] in CHECKED_METHODS:
            media = media_type(scope)
            if body and not is_json(media):
                refused = error_answer(415, "api.error.unsupported_media_type", scope_language(scope), media=media)
                await refused(scope, receive, send)
                return
            if len(body) <= CHECK_ON_LOOP_UP_TO:
                problem = body_problem(body)
            else:
                problem = await run_check(partial(body_problem, body, parse=media is not None))
            if isinstance(problem, HandError):
                await hand_error_answer(problem, scope_language(scope))(scope, receive, send)
                return
            if problem is not None:
                await not_json(problem, scope_language(scope))(scope, receive, send)
                return
        await self.app(scope, replaying(body, receive), send)


def body_problem(body: bytes, parse: bool = False) -> HandError | json.JSONDecodeError | None:
    """What is wrong with a JSON body: over a bound (`check_json_text`), or with `parse`, not JSON at all (what
    FastAPI's parser would say of it); None when neither. Text that is not UTF-8 is left to FastAPI."""
    try:
        check_json_text(body, REQUEST_BODY)
        if parse:
            json.loads(body)  # as starlette's `Request.json` reads a body
    except (HandError, json.JSONDecodeError) as exc:
        return exc
    except UnicodeDecodeError:
        pass
    return None


def not_json(exc: json.JSONDecodeError, lang: Language) -> JSON:
    """The refusal of a body that is not JSON, as the app answers FastAPI's (`json_invalid`) for a smaller one."""
    error = {"type": "json_invalid", "loc": ("body", exc.pos), "msg": "JSON decode error", "ctx": {"error": exc.msg}}
    return JSON(validation_shape([error], lang, what="body"), status_code=422)


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
