"""The answers' JSON (orjson, and one that cannot fail to render) and the one error model of every status.

Every error answer is an `ErrorAnswer`: `detail` (one readable string, as
ever) and `code` (stable snake_case, for a program to branch on), with the
place where one is known. The OpenAPI document lists it for every status a
route can answer, so a generated client has one error type.
"""

from __future__ import annotations

from typing import Any

import orjson
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

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


def json_bytes(content: Any) -> bytes:
    """`content` as JSON (orjson: a HandScore in a few µs); text UTF-8 cannot encode is escaped, never a failure."""
    try:
        return orjson.dumps(content)
    except TypeError:  # orjson's JSONEncodeError: a lone surrogate (or a value JSON has no word for)
        return orjson.dumps(_escaped(content))


class JSON(JSONResponse):
    """JSONResponse rendered by orjson, whatever text it carries.

    The library quotes input through `quote`, so escaping is the second line:
    an error answer built from any other text still renders, so the handler
    never fails and the connection is kept.
    """

    def render(self, content: Any) -> bytes:
        return json_bytes(content)


SafeJSONResponse = JSON  # the name the guards use: an answer that always renders


def error_body(exc: HandError) -> dict[str, Any]:
    """The JSON of a 422 for a HandError: what the app's handler answers."""
    return exc.as_dict()


def error_answer(status: int, detail: str, code: str, headers: dict[str, str] | None = None, **more: Any) -> JSON:
    """An error answer of the one shape: `detail`, `code`, and what else the error knows."""
    return JSON({"detail": detail, "code": code, **more}, status_code=status, headers=headers)


class ErrorAnswer(BaseModel):
    """Every error answer, whatever its status: a readable `detail` and a stable `code`.

    `detail` is for people (its wording may change), `code` for programs (it
    does not). A 422's `column` is the 1-based place in the hand string where
    one is known. `message`, `seat`, `player`, `field` and `hint` are reserved
    for finer errors and absent today; a client should read them when present.
    """

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "detail": "unknown tile 'x' at column 6; tiles are 1–9 then m, p or s",
                    "code": "unknown_tile",
                    "column": 6,
                }
            ]
        }
    )
    detail: str = Field(description="what is wrong, in one readable sentence")
    code: str = Field(description="a stable snake_case id: unknown_tile, tile_count, not_found, over_budget, …")
    column: int | None = Field(None, description="1-based column in the hand string, where the problem has a place")
    message: str | None = Field(None, description="reserved: the same text as `detail`")
    seat: str | None = Field(None, description="reserved: the seat the problem is about, as the client wrote it")
    player: str | None = Field(None, description="reserved: the player the problem is about, as the client wrote it")
    field: str | None = Field(None, description="reserved: the request field the problem is in")
    hint: str | None = Field(None, description="reserved: how to fix it")
    deal: int | None = Field(None, description="409 `deal_conflict`: the ledger's current number of deals")
    error_id: str | None = Field(None, description="500 only: the id of the traceback in the server log")


DESCRIPTIONS: dict[int, str] = {
    400: "The Host header names a host this server does not answer (`taihu serve --allowed-host`)",
    401: "No edit token: send `Authorization: Bearer <token>` (code `no_token`)",
    403: "Not this ledger's edit token; nothing was changed (code `wrong_token`)",
    404: "No ledger with this id (code `not_found`)",
    409: "The ledger holds its most deals or the database its most ledgers (`ledger_full`), or another deal got "
    "in first: `deal` is the current count (`deal_conflict`)",
    413: "The request body is over 64 KB (code `too_large`)",
    422: "Bad input: `detail` says what and where, `code` which problem",
    429: "Too many requests from this address: wait the seconds of Retry-After (code `rate_limited`)",
    503: "Too many open connections from this address, or to the server: retry after a few seconds "
    "(code `too_many_connections`)",
    500: "A bug in taihu, never bad input (code `internal_error`): `error_id` finds it in the server log",
}
ALWAYS = (400, 413, 422, 503, 500)  # what any route can answer: a Host refused, a body too big, a bad one, …


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The `responses` of a route: the statuses it can answer besides ALWAYS, each with the one error model."""
    return {
        status: {"model": ErrorAnswer, "description": DESCRIPTIONS[status]}
        for status in sorted({*statuses, *ALWAYS}, key=lambda s: (s == 500, s))
    }


ERRORS = errors()
