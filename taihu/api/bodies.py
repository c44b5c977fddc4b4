"""Request bodies read and validated in a worker thread, as FastAPI would read them (issue 21, review item C).

FastAPI parses a route's JSON body and validates it on the event loop, before
the route runs: a large valid body (64 KB of `[1,1,…]`, a long list of
events) then held the loop, and `/health` with it. The routes that score,
settle or search read their body as bytes instead and hand it, with the
work, to one worker thread (`taihu.api.offload.in_worker`), where `read`
makes of it what FastAPI would have: the same model, or the same
RequestValidationError (the app's handler words it) or 400. The ledger's
routes, whose work is the database's, take their body from the dependencies
`json_body` and `body_of`, which decode and validate it in a worker thread,
each at the point FastAPI would (issue 21).

The JSON is parsed by orjson (a 64 KB list in 0.4 ms against the standard
parser's 2 ms, which holds the interpreter, so the loop, as long); where
orjson refuses the text, or could read a number differently (it reads an
integer past 64 bits as a float), the standard parser decides, as it does
in FastAPI, so answers and messages stay the same (tests/test_api_bodies.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from email.message import Message
from typing import Any, TypeVar

import orjson
from fastapi import Depends, Request
from fastapi.exceptions import RequestValidationError
from pydantic import TypeAdapter, ValidationError
from starlette.exceptions import HTTPException

from taihu.api.offload import in_worker

M = TypeVar("M")
_LONG_DIGITS = re.compile(rb"\d{19}")  # an integer orjson may read as a float (past 64 bits)


def json_value(body: bytes) -> Any:
    """`json.loads(body)`, through orjson where that gives the same value."""
    if _LONG_DIGITS.search(body) is None:
        try:
            return orjson.loads(body)
        except orjson.JSONDecodeError:
            pass  # the standard parser raises its own error, with its words and place
    return json.loads(body)


def is_json(content_type: str | None) -> bool:
    """FastAPI's test of a content type for a JSON body: `application/json` or `application/…+json`."""
    if not content_type:
        return False  # FastAPI's strict content type: a body without one is not read as JSON
    if content_type == "application/json":
        return True  # what the parse below finds, without it (some µs: nearly every body)
    message = Message()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (subtype == "json" or subtype.endswith("+json"))


class Missing:
    """No body at all (FastAPI's `Undefined`): a required body is then a `missing` field, not a wrong value."""


MISSING = Missing()


def decoded(body: bytes, content_type: str | None) -> Any:
    """What FastAPI validates for a route's body: the JSON value, the bytes when they are not JSON by type,
    MISSING when there are none; its 422 for broken JSON and its 400 for text that is not UTF-8, as it raises
    them, before the route's dependencies."""
    if not body:
        return MISSING
    if not is_json(content_type):
        return body
    try:
        return json_value(body)
    except json.JSONDecodeError as exc:
        error = {"type": "json_invalid", "loc": ("body", exc.pos), "msg": "JSON decode error", "input": {}}
        raise RequestValidationError([error | {"ctx": {"error": exc.msg}}], body=exc.doc) from exc
    except Exception as exc:  # not UTF-8 (nor UTF-16/32): FastAPI's 400 (the app's handler reads its cause)
        raise HTTPException(status_code=400, detail="There was an error parsing the body") from exc


def validated(adapter: TypeAdapter[M], value: Any) -> M:
    """A decoded body as the route's model (`adapter`, made once at import), or FastAPI's 422 for it."""
    if value is MISSING:
        raise RequestValidationError([{"type": "missing", "loc": ("body",), "msg": "Field required", "input": None}])
    try:
        return adapter.validate_python(value, from_attributes=True)
    except ValidationError as exc:
        problems = exc.errors(include_url=False)
        raise RequestValidationError([p | {"loc": ("body", *p["loc"])} for p in problems]) from None


def read(adapter: TypeAdapter[M], body: bytes, content_type: str | None) -> M:
    """The body as the route's model, or FastAPI's error for it (in a worker thread, with the route's work)."""
    return validated(adapter, decoded(body, content_type))


async def json_body(request: Request) -> Any:
    """A dependency: the request's body `decoded` in a worker thread, off the event loop.

    FastAPI decodes a route's body before its dependencies: a route whose
    body is `body_of` a model lists this one first, so a body that is not
    JSON is refused before a missing token, as FastAPI refused it.
    """
    return await in_worker(decoded, await request.body(), request.headers.get("content-type"))


def body_of(adapter: TypeAdapter[M]) -> Callable[..., Awaitable[M]]:
    """A dependency: the body validated as `adapter`'s model, in a worker thread, for a route that FastAPI
    would otherwise read on the event loop (the ledger's). FastAPI validates a body after the route's
    dependencies: a route lists this one after them (a missing token is a 401 whatever the body holds)."""

    async def body(value: Any = Depends(json_body)) -> M:
        return await in_worker(validated, adapter, value)

    return body
