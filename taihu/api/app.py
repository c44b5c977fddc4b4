"""The HTTP API (docs/api.md "HTTP"): parse the request, call the core, return its model.

Requests are validated by the pydantic models of `taihu.api.schemas`, the
only place pydantic is used; answers are the core's dataclasses as their
`to_dict()` JSON, and the schemas make /docs show the real shapes. Every
input problem is a 422 `{"detail", "code", "column"}` whose `detail` is one
string — the library's own message. Anything else is a bug, not bad input: a
500 with a short `error_id`, the traceback (with that id) in the server log
only.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi_offline import FastAPIOffline
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from taihu.api.errors import describe_validation
from taihu.api.guards import JsonGuard, replaying
from taihu.api.ledger import router as ledger_router
from taihu.api.offload import in_worker
from taihu.api.responses import ERRORS, SafeJSONResponse
from taihu.api.schemas import ScoreRequest, Settlement, Table
from taihu.api.security import SecurityHeaders, hosts_from_environment, redact_access_log, redacted
from taihu.api.server import apply_cache_budget, settle_heap
from taihu.api.waits import router as waits_router
from taihu.scorer import HandError, HandScore, RuleSetInfo, rule_sets, score_hand, settle_table
from taihu.scorer.arithmetic import arithmetic

from .page import install_page

MAX_BODY = 64 * 1024  # a table is ~1 KB; the cap keeps a single request from tying up the server
GZIP_FROM = 1024  # bytes: an answer this large is gzipped for a client that accepts it (a ledger, a page of deals)
log = logging.getLogger("taihu.api")


def too_large(size: int | None) -> JSONResponse:
    shown = f"{size} bytes" if size is not None else f"over {MAX_BODY} bytes"
    return JSONResponse(
        {"detail": f"request body is {shown}; at most {MAX_BODY} bytes (64 KB) are accepted"}, status_code=413
    )


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
            await too_large(int(declared))(scope, receive, send)
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
                await too_large(None)(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        await self.app(scope, replaying(b"".join(chunks), receive), send)


def internal_error(error_id: str) -> JSONResponse:
    return JSONResponse({"detail": "internal error", "error_id": error_id}, status_code=500)


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
            await internal_error(error_id)(scope, receive, send)


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Warm up and freeze the start-up heap so full collections rescan only what requests create."""
    apply_cache_budget()  # `taihu serve --cache-mb`, in each worker process
    settle_heap()
    yield


app = FastAPIOffline(  # /docs and /redoc from files in the package: a table may have no internet
    lifespan=lifespan,
    title="taihu",
    summary="Score and settle hands of Zhejiang/Fujian regional mahjong",
    description="The same answers as the `taihu` command and the `scorer` library. "
    "Bad input is a 422 whose `detail` is one readable string; a 500 is a bug (its `error_id` is in the log).",
    version="0.1.0",
)
app.add_middleware(JsonGuard)  # inside BodyLimit: added first, so it sees the capped body
app.add_middleware(CatchBugs)
app.add_middleware(BodyLimit)
app.include_router(ledger_router)
app.include_router(waits_router)


def unprocessable(detail: str) -> JSONResponse:
    return SafeJSONResponse(HandError(detail).as_dict(), status_code=422)


@app.exception_handler(HandError)
async def hand_error(request: Request, exc: HandError) -> JSONResponse:
    return SafeJSONResponse(exc.as_dict(), status_code=422)


@app.exception_handler(RequestValidationError)
async def request_invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
    return unprocessable(describe_validation(exc.errors(), what="body"))


@app.exception_handler(StarletteHTTPException)
async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
    """FastAPI answers a body it cannot decode (not UTF-8) with 400; bad input is a 422 here."""
    if exc.status_code == 400:
        cause = exc.__cause__
        why = "it is not UTF-8 text" if isinstance(cause, UnicodeDecodeError) else str(exc.detail)
        return unprocessable(f"the request body is not valid JSON: {why}")
    return await http_exception_handler(request, exc)


@app.exception_handler(ValidationError)
async def model_invalid(request: Request, exc: ValidationError) -> JSONResponse:
    return unprocessable(describe_validation(exc.errors()))


SHOW_ARITHMETIC = Query(
    False,
    alias="arithmetic",
    description="add `arithmetic`: the rule set's arithmetic from the items to the total, one step a line "
    "(the lines `taihu score` prints under its table); without it the HandScore is as documented",
)


def scored(request: ScoreRequest, show_arithmetic: bool) -> JSONResponse:
    result = score_hand(request.hand, rules=request.rules, options=request.options)
    return JSONResponse(result.to_dict() | ({"arithmetic": arithmetic(result)} if show_arithmetic else {}))


@app.post("/score", response_model=HandScore, responses=ERRORS)
async def score(request: ScoreRequest, show_arithmetic: bool = SHOW_ARITHMETIC) -> JSONResponse:
    """Score one hand line (HandScore); with `?arithmetic=true`, also how its total is reached."""
    return await in_worker(scored, request, show_arithmetic)


def settled(table: Table) -> JSONResponse:
    return JSONResponse(settle_table(table.model_dump()).to_dict())


@app.post("/settle", response_model=Settlement, responses=ERRORS)
async def settle(table: Table) -> JSONResponse:
    """Settle one deal at a four-player table."""
    return await in_worker(settled, table)


@app.get("/rules", response_model=list[RuleSetInfo])
def rules() -> JSONResponse:
    """The rule sets with their items and house options."""
    return JSONResponse([info.to_dict() for info in rule_sets()])


@app.get("/health")
async def health() -> dict[str, Any]:
    """On the event loop itself: answered however busy the worker threads are."""
    return {"status": "ok"}


install_page(app)  # GET / (the table page), its files, and the CORS allow-list of `taihu serve`
# outermost, so that every answer, a refusal of the inner ones too, carries the headers (taihu/api/security.py)
app.add_middleware(TrustedHostMiddleware, allowed_hosts=hosts_from_environment(), www_redirect=False)
app.add_middleware(SecurityHeaders)
# outside the headers, so that they (and a docs page's policy, made from its body) see the plain answer
app.add_middleware(GZipMiddleware, minimum_size=GZIP_FROM, compresslevel=6)
redact_access_log()
