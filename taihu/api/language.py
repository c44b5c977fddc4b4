"""The language of an answer: the `lang` query parameter, else `Accept-Language` (docs/api.md "Language").

Worked out once per request, on the first ask (`scope_language`), and kept in the ASGI scope, so the
route, an error handler and the middlewares that answer before the route (a body too large, a Host
refused, a bug) all speak the same language. `add_language_headers` says which in `Content-Language`,
and `Vary: Accept-Language` tells a cache that the answer depends on that header.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qsl

from fastapi import FastAPI
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.routing import BaseRoute
from starlette.types import Scope

from taihu.api.responses import RawHeaders, add_vary, header_value
from taihu.messages import LANGUAGES, Language
from taihu.messages.language import accept_language, language_of_tag

LANG_KEY = "taihu.lang"  # where a request's language is kept in its ASGI scope
LANG_PARAMETER = "lang"
UNTRANSLATED = frozenset({"/openapi.json"})  # JSON answers that are the same in every language
SPOKEN_TYPES = (b"application/json", b"text/csv")  # the answers whose texts follow the language (a ledger's CSV too)
LANG_DESCRIPTION = (
    "the language of the answer's texts (messages, notes, reasons): `zh` or `en`. Without it, "
    "`Accept-Language` decides (any `zh-…` range reads Chinese), else English. Also accepted, though not in "
    "the enum: a language tag (`zh-CN`, `en-GB`); another value is ignored. Keys and codes never change."
)


LANG_SCHEMA = "Lang"  # the one type of `lang` in the document: a generated client has one enum of it
LANG_COMPONENTS: dict[str, dict[str, Any]] = {
    "schemas": {
        LANG_SCHEMA: {
            "type": "string",
            "enum": list(LANGUAGES),
            "title": LANG_SCHEMA,
            "description": "a language of the answers' texts",
        }
    },
    "parameters": {
        LANG_PARAMETER: {
            "name": LANG_PARAMETER,
            "in": "query",
            "required": False,
            "schema": {"$ref": f"#/components/schemas/{LANG_SCHEMA}"},
            "description": LANG_DESCRIPTION,
        }
    },
}
LANG_IN_DOCUMENT = {"$ref": f"#/components/parameters/{LANG_PARAMETER}"}  # what each operation lists


def document_lang(routes: Iterable[BaseRoute]) -> None:
    """Every operation of `routes` documented as taking the `lang` query parameter, one component of the document
    (`add_lang_component`) that each references.

    In the document only (`openapi_extra`): `scope_language` reads it from the query string, and a
    parameter FastAPI declared would be solved, validated and handed to nobody on every request (a
    tenth of the CPU a `POST /score` costs the server beyond the scoring)."""
    for route in routes:
        if isinstance(route, APIRoute) and route.include_in_schema:
            extra = dict(route.openapi_extra or {})
            documented = extra.get("parameters", [])
            if LANG_IN_DOCUMENT not in documented:
                extra["parameters"] = [*documented, LANG_IN_DOCUMENT]
            route.openapi_extra = extra


def add_lang_component(app: FastAPI) -> None:
    """`app.openapi()` (FastAPI's, which makes the document once and keeps it) with `lang`'s components added, as
    FastAPI's docs extend the document ("Extending OpenAPI")."""
    made = app.openapi

    def document() -> dict[str, Any]:
        schema = made()
        components = schema.setdefault("components", {})
        for kind, entries in LANG_COMPONENTS.items():
            components.setdefault(kind, {}).update(entries)
        return schema

    app.openapi = document  # type: ignore[method-assign]  # the override FastAPI's docs show


def query_language(query_string: bytes) -> Language | None:
    """The `lang` of a query string (`zh`, `en`, or a tag such as `zh-CN`), or None when absent or neither."""
    if b"lang=" not in query_string:  # the common case: no parse
        return None
    for name, value in parse_qsl(query_string.decode("latin-1")):
        if name == LANG_PARAMETER:
            return language_of_tag(value)
    return None


def scope_language(scope: Scope) -> Language:
    """The request's language: `?lang=`, else `Accept-Language`, else English; worked out once and kept."""
    lang: Language | None = scope.get(LANG_KEY)
    if lang is None:
        lang = query_language(scope.get("query_string", b""))
        if lang is None:
            header = next((v for k, v in scope.get("headers", ()) if k == b"accept-language"), None)
            lang = accept_language(header.decode("latin-1")) if header is not None else "en"
        scope[LANG_KEY] = lang
    return lang


def request_language(request: Request) -> Language:
    """The language a route answers in (`scope_language` of its request)."""
    return scope_language(request.scope)


def add_language_headers(scope: Scope, headers: RawHeaders, status: int) -> RawHeaders:
    """`headers` with `Content-Language` and `Vary: Accept-Language` if they are a JSON or CSV answer's
    (`SPOKEN_TYPES`) that is not the same in every language; a 304 varies as the answer it stands for.
    Called on every answer's headers (`taihu.api.security.AnswerHeaders`)."""
    if scope["path"] in UNTRANSLATED:
        return headers
    if (header_value(headers, b"content-type") or b"").startswith(SPOKEN_TYPES):
        spoken = [(key, value) for key, value in headers if key != b"content-language"]
        spoken.append((b"content-language", scope_language(scope).encode()))
        return add_vary(spoken, b"Accept-Language")
    if status == 304:
        return add_vary(headers, b"Accept-Language")
    return headers
