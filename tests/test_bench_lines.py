"""The hands `make bench` times are hands the library scores (bench/bench.py, bench/serve.py).

The bench is not a test, so nothing else runs it: when a ruling made a win
on a discarded wildcard an error, every Lingxi line of the bench won on one,
and `make bench` stopped at its first wildcard row. These build each of the
bench's kinds of hand, with its own generators, and score a sample.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from taihu.scorer import score_hand, waits

BENCH = Path(__file__).resolve().parent.parent / "bench"
SAMPLE = 40  # hands of each kind


def bench_module(name: str) -> ModuleType:
    """bench/NAME.py, imported from its file (the folder is not a package; bench.py imports serve.py by path)."""
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return bench_module("bench")


def test_the_closed_hands_score_as_luoshan_and_riichi(bench: ModuleType) -> None:
    for tiles, win in bench.distinct_hands(random.Random(1), SAMPLE, set()):
        assert score_hand(bench.luoshan_line(tiles, win), rules="luoshan").winner
        assert score_hand(bench.riichi_line(tiles, win), rules="riichi").winner


def test_the_open_riichi_hands_score(bench: ModuleType) -> None:
    for line, _ in bench.open_riichi_hands(random.Random(2), SAMPLE):
        assert score_hand(line, rules="riichi").winner


@pytest.mark.parametrize("wildcards", [0, 2, 4, 6])
def test_the_lingxi_hands_score_and_hold_their_wildcards(bench: ModuleType, wildcards: int) -> None:
    rng = random.Random(3)
    for _ in range(SAMPLE):
        line = bench.lingxi_line(rng, wildcards)
        held = [token.lstrip("+") for token in line.split() if ":" not in token]
        assert len(held) == 17 and sum(tile in ("5m", "E") for tile in held) == wildcards, line
        assert score_hand(line).winner, line


@pytest.mark.parametrize("wildcards", [0, 6])
def test_the_waiting_lingxi_hands_have_waits(bench: ModuleType, wildcards: int) -> None:
    rng = random.Random(4)
    for _ in range(SAMPLE // 4):
        line = bench.waiting_lingxi_line(rng, wildcards)
        assert waits(line, rules="lingxi").waits, line


def test_the_server_bench_hands_score() -> None:
    serve = bench_module("serve")
    for rules, line in serve.bench_hands(random.Random(5), SAMPLE):
        assert score_hand(line, rules=rules).winner


def test_the_endpoint_alone_answers_the_bench_hands_as_taihus_app_does() -> None:
    """The server bench's "endpoint alone" app does taihu's work for a hand, less only the app's own parts."""
    from fastapi.testclient import TestClient

    from taihu.api.app import create_app
    from taihu.api.settings import Settings

    serve, floor = bench_module("serve"), bench_module("floor_app")
    json = {"content-type": "application/json"}  # as the bench's client sends
    whole_app = create_app(Settings(allowed_hosts=("testserver",)))
    with TestClient(whole_app) as whole, TestClient(floor.create_endpoint_app()) as alone:
        for body in serve.score_bodies(serve.bench_hands(random.Random(7), SAMPLE // 4)):
            answers = [client.post("/v1/score", content=body, headers=json) for client in (whole, alone)]
            assert [a.status_code for a in answers] == [200, 200]
            assert answers[0].json() == answers[1].json()


def test_the_mcr_lines_score_and_pymahjonggb_reads_them_as_its_raw_call_does(bench: ModuleType) -> None:
    gb = pytest.importorskip("MahjongGB")
    for tiles, win in bench.distinct_hands(random.Random(6), SAMPLE, set()):
        line = bench.mcr_line(tiles, win)
        assert score_hand(line, rules="mcr").winner, line
        arguments = bench.gb_arguments(line)
        assert bench.gb_from_line(line) == bench.gb_raw(arguments) == gb.MahjongFanCalculator(*arguments), line


@pytest.mark.parametrize("libraries", [2, 3])
def test_the_libraries_take_turns_and_each_call_is_timed_once_in_hand_order(bench: ModuleType, libraries: int) -> None:
    made: list[tuple[int, int]] = []
    hands = 2 * bench.BLOCK + 7
    blocks = [tuple(lambda h=h, lib=lib: made.append((lib, h)) for lib in range(libraries)) for h in range(hands)]
    times = bench.alternate(blocks)
    assert len(times) == libraries and all(len(t.wall) == len(t.cpu) == hands for t in times)
    assert sorted(made) == [(lib, h) for lib in range(libraries) for h in range(hands)]
    firsts = [made[start * libraries][0] for start in range(0, hands, bench.BLOCK)]
    assert firsts == [block % libraries for block in range(len(firsts))]  # who goes first turns from block to block
