"""The table page at `/` and the CORS allow-list: what the API needs to serve a mini-app.

The page is plain files in `static/` (no build step, no outside requests).
The allowed origins are the settings' (`Settings.cors_origins`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers

from taihu.api.headers import METHODS, REQUEST_HEADERS, RESPONSE_HEADERS
from taihu.api.responses import error_answer
from taihu.messages.error_shape import CatalogError
from taihu.messages.language import accept_language
from taihu.scorer.errors import quote
from taihu.scorer.rulesets import RULESETS

STATIC = Path(__file__).parent / "static"
# The order the page lists a rule set's conditions in; one the page does not know yet comes last.
CONDITION_ORDER = ("seat", "wild", "flip", "self", "kong-draw", "rob-kong", "last-tile", "heaven", "earth", "human")
ORIGIN = re.compile(r"https?://[^\s/?#]+")


def check_origin(origin: str, given_as: str = "--cors-origin") -> str:
    """An origin is scheme://host[:port], nothing more: what a browser sends in `Origin`; `given_as` is where
    the refusal says it was given (the option, or the environment variable a worker reads)."""
    cleaned = origin.strip().rstrip("/")
    if not ORIGIN.fullmatch(cleaned):
        raise CatalogError("cli.error.bad_origin", code="bad_origin", option=given_as, origin=quote(origin))
    return cleaned


CORS_REFUSED = "Disallowed CORS "  # how starlette's refusal of a preflight begins; what follows names what
CORS_PARTS_ZH = {"origin": "来源", "method": "方法", "headers": "请求头", "private-network": "私有网络"}


class ShapedCORS(CORSMiddleware):
    """starlette's CORS check, its refusal of a preflight (a 400 in plain text) answered in the one error shape,
    in the language of the preflight's `Accept-Language` (a preflight carries no query of ours)."""

    def preflight_response(self, request_headers: Headers) -> Response:
        response = super().preflight_response(request_headers)
        said = bytes(response.body).decode("utf-8")
        if response.status_code != 400 or not said.startswith(CORS_REFUSED):
            return response
        lang = accept_language(request_headers.get("accept-language"))
        parts = said.removeprefix(CORS_REFUSED).split(", ")
        what = "、".join(CORS_PARTS_ZH.get(p, p) for p in parts) if lang == "zh" else ", ".join(parts)
        headers = {k: v for k, v in response.headers.items() if k not in ("content-type", "content-length")}
        return error_answer(400, "api.error.cors_refused", lang, headers=headers, what=what)


def allow_origins(app: FastAPI, origins: Sequence[str]) -> None:
    """Cross-origin calls only from the listed origins; with none, no CORS headers at all."""
    if origins:
        app.add_middleware(
            ShapedCORS,
            allow_origins=list(origins),
            allow_methods=list(METHODS),
            allow_headers=list(REQUEST_HEADERS),  # what the API reads: a page may send each of them
            expose_headers=list(RESPONSE_HEADERS),  # what the API sets: a page may read each of them
        )


def index() -> FileResponse:
    """The table page: score a hand, settle a deal, share a link."""
    return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")


@cache
def palette() -> dict[str, Any]:
    """What the page offers per rule set, each asked of the rule set through the registry: the tiles it plays
    and its wildcard kinds, and the conditions, declared wins and side events the core takes."""
    offered: dict[str, Any] = {}
    for name, rule_set in RULESETS.items():
        known = CONDITION_ORDER + tuple(sorted(set(rule_set.conditions) - set(CONDITION_ORDER)))
        declares = rule_set.declared_wins
        offered[name] = {
            "tiles": list(rule_set.tiles),
            "wild_kinds": rule_set.wild_kinds,
            "conditions": [c for c in known if c in rule_set.conditions],
            "declare": list(declares) if isinstance(declares, tuple) else sorted(declares),
            "events": list(rule_set.events),
        }
        if rule_set.wild_name:
            offered[name]["wild_name"] = rule_set.wild_name
    return offered


def manifest() -> FileResponse:
    """The web app manifest: the page installs on a phone's home screen."""
    return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json")


def service_worker() -> FileResponse:
    """The service worker, from the root so its scope is the whole page; never cached by HTTP, so a new one
    is found when the page is next opened."""
    return FileResponse(
        STATIC / "sw.js", media_type="text/javascript; charset=utf-8", headers={"Cache-Control": "no-cache"}
    )


def favicon() -> FileResponse:
    return FileResponse(STATIC / "favicon.ico", media_type="image/x-icon")


def install_page(app: FastAPI) -> None:
    app.add_api_route("/", index, methods=["GET"], include_in_schema=False)
    app.add_api_route("/manifest.webmanifest", manifest, methods=["GET"], include_in_schema=False)
    app.add_api_route("/sw.js", service_worker, methods=["GET"], include_in_schema=False)
    app.add_api_route("/favicon.ico", favicon, methods=["GET"], include_in_schema=False)
    app.add_api_route("/palette.json", palette, methods=["GET"], include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
