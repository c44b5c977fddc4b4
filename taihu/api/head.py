"""HEAD answers as GET does, without the body (RFC 9110 §9.3.2).

FastAPI's routes answer only the methods they name, so a HEAD (a monitor's
probe, a link checker, `curl -I`) got 405 from every GET path. Asked as a
GET here, a HEAD goes through every check a GET does (hosts, limits,
headers, gzip) and gets the same status and headers, `content-length`
included; only the body is left out.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadAsGet:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return  # a streamed answer's chunks: none is sent
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)
