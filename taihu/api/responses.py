"""The answers' JSON (orjson, and one that cannot fail to render) and the one error model of every status.

Every error answer is an `ErrorAnswer` (taihu/messages/error_shape.py builds it): `code` (stable
snake_case, for a program to branch on), `message` and `detail` (one readable sentence in the
answer's language), the place and the fix. The OpenAPI document lists it for every status a
route can answer, so a generated client has one error type.
"""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import HTTPException
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from taihu.messages import Language, text
from taihu.messages.codes import ERROR_CODES
from taihu.messages.error_shape import error_shape, hand_error_shape
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


RawHeaders = list[tuple[bytes, bytes]]  # an ASGI message's headers, names in lower case


def header_value(headers: RawHeaders, name: bytes) -> bytes | None:
    """The value of header `name` (lower case) in an answer's headers, or None."""
    return next((value for key, value in headers if key == name), None)


def add_vary(headers: RawHeaders, name: bytes) -> RawHeaders:
    """`headers` with `name` added to `Vary`, one `Vary` header as starlette's `add_vary_header` writes it."""
    vary = header_value(headers, b"vary")
    if vary is None:
        return [*headers, (b"vary", name)]
    return [*((key, value) for key, value in headers if key != b"vary"), (b"vary", vary + b", " + name)]


class JSON(JSONResponse):
    """JSONResponse rendered by orjson, whatever text it carries.

    The library quotes input through `quote`, so escaping is the second line:
    an error answer built from any other text still renders, so the handler
    never fails and the connection is kept.
    """

    def render(self, content: Any) -> bytes:
        return json_bytes(content)


def hand_error_answer(exc: HandError, lang: Language, status: int = 422, **more: Any) -> JSON:
    """A HandError as its answer: the one shape, its texts in `lang` (a 422 unless it says otherwise)."""
    return JSON(hand_error_shape(exc, lang, **more), status_code=status)


def error_answer(
    status: int,
    key: str,
    lang: Language,
    /,
    *,
    code: str | None = None,
    headers: dict[str, str] | None = None,
    more: dict[str, Any] | None = None,
    **params: object,
) -> JSON:
    """An error of the API's own (a token missing, a body too large, a bug) in the one shape: the catalog's
    `key` (`api.error.token_missing`) in `lang`, its `code` the key's last part unless given."""
    shape = error_shape(code or key.rsplit(".", 1)[-1], text(key, lang, **params), **(more or {}))
    return JSON(shape, status_code=status, headers=headers)


class Refusal(HTTPException):
    """A refusal of the API's own (a token missing, a ledger not there, a rate spent) as an exception, so a
    route or a dependency can raise it; the app answers it in the request's language (`answer`).

    `key` is its catalog entry, `params` the entry's parameters, `hint` the catalog entry of the fix (if any); its
    `detail` is the English text."""

    def __init__(
        self,
        status: int,
        key: str,
        /,
        *,
        code: str | None = None,
        headers: dict[str, str] | None = None,
        hint: str | None = None,
        **params: object,
    ) -> None:
        super().__init__(status, text(key, "en", **params), headers)
        self.key, self.code, self.hint = key, code or key.rsplit(".", 1)[-1], hint
        self.params: dict[str, Any] = params

    def answer(self, lang: Language) -> JSON:
        headers = dict(self.headers) if self.headers is not None else None
        more = {"hint": text(self.hint, lang)} if self.hint is not None else None
        return error_answer(self.status_code, self.key, lang, code=self.code, headers=headers, more=more, **self.params)


class ErrorAnswer(BaseModel):
    """Every error answer, whatever its status, and each batch item's `error`: one shape.

    `code` is for programs (stable snake_case; it never changes with the language or the wording),
    `message` for people, in the language asked for (`lang`, `Accept-Language`); `detail` is the same
    text, kept for clients written before `message`. The place, where the problem has one: `column`
    (1-based, in the hand string), `seat` and `player` (as the client wrote them), `field` (the request
    field: `hand`, `players.E`, `query.limit`); `hint` says how to fix it. A field that does not apply
    is null, never absent. docs/api.md "Errors" lists the codes.
    """

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                error_shape(
                    "unknown_tile",
                    "unknown tile 'x' at column 6; tiles are 1–9 then m, p or s",
                    column=6,
                )
            ]
        }
    )
    code: str = Field(
        description="a stable snake_case id: unknown_tile, tile_count, token_missing, …",
        json_schema_extra={"enum": list(ERROR_CODES)},
    )
    message: str = Field(description="what is wrong, in one readable sentence, in the answer's language")
    detail: str = Field(description="the same text as `message` (for clients written before it)")
    column: int | None = Field(description="1-based column in the hand string, where the problem has a place")
    seat: str | None = Field(description="the seat the problem is about (E S W N, or a name), as the client wrote it")
    player: str | None = Field(description="the player the problem is about, as the client wrote the name")
    field: str | None = Field(description="the request field the problem is in (`hand`, `players.E`, `query.limit`)")
    hint: str | None = Field(description="how to fix it, where a fix is known, in the answer's language")
    deal: int | None = Field(None, description="409 `deal_conflict` only: the ledger's current number of deals")
    error_id: str | None = Field(None, description="500 only: the id of the traceback in the server log")


DESCRIPTIONS: dict[int, str] = {
    400: "The Host header names a host this server does not answer (`bad_host`: `taihu serve --allowed-host`), "
    "or a cross-origin preflight is refused (`cors_refused`)",
    401: "No token: send `Authorization: Bearer <token>` (`token_missing`)",
    403: "None of this ledger's tokens (`token_wrong`), a scorer's token where the owner's is needed "
    "(`owner_only`), an invite not open (`invite_wrong`), a read link not the ledger's (`read_link_wrong`), or "
    "a private ledger read by its id alone (`ledger_private`); nothing was changed",
    404: "No ledger with this id (`ledger_not_found`), no such device, invite or read link (`device_not_found`, "
    "`invite_not_found`, `read_link_not_found`), or no such path (`not_found`)",
    409: "The ledger holds its most deals, devices, invites or read links, or the database its most ledgers "
    "(`ledger_full`, "
    "`too_many_…`), or another client changed the ledger first: `deal` is the current count (`deal_conflict`)",
    412: "An undo's If-Match is not the ledger's ETag: it changed since; nothing was removed (`deal_conflict`, "
    "`deal` the current count)",
    428: "An undo that names no deal: send `?deal=N` (the last deal's number) or `If-Match` (the ledger's ETag); "
    "nothing was removed (`precondition_required`)",
    413: "The request body is over 64 KB (`body_too_large`)",
    415: "The body is not sent as JSON: send `Content-Type: application/json` (`unsupported_media_type`)",
    422: "Bad input: `message` says what and where, `code` which problem, `column` / `seat` / `field` the place",
    429: "Too many requests from this address: wait the seconds of Retry-After (`rate_limited`)",
    503: "The ledger database cannot be reached (`database_unavailable`): retry after the seconds of Retry-After; "
    "or the server holds as many connections as it takes (`--limit-concurrency`): retry after a few seconds "
    "(the server's own plain-text answer, written before the app reads the request)",
    500: "A bug in taihu, never bad input (`internal_error`): `error_id` finds it in the server log",
}
# what any route can answer: a Host refused, a body too big (any method), bad input, a full server, a bug
ALWAYS = (400, 413, 422, 503, 500)
WITH_BODY = (415,)  # what a route that reads a body can answer besides: a body not sent as JSON


HEADERS = {401: ("WWW-Authenticate",), 429: ("Retry-After",), 503: ("Retry-After",)}  # what those answers carry


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The `responses` of a route: the statuses it can answer besides ALWAYS, each with the one error model."""
    from taihu.api.headers import declared

    return {
        status: {"model": ErrorAnswer, "description": DESCRIPTIONS[status]}
        | ({"headers": declared(*HEADERS[status])} if status in HEADERS else {})
        for status in sorted({*statuses, *ALWAYS}, key=lambda s: (s == 500, s))
    }


def lines_in(lines: list[str], lang: Language) -> list[str]:
    """The arithmetic's lines in `lang`: each line's own `in_lang` where it has one (a text with a code)."""
    return [line.in_lang(lang) if hasattr(line, "in_lang") else line for line in lines]
