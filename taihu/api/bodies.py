"""Request bodies read and validated in a worker thread, as FastAPI would read them (issue 21, review item C).

FastAPI parses a route's JSON body and validates it on the event loop, before
the route runs: a large valid body (64 KB of `[1,1,…]`, a long list of
events) then held the loop, and `/health` with it. The routes that score,
settle or search read their body as bytes instead and hand it, with the
work, to one worker thread (`taihu.api.offload.in_worker`), where `read`
makes of it what FastAPI would have: the same model, or the same
RequestValidationError (the app's handler words it) or 400.

The JSON is parsed by orjson (a 64 KB list in 0.4 ms against the standard
parser's 2 ms, which holds the interpreter, so the loop, as long); where
orjson refuses the text, or could read a number differently (it reads an
integer past 64 bits as a float), the standard parser decides, as it does
in FastAPI, so answers and messages stay the same (tests/test_api_bodies.py).
"""

from __future__ import annotations

import json
import re
from email.message import Message
from typing import Any, TypeVar

import orjson
from fastapi.exceptions import RequestValidationError
from pydantic import TypeAdapter, ValidationError
from starlette.exceptions import HTTPException

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


def body_value(body: bytes, content_type: str | None) -> Any:
    """What FastAPI validates for a route's body: the JSON value, or the bytes when they are not JSON by type."""
    if not body:
        raise RequestValidationError([{"type": "missing", "loc": ("body",), "msg": "Field required", "input": None}])
    if not is_json(content_type):
        return body
    try:
        return json_value(body)
    except json.JSONDecodeError as exc:
        error = {"type": "json_invalid", "loc": ("body", exc.pos), "msg": "JSON decode error", "input": {}}
        raise RequestValidationError([error | {"ctx": {"error": exc.msg}}], body=exc.doc) from exc
    except Exception as exc:  # not UTF-8 (nor UTF-16/32): FastAPI's 400
        raise HTTPException(status_code=400, detail="There was an error parsing the body") from exc


def read(adapter: TypeAdapter[M], body: bytes, content_type: str | None) -> M:
    """The body as the route's model (`adapter`, made once at import), or FastAPI's error for it."""
    value = body_value(body, content_type)
    try:
        return adapter.validate_python(value, from_attributes=True)
    except ValidationError as exc:
        problems = exc.errors(include_url=False)
        raise RequestValidationError([p | {"loc": ("body", *p["loc"])} for p in problems]) from None
