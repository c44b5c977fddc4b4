"""taihu's gzip layer answers as starlette's GZipMiddleware does, answer for answer (taihu/api/compression.py).

One small app answers every kind the layer tells apart: small and large,
streamed, already encoded, a 206, a type compressed already, one with a
`Vary` of its own; each is asked with and without `Accept-Encoding: gzip`
through both layers, and the status, the headers and the bytes sent must
be the same.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.responses import Response, StreamingResponse
from fastapi.testclient import TestClient
from starlette.middleware.gzip import GZipMiddleware

from taihu.api.compression import Gzip

MINIMUM = 1024
LARGE = b"the same words again and again, " * 200


def answers() -> FastAPI:
    app = FastAPI()

    @app.get("/small")
    def small() -> Response:
        return Response(b'{"status":"ok"}', media_type="application/json")

    @app.get("/large")
    def large() -> Response:
        return Response(LARGE, media_type="text/csv; charset=utf-8")

    @app.get("/exactly")
    def exactly() -> Response:
        return Response(LARGE[:MINIMUM], media_type="application/json")

    @app.get("/streamed")
    def streamed() -> StreamingResponse:
        def chunks() -> Iterator[bytes]:
            yield LARGE[:300]
            yield LARGE

        return StreamingResponse(chunks(), media_type="text/plain")

    @app.get("/encoded")
    def encoded() -> Response:
        return Response(LARGE, media_type="text/plain", headers={"content-encoding": "br"})

    @app.get("/partial")
    def partial() -> Response:
        return Response(LARGE, status_code=206, media_type="text/plain")

    @app.get("/image")
    def image() -> Response:
        return Response(LARGE, media_type="image/png")

    @app.get("/varies")
    def varies() -> Response:
        return Response(LARGE, media_type="application/json", headers={"vary": "Accept-Language"})

    return app


def client(layer: str) -> TestClient:
    app = answers()
    if layer == "starlette":
        app.add_middleware(GZipMiddleware, minimum_size=MINIMUM, compresslevel=6)
    else:
        app.add_middleware(Gzip, minimum_size=MINIMUM, compresslevel=6)
    return TestClient(app)


@pytest.mark.parametrize(
    "path", ["/small", "/large", "/exactly", "/streamed", "/encoded", "/partial", "/image", "/varies"]
)
@pytest.mark.parametrize("encoding", ["gzip", "identity", None])
def test_the_same_answer_as_starlettes_gzip(path: str, encoding: str | None) -> None:
    headers = {"Accept-Encoding": encoding} if encoding else {"Accept-Encoding": ""}
    seen = []
    for layer in ("starlette", "taihu"):
        with client(layer).stream("GET", path, headers=headers) as reply:
            sent = b"".join(reply.iter_raw())
            seen.append((reply.status_code, sorted(reply.headers.multi_items()), sent))
    assert seen[0] == seen[1]
