"""The framework's floor for `POST /v1/score`: a bare FastAPI app whose endpoint answers fixed JSON.

bench/serve.py serves it beside taihu's app, with the same uvicorn settings
(`taihu.api.server.uvicorn_options`) and the same client, so the difference
between the two servers' CPU per request is what taihu's app adds to the
framework: its middleware, the request's model, the answer's JSON, the
scoring. The endpoint is a sync function, as taihu's scoring endpoints are,
so FastAPI runs it on its thread pool as it runs theirs; it reads no body
and validates nothing, and its answer is `FLOOR_ANSWER_BYTES` (from the
environment) bytes of JSON, the size of taihu's answers to the bench's hands.

`create_endpoint_app` is the floor's bare app serving taihu's own scoring
endpoint (`taihu.api.app.score`, the same function) and nothing else: no
layer, no exception handler, no other route. It shows what the framework
and the scoring cost together before taihu's app adds its own parts.
"""

from __future__ import annotations

import os

from fastapi import FastAPI
from fastapi.responses import Response

ANSWER_BYTES = "FLOOR_ANSWER_BYTES"  # the environment variable bench/serve.py sets


def fixed_answer(size: int) -> bytes:
    """A JSON object of exactly `size` bytes (at least 8)."""
    return b'{"x":"' + b"1" * (size - 8) + b'"}'


def bare_app() -> FastAPI:
    return FastAPI(docs_url=None, redoc_url=None, openapi_url=None)


def create_app() -> FastAPI:
    answer = fixed_answer(int(os.environ.get(ANSWER_BYTES, "700")))
    app = bare_app()

    @app.post("/v1/score")
    def score() -> Response:
        return Response(answer, media_type="application/json")

    return app


def create_endpoint_app() -> FastAPI:
    from taihu.api.app import score

    app = bare_app()
    app.post("/v1/score")(score)
    return app
