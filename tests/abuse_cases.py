"""What a hostile or just busy client sends: for the abuse tests (bounded) and `make soak` (all of it).

Each hand is sets and a pair of random tiles, some replaced by wildcards of
a random kind, under a random rule set, so the core's caches see new keys
(new wildcard kinds and suit mixes) hand after hand. Many are valid wins;
the rest are bad input, which costs as a client would make it cost.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

from taihu.scorer import tiles as T

TILES = {"lingxi": 17, "putian": 17, "luoshan": 14, "jinhua": 14, "guannan": 14}


def sets_and_pair(rng: random.Random, tiles: int) -> list[int]:
    """The tile kinds of a random winning shape: sets (chows or pungs) and a pair, no kind over four times."""
    while True:
        kinds: list[int] = []
        for _ in range((tiles - 2) // 3):
            if rng.random() < 0.5:
                start = rng.randrange(3) * 9 + rng.randrange(7)
                kinds += [start, start + 1, start + 2]
            else:
                kinds += [rng.randrange(34)] * 3
        kinds += [rng.randrange(34)] * 2
        if all(kinds.count(k) <= 4 for k in set(kinds)):
            return kinds


def hand_line(rng: random.Random, rules: str) -> str:
    """One hand line: up to five tiles replaced by the wildcard kind, the last tile the winning one."""
    kinds = sets_and_pair(rng, TILES[rules])
    wild = rng.randrange(34)
    for place in rng.sample(range(len(kinds)), rng.randrange(6)):
        if kinds.count(wild) < 4:
            kinds[place] = wild
    rng.shuffle(kinds)
    win = kinds.pop()
    text = " ".join(T.name(k) for k in kinds)
    flags = " self" if rng.random() < 0.5 else ""
    return f"{text} +{T.name(win)} wild:{T.name(wild)} seat:{rng.choice('ESWN')}{flags}"


def distinct_hands(seed: int = 15) -> Iterator[tuple[str, str]]:
    """(rule set, hand line) pairs, never the same twice."""
    rng = random.Random(seed)
    seen: set[tuple[str, str]] = set()
    names = sorted(TILES)
    while True:
        rules = rng.choice(names)
        case = (rules, hand_line(rng, rules))
        if case not in seen:
            seen.add(case)
            yield case


# -- hostile requests: a bounded set in `make test`, all of them in `make soak` ----------

LONE = "\ud800"  # a lone surrogate: JSON may carry it ("\ud800"), UTF-8 cannot encode it
TABLE: dict[str, Any] = {"rules": "lingxi", "players": {"E": "1m", "S": "1m", "W": "1m", "N": "1m"}}


def table(**changes: Any) -> dict[str, Any]:
    return TABLE | changes


# Each place a message echoes input: (endpoint, body) with the echoed text put in by `text`.
ECHOES: dict[str, Callable[[str], tuple[str, dict[str, Any]]]] = {
    "rule set name": lambda text: ("/score", {"rules": text, "hand": "1m"}),
    "option key": lambda text: ("/score", {"hand": "1m", "options": {text: 1}}),
    "hand token": lambda text: ("/settle", table(players={"E": "1m" + text, "S": "1m", "W": "1m", "N": "1m"})),
    "table option key": lambda text: ("/settle", table(options={text: 1})),
    "event type": lambda text: ("/settle", table(events=[{"type": text, "seat": "E"}])),
    "wild entry": lambda text: ("/settle", table(wild=[text])),
    "flip entry": lambda text: ("/settle", table(flip=text)),
    "seat key": lambda text: ("/settle", table(players={"E": "1m", "S": "1m", "W": "1m", "N": "1m", text: "1m"})),
    "condition": lambda text: ("/score", {"hand": "1m seat:" + text}),
}

HAND = "123m 456m 789p 234s 678s 5p +5p wild:9s,N"
HUGE = "9" * 5000


def totals_table(winner_total: Any) -> dict[str, Any]:
    """A Lingxi table of counts only: the winner E with `winner_total`."""
    others = {seat: {"total": 0} for seat in "SWN"}
    return {"rules": "lingxi", "winner": "E", "players": {"E": {"total": winner_total}, **others}}


HOSTILE_BODIES = {
    "/score with a 5,000-digit option": ("/score", f'{{"hand": "{HAND}", "options": {{"double_at": {HUGE}}}}}'),
    "/score with an option over its range": ("/score", json.dumps({"hand": HAND, "options": {"double_at": 1001}})),
    "/settle with a 5,000-digit total": ("/settle", json.dumps(totals_table(0)).replace("0", HUGE, 1)),
    "/settle with a total of 2**64": ("/settle", json.dumps(totals_table(2**64))),
    "/settle nested 60,000 deep": ("/settle", "[" * 60_000),
    "/score nested 33 deep": ("/score", "[" * 33 + "]" * 33),
}


def hostile_requests() -> list[tuple[str, str, bytes]]:
    """(name, path, body) of every hostile request above, bodies as a client sends them."""
    out = [(f"{place}: {kind}", *_encoded(make(text))) for place, make in ECHOES.items() for kind, text in _TEXTS]
    out += [(name, path, body.encode()) for name, (path, body) in HOSTILE_BODIES.items()]
    return out


_TEXTS = (("lone surrogate", LONE), ("50 KB", "x" * 50_000), ("control characters", "\x00\x1b[2J\t"))


def _encoded(request: tuple[str, dict[str, Any]]) -> tuple[str, bytes]:
    path, body = request
    return path, json.dumps(body).encode()  # json.dumps writes a lone surrogate as the escape \ud800


_SOUP = ["1m", "123m", "5p", "E", "P", "f1", "[EEE]", "(CCCC)", "+5p", "self", "wild:5m", "seat:S", "flip:9s"]
_SOUP += ["[", "]", "(", "+", ":", "0m", "10p", "8z", "白", "發", LONE, "\x00", "wild:", "declare:x", "𝟘"]


def fuzz_request(rng: random.Random) -> tuple[str, bytes]:
    """One random request of the kinds a fuzzer sends: token soup, wrong types, broken JSON, odd bytes."""
    hand = " ".join(rng.choice(_SOUP) for _ in range(rng.randrange(1, 24)))
    anything: list[Any] = [hand, 1, -1, 2**70, 1.5, None, True, [], {}, [hand], {"total": rng.randrange(-5, 50)}]
    choice = rng.randrange(6)
    if choice == 0:
        return "/score", json.dumps({"rules": rng.choice(sorted(TILES) + ["x"]), "hand": hand}).encode()
    if choice == 1:
        options = {rng.choice(_SOUP): rng.choice(anything)}
        return "/score", json.dumps({"hand": rng.choice(anything), "options": options}).encode()
    if choice == 2:
        players = {seat: rng.choice(anything) for seat in rng.sample("ESWNX", rng.randrange(3, 6))}
        body = {"rules": rng.choice(sorted(TILES)), "players": players, "winner": rng.choice([*"ESWN", None, 5])}
        if rng.random() < 0.5:
            body["events"] = [{"type": rng.choice(_SOUP + ["foul", "false-win"]), "seat": rng.choice("ESWN")}]
        if rng.random() < 0.3:
            body["wild"] = [rng.choice(_SOUP)]
        return "/settle", json.dumps(body).encode()
    if choice == 3:
        raw = json.dumps({"hand": hand}).encode()
        cut = rng.randrange(len(raw))
        return "/score", raw[:cut] + bytes([rng.randrange(256)]) + raw[cut + 1 :]
    if choice == 4:
        return rng.choice(["/score", "/settle"]), bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
    return "/score", json.dumps(rng.choice(anything)).encode()


# -- costly hands: many 金 in one suit, many wildcards and one-suit tiles ----------------

CRAFTED_PUTIAN = "7p 4p 4p 5p 5p 8p 6p 6p 6p 7p 5p 4p 9s 9s 9s 9s +6p wild:9s seat:S self"  # the issue's
# the same tiles won by 抢金 (taking the flipped 金): the one way four 金 are in play
CRAFTED_QIANG_JIN = "7p 4p 4p 5p 5p 8p 6p 6p 6p 7p 5p 4p 9s 9s 9s 6p +9s wild:9s seat:S declare:qiang-jin"


def costly_hands(seed: int = 5, each: int = 5) -> list[tuple[str, str]]:
    """The issue's Putian hand (and as 抢金) and others like it: one suit's tiles with three or four wildcards."""
    rng = random.Random(seed)
    out = [("putian", CRAFTED_PUTIAN), ("putian", CRAFTED_QIANG_JIN)]
    for _ in range(each):
        for rules, tiles, wild, count, written in (
            ("putian", 17, 26, 4, "wild:9s"),
            ("putian", 17, 26, 3, "wild:9s"),  # three 金: all that are in play without 抢金
            ("luoshan", 14, 26, 4, "wild:9s"),
            ("jinhua", 14, 26, 4, "wild:9s"),
            ("lingxi", 17, 4, 3, "wild:5m,E"),
        ):
            while True:
                kinds = sorted(rng.randrange(9, 18) for _ in range(tiles - count))  # pins
                if all(kinds.count(k) <= 4 for k in kinds):
                    break
            names = [T.name(k) for k in kinds] + [T.name(wild)] * count
            win = names.pop(rng.randrange(len(names)))
            out.append((rules, f"{' '.join(names)} +{win} {written} seat:S self"))
    return out


# -- the costly bodies and hands -----------------------------------------------

# An unclosed string of escaped quotes, 64 KB less a byte: 21 s for the former JSON check, on the event loop.
ESCAPED_QUOTES = b'"' + b'\\"' * 32767
# The costliest /waits hand known: Jinhua, 14 tiles with a wildcard kind held, each discard's waits (66 KB).
COSTLY_WAITS = {"rules": "jinhua", "hand": "4s 8s 9s 9s 3s 5s 7s 7s 8s 8s 6s 9s 2s 6s wild:9s seat:S"}


def costly_waits() -> list[dict[str, str]]:
    """The /waits bodies of `make soak`: the issue's Jinhua hand and others of its kind (a wildcard kind held)."""
    return [
        COSTLY_WAITS,
        {"rules": "jinhua", "hand": "9s 9s 9s 3s 5s 7s 7s 8s 8s 6s 4s 2s 6s 1s wild:9s seat:S"},
        {"rules": "luoshan", "hand": "9s 9s 9s 1s 2s 3s 4s 5s 6s 7s 8s 8s 1s 2s flip:8s seat:S"},
        {"rules": "riichi", "hand": "1s 1s 1s 2s 3s 4s 5s 6s 7s 8s 9s 9s 9s 5s"},
    ]
