"""Issue 26, part 3: `POST /score` answered by taihu/api/fast.py is the plain route's answer, byte for byte.

Each request of the table is sent to the served app (`taihu.api.app.served`)
twice: as it is, and with the fast path turned away (its `scored` answering
None, so every request goes on to FastAPI's route). Status, headers and body
must be the same. The good requests must be the fast path's own (counted),
or the comparison would say nothing.
"""

from __future__ import annotations

import gzip
import json
import random
import threading
from collections.abc import Iterator
from email.message import Message
from typing import Any

import pytest
from fastapi.testclient import TestClient

import taihu.api.bodies as bodies_module
import taihu.api.fast as fast_module
from taihu.api.app import app, served
from taihu.api.schemas import SCORE_REQUEST
from taihu.api.server import sets_and_pair
from taihu.scorer import HandError, score_hand
from taihu.scorer import tiles as T
from taihu.scorer.rulesets import RULESETS

JSON = {"content-type": "application/json"}


def good_hands() -> list[dict[str, Any]]:
    """Two winning hands of each rule set (random shapes): the first without a wildcard, the second with one
    where the rule set takes `wild:` and some shape scores with it."""
    rng = random.Random(26)
    found: list[dict[str, Any]] = []
    for name, rule_set in RULESETS.items():
        lines: list[str] = []
        for attempt in range(400):
            kinds = sets_and_pair(rng, rule_set.hand_size + 1)
            tiles = [T.name(k) for k in kinds]
            wild = f" wild:{tiles[0]}" if lines and attempt < 200 and "wild" in rule_set.conditions else ""
            line = " ".join(tiles[:-1]) + f" +{tiles[-1]}{wild} self"
            try:
                score_hand(line, rules=name)
            except HandError:
                continue
            lines.append(line)
            if len(lines) == 2:
                break
        assert len(lines) == 2, name
        found += [{"rules": name, "hand": line} for line in lines]
    return found


def scores(rules: str, hand: str) -> bool:
    """Whether the hand has a score (the fast path answers it) rather than an error (the plain route does)."""
    try:
        score_hand(hand, rules=rules)
    except HandError:
        return False
    return True


GOOD = good_hands()
LINGXI = {"rules": "lingxi", "hand": "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W"}
LARGE = {"rules": "luoshan", "hand": "[EEE] (CCCC) [999m] 11p FF +1p self flip:5s seat:E"}  # 1.7 KB with arithmetic
LUOSHAN_TILES = "2m 2m 4p 4p 4p 6p 6p 7p 7p 7p 9s 9s 9s +2m self"  # a win with no 1m, 3m, 5m: none held as wild
LANES = [  # (rules, hand, scored on the loop)
    ("lingxi", "123m 456m 789p 234s 678s 5p +5p seat:W", True),
    ("riichi", "4m 4m 1p 2p 3p 4p 4p 4p E E E F F +4m seat:S round:E self", True),
    ("lingxi", "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W", False),  # its wildcards are families
    ("luoshan", "[EEE] (CCCC) [999m] 11p FF +1p self flip:5s seat:E", True),  # 6s is wild: none held
    ("luoshan", f"{LUOSHAN_TILES} wild:1m", True),
    ("luoshan", f"{LUOSHAN_TILES} wild:4p", False),
    ("luoshan", f"{LUOSHAN_TILES} wild:2m", False),  # the winning tile's kind too
    ("luoshan", "2m 2m [444p] 6p 6p 7p 7p 7p 9s 9s 9s +2m self wild:4p", False),  # in a meld (refused there)
    ("luoshan", f"{LUOSHAN_TILES} flip:5m", True),  # 6m is wild
    ("luoshan", f"{LUOSHAN_TILES} flip:1m", False),  # 2m is wild
    ("luoshan", f"{LUOSHAN_TILES} 财神:4p", False),  # the players' word for wild: (no `wild:` in the body)
    ("luoshan", f"{LUOSHAN_TILES} 财神:1m", True),
    ("luoshan", f"{LUOSHAN_TILES} wild:1m flip:5m", False),  # refused: both
    ("Luoshan", f"{LUOSHAN_TILES} wild:1m", False),  # by another name: not looked into
    ("jinhua", f"{LUOSHAN_TILES} wild:1m", True),
    ("jinhua", f"{LUOSHAN_TILES} wild:4p", False),
    ("putian", "2m 2m 4p 4p 4p 6p 6p 7p 7p 7p 9s 9s 9s 1s 1s 1s +2m self wild:5m", True),
    ("putian", "2m 2m 4p 4p 4p 6p 6p 7p 7p 7p 9s 9s 9s 1s 1s 1s +2m self wild:4p", False),
    ("luoshan", "123m x", False),  # a line the rule set refuses
]
Case = tuple[str, str, dict[str, str], bytes]  # path with query, expected to be fast, headers, body


def cases() -> Iterator[tuple[str, Case]]:
    for n, hand in enumerate(GOOD):
        yield f"good {hand['rules']} {n}", ("/v1/score", True, JSON, json.dumps(hand).encode())
    yield "unprefixed path", ("/score", True, JSON, json.dumps(GOOD[0]).encode())
    yield "options", ("/v1/score", True, JSON, json.dumps(LINGXI | {"options": {"double_at": 10}}).encode())
    yield "arithmetic", ("/v1/score?arithmetic=true", True, JSON, json.dumps(LINGXI).encode())
    yield "arithmetic false", ("/v1/score?arithmetic=false", True, JSON, json.dumps(LINGXI).encode())
    yield "arithmetic 1", ("/v1/score?arithmetic=1", False, JSON, json.dumps(LINGXI).encode())
    yield "lang zh", ("/v1/score?lang=zh", True, JSON, json.dumps(LINGXI).encode())
    yield "lang and arithmetic", ("/v1/score?lang=en&arithmetic=true", True, JSON, json.dumps(LINGXI).encode())
    yield "arithmetic in Chinese", ("/v1/score?lang=zh&arithmetic=true", True, JSON, json.dumps(LINGXI).encode())
    yield "lang unknown", ("/v1/score?lang=fr", False, JSON, json.dumps(LINGXI).encode())
    yield "unknown query", ("/v1/score?x=1", False, JSON, json.dumps(LINGXI).encode())
    yield (
        "Accept-Language",
        ("/v1/score", True, JSON | {"accept-language": "zh-CN,zh;q=0.9"}, json.dumps(LINGXI).encode()),
    )
    yield "gzip, small answer", ("/v1/score", True, JSON | {"accept-encoding": "gzip"}, json.dumps(LINGXI).encode())
    big = ("/v1/score?arithmetic=true", True, JSON | {"accept-encoding": "gzip"}, json.dumps(LARGE).encode())
    yield "gzip, large answer", big
    yield "large answer, no gzip", ("/v1/score?arithmetic=true", True, JSON, json.dumps(LARGE).encode())
    yield "rule set by another name", ("/v1/score", True, JSON, json.dumps(LINGXI | {"rules": "Lingxi"}).encode())
    yield (
        "charset",
        ("/v1/score", False, {"content-type": "application/json; charset=utf-8"}, json.dumps(LINGXI).encode()),
    )
    yield "no content type", ("/v1/score", False, {}, json.dumps(LINGXI).encode())
    yield "text content type", ("/v1/score", False, {"content-type": "text/plain"}, json.dumps(LINGXI).encode())
    yield "bad hand", ("/v1/score", False, JSON, b'{"rules": "lingxi", "hand": "123m x"}')
    yield "not a win", ("/v1/score", False, JSON, b'{"rules": "luoshan", "hand": "1m 2m"}')
    yield "unknown rule set", ("/v1/score", False, JSON, b'{"rules": "nope", "hand": "123m"}')
    yield "unknown field", ("/v1/score", False, JSON, json.dumps(LINGXI | {"x": 1}).encode())
    yield "unknown option", ("/v1/score", False, JSON, json.dumps(LINGXI | {"options": {"nope": 1}}).encode())
    yield "option as float", ("/v1/score", True, JSON, json.dumps(LINGXI | {"options": {"double_at": 10.0}}).encode())
    yield "long number", ("/v1/score", False, JSON, b'{"hand": "123m", "options": {"a": 1.0000000000000000000000000}}')
    yield "bad JSON", ("/v1/score", False, JSON, b'{"hand": ')
    yield "not UTF-8", ("/v1/score", False, JSON, b'{"hand": "\xff"}')
    yield "lone surrogate", ("/v1/score", False, JSON, b'{"rules": "lingxi", "hand": "\\ud800"}')
    yield "a list", ("/v1/score", False, JSON, b"[1, 1, 1]")
    yield "empty body", ("/v1/score", False, JSON, b"")
    yield "deep", ("/v1/score", False, JSON, b"[" * 40 + b"]" * 40)
    yield "big body", ("/v1/score", False, JSON, json.dumps(LINGXI | {"pad": "x" * 5000}).encode())
    yield "other Host", ("/v1/score", False, JSON | {"host": "evil.example"}, json.dumps(LINGXI).encode())
    yield "Host with port", ("/v1/score", True, JSON | {"host": "localhost:8000"}, json.dumps(LINGXI).encode())
    for n, (rules, hand, _) in enumerate(LANES[4:-1]):  # the lanes of the wildcard: scored on the loop or in a worker
        body = json.dumps({"rules": rules, "hand": hand}, ensure_ascii=False).encode()
        yield f"lane {n} {rules} {hand[-16:]}", ("/v1/score", scores(rules, hand), JSON, body)


CASES = dict(cases())


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether the fast path answered, request by request."""
    answered: list[bool] = []
    made = fast_module.scored

    def counting(*args: Any) -> bytes | None:
        answer = made(*args)
        answered.append(answer is not None)
        return answer

    monkeypatch.setattr(fast_module, "scored", counting)
    return answered


def answer(client: TestClient, case: Case) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    path, _, headers, body = case
    reply = client.post(path, content=body, headers=headers)
    return reply.status_code, reply.headers.raw, reply.read()


@pytest.mark.parametrize("name", list(CASES))
def test_the_fast_path_answers_as_the_plain_route(
    name: str, counted: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    case = CASES[name]
    client = TestClient(served, base_url="http://localhost")
    fast = answer(client, case)
    assert counted == [case[1]] or (not case[1] and counted == []), "the fast path answered as expected"
    monkeypatch.setattr(fast_module, "scored", lambda *args: None)
    plain = answer(client, case)
    assert fast == plain
    if case[1]:
        assert fast[0] == 200


def test_a_large_answer_is_gzipped_as_the_middleware_does() -> None:
    path, _, headers, body = CASES["gzip, large answer"]
    reply = TestClient(served, base_url="http://localhost").post(path, content=body, headers=headers)
    assert reply.headers["content-encoding"] == "gzip" and reply.headers["vary"] == "Accept-Language, Accept-Encoding"
    assert json.loads(reply.content)["arithmetic"]  # httpx undid the gzip


def test_under_a_root_path_the_same_paths_are_fast(counted: list[bool]) -> None:
    client = TestClient(served, base_url="http://localhost", root_path="/taihu")
    reply = client.post("/taihu/v1/score", content=json.dumps(LINGXI).encode(), headers=JSON)
    assert reply.status_code == 200 and counted == [True]
    assert reply.content == TestClient(app, base_url="http://localhost").post("/v1/score", json=LINGXI).content


@pytest.mark.parametrize(("rules", "hand", "on_loop"), LANES)
def test_only_a_hand_that_holds_no_wildcard_is_scored_on_the_loop(rules: str, hand: str, on_loop: bool) -> None:
    RULESETS[rules.lower()]  # made, as a server's warm-up makes every rule set
    request = SCORE_REQUEST.validate_python({"rules": rules, "hand": hand})
    line = fast_module.loop_line(request)
    assert (line is not None) is on_loop
    if line is not None:  # read as scoring reads it
        assert line.parsed == line.rule_set.read_line(hand) and line.rule_set is RULESETS[rules]


@pytest.mark.parametrize(
    "body",
    [
        json.dumps({"rules": "luoshan", "hand": f"{LUOSHAN_TILES} 财神:4p"}, ensure_ascii=False).encode(),
        json.dumps({"rules": "luoshan", "hand": f"{LUOSHAN_TILES} 财神:4p"}).encode(),  # \u escapes
        b'{"rules": "luoshan", "hand": "' + LUOSHAN_TILES.encode() + b' w\\u0069ld:4p"}',
        json.dumps({"rules": "luoshan", "hand": f"{LUOSHAN_TILES} wild:1m"}).encode(),
    ],
)
def test_a_hand_holding_a_wildcard_however_written_is_scored_in_a_worker(
    body: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    RULESETS["luoshan"]
    threads: list[str] = []
    made = fast_module.scored

    def watched(*args: Any) -> bytes | None:
        threads.append(threading.current_thread().name)
        return made(*args)

    monkeypatch.setattr(fast_module, "scored", watched)
    reply = TestClient(served, base_url="http://localhost").post("/v1/score", content=body, headers=JSON)
    assert reply.status_code == 200 and len(threads) == 1
    held = "wild:1m" not in body.decode()
    assert threads[0].startswith("taihu-cpu") is held, threads


def test_gzip_compression_is_the_middlewares() -> None:
    """The fast path compresses as GZipMiddleware does: the same bytes for the same answer (no time stamp)."""
    assert gzip.decompress(fast_module.headers_of(b"x" * 2000, gzip=True, lang="en")[1]) == b"x" * 2000


# -- issue 21, review item C: a body is read and validated in a worker thread, not on the event loop ----------


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/score", json.dumps(LINGXI).encode()),
        ("/v1/score", b"[" + b"1," * 20000 + b"1]"),
        ("/v1/settle", json.dumps({"rules": "lingxi", "winner": "E", "players": {}}).encode()),
        ("/v1/waits", json.dumps({"rules": "luoshan", "hand": "123m 456m 789p 23s 55p"}).encode()),
    ],
)
def test_a_body_is_parsed_in_a_worker_thread(path: str, body: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[str] = []
    parse = bodies_module.json_value

    def watched(text: bytes) -> Any:
        threads.append(threading.current_thread().name)
        return parse(text)

    monkeypatch.setattr(bodies_module, "json_value", watched)
    TestClient(app, base_url="http://localhost").post(path, content=body, headers=JSON)
    assert threads and all(name.startswith("taihu-cpu") for name in threads), threads


@pytest.mark.parametrize(
    "content_type",
    [
        "application/json",
        "Application/JSON",
        "application/json; charset=utf-8",
        "application/json ",
        " application/json",
        "application/problem+json",
        "application/jsonx",
        "text/json",
        "application/x-www-form-urlencoded",
    ],
)
def test_a_json_content_type_is_told_as_the_email_parser_tells_it(content_type: str) -> None:
    """`is_json` answers `application/json` without the parser: as the parser would."""
    message = Message()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    expected = message.get_content_maintype() == "application" and (subtype == "json" or subtype.endswith("+json"))
    assert bodies_module.is_json(content_type) is expected
