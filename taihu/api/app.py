"""The HTTP API (docs/api.md "HTTP"): parse the request, call the core, return its model.

Requests are validated by the pydantic models of `taihu.api.schemas`, the
only place pydantic is used; answers are the core's dataclasses as their
`to_dict(lang)` JSON, in the request's language (`taihu.api.language`), and
the schemas make /docs show the real shapes. Every error, whatever its
status, is the one shape `ErrorAnswer` (`code`, `message` in the request's
language, `detail`, the place, the fix): bad input is a 422. Anything else
is a bug, not bad input: a 500 with a short `error_id`, the traceback (with
that id) in the server log only.

`create_app(settings)` makes the one app, as FastAPI's docs make theirs: its
routes with typed bodies (the OpenAPI document is generated from them), the
exception handlers of the one error shape, and the app-level middleware.
Scoring and settling are sync endpoints, which FastAPI runs on its thread
pool, off the event loop; the waits search and the batches run on worker
threads one at a time (`taihu.api.budget.run_costly`).
"""

from __future__ import annotations

import logging
import secrets
from functools import cache
from typing import Any, Literal

import sqlalchemy as sa
from fastapi import APIRouter, Depends, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi_offline import FastAPIOffline
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from taihu.api.batch import router as batch_router
from taihu.api.errors import json_reason, validation_shape
from taihu.api.events import router as events_router
from taihu.api.guards import BodyChecks
from taihu.api.head import HeadAsGet
from taihu.api.headers import RETRY_AFTER, declared
from taihu.api.language import add_lang_component, document_lang, request_language, scope_language
from taihu.api.ledger import router as ledger_router
from taihu.api.page import allow_origins, install_page
from taihu.api.responses import (
    JSON,
    WITH_BODY,
    ErrorAnswer,
    Refusal,
    error_answer,
    errors,
    hand_error_answer,
    json_bytes,
    lines_in,
)
from taihu.api.room import router as room_router
from taihu.api.schemas import HandScore, ScoreRequest, Settlement, Table
from taihu.api.security import AnswerHeaders, TrustedHosts, redact_access_log, redacted
from taihu.api.settings import Settings, settings_of
from taihu.api.waits import router as waits_router
from taihu.messages import Language
from taihu.scorer import HandError, RuleSetInfo, memo, rule_sets, score_hand, settle_table
from taihu.scorer.arithmetic_lines import arithmetic
from taihu.store import DatabaseUnavailable, LedgerStore

RETRY_DATABASE_S = 5  # the Retry-After of a database that cannot be reached: a restart or a failover takes seconds
GZIP_FROM = 1024  # bytes: an answer this large is gzipped for a client that accepts it (a ledger, a page of deals)
GZIP_LEVEL = 6
VERSION = "/v1"  # the prefix of every path in the document; the same paths without it answer too
TAGS = [
    {"name": "scoring", "description": "Score hands and settle deals, one at a time or in batches"},
    {"name": "waits", "description": "What a waiting hand wins on; which tile to discard"},
    {"name": "rules", "description": "The rule sets, their items and house options"},
    {"name": "ledgers", "description": "An evening's ledger: deals, standings, CSV (docs/ledger.md)"},
    {"name": "health", "description": "For load balancers and health checks"},
]
log = logging.getLogger("taihu.api")


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


async def hand_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HandError)
    return hand_error_answer(exc, request_language(request))


async def request_invalid(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    return JSON(validation_shape(exc.errors(), request_language(request), what="body", body=exc.body), status_code=422)


async def http_error(request: Request, exc: Exception) -> Response:
    """Every HTTP error in the one shape; a body FastAPI cannot decode (not UTF-8) is bad input, a 422."""
    assert isinstance(exc, StarletteHTTPException)
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


async def database_unavailable(request: Request, exc: Exception) -> Response:
    """The ledger database failed (unreachable, restarting, its pool spent): a 503 to retry, never a 500. The
    driver's words name the host, port and user: they go to the server log, not to the client."""
    error_id = secrets.token_hex(4)
    log.warning("database unavailable %s on %s: %s", error_id, redacted(request.url.path), exc)
    seconds = str(RETRY_DATABASE_S)
    return error_answer(
        503,
        "api.error.database_unavailable",
        request_language(request),
        headers={"Retry-After": seconds},
        seconds=seconds,
    )


async def model_invalid(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ValidationError)
    return JSON(validation_shape(exc.errors(), request_language(request)), status_code=422)


core = APIRouter()

SHOW_ARITHMETIC = Query(
    False,
    alias="arithmetic",
    description="true: the answer's `arithmetic` holds the rule set's arithmetic from the items to the total, "
    "one step a line (the lines `taihu score` prints under its table); false: `arithmetic` is absent",
)


@core.post(
    "/score",
    operation_id="score_hand",
    tags=["scoring"],
    response_model=HandScore,
    responses=errors(*WITH_BODY),
)
def score(body: ScoreRequest, http: Request, show_arithmetic: bool = SHOW_ARITHMETIC) -> Response:
    """Score one hand line: its items, subtotal, doubling and total in the rule set's unit.

    The hand is written in taihu's notation (docs/notation.md); `+` marks the winning tile, a hand without
    one is scored as a non-winner's. Bad notation is a 422 whose `column` points at the place."""
    lang = request_language(http)
    result = score_hand(body.hand, rules=body.rules, options=body.options)
    return JSON(result.to_dict(lang) | ({"arithmetic": lines_in(arithmetic(result), lang)} if show_arithmetic else {}))


@core.post(
    "/settle",
    operation_id="settle_table",
    tags=["scoring"],
    response_model=Settlement,
    responses=errors(*WITH_BODY),
)
def settle(table: Table, http: Request) -> Response:
    """Settle one finished deal at a four-player table: each seat's score, who pays whom and why, the net."""
    return JSON(settle_table(table.model_dump()).to_dict(request_language(http)))


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


class Ready(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"status": "ready", "database": "ok"}]})
    status: Literal["ready"] = Field(description="`ready`: this server answers ledger requests")
    database: Literal["ok"] = Field(description="`ok`: the ledger database answers")


@core.get(
    "/ready",
    operation_id="ready",
    tags=["health"],
    response_model=Ready,
    responses={
        503: {
            "model": ErrorAnswer,
            "description": "The ledger database does not answer: the one error shape (`database_unavailable`) with "
            '`"status": "unavailable"` and `"database": "unavailable"` besides',
            "headers": declared(RETRY_AFTER),
        },
        **{status: answer for status, answer in errors().items() if status != 503},
    },
)
def ready(http: Request, settings: Settings = Depends(settings_of)) -> Response:
    """Whether the server can answer ledger requests: its database answers (a query of one row). For a load
    balancer's readiness check; `/health` stays the liveness check, which never touches the database."""
    try:
        with LedgerStore(settings.db) as store:
            store.ping()
    except (sa.exc.SQLAlchemyError, DatabaseUnavailable) as exc:
        log.warning("not ready: the ledger database does not answer (%s)", type(exc).__name__)
        seconds = str(RETRY_DATABASE_S)
        more = {"status": "unavailable", "database": "unavailable"}
        lang = request_language(http)
        key = "api.error.database_unavailable"
        return error_answer(503, key, lang, headers={"Retry-After": seconds}, more=more, seconds=seconds)
    return JSON({"status": "ready", "database": "ok"})


ROUTERS = (core, batch_router, waits_router, ledger_router, room_router, events_router)
for _router in ROUTERS:
    document_lang(_router.routes)  # every operation takes `lang` (read by taihu.api.language)
DESCRIPTION = (
    "The same answers as the `taihu` command and the `taihu` library. Every path is under `/v1` "
    "(the paths without it answer the same, for older clients). The texts of every answer are in the "
    "language of the `lang` parameter (`zh`, `en`), else of `Accept-Language`, else English; keys and codes "
    "never change with it. Every error answer has one shape, `ErrorAnswer`: a stable `code`, the `message` "
    "(and `detail`, the same text), the place and a hint; bad input is a 422, a 500 is a bug (its "
    "`error_id` is in the server log)."
)


def versioned_document(app: FastAPI) -> None:
    """The OpenAPI document at `/v1/openapi.json` too: FastAPI's own endpoint of `/openapi.json`, at a second path."""
    for route in app.router.routes:
        if isinstance(route, Route) and route.path == app.openapi_url:
            app.add_route(VERSION + "/openapi.json", route.endpoint, include_in_schema=False)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The app `settings` describe; without them, the settings of the environment (`TAIHU_*`)."""
    settings = settings or Settings()
    if settings.cache_mb is not None:
        memo.set_budget_mb(settings.cache_mb)
    app = FastAPIOffline(  # /docs and /redoc from files in the package: a table may have no internet
        title="taihu",
        summary="Score and settle hands of Zhejiang/Fujian regional mahjong and of Japanese mahjong",
        description=DESCRIPTION,
        version="0.1.0",
        default_response_class=JSON,
        docs_url=None if settings.api_only else "/docs",
        redoc_url=None if settings.api_only else "/redoc",
        separate_input_output_schemas=False,
        openapi_tags=TAGS,
        telemetry={"tracing": settings.telemetry, "metrics": settings.telemetry, "logs": settings.telemetry},
    )
    app.state.settings = settings
    app.add_exception_handler(HandError, hand_error)
    app.add_exception_handler(RequestValidationError, request_invalid)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(ValidationError, model_invalid)
    for fault in (sa.exc.DBAPIError, sa.exc.TimeoutError, DatabaseUnavailable):  # TimeoutError: the pool is spent
        app.add_exception_handler(fault, database_unavailable)
    for router in ROUTERS:
        app.include_router(router, prefix=VERSION)  # the contract: /v1/…
        app.include_router(router, include_in_schema=False)  # the same answers without /v1, for older clients
    add_lang_component(app)
    versioned_document(app)
    if not settings.api_only:
        install_page(app)  # GET / (the table page) and its files
    # added innermost first: each `add_middleware` wraps what is there
    app.add_middleware(BodyChecks)
    app.add_middleware(CatchBugs)  # outside the body's checks, so a bug in them is answered too
    allow_origins(app, settings.cors_origins)
    # outside the checks, so that every answer, a refusal of the inner ones too, carries the headers
    app.add_middleware(TrustedHosts, allowed_hosts=list(settings.allowed_hosts), www_redirect=False)
    app.add_middleware(AnswerHeaders)  # outside the Host check, so its refusal says its language too
    # outside the headers, so that they (and a docs page's policy, made from its body) see the plain answer
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_FROM, compresslevel=GZIP_LEVEL)
    app.add_middleware(HeadAsGet)  # outermost: a HEAD is a GET to every check inside (taihu/api/head.py)
    redact_access_log()  # uvicorn's access log writes a ledger's path without its id
    return app
