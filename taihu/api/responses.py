"""An error answer that cannot fail to render, whatever text it carries."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse

from taihu.scorer.errors import HandError, printable


def _escaped(content: Any) -> Any:
    """Every string in `content` with what UTF-8 cannot encode (a lone surrogate) written as `\\ud800`."""
    if isinstance(content, str):
        return printable(content)
    if isinstance(content, dict):
        return {_escaped(k): _escaped(v) for k, v in content.items()}
    if isinstance(content, list | tuple):
        return [_escaped(v) for v in content]
    return content


def error_body(exc: HandError) -> dict[str, Any]:
    """The JSON of a 422 for a HandError raised outside a route (JsonGuard): what the app's handler answers."""
    return exc.as_dict()


class SafeJSONResponse(JSONResponse):
    """JSONResponse whose rendering survives text UTF-8 cannot encode.

    The library quotes input through `quote`, so this is the second line: an
    error answer built from any other text still renders, so the handler
    never fails and the connection is kept.
    """

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return super().render(_escaped(content))
