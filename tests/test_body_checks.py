"""A large body is checked, and parsed, on a worker thread (taihu/api/guards.py): its answer is the one the app
gives when FastAPI parses the same body on the event loop, and a small body is still checked on the loop."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from abuse_cases import ESCAPED_QUOTES, HOSTILE_BODIES
from api_app import app as http_app
from fastapi.testclient import TestClient

from taihu.api import guards
from taihu.api.schemas import SCORE_EXAMPLES

EXAMPLE = SCORE_EXAMPLES[0]  # a rule set's own example request: a hand it scores
PAD = b" " * 17_000  # over CHECK_ON_LOOP_UP_TO: whitespace JSON allows before or after the value

BODIES: dict[str, tuple[str, bytes]] = {
    "unclosed string of escaped quotes": ("/v1/score", ESCAPED_QUOTES),
    "a comma missing": ("/v1/score", b'{"hand": "1m" "rules": "luoshan"}' + PAD),
    "unclosed object": ("/v1/score", b'{"hand": "1m"' + PAD),
    "text after the value": ("/v1/score", b'{"hand": "1m"}' + PAD + b"x"),
    "a bare word": ("/v1/settle", PAD + b"nonsense"),
    "a control character in a string": ("/v1/score", b'{"hand": "1m\x01"}' + PAD),
    "not UTF-8": ("/v1/score", b'{"hand": "\xff\xfe"}' + PAD),
    "a valid hand": ("/v1/score", json.dumps(EXAMPLE).encode() + PAD),
    "a valid hand with a field too many": ("/v1/score", json.dumps({**EXAMPLE, "x": 1}).encode() + PAD),
    "a valid batch": ("/v1/score/batch", json.dumps({"hands": [EXAMPLE] * 3}).encode() + PAD),
    **{name: (f"/v1{path}", body.encode() + PAD) for name, (path, body) in HOSTILE_BODIES.items()},
}


def answer(path: str, body: bytes, lang: str) -> tuple[int, Any, str | None]:
    reply = TestClient(http_app, raise_server_exceptions=False).post(
        path, content=body, headers={"content-type": "application/json", "accept-language": lang}
    )
    return reply.status_code, reply.json(), reply.headers.get("content-language")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("case", list(BODIES))
def test_a_large_body_is_answered_off_the_loop_as_on_it(case: str, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path, body = BODIES[case]
    assert len(body) > guards.CHECK_ON_LOOP_UP_TO
    off_loop = answer(path, body, lang)
    monkeypatch.setattr(guards, "CHECK_ON_LOOP_UP_TO", guards.MAX_BODY)  # every body checked on the loop
    assert off_loop == answer(path, body, lang)


def on_a_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


@pytest.mark.parametrize(
    ("body", "on_loop"),
    [(json.dumps(EXAMPLE).encode(), True), (json.dumps(EXAMPLE).encode() + PAD, False)],
)
def test_only_a_large_body_is_checked_on_a_worker_thread(
    body: bytes, on_loop: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    check = guards.check_json_text

    def watched(text: bytes, what: object) -> None:
        seen.append(on_a_loop())
        check(text, what)

    monkeypatch.setattr(guards, "check_json_text", watched)
    status, _, _ = answer("/v1/score", body, "en")
    assert (status, seen) == (200, [on_loop])
