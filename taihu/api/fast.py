"""The outermost layer of the app: each request's client address, and `POST /score` answered without the framework.

A `/score` request through FastAPI and its middleware took some ten times
the CPU of scoring the hand (docs/performance.md "The server path"). Its
successful answers are made here instead, by the same steps as the plain
route (`taihu.api.app.score`): the body read as FastAPI reads it
(`taihu.api.bodies.read`), checked as `JsonGuard` checks it, scored, and
sent with the headers every answer carries (taihu/api/security.py) and, as
`GZipMiddleware` would, gzipped from 1 KB. Anything else goes on to the app
untouched, the body given again: another path, a Host, Origin or content
type this layer does not answer alone, a query other than `arithmetic` and
`lang`, a large body, and every error (the plain route answers it, in its
one shape and language). tests/test_api_fast.py compares both ways byte for
byte over a table of requests.

A hand that holds no wildcard tile (its rule set reads the line and says so:
`RuleSet.holds_wildcard`) is scored on the event loop, in a fraction of a
millisecond; any other in a worker thread, as every costly request is
(taihu/api/offload.py). The body, at most MOST_BODY bytes, is checked and
read on the loop, as JsonGuard checks such a body.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from typing import NamedTuple
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from taihu.api.access_log import ACCESS_LOG, scope_request_line
from taihu.api.bodies import read
from taihu.api.contract import VERSION
from taihu.api.guards import replaying
from taihu.api.offload import client_address, in_worker
from taihu.api.responses import json_bytes, lines_in
from taihu.api.schemas import SCORE_REQUEST, ScoreRequest
from taihu.api.security import HEADERS, POLICY
from taihu.messages.language import accept_language, language_of_tag
from taihu.scorer import score_hand
from taihu.scorer.arithmetic import arithmetic
from taihu.scorer.limits import REQUEST_BODY, check_json_text
from taihu.scorer.notation import ParsedHand
from taihu.scorer.rulesets import RULESETS
from taihu.scorer.rulesets.base import RuleSet

SCORE_PATHS = frozenset({"/score", f"{VERSION}/score"})
MOST_BODY = 4 * 1024  # bytes: a /score body is a hand line and a few options; larger ones take the plain route
GZIP_FROM = 1024  # bytes: an answer this large is gzipped for a client that accepts it (a ledger, a page of deals)
GZIP_LEVEL = 6  # GZipMiddleware's, in taihu/api/app.py
_SECURITY = [(name.encode(), value.encode()) for name, value in HEADERS.items()]
_SECURITY.append((b"content-security-policy", POLICY.encode()))
_BOOLEANS = {"true": True, "false": False}


def request_path(scope: Scope) -> str:
    """The path the router matches: without the `--root-path` prefix (starlette's own reading of it)."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if root and path.startswith(root) and path != root and path[len(root)] == "/":
        return path[len(root) :]
    return path


def host_names(allowed: Iterable[str]) -> frozenset[bytes]:
    """The Host values answered here: the exact names of `--allowed-host` and the loopback names (no patterns)."""
    return frozenset(name.encode() for name in allowed if "*" not in name)


def host_allowed(value: bytes, names: frozenset[bytes]) -> bool:
    """Whether a Host header names one of `names`, with or without a port."""
    value = value.lower()
    if value in names:
        return True
    name, colon, port = value.rpartition(b":")
    return bool(colon) and port.isdigit() and name in names


class Question:
    """What a /score request asks besides its body: the arithmetic, and the language of the answer."""

    __slots__ = ("show_arithmetic", "lang")

    def __init__(self, show_arithmetic: bool, lang: str) -> None:
        self.show_arithmetic = show_arithmetic
        self.lang = lang


def question(query: bytes, accept: bytes | None) -> Question | None:
    """`?arithmetic=` and `?lang=` (else Accept-Language) as the plain route reads them; None: leave it to it."""
    show, lang = False, None
    if query:
        seen: set[str] = set()
        for name, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
            if name in seen:
                return None
            seen.add(name)
            if name == "arithmetic" and value in _BOOLEANS:
                show = _BOOLEANS[value]
            elif name == "lang" and language_of_tag(value) == value:
                lang = value
            else:
                return None
    return Question(show, lang or accept_language(accept.decode("latin-1") if accept else None))


def score_request(body: bytes) -> ScoreRequest | None:
    """The body checked as `JsonGuard` checks it and read as the plain route reads it; None where either
    refuses it (the plain route answers the error)."""
    try:
        check_json_text(body, REQUEST_BODY)
        return read(SCORE_REQUEST, body, "application/json")
    except Exception:
        return None


def scored(request: ScoreRequest, asked: Question, line: Line | None = None) -> bytes | None:
    """The JSON of the plain route's successful answer to `request`; None where it would answer an error.

    `line`: the hand already read by its rule set (`loop_line`), scored as `score_hand` scores the text
    (`RuleSet.score_line`: the line read, then scored alone), without reading it again."""
    try:
        if line is None:
            result = score_hand(request.hand, rules=request.rules, options=request.options)
        else:
            result = line.rule_set.score(line.parsed, request.options, alone=True)
        answer = result.to_dict(asked.lang)  # as the plain route does
        if asked.show_arithmetic:
            answer["arithmetic"] = lines_in(arithmetic(result), asked.lang)
        return json_bytes(answer)
    except Exception:  # every error is the plain route's to answer, in its shape and language
        return None


def headers_of(answer: bytes, gzip: bool, lang: str) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The headers and body the app's middleware give a 200 JSON answer (JSON, its language, the security
    headers, GZip)."""
    vary, encoding = b"Accept-Language", []
    if len(answer) >= GZIP_FROM:  # GZip varies by Accept-Encoding from its minimum size on, compressed or not
        vary = b"Accept-Language, Accept-Encoding"
        if gzip:
            compressor = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
            answer = compressor.compress(answer) + compressor.flush()
            encoding = [(b"content-encoding", b"gzip")]
    return [
        (b"content-length", str(len(answer)).encode()),
        (b"content-type", b"application/json"),
        (b"content-language", lang.encode()),
        (b"vary", vary),
        *_SECURITY,
        *encoding,
    ], answer


class FastPath:
    """Sets `client_address` for the request, then answers a successful `POST /score` or hands it on."""

    def __init__(self, app: ASGIApp, allowed_hosts: Sequence[str], cross_origin: bool) -> None:
        self.app = app
        self.hosts = host_names(allowed_hosts)
        self.any_host = "*" in allowed_hosts
        self.cross_origin = cross_origin  # CORS is on (`--cors-origin`): a request with an Origin goes to the app

    def plain_request(self, headers: Iterable[tuple[bytes, bytes]], query: bytes) -> Asked | None:
        """What a `POST /score` with these headers and query asks, where this layer answers it alone; None:
        the app's (two Host headers, a Host not answered, a body not plain JSON or over MOST_BODY, an Origin
        with CORS on, a query other than `arithmetic` and `lang`)."""
        host = length = accept = None
        gzip = json_type = False
        for name, value in headers:
            if name == b"host":
                if host is not None:  # two Host headers: the app's check decides
                    return None
                host = value
            elif name == b"content-length":
                length = value
            elif name == b"content-type":
                json_type = value.lower() == b"application/json"
            elif name == b"accept-encoding":
                gzip = b"gzip" in value
            elif name == b"accept-language":
                accept = value
            elif (name == b"origin" and self.cross_origin) or name in (b"transfer-encoding", b"content-encoding"):
                return None
        if (
            not json_type
            or length is None
            or not length.isdigit()
            or int(length) > MOST_BODY
            or not (self.any_host or (host is not None and host_allowed(host, self.hosts)))
        ):
            return None
        asked = question(query, accept)
        return None if asked is None else Asked(asked, gzip)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        client_address.set(client[0] if client else "")
        if ACCESS_LOG.on:
            await logged(self.answer, scope, receive, send)
        else:
            await self.answer(scope, receive, send)

    async def answer(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The answer to an HTTP request: a plain `POST /score` made here, any other by the app."""
        if scope["method"] != "POST" or request_path(scope) not in SCORE_PATHS:
            await self.app(scope, receive, send)
            return
        plain = self.plain_request(scope["headers"], scope["query_string"])
        if plain is None:
            await self.app(scope, receive, send)
            return
        body = b""
        while True:
            message: Message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        request = score_request(body)
        answer = None
        if request is not None:
            line = loop_line(request)
            asked = plain.question
            answer = scored(request, asked, line) if line is not None else await in_worker(scored, request, asked)
        if answer is None:
            await self.app(scope, replaying(body, receive), send)
            return
        headers, answer = headers_of(answer, plain.gzip, plain.question.lang)
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": answer})

    def on_loop(self, body: bytes, plain: Asked) -> tuple[list[tuple[bytes, bytes]], bytes] | None:
        """The 200 answer's headers and body to a `POST /score` whose hand scores on the loop, made at once;
        None: it goes the way of `__call__` (a hand for a worker thread, or any error)."""
        request = score_request(body)
        if request is None:
            return None
        line = loop_line(request)
        if line is None:
            return None
        answer = scored(request, plain.question, line)
        return None if answer is None else headers_of(answer, plain.gzip, plain.question.lang)


async def logged(app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
    """`app`'s answer, with its line in the access log (taihu/api/access_log.py) as its status is sent; a
    failure before it is a 500, as uvicorn then answers."""
    started = False

    def answered(status: int) -> None:
        nonlocal started
        started = True
        ACCESS_LOG.answered(scope.get("client"), scope_request_line(scope), status)

    async def logging_send(message: Message) -> None:
        if message["type"] == "http.response.start" and not started:
            answered(message["status"])
        await send(message)

    try:
        await app(scope, receive, logging_send)
    except BaseException:
        if not started:
            answered(500)
        raise


class Asked(NamedTuple):
    """What a plain `POST /score` asks besides its body: the question, and whether the answer may be gzipped."""

    question: Question
    gzip: bool


class Line(NamedTuple):
    """A hand line as its rule set read it."""

    rule_set: RuleSet
    parsed: ParsedHand


def loop_line(request: ScoreRequest) -> Line | None:
    """The hand read by its rule set where it holds no wildcard tile, so that it scores in a fraction of a
    millisecond, on the loop; None: it goes to a worker thread (a hand that holds one, a rule set by another
    name than its own, a line its rule set refuses: the scoring there finds what to answer)."""
    rule_set = RULESETS.values_made.get(request.rules)
    if rule_set is None:
        return None
    try:
        parsed = rule_set.read_line(request.hand)
        return None if rule_set.holds_wildcard(parsed) else Line(rule_set, parsed)
    except Exception:
        return None
