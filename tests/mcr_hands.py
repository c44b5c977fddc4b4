"""Random legal MCR hands and their reading by the oracle, pymahjonggb (the GB fan calculator in C++).

`random_hand(rng)` makes a winning line: sets and a pair (some exposed, some kongs) or a special shape, a
winning tile from the concealed tiles, flowers, seat and prevalent winds, and the win conditions the
hand allows. `oracle(line)` feeds the same line to pymahjonggb and answers its fan as taihu's keys.
"""

from __future__ import annotations

import random
from collections import Counter

from taihu.scorer import tiles as T
from taihu.scorer.notation import parse
from taihu.scorer.rulesets.mcr.items import ITEMS
from taihu.scorer.rulesets.mcr.shapes import KNITS, ORPHANS

WINDS = "ESWN"
# pymahjonggb's names where they differ from the rulebook's the rule set uses
ORACLE_NAMES = {"独听・边张": "bian_zhang", "独听・嵌张": "kan_zhang", "独听・单钓": "dan_diao_jiang"}
KEY_OF = {item.name: item.key for item in ITEMS} | ORACLE_NAMES


def oracle_tile(kind: int) -> str:
    if kind < 27:
        return "WBT"[kind // 9] + str(kind % 9 + 1)
    if kind < 31:
        return f"F{kind - 26}"
    return f"J{kind - 30}"


def oracle(line: str) -> list[tuple[str, int]]:
    """pymahjonggb's fan for a line: (key, value) per occurrence, sorted."""
    from MahjongGB import MahjongFanCalculator

    hand = parse(line)
    packs = []
    for meld in hand.melds:
        if meld.is_chow:
            packs.append(("CHI", oracle_tile(meld.tiles[1]), 1))
        elif meld.is_kong:
            packs.append(("GANG", oracle_tile(meld.tiles[0]), 0 if meld.concealed else 1))
        else:
            packs.append(("PENG", oracle_tile(meld.tiles[0]), 1))
    held = tuple(oracle_tile(k) for k in hand.tiles if not T.is_flower(k))
    flowers = sum(1 for k in hand.tiles if T.is_flower(k))
    flags = hand.flags
    self_drawn = bool(flags & {"self", "kong-draw"})
    assert hand.win is not None
    fans = MahjongFanCalculator(
        tuple(packs),
        held,
        oracle_tile(hand.win),
        flowers,
        self_drawn,
        "fourth-tile" in flags,
        bool(flags & {"kong-draw", "rob-kong"}),
        "last-tile" in flags,
        WINDS.index(hand.seat or "E"),
        WINDS.index(hand.values.get("round") or "E"),
        verbose=True,
    )
    out = []
    for value, count, name, _ in fans:
        out += [(KEY_OF.get(name, name), value)] * count
    return sorted(out)


def _take(pool: Counter[int], kinds: list[int]) -> bool:
    need = Counter(kinds)
    if any(pool[k] < n for k, n in need.items()):
        return False
    pool.subtract(need)
    return True


def _suited(rng: random.Random, suits: list[int]) -> int:
    return 9 * rng.choice(suits) + rng.randrange(9)


def _random_set(rng: random.Random, pool: Counter[int], suits: list[int], honors: bool) -> tuple[str, list[int]]:
    for _ in range(50):
        roll = rng.random()
        if roll < 0.5:
            start = 9 * rng.choice(suits) + rng.randrange(7)
            kinds = [start, start + 1, start + 2]
            shape = "chow"
        else:
            kind = rng.randrange(T.EAST, T.PLAYABLE) if honors and rng.random() < 0.35 else _suited(rng, suits)
            kinds = [kind] * 3
            shape = "pung"
        if _take(pool, kinds):
            return shape, kinds
    raise LookupError


def _text(kinds: list[int]) -> str:
    return T.group_text(sorted(kinds))


def random_hand(rng: random.Random) -> str:
    """A random winning line (see the module)."""
    while True:
        try:
            return _random_hand(rng)
        except LookupError:
            continue


def _random_hand(rng: random.Random) -> str:
    pool: Counter[int] = Counter({k: 4 for k in range(T.PLAYABLE)})
    suits = rng.sample(range(3), rng.choice((1, 2, 2, 3, 3, 3)))
    honors = rng.random() < 0.6
    melds: list[str] = []
    concealed: list[int] = []
    kongs = 0
    shape = rng.random()
    if shape < 0.08:
        pairs: list[int] = []
        while len(pairs) < 7:
            kind = rng.randrange(T.EAST, T.PLAYABLE) if honors and rng.random() < 0.3 else _suited(rng, suits)
            if _take(pool, [kind, kind]):
                pairs.append(kind)
        concealed = [k for k in pairs for _ in range(2)]
    elif shape < 0.11:
        concealed = sorted(ORPHANS) + [rng.choice(sorted(ORPHANS))]
    elif shape < 0.15:
        knit = rng.choice(KNITS)
        honors_held = list(range(T.EAST, T.PLAYABLE))
        chosen = (
            rng.sample(list(knit) + honors_held, 14) if rng.random() < 0.8 else [*rng.sample(knit, 7), *honors_held]
        )
        if sum(1 for k in chosen if k >= T.EAST) > 7 or len(chosen) != 14:
            raise LookupError
        concealed = chosen
    else:
        sets = 4
        if shape < 0.22:  # a knitted straight and one set
            knit = list(rng.choice(KNITS))
            _take(pool, knit)
            concealed += knit
            sets = 1
        for _ in range(sets):
            kind_of, kinds = _random_set(rng, pool, suits, honors)
            roll = rng.random()
            if kind_of == "pung" and roll < 0.12 and pool[kinds[0]] >= 1 and kongs < 4:
                _take(pool, [kinds[0]])
                kongs += 1
                kong = _text(kinds + kinds[:1])
                melds.append(f"({kong})" if rng.random() < 0.4 else f"[{kong}]")
            elif roll < 0.35:
                melds.append(f"[{_text(kinds)}]")
            else:
                concealed += kinds
        for _ in range(20):
            kind = rng.randrange(T.EAST, T.PLAYABLE) if honors and rng.random() < 0.3 else _suited(rng, suits)
            if _take(pool, [kind, kind]):
                concealed += [kind, kind]
                break
        else:
            raise LookupError
    if not concealed:
        raise LookupError
    win = rng.choice(concealed)
    concealed.remove(win)
    flags: list[str] = []
    self_drawn = rng.random() < 0.4
    if self_drawn and kongs and rng.random() < 0.25:
        flags.append("kong-draw")
        if rng.random() < 0.3:
            flags.append("self")
    elif self_drawn:
        flags.append("self")
    line_kinds = Counter(concealed) + Counter([win])
    if rng.random() < 0.1:
        flags.append("last-tile")
    in_melds = sum(parse(m).melds[0].tiles.count(win) for m in melds)
    if not self_drawn and "last-tile" not in flags and line_kinds[win] == 1 and in_melds == 0 and rng.random() < 0.1:
        flags.append("rob-kong")
    if line_kinds[win] == 1 and rng.random() < 0.1:
        flags.append("fourth-tile")
    flowers = sorted(rng.sample(range(1, 9), rng.choice((0, 0, 0, 1, 2, 3, 8))))
    seat = rng.choice(WINDS)
    round_wind = rng.choice(WINDS)
    parts = [*melds, _text(concealed), *(f"f{f}" for f in flowers), f"+{T.name(win)}", f"seat:{seat}"]
    parts += [f"round:{round_wind}", *flags]
    return " ".join(parts)


def own_tiles(line: str) -> tuple[list[int], list[int], int]:
    """A winning line's concealed tiles before the win, all its tiles (melds included) and the winning tile."""
    hand = parse(line)
    assert hand.win is not None
    before = [k for k in hand.tiles if not T.is_flower(k)]
    everything = [*before, hand.win, *(k for meld in hand.melds for k in meld.tiles)]
    return before, everything, hand.win


def oracle_waits(line: str) -> set[int]:
    """The kinds pymahjonggb's wait test counts for the 13 tiles before the win (sets and a pair, 七对), a kind
    whose four tiles the winner holds included."""
    from MahjongGB import RegularShanten, SevenPairsShanten

    before, _, _ = own_tiles(line)
    standing = tuple(oracle_tile(k) for k in before)
    found: set[str] = set()
    shanten, useful = RegularShanten(standing)
    if shanten == 0:
        found |= set(useful)
    if len(standing) == 13:
        shanten, useful = SevenPairsShanten(standing)
        if shanten == 0:
            found |= set(useful)
    names = {oracle_tile(k): k for k in range(T.PLAYABLE)}
    return {names[tile] for tile in found}


def exhausted_wait(line: str) -> bool:
    """The ruling on exhausted waits applies: the oracle counts a second wait whose four tiles are all the
    winner's own (so no 独听), where taihu leaves it out and the winning kind is the one wait left."""
    _, everything, win = own_tiles(line)
    held = Counter(everything)
    dead = {k for k in oracle_waits(line) if held[k] - (k == win) >= 4}
    return bool(dead) and (oracle_waits(line) - dead) == {win}
