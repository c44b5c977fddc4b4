"""Answers gzipped for a client that accepts it: those of `minimum_size` bytes or more, and streamed ones.

What starlette's GZipMiddleware does, answer for answer: the same headers
(`Content-Encoding`, `Content-Length` or none for a stream, `Vary:
Accept-Encoding` on every answer large enough to be gzipped, whether the
client accepts gzip or not), the same answers left alone (already encoded,
a 206, a type that is compressed already: `DEFAULT_EXCLUDED_CONTENT_TYPES`),
large chunks compressed in a worker thread. Most answers are small (a hand's
score is under 1 KB) and this layer costs them a look at two headers: the
starlette one builds header objects and normalises its excluded types on
every request, some 5% of the CPU a `POST /score` costs the server.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

import anyio.to_thread
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from taihu.api.responses import add_vary, header_value

THREAD_FROM = 128 * 1024  # bytes: a chunk this large is compressed in a worker thread, off the event loop
EXCLUDED = frozenset(content_type.encode() for content_type in DEFAULT_EXCLUDED_CONTENT_TYPES)


def excluded(content_type: bytes | None) -> bool:
    """An answer of this type is left alone: it is compressed already (an image, a font, an archive) or a
    stream whose chunks must reach the client as they come (`text/event-stream`, gRPC)."""
    if content_type is None:
        return False
    media = content_type.partition(b";")[0].strip().lower()
    kinds = {media, media.partition(b"/")[0] + b"/*"}
    if media.startswith(b"application/grpc+"):
        kinds.add(b"application/grpc")
    return not kinds.isdisjoint(EXCLUDED)


class Gzip:
    def __init__(self, app: ASGIApp, minimum_size: int, compresslevel: int) -> None:
        self.app = app
        self.minimum_size = minimum_size
        self.compresslevel = compresslevel

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        accepted = header_value(scope["headers"], b"accept-encoding")
        gzip = accepted is not None and b"gzip" in accepted
        start: Message | None = None  # held until the first body says whether to compress
        compress: Callable[[bytes, bool], bytes] | None = None  # for the rest of a stream being compressed

        async def compressing(message: Message) -> None:
            nonlocal start, compress
            kind = message["type"]
            if kind == "http.response.start":
                start = message
                return
            if kind != "http.response.body":
                if start is not None:
                    await send(start)
                    start = None
                await send(message)
                return
            body, more = message.get("body", b""), message.get("more_body", False)
            if start is None:  # a later chunk of a stream
                if compress is not None:
                    message["body"] = await in_thread_if_large(compress, body, more)
                await send(message)
                return
            first, start = start, None
            headers = list(first.get("headers", ()))
            if (
                (len(body) < self.minimum_size and not more)
                or header_value(headers, b"content-encoding") is not None
                or first["status"] == 206
                or excluded(header_value(headers, b"content-type"))
            ):
                await send(first)
                await send(message)
                return
            headers = add_vary(headers, b"Accept-Encoding")
            if gzip:
                compress = compressor(self.compresslevel)
                body = await in_thread_if_large(compress, body, more)
                headers = [(key, value) for key, value in headers if key != b"content-length"]
                headers.append((b"content-encoding", b"gzip"))
                if not more and not first.get("trailers", False):
                    headers.append((b"content-length", str(len(body)).encode()))
                message = {**message, "body": body}
            await send({**first, "headers": headers})
            await send(message)

        await self.app(scope, receive, compressing)


def compressor(level: int) -> Callable[[bytes, bool], bytes]:
    """A gzip stream: each call compresses a chunk, flushed so the client can read it; the last ends it."""
    stream = zlib.compressobj(level, zlib.DEFLATED, 16 + zlib.MAX_WBITS)

    def compress(chunk: bytes, more: bool) -> bytes:
        return stream.compress(chunk) + stream.flush(zlib.Z_SYNC_FLUSH if more else zlib.Z_FINISH)

    return compress


async def in_thread_if_large(compress: Callable[[bytes, bool], bytes], chunk: bytes, more: bool) -> bytes:
    if len(chunk) >= THREAD_FROM:
        return await anyio.to_thread.run_sync(compress, chunk, more)
    return compress(chunk, more)
