"""The error answers: their models (for /docs), and a response that cannot fail to render, whatever text it carries."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse
from pydantic import BaseModel

from taihu.scorer.errors import HandError, printable


def _escaped(content: Any) -> Any:
    """Every string in `content` with what UTF-8 cannot encode (a lone surrogate) written as `\\ud800`."""
    if isinstance(content, str):
        return printable(content)
    if isinstance(content, dict):
        return {_escaped(k): _escaped(v) for k, v in content.items()}
    if isinstance(content, list | tuple):
        return [_escaped(v) for v in content]
    return content


def error_body(exc: HandError) -> dict[str, Any]:
    """The JSON of a 422 for a HandError raised outside a route (JsonGuard): what the app's handler answers."""
    return exc.as_dict()


class SafeJSONResponse(JSONResponse):
    """JSONResponse whose rendering survives text UTF-8 cannot encode.

    The library quotes input through `quote`, so this is the second line: an
    error answer built from any other text still renders, so the handler
    never fails and the connection is kept.
    """

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return super().render(_escaped(content))


class Problem(BaseModel):
    """Every error answer: one readable string (docs/api.md "HTTP"), not FastAPI's list of errors."""

    detail: str


class BadInput(Problem):
    """A 422: the library's message, its stable `code`, and the 1-based column in the hand where known."""

    code: str
    column: int | None


class InternalError(Problem):
    """A 500 (a bug, never bad input): `detail` is "internal error"; `error_id` finds the traceback in the log."""

    error_id: str


# Declared so the OpenAPI document shows the 422 that is really sent (and the body cap's 413).
ERRORS: dict[int | str, dict[str, Any]] = {
    413: {"model": Problem, "description": "The request body is over 64 KB"},
    422: {"model": BadInput, "description": "Bad input: the library's message"},
    500: {"model": InternalError, "description": "A bug in taihu (never bad input); the id is in the server log"},
}
