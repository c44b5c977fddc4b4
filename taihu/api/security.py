"""What every answer carries against a hostile page, which Host names are answered, and an access log
without ledger ids (docs/limits.md "Headers and hosts").

The table page keeps each ledger's edit token in `localStorage`, next to an
Undo button: no other site may frame it (clickjacking) or run script in its
origin, hence the headers. A page elsewhere may also point a name of its own
at this server (DNS rebinding) and so read the API as if it were the same
origin: starlette's TrustedHostMiddleware answers only the Host names listed,
by default the loopback names. A ledger's id is its read capability, so the
access log writes `/ledgers/…` in its place.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import logging
import re
from collections.abc import Sequence
from functools import cache

import orjson
from starlette.datastructures import MutableHeaders
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from taihu.api.language import add_language_headers, scope_language
from taihu.messages import Language, text
from taihu.messages.error_shape import CatalogError, error_shape
from taihu.scorer.errors import quote

BASE_POLICY = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
# worker-src: the page's service worker (/sw.js); the manifest is default-src's.
POLICY = f"{BASE_POLICY}; worker-src 'self'"
# /docs and /redoc (fastapi-offline) start Swagger UI with an inline script (allowed by its hash, read off
# the page), ReDoc styles itself with inline <style> and runs its search in a blob: worker.
DOC_PAGES = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc"})
DOC_POLICY = "; style-src 'self' 'unsafe-inline'; worker-src 'self' blob:"
HEADERS = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",  # frame-ancestors' twin, for browsers that predate it
}
# as raw ASGI headers, added to every answer in place of any of the same name
SECURITY_HEADERS = [
    (name.encode(), value.encode()) for name, value in (*HEADERS.items(), ("content-security-policy", POLICY))
]
SECURITY_NAMES = frozenset(name for name, _ in SECURITY_HEADERS)
_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL)

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
ANY_ADDRESS = ("0.0.0.0", "::", "")
_HOST_NAME = re.compile(r"(\*\.)?[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]|\*")


def doc_policy(html: bytes) -> str:
    """The policy of a docs page: the hashes of its own inline scripts allowed, nothing else inline."""
    hashes = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(script).digest()).decode()}'"
        for script in _INLINE_SCRIPT.findall(html)
    )
    scripts = f"; script-src 'self' {hashes}" if hashes else ""
    return f"{BASE_POLICY}{scripts}{DOC_POLICY}"  # its own worker-src: a directive given twice counts once


class AnswerHeaders:
    """Adds the headers to every answer of the app, and the language headers to a JSON or CSV one
    (`add_language_headers`), in one pass over its headers; a docs page's policy is made from its body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        doc_page = scope["path"] in DOC_PAGES
        start: Message | None = None
        body = b""

        async def with_headers(message: Message) -> None:
            nonlocal start, body
            if message["type"] == "http.response.start":
                headers = [pair for pair in message.get("headers", ()) if pair[0] not in SECURITY_NAMES]
                headers += SECURITY_HEADERS
                message["headers"] = add_language_headers(scope, headers, message["status"])
                if doc_page:
                    start = message  # sent with the body, once its scripts are known
                    return
            elif start is not None and message["type"] == "http.response.body":
                body += message.get("body", b"")
                if message.get("more_body", False):
                    return
                MutableHeaders(scope=start)["content-security-policy"] = doc_policy(body)
                await send(start)
                message = {"type": "http.response.body", "body": body}
                start = None
            await send(message)

        await self.app(scope, receive, with_headers)


@cache
def host_refused(lang: Language) -> bytes:
    """The refusal of a Host name, in the one error shape: the same for every request in a language."""
    return orjson.dumps(error_shape("bad_host", text("api.error.bad_host", lang)))


class TrustedHosts:
    """starlette's check of the Host header (TrustedHostMiddleware), its refusal (a 400 in plain text)
    answered in the one error shape instead; what it lets through goes on untouched."""

    def __init__(self, app: ASGIApp, allowed_hosts: Sequence[str], www_redirect: bool = False) -> None:
        self.app = app
        self.check = TrustedHostMiddleware(self.passed, allowed_hosts=allowed_hosts, www_redirect=www_redirect)

    async def passed(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, scope.pop(_SEND))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        scope[_SEND] = send  # what `passed` answers through; a refusal goes through `refused` instead

        async def refused(message: Message) -> None:
            body = host_refused(scope_language(scope))
            if message["type"] == "http.response.start":
                length = str(len(body)).encode()
                headers = [(b"content-type", b"application/json"), (b"content-length", length)]
                await send({"type": "http.response.start", "status": message["status"], "headers": headers})
            else:
                await send({"type": "http.response.body", "body": body})

        try:
            await self.check(scope, receive, refused)
        finally:
            scope.pop(_SEND, None)  # refused: `passed` did not take it, and the scope holding its send is a cycle


_SEND = "taihu.send"


def check_host(name: str, given_as: str = "--allowed-host") -> str:
    """A name `--allowed-host` takes: a host name or address as a browser sends it in Host, without the port;
    `given_as` is where the refusal says it was given (the option, or the environment variable a worker reads)."""
    cleaned = name.strip().lower()
    if _HOST_NAME.fullmatch(cleaned) is None:
        raise CatalogError("cli.error.bad_host_name", code="bad_host_name", option=given_as, name=quote(name))
    return cleaned


def trusted_hosts(bound: str, allowed: Sequence[str]) -> list[str]:
    """The Host names answered: the loopback names, the address the server is bound to (unless it is every
    address), and those of `--allowed-host`. An address in Host cannot be a rebound name, so it is safe."""
    names = list(LOOPBACK_NAMES)
    if bound not in ANY_ADDRESS:
        names.append(f"[{bound}]" if _is_ipv6(bound) else bound.lower())
    names += [check_host(name) for name in allowed]
    return list(dict.fromkeys(names))


def _is_ipv6(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).version == 6
    except ValueError:
        return False


_LEDGER_ID = re.compile(r"(?<=/ledgers/)[^/?#.]+")


def redacted(path: str) -> str:
    """`path` with a ledger id written `…`: the id reads the ledger, and a log is read by others."""
    return _LEDGER_ID.sub("…", path)


class RedactLedgerIds(logging.Filter):
    """On uvicorn's access log: the path (the third argument of its message) without ledger ids."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) > 2 and isinstance(args[2], str) and "/ledgers/" in args[2]:
            record.args = (*args[:2], redacted(args[2]), *args[3:])  # only such a path holds an id
        return True


def redact_access_log() -> None:
    logger = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactLedgerIds) for f in logger.filters):
        logger.addFilter(RedactLedgerIds())
