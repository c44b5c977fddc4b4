"""The HTTP headers the API reads and sets beyond the body: each once, with its description for the document.

The request headers are FastAPI `Header` parameters (the document lists them per operation); the response
headers a route sets are declared in its `responses` (`declared`), so a generated client sees them too. CORS
allows and exposes the same lists (taihu/api/page.py).
"""

from __future__ import annotations

from typing import Any

from fastapi import Header

from taihu.store import MAX_KEY

IDEMPOTENCY_KEY = Header(
    None,
    alias="Idempotency-Key",
    max_length=MAX_KEY,
    description="a key the client makes for this change (a UUID): sent again with the same request, the first "
    "answer comes back (200) and nothing more is changed; sent with another request, a 422 `key_reused`",
)
IF_MATCH = Header(
    None,
    alias="If-Match",
    description="the ledger's ETag (GET /ledgers/{id}): the change is refused if the ledger changed since",
)
IF_NONE_MATCH = Header(
    None, alias="If-None-Match", description="the ETag of the answer held: 304 and no body while the ledger is so"
)
LAST_EVENT_ID = Header(
    None,
    alias="Last-Event-ID",
    description="the `id` of the last event the client holds (a browser's EventSource, and the page's reader, "
    "send it when they reconnect): the events after it are sent first",
)

# the request headers a browser's page sends cross-origin, and the response headers it may read
REQUEST_HEADERS = ("Authorization", "Content-Type", "Idempotency-Key", "If-Match", "If-None-Match", "Last-Event-ID")
RESPONSE_HEADERS = ("ETag", "Retry-After", "Location", "Content-Language")
METHODS = ("GET", "POST", "PATCH", "DELETE")

ETAG = "ETag"
LOCATION = "Location"
RETRY_AFTER = "Retry-After"
WWW_AUTHENTICATE = "WWW-Authenticate"
CONTENT_DISPOSITION = "Content-Disposition"
DESCRIPTIONS = {
    ETAG: 'the ledger\'s state in the answer\'s language (`"3.5"`, `"3.5.zh"`): for If-None-Match and If-Match',
    LOCATION: "the path of what was made",
    RETRY_AFTER: "the seconds to wait before trying again",
    WWW_AUTHENTICATE: "`Bearer`: the token is sent as `Authorization: Bearer <token>`",
    CONTENT_DISPOSITION: "`attachment`, with the file's name",
}


def declared(*names: str) -> dict[str, Any]:
    """The `headers` of an OpenAPI response: each of `names` with its description, a string."""
    return {name: {"description": DESCRIPTIONS[name], "schema": {"type": "string"}} for name in names}
