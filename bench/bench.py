"""Speed of the scoring core, side by side with `mahjong` (riichi) 2.1.0.

Run with `make bench`. Not a test: figures depend on the machine. Every
hand is scored once by each library, after a warm-up on other hands. The
two libraries take turns in blocks of `BLOCK` hands over the same hands (and
which goes first alternates too), so a change of load on a shared machine
falls on both alike and cancels in the ratios.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import platform
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import NamedTuple

from taihu.scorer import score_hand, settle_table, waits
from taihu.scorer import tiles as T

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve import bench_server  # noqa: E402  (bench/serve.py: the server against the framework's floor)

# our kinds 31 C, 32 F, 33 P are haku/hatsu/chun = 33, 32, 31 in mahjong's 34-order
TO_MAHJONG_34 = list(range(31)) + [33, 32, 31]


def sets_and_pair(rng: random.Random, sets: int, kinds: int) -> list[int]:
    """`sets` chows or pungs (even odds) and a pair, the pungs and the pair of a kind below `kinds`."""
    tiles: list[int] = []
    for _ in range(sets):
        if rng.random() < 0.5:
            start = rng.randrange(3) * 9 + rng.randrange(7)
            tiles += [start, start + 1, start + 2]
        else:
            tiles += [rng.randrange(kinds)] * 3
    return tiles + [rng.randrange(kinds)] * 2


def random_closed_hand(rng: random.Random) -> list[int]:
    """Four sets (no kongs) and a pair, within four copies of each kind."""
    while True:
        tiles = sets_and_pair(rng, 4, 34)
        if all(tiles.count(k) <= 4 for k in set(tiles)):
            return sorted(tiles)


def distinct_hands(rng: random.Random, count: int, seen: set[tuple[int, ...]]) -> list[tuple[list[int], int]]:
    """(tiles, winning tile) pairs, none repeated and none in `seen`."""
    out = []
    while len(out) < count:
        tiles = random_closed_hand(rng)
        win = rng.choice(tiles)
        key = (*tiles, win)
        if key not in seen:
            seen.add(key)
            out.append((tiles, win))
    return out


def luoshan_line(tiles: list[int], win: int) -> str:
    rest = list(tiles)
    rest.remove(win)
    absent = next(k for k in range(34) if k not in tiles)  # a wildcard kind the hand does not hold
    return f"{' '.join(T.name(k) for k in rest)} +{T.name(win)} self wild:{T.name(absent)}"


def riichi_line(tiles: list[int], win: int) -> str:
    """The same hand for taihu's riichi: self-drawn by the South seat in the East round."""
    rest = list(tiles)
    rest.remove(win)
    return f"{' '.join(T.name(k) for k in rest)} +{T.name(win)} seat:S round:E self"


def open_riichi_hands(rng: random.Random, count: int) -> list[tuple[str, Callable[[], object]]]:
    """Hands with more in them: half open (the first set exposed), on a discard or self-drawn, a dora indicator.

    Each is (taihu line, a call of mahjong's scorer on the same hand with its config made beforehand).
    """
    from mahjong.constants import EAST, SOUTH
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig
    from mahjong.meld import Meld

    out: list[tuple[str, Callable[[], object]]] = []
    while len(out) < count:
        sets = []
        for _ in range(4):
            start = rng.randrange(3) * 9 + rng.randrange(7)
            sets.append([start, start + 1, start + 2] if rng.random() < 0.5 else [rng.randrange(34)] * 3)
        pair = [rng.randrange(34)] * 2
        tiles = [k for group in sets for k in group] + pair
        indicator = rng.randrange(34)
        if any(tiles.count(k) + (k == indicator) > 4 for k in set(tiles)):
            continue
        opened, tsumo = rng.random() < 0.5, rng.random() < 0.5
        concealed = [k for group in sets[opened:] for k in group] + pair
        win = rng.choice(concealed)
        concealed.remove(win)
        used: dict[int, int] = {}

        def ids(kinds: list[int], used: dict[int, int] = used) -> list[int]:
            out = []
            for kind in kinds:
                k34 = TO_MAHJONG_34[kind]
                out.append(k34 * 4 + used.get(k34, 0))
                used[k34] = used.get(k34, 0) + 1
            return out

        meld_ids = ids(sets[0]) if opened else []
        hand_ids, win_id, dora_id = ids(concealed), ids([win])[0], ids([indicator])[0]
        melds = [Meld(Meld.CHI if sets[0][0] != sets[0][1] else Meld.PON, meld_ids, True)] if opened else []
        config = HandConfig(is_tsumo=tsumo, is_riichi=not opened, player_wind=SOUTH, round_wind=EAST)
        hand = " ".join(T.name(k) for k in concealed)
        meld = f" [{T.group_text(sets[0])}]" if opened else ""
        line = f"{hand}{meld} +{T.name(win)} seat:S round:E dora:{T.name(indicator)}"
        line += (" self" if tsumo else "") + ("" if opened else " riichi")

        tiles_136 = hand_ids + meld_ids + [win_id]
        call = partial(HandCalculator.estimate_hand_value, tiles_136, win_id, melds, [dora_id], config)
        out.append((line, call))
    return out


def mahjong_call(winds: bool = False) -> Callable[[list[int], int], object]:
    """mahjong's scorer on our kinds; `winds`: South seat, East round (as `riichi_line`), else its defaults."""
    from mahjong.constants import EAST, SOUTH
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig

    calculator = HandCalculator()
    config = HandConfig(is_tsumo=True, player_wind=SOUTH, round_wind=EAST) if winds else HandConfig(is_tsumo=True)

    def call(tiles: list[int], win: int) -> object:
        used: dict[int, int] = {}
        ids = []
        for kind in tiles:
            k34 = TO_MAHJONG_34[kind]
            ids.append(k34 * 4 + used.get(k34, 0))
            used[k34] = used.get(k34, 0) + 1
        win34 = TO_MAHJONG_34[win]
        win_id = next(i for i in ids if i // 4 == win34)
        return calculator.estimate_hand_value(ids, win_id, config=config)

    return call


def freeze_heap() -> None:
    """After warm-up, move what exists to the permanent generation.

    The harness's own objects (hand lists, both libraries' modules) would
    otherwise be rescanned by every full collection inside a timed call.
    """
    gc.collect()
    gc.freeze()


def timed(call: Callable[..., object], *args: object) -> float:
    start = time.perf_counter()
    call(*args)
    return time.perf_counter() - start


BLOCK = 50  # hands per turn when the two libraries alternate


class Times(NamedTuple):
    """One library's times per hand: wall clock, and CPU time of this thread (what other processes cannot take)."""

    wall: list[float]
    cpu: list[float]


def alternate(blocks: list[tuple[Callable[[], object], ...]]) -> tuple[Times, ...]:
    """Times each tuple of calls of `blocks` (taihu's first, then the other libraries'), a block of one library,
    then a block of the next, the library that goes first turning from block to block; returns each library's
    times in hand order."""
    libraries = len(blocks[0]) if blocks else 2
    times = tuple(Times([], []) for _ in range(libraries))
    for start in range(0, len(blocks), BLOCK):
        chunk = blocks[start : start + BLOCK]
        turn = start // BLOCK % libraries
        for library in [*range(turn, libraries), *range(turn)]:
            kept = times[library]
            for calls in chunk:
                call = calls[library]
                start_wall, start_cpu = time.perf_counter(), time.thread_time()
                call()
                kept.cpu.append(time.thread_time() - start_cpu)
                kept.wall.append(time.perf_counter() - start_wall)
    return times


def paired(
    lines: list[str], rules: str, hands: list[tuple[list[int], int]], mahjong: Callable[[list[int], int], object]
) -> list[tuple[Callable[[], object], Callable[[], object]]]:
    """Each taihu line with a 14-tile hand for `mahjong`, as calls of no arguments for `alternate`."""
    return [
        (partial(score_hand, line, rules), partial(mahjong, tiles, win))
        for line, (tiles, win) in zip(lines, itertools.cycle(hands), strict=False)
    ]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def lingxi_line(rng: random.Random, wildcards: int) -> str:
    """A 17-tile Lingxi winning hand holding `wildcards` of 5m/E (wild:5m,E)."""
    while True:
        tiles = sets_and_pair(rng, 5, 33)  # no pung or pair of 白: Lingxi sets 白 aside
        natural = [k for k in tiles if k not in (4, T.EAST) and k != T.WHITE]
        if any(tiles.count(k) > 4 for k in set(tiles)) or len(natural) < 17 - wildcards:
            continue
        rng.shuffle(natural)
        # the winning tile a natural one: a win on a wildcard is self-drawn in Lingxi, and a discard is asked for
        held = rng.sample([4, 4, 4, T.EAST, T.EAST, T.EAST], wildcards) + natural[: 17 - wildcards]
        win = held.pop()
        return f"{' '.join(T.name(k) for k in held)} +{T.name(win)} wild:5m,E seat:S"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--waits-only", action="store_true", help="only the waits figures")
    parser.add_argument("--server-only", action="store_true", help="only the server's figures (bench/serve.py)")
    parser.add_argument("--mcr-only", action="store_true", help="only the MCR figures, beside pymahjonggb")
    args = parser.parse_args()
    if args.server_only:
        bench_server()
        return
    if args.mcr_only:
        bench_mcr(distinct_hands(random.Random(args.seed), args.hands, set()))
        return
    rng = random.Random(args.seed)
    seen: set[tuple[int, ...]] = set()
    warmup = distinct_hands(rng, 200, seen)
    hands = distinct_hands(rng, args.hands, seen)
    mahjong = mahjong_call()
    for tiles, win in warmup:
        score_hand(luoshan_line(tiles, win), rules="luoshan")
        mahjong(tiles, win)
    if args.waits_only:
        bench_waits(rng, mahjong, hands)
        return
    freeze_heap()
    lines = [luoshan_line(t, w) for t, w in hands]
    ours_times, theirs_times = alternate(paired(lines, "luoshan", hands, mahjong))
    ours, theirs = ours_times.wall, theirs_times.wall
    ours_med, theirs_med = statistics.median(ours), statistics.median(theirs)
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}")
    print(f"load average (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{len(hands)} distinct closed 14-tile winning hands, self-drawn, each scored once (gc frozen after warm-up)")
    print(f"  the libraries alternate in blocks of {BLOCK} hands over the same hands")
    print(
        f"  taihu  score_hand(luoshan)            median {ours_med * 1e3:7.3f} ms"
        f"  p99 {percentile(ours, 0.99) * 1e3:7.3f} ms"
    )
    print(
        f"  mahjong 2.1.0 estimate_hand_value     median {theirs_med * 1e3:7.3f} ms"
        f"  p99 {percentile(theirs, 0.99) * 1e3:7.3f} ms"
    )
    print(f"  ratio taihu/mahjong (medians)         {ours_med / theirs_med:.3f}  (target ≤ 0.5)")
    riichi_mahjong = mahjong_call(winds=True)
    riichi_lines = [riichi_line(t, w) for t, w in hands]
    for tiles, win in warmup:
        score_hand(riichi_line(tiles, win), rules="riichi")
        riichi_mahjong(tiles, win)
    freeze_heap()
    ours_times, theirs_times = alternate(paired(riichi_lines, "riichi", hands, riichi_mahjong))
    ours, theirs = ours_times.wall, theirs_times.wall
    ours_med, theirs_med = statistics.median(ours), statistics.median(theirs)
    print("the same hands as riichi (seat:S round:E self), same run, alternating in blocks")
    print(
        f"  taihu  score_hand(riichi)             median {ours_med * 1e3:7.3f} ms"
        f"  p99 {percentile(ours, 0.99) * 1e3:7.3f} ms"
    )
    print(
        f"  mahjong 2.1.0 estimate_hand_value     median {theirs_med * 1e3:7.3f} ms"
        f"  p99 {percentile(theirs, 0.99) * 1e3:7.3f} ms"
    )
    print(f"  ratio taihu/mahjong (medians)         {ours_med / theirs_med:.3f}  (target ≤ 1: no slower)")
    mixed = open_riichi_hands(rng, len(hands) + 200)
    for line, call in mixed[:200]:
        score_hand(line, rules="riichi")
        call()
    freeze_heap()
    ours_times, theirs_times = alternate([(partial(score_hand, line, "riichi"), call) for line, call in mixed[200:]])
    ours_med, theirs_med = statistics.median(ours_times.wall), statistics.median(theirs_times.wall)
    print(f"{len(mixed) - 200} riichi hands, half open, on a discard or self-drawn, riichi when closed, dora")
    print(f"  taihu  score_hand(riichi)             median {ours_med * 1e3:7.3f} ms")
    print(f"  mahjong 2.1.0 estimate_hand_value     median {theirs_med * 1e3:7.3f} ms")
    print(f"  ratio taihu/mahjong (medians)         {ours_med / theirs_med:.3f}")
    print("Lingxi 17-tile winning hands (wild:5m,E), 300 each, alternating in blocks with mahjong on 14-tile hands")
    for wildcards in (0, 2, 4, 6):
        lines = [lingxi_line(rng, wildcards) for _ in range(330)]
        for line in lines[:30]:
            score_hand(line)
        freeze_heap()
        ours_times, theirs_times = alternate(paired(lines[30:], "lingxi", hands, mahjong))
        theirs_med = statistics.median(theirs_times.wall)
        p99, cpu_p99 = percentile(ours_times.wall, 0.99), percentile(ours_times.cpu, 0.99)
        target = "  (target ≤ 40×)" if wildcards == 6 else ""
        print(
            f"  {wildcards} wildcards  median {statistics.median(ours_times.wall) * 1e3:7.3f} ms"
            f"  p99 {p99 * 1e3:7.3f} ms  p99/mahjong median {p99 / theirs_med:6.1f}×"
            f"  (mahjong median {theirs_med * 1e3:.3f} ms){target}"
        )
        # on a loaded machine the wall-clock p99 is mostly time other processes had the core
        print(
            f"  {'':11} CPU time median {statistics.median(ours_times.cpu) * 1e3:7.3f} ms  p99 {cpu_p99 * 1e3:7.3f} ms"
            f"  p99/mahjong CPU median {cpu_p99 / statistics.median(theirs_times.cpu):6.1f}×"
        )
    bench_mcr(hands)
    bench_waits(rng, mahjong, hands)
    bench_ledger_add()
    bench_server()


# pymahjonggb's tile names by our notation's: m W, p B, s T, winds F1–F4, dragons 中发白 J1–J3
GB_TILE = {
    **{f"{rank}{suit}": f"{letter}{rank}" for suit, letter in zip("mps", "WBT", strict=True) for rank in range(1, 10)},
    **{wind: f"F{i}" for i, wind in enumerate("ESWN", start=1)},
    **{dragon: f"J{i}" for i, dragon in enumerate("CFP", start=1)},
}
GB_PACK = {3: "PENG", 4: "GANG"}


def gb_arguments(line: str) -> tuple[object, ...]:
    """pymahjonggb's arguments for a notation line, read by a parser of its own here (tiles, `[..]`/`(..)` melds,
    `+`, seat:, round:, self, flowers): what a caller holding taihu's line would have to write to ask it."""
    packs, held, win, flowers, seat, prevalent, drawn = [], [], "", 0, 0, 0, False
    for token in line.split():
        if token.startswith(("seat:", "round:")):
            wind = "ESWN".index(token.partition(":")[2])
            seat, prevalent = (wind, prevalent) if token.startswith("seat") else (seat, wind)
        elif token == "self":
            drawn = True
        elif token[0] == "f":
            flowers += 1
        else:
            runs = re.findall(r"(\d+)([mps])|([ESWNCFP])", token.strip("[]()+"))
            tiles = [GB_TILE[f"{d}{suit}"] for digits, suit, _ in runs for d in digits]
            tiles += [GB_TILE[honor] for _, _, honor in runs if honor]
            if token[0] == "+":
                win = tiles[0]
            elif token[0] in "[(":
                chow = tiles[0] != tiles[1]
                packs.append(("CHI" if chow else GB_PACK[len(tiles)], tiles[1], 0 if token[0] == "(" else 1))
            else:
                held += tiles
    return tuple(packs), tuple(held), win, flowers, drawn, False, False, False, seat, prevalent


def gb_from_line(line: str) -> object:
    """pymahjonggb's fan of a notation line: its arguments read from the line (`gb_arguments`), then its call."""
    from MahjongGB import MahjongFanCalculator

    return MahjongFanCalculator(*gb_arguments(line))


def gb_raw(arguments: tuple[object, ...]) -> object:
    """pymahjonggb's call alone, handed arguments made beforehand."""
    from MahjongGB import MahjongFanCalculator

    return MahjongFanCalculator(*arguments)


def mcr_line(tiles: list[int], win: int) -> str:
    """A closed hand for MCR, won on a discard by the South seat in the East round."""
    held = list(tiles)
    held.remove(win)
    return f"{T.group_text(sorted(held))} +{T.name(win)} seat:S round:E"


MCR_FORKS = 3  # the timed run repeated in forked copies of one state, for the tail (`bench_mcr`)


def in_forks(run: Callable[[], tuple[Times, ...]], copies: int) -> list[tuple[Times, ...]]:
    """`run` in `copies` forked children, one after another, each from the same state (heap, caches, the
    collector's counts): a hand's own costs, the collections that land on it included, recur in every copy,
    while another process holding the core rarely falls on the same hand twice."""
    results = []
    for _ in range(copies):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: time, answer through the pipe, leave at once
            os.close(read)
            with os.fdopen(write, "w") as out:
                json.dump([[t.wall, t.cpu] for t in run()], out)
            os._exit(0)
        os.close(write)
        with os.fdopen(read) as answer:
            results.append(tuple(Times(wall, cpu) for wall, cpu in json.load(answer)))
        os.waitpid(pid, 0)
    return results


def bench_mcr(hands: list[tuple[list[int], int]]) -> None:
    """MCR: taihu's score_hand beside pymahjonggb fed the same notation line (`gb_from_line`), and beside its
    call alone on arguments made beforehand (`gb_raw`), with the garbage collector on."""
    lines = [mcr_line(tiles, win) for tiles, win in hands]
    # the warm-up on other hands: every timed hand is seen for the first time, as `score_hand` mostly meets them
    warmup = [mcr_line(tiles, win) for tiles, win in distinct_hands(random.Random(1), 200, {(*t, w) for t, w in hands})]
    for line in warmup:
        score_hand(line, rules="mcr")
        gb_from_line(line)
    calls = [
        (partial(score_hand, line, "mcr"), partial(gb_from_line, line), partial(gb_raw, gb_arguments(line)))
        for line in lines
    ]
    freeze_heap()  # the harness's objects (lines, calls) made before: what the timed calls leave is theirs

    def run() -> tuple[Times, ...]:
        for line in warmup[:50]:  # again: a forked copy's first writes to the heap's pages copy them, not timed
            score_hand(line, rules="mcr")
            gb_from_line(line)
        return alternate(calls)

    runs = in_forks(run, MCR_FORKS) if hasattr(os, "fork") else [run()]
    ours, line_gb, raw_gb = runs[0]
    ours_med, theirs_med = statistics.median(ours.wall), statistics.median(line_gb.wall)
    print(f"MCR: the same {len(lines)} hands as lines (seat:S round:E, on a discard), alternating in blocks")
    print(f"  load average {os.getloadavg()[0]:.2f}; the garbage collector on")
    p99 = percentile(ours.wall, 0.99)
    print(f"  taihu  score_hand(mcr)               median {ours_med * 1e3:7.3f} ms  p99 {p99 * 1e3:7.3f} ms")
    print(f"  pymahjonggb from the line            median {theirs_med * 1e3:7.3f} ms")
    print(f"  pymahjonggb's call alone (raw)       median {statistics.median(raw_gb.wall) * 1e3:7.3f} ms")
    print(f"  taihu over pymahjonggb (medians)      {ours_med / theirs_med:.3f}  (target ≤ 3)")
    print(f"  taihu over pymahjonggb's raw call     {ours_med / statistics.median(raw_gb.wall):.3f}")
    print(f"  slowest taihu hand / pymahjonggb median {max(ours.wall) / theirs_med:.1f}× in this run  (target ≤ 20×)")
    if len(runs) > 1:
        # each hand's least time over forked copies of the same state: what the hand costs itself, a
        # collection landing on it included, with little of the time other processes held the core
        least = [min(run[0].wall[i] for run in runs) for i in range(len(lines))]
        gb_med = statistics.median(min(run[1].wall[i] for run in runs) for i in range(len(lines)))
        worst = max(range(len(lines)), key=least.__getitem__)
        print(
            f"  over {len(runs)} forked copies, each hand's least: slowest {least[worst] / gb_med:.1f}× pymahjonggb's"
            f" median ({least[worst] * 1e6:.0f} µs, {lines[worst]!r}), p99 {percentile(least, 0.99) / gb_med:.1f}×,"
            f" median ratio {statistics.median(least) / gb_med:.3f}"
        )


def waiting_lingxi_line(rng: random.Random, wildcards: int) -> str:
    """A 16-tile Lingxi hand holding `wildcards` of 5m/E, one natural tile short of a win."""
    tokens = [t.lstrip("+") for t in lingxi_line(rng, wildcards).split()]
    natural = [i for i, t in enumerate(tokens[:17]) if t not in ("5m", "E")]
    del tokens[rng.choice(natural)]
    return " ".join(tokens)


def bench_waits(
    rng: random.Random, mahjong: Callable[[list[int], int], object], hands: list[tuple[list[int], int]]
) -> None:
    """`waits` p99 against mahjong's median per 14-tile hand in the same run."""
    freeze_heap()
    theirs = statistics.median([timed(mahjong, t, w) for t, w in hands])
    lingxi = [waiting_lingxi_line(rng, 6) for _ in range(230)]
    luoshan = []
    for tiles, win in hands[:530]:
        line = luoshan_line(tiles, win)
        luoshan.append(" ".join(t for t in line.split() if not t.startswith("+") and t != "self"))
    print(f"waits (mahjong 2.1.0 median {theirs * 1e3:.3f} ms per 14-tile hand, this run)")
    for name, lines, rules, target in (
        ("Lingxi 16 tiles, 6 wildcards", lingxi, "lingxi", 300),
        ("Luoshan 13 tiles            ", luoshan, "luoshan", 20),
    ):
        for line in lines[:30]:
            waits(line, rules=rules)
        freeze_heap()
        times, cpu = [], []
        for line in lines[30:]:
            start, start_cpu = time.perf_counter(), time.thread_time()
            waits(line, rules=rules)
            cpu.append(time.thread_time() - start_cpu)
            times.append(time.perf_counter() - start)
        p99, cpu_p99 = percentile(times, 0.99), percentile(cpu, 0.99)
        print(
            f"  {name} median {statistics.median(times) * 1e3:7.3f} ms  p99 {p99 * 1e3:7.3f} ms"
            f"  p99/mahjong {p99 / theirs:6.1f}×  (target ≤ {target}×)"
        )
        # on a shared machine the wall-clock p99 is mostly time other processes had the core
        print(f"  {'':28} CPU time p99 {cpu_p99 * 1e3:7.3f} ms  p99/mahjong {cpu_p99 / theirs:6.1f}×")


# docs/api.md's Lingxi table: S wins on W's discard
LEDGER_TABLE = json.loads((Path(__file__).resolve().parent.parent / "examples/tables/normal-win.json").read_text())


def ledger_add_times(where: str, samples: int, late: int) -> tuple[list[float], list[float], list[float]]:
    """settle_table alone, an add at deal 1 (a new ledger each), and an add at deals late+1.. of one ledger.

    An add is what `POST /ledgers/{id}/deals` does: settle, store, and answer the standings.
    """
    from taihu.store import LedgerStore  # here, not at the top: bench/against.py runs this file on older trees

    players = ["甲", "乙", "丙", "丁"]
    with LedgerStore(where) as store:
        settles, firsts, lates = [], [], []
        for n in range(samples):
            ledger = store.create(f"first {n}", "lingxi", players)
            settles.append(timed(settle_table, LEDGER_TABLE))
            firsts.append(timed(store.add_once, ledger, LEDGER_TABLE))
        ledger = store.create("long", "lingxi", players)
        for _ in range(late):
            store.add(ledger, LEDGER_TABLE)
        for _ in range(samples):
            lates.append(timed(store.add_once, ledger, LEDGER_TABLE))
    return settles, firsts, lates


def bench_ledger_add(samples: int = 30, late: int | None = None) -> None:
    """`ledger add` on SQLite and on PostgreSQL (a throwaway cluster, fsync on), at deal 1 and near deal 1,000
    (`late`: the deals before the late adds, by default MAX_DEALS - samples)."""
    from taihu.ledger import MAX_DEALS

    late = MAX_DEALS - samples if late is None else late
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from pg_cluster import Cluster, ClusterError  # the tests' throwaway PostgreSQL

    print(f"ledger add (settle, store, standings): {samples} adds at deal 1, {samples} at deals {late + 1}..")
    stores: list[tuple[str, str]] = []
    cluster = None
    with tempfile.TemporaryDirectory() as folder:
        stores.append(("SQLite file (WAL, synchronous=FULL)", f"{folder}/bench.db"))
        try:
            cluster = Cluster(fast=False)
            stores.append(("PostgreSQL (Unix socket, fsync on)", cluster.url()))
        except (ClusterError, OSError) as exc:
            print(f"  PostgreSQL did not start, no row for it: {exc}")
        try:
            medians = {}
            for name, where in stores:
                settles, firsts, lates = ledger_add_times(where, samples, late)
                first, last = statistics.median(firsts), statistics.median(lates)
                medians[name] = (first, last)
                print(
                    f"  {name:36} deal 1 {first * 1e3:7.3f} ms  deal ~{late + samples} {last * 1e3:7.3f} ms"
                    f"  ratio {last / first:5.2f}×  (settle_table alone {statistics.median(settles) * 1e3:.3f} ms)"
                )
            if len(medians) == 2:
                (sqlite_first, sqlite_last), (pg_first, pg_last) = medians.values()
                print(
                    f"  PostgreSQL / SQLite: deal 1 {pg_first / sqlite_first:5.2f}×, "
                    f"deal ~{late + samples} {pg_last / sqlite_last:5.2f}×  (target ≤ 3×)"
                )
        finally:
            if cluster is not None:
                cluster.stop()


if __name__ == "__main__":
    main()
