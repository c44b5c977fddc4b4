"""Errors never fail — a message quotes at most ~40 characters of the input, escaped.

A lone surrogate (`"\\ud800"` in JSON) or a 50 KB string echoed into a
message must still give a clean answer: `HandError` in the library, a 422
over HTTP on a connection that stays open, and nothing in the server log.
"""

from __future__ import annotations

import http.client
import json
import logging
from typing import Any

import pytest
from abuse_cases import ECHOES, LONE
from api_app import app
from live_server import live_server

from taihu.scorer import HandError, score_hand, settle_table
from taihu.scorer.errors import QUOTE_LIMIT, quote


def library_call(path: str, body: dict[str, Any]) -> Any:
    if path == "/score":
        return lambda: score_hand(body["hand"], rules=body.get("rules", "lingxi"), options=body.get("options"))
    return lambda: settle_table(body)


# -- quote ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("5m", "5m"),
        ("五万 发财", "五万 发财"),  # printable text of any script is kept
        (LONE, "\\ud800"),
        ("a\tb\x00c\x1b", "a\\tb\\x00c\\x1b"),
        ("\u200b", "\\u200b"),
        (12, "12"),
    ],
)
def test_quote_escapes_what_cannot_print(given: object, shown: str) -> None:
    assert quote(given) == shown


def test_quote_keeps_at_most_the_limit() -> None:
    shown = quote("x" * 50_000)
    assert shown.startswith("x" * QUOTE_LIMIT + "…")
    assert "50000 characters" in shown
    assert len(shown) < QUOTE_LIMIT + 30
    assert quote(LONE * 1000).count("\\ud800") == QUOTE_LIMIT


def test_quote_of_a_huge_number_does_not_fail() -> None:
    assert quote(10**5000) == "a number of about 5001 digits"


# -- the library ---------------------------------------------------------------------------


@pytest.mark.parametrize("place", list(ECHOES))
def test_library_messages_echo_escaped_text(place: str) -> None:
    with pytest.raises(HandError) as info:
        library_call(*ECHOES[place](LONE))()
    message = str(info.value)
    message.encode("utf-8")  # a message always encodes
    assert LONE not in message


@pytest.mark.parametrize("place", list(ECHOES))
def test_library_messages_echo_at_most_the_limit(place: str) -> None:
    with pytest.raises(HandError) as info:
        library_call(*ECHOES[place]("x" * 5000))()
    assert len(str(info.value)) < 300


# -- over HTTP, on a real server -----------------------------------------------------------


def test_lone_surrogates_get_a_clean_422_on_a_kept_connection(caplog: pytest.LogCaptureFixture) -> None:
    """One keep-alive connection: every hostile body is a 422 with one string, and the connection stays."""
    caplog.set_level(logging.INFO)
    with live_server() as (host, port):
        connection = http.client.HTTPConnection(host, port, timeout=10)
        try:
            connection.connect()
            first_socket = connection.sock
            for place, make in ECHOES.items():
                for text in (LONE, "x" * 5000):
                    path, body = make(text)
                    # json.dumps writes a lone surrogate as the escape \ud800, as a hostile client would send it
                    headers = {"content-type": "application/json"}
                    connection.request("POST", path, body=json.dumps(body), headers=headers)
                    reply = connection.getresponse()
                    detail = json.loads(reply.read())["detail"]
                    assert reply.status == 422, (place, detail)
                    assert isinstance(detail, str) and LONE not in detail, place
                    assert len(detail) < 300, (place, detail)
                    assert reply.getheader("connection") != "close", place
                    assert connection.sock is first_socket, f"{place}: the connection was dropped"
        finally:
            connection.close()
    logged = [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    assert not logged, [r.getMessage() for r in logged]


def test_an_error_answer_renders_whatever_text_it_carries(monkeypatch: pytest.MonkeyPatch) -> None:
    """The second line: a message that did not go through `quote` still renders (escaped), as a 422."""
    from fastapi.testclient import TestClient

    import taihu.api.app as api_module

    def unquoted(*args: Any, **kwargs: Any) -> Any:
        raise HandError(f"unknown thing '{LONE}'")

    monkeypatch.setattr(api_module, "score_hand", unquoted)
    reply = TestClient(app, raise_server_exceptions=False).post("/score", json={"hand": "1m"})
    assert reply.status_code == 422
    assert reply.json()["detail"] == "unknown thing '\\ud800'"
