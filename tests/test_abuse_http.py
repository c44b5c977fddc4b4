"""The soak's fuzz in little: hostile and fuzzed requests to a real server, one connection.

Every answer is a 200 or a clean 4xx, the connection is kept, and the server
logs nothing. `make soak` runs the same cases at length.
"""

from __future__ import annotations

import http.client
import json
import logging
import random

import pytest
from abuse_cases import fuzz_request, hostile_requests
from live_server import live_server

FUZZED = 300  # requests; the soak sends thousands


def test_hostile_and_fuzzed_requests_get_clean_answers(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    rng = random.Random(15)
    requests = [(path, body) for _, path, body in hostile_requests()]
    requests += [fuzz_request(rng) for _ in range(FUZZED)]
    statuses: dict[int, int] = {}
    with live_server() as (host, port):
        connection = http.client.HTTPConnection(host, port, timeout=30)
        try:
            for path, body in requests:
                connection.request("POST", path, body=body, headers={"content-type": "application/json"})
                reply = connection.getresponse()
                answer = reply.read()
                statuses[reply.status] = statuses.get(reply.status, 0) + 1
                assert reply.status in (200, 413, 422), (path, body[:200], answer[:300])
                if reply.status != 200:
                    assert isinstance(json.loads(answer)["detail"], str)
                assert reply.getheader("connection") != "close", (path, body[:200])
        finally:
            connection.close()
    assert statuses.get(422, 0) > len(requests) / 2  # most of it is bad input, as meant
    logged = [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    assert not logged, [r.getMessage() for r in logged]
