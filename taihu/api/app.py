"""The HTTP API (docs/api.md "HTTP"): parse the request, call the core, return its model.

Requests are validated by the pydantic models of `taihu.api.schemas`, the
only place pydantic is used; answers are the core's dataclasses as their
`to_dict(lang)` JSON, in the request's language (`taihu.api.language`), and
the schemas make /docs show the real shapes. Every error, whatever its
status, is the one shape `ErrorAnswer` (`code`, `message` in the request's
language, `detail`, the place, the fix): bad input is a 422. Anything else
is a bug, not bad input: a 500 with a short `error_id`, the traceback (with
that id) in the server log only.
"""

from __future__ import annotations

import logging
import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import cache, partial
from typing import Any, Literal

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi_offline import FastAPIOffline
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from taihu.api.batch import router as batch_router
from taihu.api.bodies import read
from taihu.api.contract import TAGS, VERSION, contract
from taihu.api.errors import json_reason, validation_shape
from taihu.api.fast import GZIP_FROM, GZIP_LEVEL, FastPath
from taihu.api.guards import JsonGuard, replaying
from taihu.api.head import HeadAsGet
from taihu.api.language import LanguageHeaders, request_language, scope_language
from taihu.api.ledger import router as ledger_router
from taihu.api.offload import in_worker
from taihu.api.responses import (
    JSON,
    WITH_BODY,
    Refusal,
    error_answer,
    errors,
    hand_error_answer,
    json_bytes,
    lines_in,
)
from taihu.api.schemas import SCORE_REQUEST, TABLE, HandScore, Settlement
from taihu.api.security import SecurityHeaders, TrustedHosts, hosts_from_environment, redact_access_log, redacted
from taihu.api.server import API_ONLY_VARIABLE, apply_cache_budget, settle_heap
from taihu.api.waits import router as waits_router
from taihu.messages import Language
from taihu.scorer import HandError, RuleSetInfo, rule_sets, score_hand, settle_table
from taihu.scorer.arithmetic import arithmetic

from .page import allow_origins, install_page, origins_from_environment

MAX_BODY = 64 * 1024  # a table is ~1 KB; the cap keeps a single request from tying up the server
log = logging.getLogger("taihu.api")


def too_large(size: int | None, lang: Language) -> JSONResponse:
    if size is None:  # counted while it arrived: its size is not known
        return error_answer(413, "api.error.body_too_large_streamed", lang, code="body_too_large", limit=MAX_BODY)
    return error_answer(413, "api.error.body_too_large", lang, size=size, limit=MAX_BODY)


class BodyLimit:
    """Refuses big bodies before parsing: by Content-Length, then by counting what arrives.

    Counting matters because a chunked request has no Content-Length, and a
    client may send more than it announced.
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
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
        await self.app(scope, replaying(b"".join(chunks), receive), send)


def internal_error(error_id: str, lang: Language) -> JSONResponse:
    return error_answer(500, "api.error.internal_error", lang, more={"error_id": error_id})


class CatchBugs:
    """Any exception no handler turned into an answer is a bug: log it, answer 500, keep the connection.

    Starlette's own catch-all answers and then re-raises, and the server then
    closes the keep-alive connection; here the exception stops with the answer.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watch(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except Exception as exc:
            if started:  # half an answer is out: nothing sensible can follow it
                raise
            error_id = secrets.token_hex(4)
            path = redacted(scope.get("path", ""))
            log.error("internal error %s on %s %s", error_id, scope.get("method"), path, exc_info=exc)
            await internal_error(error_id, scope_language(scope))(scope, receive, send)


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Warm up and freeze the start-up heap so full collections rescan only what requests create."""
    apply_cache_budget()  # `taihu serve --cache-mb`, in each worker process
    settle_heap()
    yield


API_ONLY = os.environ.get(API_ONLY_VARIABLE) == "1"  # `taihu serve --api-only`: no page at /, no /docs or /redoc
app = FastAPIOffline(  # /docs and /redoc from files in the package: a table may have no internet
    lifespan=lifespan,
    title="taihu",
    summary="Score and settle hands of Zhejiang/Fujian regional mahjong and of Japanese mahjong",
    description="The same answers as the `taihu` command and the `taihu` library. Every path is under `/v1` "
    "(the paths without it answer the same, for older clients). The texts of every answer are in the "
    "language of the `lang` parameter (`zh`, `en`), else of `Accept-Language`, else English; keys and codes "
    "never change with it. Every error answer has one shape, `ErrorAnswer`: a stable `code`, the `message` "
    "(and `detail`, the same text), the place and a hint; bad input is a 422, a 500 is a bug (its "
    "`error_id` is in the server log).",
    version="0.1.0",
    default_response_class=JSON,
    docs_url=None if API_ONLY else "/docs",
    redoc_url=None if API_ONLY else "/redoc",
    separate_input_output_schemas=False,
    openapi_tags=TAGS,
)
app.add_middleware(JsonGuard)  # inside BodyLimit: added first, so it sees the capped body
app.add_middleware(CatchBugs)
app.add_middleware(BodyLimit)


@app.exception_handler(HandError)
async def hand_error(request: Request, exc: HandError) -> JSONResponse:
    return hand_error_answer(exc, request_language(request))


@app.exception_handler(RequestValidationError)
async def request_invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
    return JSON(validation_shape(exc.errors(), request_language(request), what="body"), status_code=422)


@app.exception_handler(StarletteHTTPException)
async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
    """Every HTTP error in the one shape; a body FastAPI cannot decode (not UTF-8) is bad input, a 422."""
    lang = request_language(request)
    if isinstance(exc, Refusal):
        return exc.answer(lang)
    headers = dict(exc.headers or {})
    if exc.status_code == 400:
        if isinstance(exc.__cause__, UnicodeDecodeError):
            return error_answer(422, "api.error.body_not_text", lang, code="invalid_json")
        reason = json_reason(str(exc.__cause__ or exc.detail)).in_lang(lang)  # the parser's words, never English in zh
        return error_answer(422, "api.error.unreadable_body", lang, code="invalid_json", reason=reason)
    if exc.status_code == 404:  # no such path (a ledger that is not there is a Refusal: `ledger_not_found`)
        return error_answer(404, "api.error.not_found", lang, headers=headers)
    if exc.status_code == 405:
        return error_answer(405, "api.error.method_not_allowed", lang, headers=headers)
    return error_answer(exc.status_code, "api.error.http_error", lang, headers=headers, reason=str(exc.detail))


@app.exception_handler(ValidationError)
async def model_invalid(request: Request, exc: ValidationError) -> JSONResponse:
    return JSON(validation_shape(exc.errors(), request_language(request)), status_code=422)


core = APIRouter()

SHOW_ARITHMETIC = Query(
    False,
    alias="arithmetic",
    description="true: the answer's `arithmetic` holds the rule set's arithmetic from the items to the total, "
    "one step a line (the lines `taihu score` prints under its table); false: `arithmetic` is absent",
)


def scored(body: bytes, content_type: str | None, show_arithmetic: bool, lang: Language) -> JSONResponse:
    """In the worker thread: the body read as FastAPI would, scored, and its JSON in `lang`."""
    request = read(SCORE_REQUEST, body, content_type)
    result = score_hand(request.hand, rules=request.rules, options=request.options)
    return JSON(result.to_dict(lang) | ({"arithmetic": lines_in(arithmetic(result), lang)} if show_arithmetic else {}))


@core.post(
    "/score",
    operation_id="score_hand",
    tags=["scoring"],
    response_model=HandScore,
    responses=errors(*WITH_BODY),
)
async def score(request: Request, show_arithmetic: bool = SHOW_ARITHMETIC) -> JSONResponse:
    """Score one hand line: its items, subtotal, doubling and total in the rule set's unit.

    The hand is written in taihu's notation (docs/notation.md); `+` marks the winning tile, a hand without
    one is scored as a non-winner's. Bad notation is a 422 whose `column` points at the place."""
    body = await request.body()  # a ScoreRequest (the document says so: taihu.api.contract)
    return await in_worker(
        scored, body, request.headers.get("content-type"), show_arithmetic, request_language(request)
    )


def settled(body: bytes, content_type: str | None, lang: Language) -> JSONResponse:
    return JSON(settle_table(read(TABLE, body, content_type).model_dump()).to_dict(lang))


@core.post(
    "/settle",
    operation_id="settle_table",
    tags=["scoring"],
    response_model=Settlement,
    responses=errors(*WITH_BODY),
)
async def settle(request: Request) -> JSONResponse:
    """Settle one finished deal at a four-player table: each seat's score, who pays whom and why, the net."""
    body = await request.body()  # a Table (taihu.api.contract)
    return await in_worker(settled, body, request.headers.get("content-type"), request_language(request))


@cache
def rules_answer(lang: Language) -> bytes:
    """The same for every request in a language, so made once in each."""
    return json_bytes([info.to_dict(lang) for info in rule_sets()])


@core.get(
    "/rules",
    operation_id="list_rules",
    tags=["rules"],
    response_model=list[RuleSetInfo],
    responses=errors(),
)
def rules(http: Request) -> Response:
    """The rule sets with their items, house options (name, default, alternatives) and exclusions."""
    return Response(rules_answer(request_language(http)), media_type="application/json")


class Health(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"status": "ok"}]})
    status: Literal["ok"] = Field(description="always `ok`: the server answers")


@core.get("/health", operation_id="health", tags=["health"], response_model=Health, responses=errors())
async def health() -> dict[str, Any]:
    """Whether the server answers: for a load balancer or a health check. Answered however busy it is."""
    return {"status": "ok"}  # on the event loop itself, never behind the worker threads


ROUTERS = (core, batch_router, waits_router, ledger_router)
for router in ROUTERS:
    app.include_router(router, prefix=VERSION)  # the contract: /v1/…
    app.include_router(router, include_in_schema=False)  # the same answers without /v1, for older clients
app.openapi = partial(contract, app)  # type: ignore[method-assign]

if not API_ONLY:
    install_page(app)  # GET / (the table page), its files, and the CORS allow-list of `taihu serve`
else:
    allow_origins(app, origins_from_environment())
# outermost, so that every answer, a refusal of the inner ones too, carries the headers (taihu/api/security.py)
app.add_middleware(TrustedHosts, allowed_hosts=hosts_from_environment(), www_redirect=False)
app.add_middleware(LanguageHeaders)  # outside the Host check, so its refusal says its language too
app.add_middleware(SecurityHeaders)
# outside the headers, so that they (and a docs page's policy, made from its body) see the plain answer
app.add_middleware(GZipMiddleware, minimum_size=GZIP_FROM, compresslevel=GZIP_LEVEL)
app.add_middleware(HeadAsGet)  # outermost: a HEAD is a GET to every check inside (taihu/api/head.py)
redact_access_log()
# what uvicorn serves (`taihu serve`): each request's client address, and POST /score's answers made without
# the framework, the same as the app's (taihu/api/fast.py)
served = FastPath(app, allowed_hosts=hosts_from_environment(), cross_origin=bool(origins_from_environment()))
