"""The arrangement search every rule set shares.

A reading is one way to see a hand as sets + pair, with each wildcard
standing for some tile (or, three together, for nothing: 财神汇/百搭汇).
The search works on a 34-count array and a number of wildcards; wildcards
are interchangeable while grouping, and the physical wildcard tiles are
placed on the wildcard slots afterwards (each on its own kind first), since
only a few items care which wildcard stood where.

Completeness: the lowest natural tile left must sit in some group standing
for itself; we try every group shape through it (pair, pung, the three chows)
and fill the other places with natural tiles where there are any, otherwise
with wildcards. Using a wildcard where a natural tile of the same kind is
left only relabels tiles between groups, so nothing distinct is lost.
All-wildcard groups take the representative kinds the rule set names
instead of all 34 (docs/architecture.md).
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from itertools import combinations, combinations_with_replacement, product
from typing import Any, NamedTuple

from . import memo as M
from . import tiles as T

PAIR, PUNG, KONG, CHOW, WILD_SET = "pair", "pung", "kong", "chow", "wild"


class Group(NamedTuple):
    """One group of a reading.

    `kind` is the pair/pung/kong kind or a chow's lowest kind (-1 for a
    wild set). `slots` are the kinds the wildcards stand for, in order
    (-1: standing for nothing). `wilds` pairs each physical wildcard tile
    with what it stood for once the tiles are placed.
    """

    shape: str
    kind: int
    slots: tuple[int, ...] = ()
    exposed: bool = False
    concealed_kong: bool = False
    wilds: tuple[tuple[int, int], ...] = ()

    @property
    def kinds(self) -> tuple[int, ...]:
        """The kinds the group's tiles stand for (empty for a wild set)."""
        if self.shape == CHOW:
            return (self.kind, self.kind + 1, self.kind + 2)
        if self.shape == WILD_SET:
            return ()
        size = {PAIR: 2, PUNG: 3, KONG: 4}[self.shape]
        return (self.kind,) * size

    @property
    def is_triplet(self) -> bool:
        return self.shape in (PUNG, KONG)

    def text(self) -> str:
        """The group as players read it: wildcards shown as `2m=C`."""
        return group_text(self)


class GroupTexts(dict[Group, str]):
    """The text of each group written so far, by the group: the same few hundred groups are written over and
    over in item details and arrangements. `map(GROUP_TEXTS.__getitem__, groups)` finds those seen before
    without a Python step; a group new to it is written once. Emptied when full."""

    def __missing__(self, group: Group) -> str:
        if len(self) >= 4096:
            self.clear()
        text = self[group] = _written_group_text(group)
        return text


GROUP_TEXTS = GroupTexts()
M.register("engine.group_text", GROUP_TEXTS.__len__, GROUP_TEXTS.clear, bytes_per_entry=400)


def group_text(group: Group) -> str:
    """The group as the notation writes it (memoised in `GROUP_TEXTS`)."""
    return GROUP_TEXTS[group]


def _written_group_text(group: Group) -> str:
    if group.shape == WILD_SET:
        return "".join(T.name(w) for w, _ in group.wilds)
    stood = [w for w in group.wilds if w[0] != w[1]]
    if not stood:
        body = T.group_text(group.kinds)
    else:
        natural = list(group.kinds)
        for _, kind in group.wilds:
            natural.remove(kind)
        parts = [T.name(k) for k in natural]
        parts += [T.name(w) if w == k else f"{T.name(w)}={T.name(k)}" for w, k in group.wilds]
        body = " ".join(parts)
    if group.exposed:
        return f"[{body}]"
    if group.concealed_kong:
        return f"({body})"
    return body


class StandIns(NamedTuple):
    """What all-wildcard groups may stand for (the rule set's representatives): the search's stand-ins,
    not a house option.

    `classify`, when given, maps a group to what the rule set's items can
    see of it (an orderable tuple); readings whose groups have the same
    classes score alike, so the search keeps one of them (docs/architecture.md: prune
    what cannot differ).
    """

    pairs: tuple[int, ...]
    sets: tuple[tuple[str, int], ...]  # (PUNG|CHOW|WILD_SET, kind)
    classify: Callable[[Group], tuple[Any, ...]] | None = None


# A decomposition is one string: its signature, the sorted class codes of its groups (one character a group),
# then its groups' codes in order (one character each), so `len // 2` groups. A memo of strings in flat tuples
# is untracked by the garbage collector at the first collection that sees it: nested tuples are untracked one
# level per full collection, so a large memo of them set off full collections that walked it.
Decomposition = str
SearchMemo = dict[tuple[bytes, int, int, bool], tuple[Decomposition, ...]]  # (counts, jokers, sets, pair)


def _search_groups() -> Iterator[Group]:
    """Every group the search can make: a pair or pung with up to all its places wildcards, a chow with any
    of its places wildcards (slots in place order), and the wild set."""
    for kind in range(T.PLAYABLE):
        for wilds in range(3):
            yield Group(PAIR, kind, (kind,) * wilds)
        for wilds in range(4):
            yield Group(PUNG, kind, (kind,) * wilds)
        if T.is_suited(kind) and T.rank(kind) <= 7:
            places = (kind, kind + 1, kind + 2)
            for mask in range(8):
                yield Group(CHOW, kind, tuple(p for bit, p in enumerate(places) if mask >> bit & 1))
    yield Group(WILD_SET, -1, (-1, -1, -1))


# The groups by code and the codes by (shape, kind, slots): a fixed table made once (some 400 groups), so a
# decomposition's groups are shared Group instances.
_CODED: dict[str, Group] = {chr(0x100 + index): group for index, group in enumerate(_search_groups())}
_CODE: dict[tuple[str, int, tuple[int, ...]], str] = {(g.shape, g.kind, g.slots): code for code, g in _CODED.items()}
# The classes rule sets give groups (`StandIns.classify`), each a code as it is first seen: a few hundred
# at most (a class is what items see of a group), never cleared, as the memo's signatures are written in them.
_CLASS_CODES: dict[tuple[Any, ...], str] = {}
_CLASS_CODES_LOCK = threading.Lock()  # the API searches in a thread pool: one code per class
_UNCLASSED = "\0"  # every group's class when nothing classifies


def _class_of(classify: Callable[[Group], tuple[Any, ...]] | None, code: str) -> str:
    """The class code of a group (by its code)."""
    if classify is None:
        return _UNCLASSED
    group_class = classify(_CODED[code])
    found = _CLASS_CODES.get(group_class)
    if found is None:
        with _CLASS_CODES_LOCK:
            found = _CLASS_CODES.setdefault(group_class, chr(1 + len(_CLASS_CODES)))
    return found


def _groups(decomposition: Decomposition) -> tuple[Group, ...]:
    return tuple(map(_CODED.__getitem__, decomposition[len(decomposition) >> 1 :]))


def _lead(
    out: list[Decomposition], mine: str, code: str, tails: Iterable[Decomposition], seen: set[str] | None
) -> None:
    """Each of `tails` with the group `code` (of class `mine`) before it, into `out`: the class sorted into
    the signature, the code first among the groups; with `seen`, only signatures not yet in it."""
    for tail in tails:
        n = len(tail) >> 1
        signature = tail[:n]
        at = bisect_right(signature, mine)
        signature = f"{signature[:at]}{mine}{signature[at:]}"
        if seen is not None:
            if signature in seen:
                continue
            seen.add(signature)
        out.append(f"{signature}{code}{tail[n:]}")


def _distinct(found: list[Decomposition], classify: object) -> tuple[Decomposition, ...]:
    """One decomposition per signature (all of them when nothing classifies)."""
    if classify is None:
        return tuple(found)
    seen: set[str] = set()
    kept = []
    for decomposition in found:
        signature = decomposition[: len(decomposition) >> 1]
        if signature not in seen:
            seen.add(signature)
            kept.append(decomposition)
    return tuple(kept)


# One memo per StandIns, keyed by flat tuples of bytes and ints and valued by flat tuples of strings:
# the garbage collector untracks both the first time it looks, so a large memo costs no collection pauses.
# All of them together take what the cache budget leaves (memo.py); the least-recently used goes first.
_MEMOS: M.Tables[StandIns] = M.Tables("engine.search", bytes_per_entry=1300)


def _decompose(
    counts: bytes | tuple[int, ...], jokers: int, sets: int, pair: bool, stand_ins: StandIns
) -> tuple[Decomposition, ...]:
    memo = _MEMOS.table(stand_ins)
    return _search(bytes(counts), jokers, sets, pair, stand_ins, memo)


def _search(
    counts: bytes, jokers: int, sets: int, pair: bool, stand_ins: StandIns, memo: SearchMemo
) -> tuple[Decomposition, ...]:
    key = (counts, jokers, sets, pair)
    known = memo.get(key)
    if known is not None:
        return known
    held = counts.lstrip(_NONE_HELD)
    if not held:
        found = _joker_only(jokers, sets, pair, stand_ins)
    elif 3 * sets + 2 * pair < sum(held) + jokers:
        found = ()
    else:
        found = _through(len(counts) - len(held), counts, jokers, sets, pair, stand_ins, memo)
    memo[key] = found
    return found


def _fill(counts: bytes, places: tuple[int, ...]) -> tuple[bytes, tuple[int, ...]]:
    """The counts left once a group takes its places from them, and the places left to wildcards (its slots)."""
    rest = bytearray(counts)
    slots = []
    for p in places:
        if rest[p]:
            rest[p] -= 1
        else:
            slots.append(p)
    return bytes(rest), tuple(slots)


def _through(
    first: int, counts: bytes, jokers: int, sets: int, pair: bool, stand_ins: StandIns, memo: SearchMemo
) -> tuple[Decomposition, ...]:
    """Every decomposition in which the lowest natural tile `first` stands for itself, one per signature."""
    out: list[Decomposition] = []
    classify = stand_ins.classify
    seen: set[str] | None = None if classify is None else set()
    for places, shape, kind in _groups_through(first, sets, pair):
        rest, slots = _fill(counts, places)
        if len(slots) > jokers:
            continue
        code = _CODE[shape, kind, slots]
        tails = _search(rest, jokers - len(slots), sets - (shape != PAIR), pair and shape != PAIR, stand_ins, memo)
        _lead(out, _class_of(classify, code), code, tails, seen)
    return tuple(out)


# The wildcard-free groups, made once and shared by every reading; a group's code is its index here,
# shape index × 34 + kind, so a suit's groups move to another suit or rank by adding to the code.
_PLAIN_SHAPES = (PAIR, PUNG, CHOW)  # also the order in which a suit's first tile tries them
_PLAIN = tuple(Group(shape, kind) for shape in _PLAIN_SHAPES for kind in range(T.PLAYABLE))
_PAIR_CODE, _PUNG_CODE, _CHOW_CODE = 0, T.PLAYABLE, 2 * T.PLAYABLE
SuitWay = tuple[int, tuple[int, ...]]  # (pairs used, group codes with the rank counted from the first tile)
_NONE_HELD = b"\0"


TABLE_TILES = 14  # `_STRETCHES` holds every stretch of up to this many tiles (4 sets and a pair)
_STRETCHES: dict[bytes, tuple[SuitWay, ...]] = {}  # filled by `_every_stretch` once it pays (`TABLE_AFTER`)
# Stretches searched before the table is built: the search of one costs some 20–80 µs and the table some
# 20 ms, so one-shot use (`taihu score`, a few stretches) never pays for the table and a server soon does.
TABLE_AFTER = 300
_searched_before_table = 0
M.register("engine.stretches", _STRETCHES.__len__, _STRETCHES.clear, bytes_per_entry=300)  # a fixed table


def _suit_ways(shape: bytes) -> tuple[SuitWay, ...]:
    """Every way to read a stretch of one suit's counts as sets and at most one pair, no wildcards.

    `shape` holds the counts from the lowest tile held to the highest: a
    chow can only take tiles held, so the ranks around the stretch never
    matter, and `234m` and `567p` share one entry (docs/architecture.md: memoise suit
    patterns). Counts are bytes, the cheapest key to slice and hash.
    Stretches of up to 14 tiles are read off a table of all of them, built
    once (docs/architecture.md: per-suit decomposition tables), so a pattern seen for
    the first time costs a lookup; a longer one (Lingxi's 17 tiles in one
    suit) is searched.
    """
    ways = _STRETCHES.get(shape)
    if ways is not None:
        return ways
    if not _STRETCHES:
        return _until_the_table_pays(shape)
    if sum(shape) <= TABLE_TILES:
        return () if shape else ((0, ()),)  # not in the table: no reading
    return _searched_suit_ways(shape)


def _until_the_table_pays(shape: bytes) -> tuple[SuitWay, ...]:
    """Search the stretch while the table is not built; build it after `TABLE_AFTER` stretches.

    The table and the search give the same ways in the same order
    (tests/test_engine.py), so when the table is built changes no answer.
    """
    global _searched_before_table
    _searched_before_table += 1
    if _searched_before_table > TABLE_AFTER:
        _STRETCHES.update(_every_stretch())
        return _suit_ways(shape)
    return _searched_suit_ways(shape)


def _every_stretch() -> dict[bytes, tuple[SuitWay, ...]]:
    """The table: each multiset of up to 4 sets and a pair within one suit, laid from rank 1, is one way
    to read the stretch it makes. About 11,000 stretches, in some 20 ms.

    Groups are taken in the order `_searched_suit_ways` reads them (by first
    rank, then pair, pung, chow), each multiset once, so a stretch's ways come
    out as the search gives them (tests/test_engine.py compares the two).
    """
    groups: list[tuple[int, tuple[int, ...]]] = []  # (code, ranks) in reading order
    for rank in range(9):
        groups.append((_PAIR_CODE + rank, (rank, rank)))
        groups.append((_PUNG_CODE + rank, (rank, rank, rank)))
        if rank <= 6:
            groups.append((_CHOW_CODE + rank, (rank, rank + 1, rank + 2)))
    found: dict[bytes, list[SuitWay]] = {}
    counts = bytearray(9)
    codes: list[int] = []

    def extend(start: int, sets: int, pairs: int) -> None:
        for at in range(start, len(groups)):
            code, ranks = groups[at]
            is_pair = code < _PUNG_CODE
            if (pairs if is_pair else sets == 4) or (not codes and ranks[0]):
                continue  # one pair, four sets; and the first group starts the stretch at rank 1
            for rank in ranks:
                counts[rank] += 1
            if max(counts) <= 4:
                codes.append(code)
                found.setdefault(bytes(counts).rstrip(_NONE_HELD), []).append((pairs + is_pair, tuple(codes)))
                extend(at, sets + (not is_pair), pairs + is_pair)
                codes.pop()
            for rank in ranks:
                counts[rank] -= 1

    extend(0, 0, 0)
    return {stretch: tuple(ways) for stretch, ways in found.items()}


@M.lru_cache("engine.searched_suit_ways", maxsize=8192, bytes_per_entry=1000)
def _searched_suit_ways(shape: bytes) -> tuple[SuitWay, ...]:
    """`_suit_ways` by search: the groups through the first tile in the order pair, pung, chow.

    Each grouping appears once (a pair and a chow through the first tile are
    not also read as the chow and then the pair).
    """
    if not shape:
        return ((0, ()),)
    out: list[SuitWay] = []
    first = shape[0]
    takes = []
    if first >= 2:
        takes.append((_PAIR_CODE, bytes((first - 2,)) + shape[1:]))
    if first >= 3:
        takes.append((_PUNG_CODE, bytes((first - 3,)) + shape[1:]))
    if len(shape) >= 3 and shape[1] and shape[2]:
        takes.append((_CHOW_CODE, bytes((first - 1, shape[1] - 1, shape[2] - 1)) + shape[3:]))
    for code, rest in takes:
        stretch = rest.lstrip(_NONE_HELD)
        skip = len(rest) - len(stretch)
        for pairs, codes in _suit_ways(stretch.rstrip(_NONE_HELD)):
            if code == _PAIR_CODE:
                if pairs:
                    continue
                pairs = 1
            if not skip and codes and codes[0] < code and codes[0] % T.PLAYABLE == 0:
                continue  # an earlier shape through the first tile: already read in that order
            out.append((pairs, (code, *[c + skip for c in codes]) if skip else (code, *codes)))
    return tuple(out)


# What `ReadingFacts` finds in one way of reading a run, by place among the way's groups: its chows, where
# its pungs are, where its pair is (-1: none). Fixed by the way's shapes in order, so `234m`, `567p` and
# `EEE` + `CCC` (pung, pung) share theirs; `wildcard_free_facts` puts a reading's together.
WayFacts = tuple[int, tuple[int, ...], int]
# A suit's readings, one flat tuple: the pairs every one of them uses (a suit's tile count fixes it: 3 a set,
# 2 the pair), the first way's facts (`WayFacts`, its pungs' places as bytes), then the group codes of each
# way (indices into `_PLAIN`, one byte a group) in the order the stretch table gives them, from `FIRST_WAY`
# on. Ints and bytes only, never `Group`s, and no tuple inside: the garbage collector untracks such a tuple
# at the first collection that sees it, so the memos below grow without adding to what every collection
# walks. A tuple of `Group`s (a NamedTuple) stays tracked for good, and a tuple holding a new tuple waits
# for the next collection of the older generation (a collection moves the inner tuple behind the outer one
# before it untracks what it can). The groups are built when a reading is read.
SuitReadings = tuple[Any, ...]
PAIRS, CHOWS, PUNGS_AT, PAIR_AT, FIRST_WAY = range(5)  # the places in `SuitReadings`
_NO_SUIT_READING: SuitReadings = (0, 0, b"", -1)  # no way
_SHAPE_OF_CODE = bytes(code // T.PLAYABLE for code in range(256))  # `bytes.translate`: a code's shape index
# a code's group: `tuple(map(_PLAIN_AT, codes))` builds a way's groups in C (a list's getter is the quicker)
_PLAIN_AT = list(_PLAIN).__getitem__


def plain_groups(codes: bytes) -> tuple[Group, ...]:
    """The groups of a way's codes (`SuitReadings`)."""
    return tuple(map(_PLAIN_AT, codes))


@M.lru_cache("engine.way_facts", maxsize=4096, bytes_per_entry=300)
def _way_facts(shapes: bytes) -> WayFacts:
    """A way's facts from its groups' shape indices in order (`_PLAIN_SHAPES`: 0 pair, 1 pung, 2 chow)."""
    return shapes.count(2), tuple(at for at, shape in enumerate(shapes) if shape == 1), shapes.find(0)


def _honor_ways(pattern: bytes) -> SuitReadings:
    """Honors only form pungs and pairs: one way to read their seven counts, or none."""
    codes = bytearray()
    for offset, count in enumerate(pattern):
        if count not in (0, 2, 3):
            return _NO_SUIT_READING
        if count:
            codes.append((_PAIR_CODE if count == 2 else _PUNG_CODE) + T.EAST + offset)
    chows, pungs_at, pair_at = _way_facts(bytes(codes).translate(_SHAPE_OF_CODE))
    return pattern.count(2), chows, bytes(pungs_at), pair_at, bytes(codes)


# one suit's (or the honors') tiles, sorted, as bytes -> its readings; the kinds tell the suit apart
_SUIT_MEMO: dict[bytes, SuitReadings] = {}
SUIT_MEMO_LIMIT = 50_000  # entries; past it the memo starts afresh
M.register("engine.suit_readings", _SUIT_MEMO.__len__, _SUIT_MEMO.clear, bytes_per_entry=250)

# A suited run's readings wherever it lies, as `SuitReadings` with its group codes counted from the run's
# first tile (a code plus the first tile's kind is the code where the run lies).
RunWays = SuitReadings
# one suit's run moved down to rank 0 (its first tile's kind taken off each) -> its ways: the stretches
# are far fewer than the runs (`234m` and `567p` are one), so a run new to `_SUIT_MEMO` is mostly found here
_RUN_WAYS: dict[bytes, RunWays] = {}
RUN_WAYS_LIMIT = 50_000  # entries, as the suit memo's; past it the memo starts afresh
M.register("engine.run_ways", _RUN_WAYS.__len__, _RUN_WAYS.clear, bytes_per_entry=250)
_DOWN_FROM = tuple(bytes((byte - first) % 256 for byte in range(256)) for first in range(T.EAST))  # translate
_UP_FROM = tuple(bytes((byte + first) % 256 for byte in range(256)) for first in range(T.EAST))  # and back


def _suit_memo_miss(kinds: bytes) -> SuitReadings:
    """A suit's run not yet in the memo: its stretch's ways (`_run_ways`), moved to where the run lies."""
    first = kinds[0]
    if first >= T.EAST:
        counts = bytearray(T.PLAYABLE - T.EAST)
        for kind in kinds:
            counts[kind - T.EAST] += 1
        ways = _honor_ways(bytes(counts))
    else:
        relative = kinds.translate(_DOWN_FROM[first])
        found = _RUN_WAYS.get(relative) or _run_ways(relative)
        up = _UP_FROM[first]
        pairs, chows, pungs_at, pair_at = found[:FIRST_WAY]
        if len(found) == FIRST_WAY + 1:  # most runs: one way, no loop
            ways = (pairs, chows, pungs_at, pair_at, found[FIRST_WAY].translate(up))
        else:
            ways = (pairs, chows, pungs_at, pair_at, *[way.translate(up) for way in found[FIRST_WAY:]])
    if len(_SUIT_MEMO) >= SUIT_MEMO_LIMIT:
        _SUIT_MEMO.clear()
    _SUIT_MEMO[kinds] = ways
    return ways


def _run_ways(relative: bytes) -> RunWays:
    """A run from rank 0 not yet in `_RUN_WAYS`: its stretch's counts read off the stretch table."""
    counts = bytearray(relative[-1] + 1)
    for rank in relative:
        counts[rank] += 1
    found = _suit_ways(bytes(counts))
    if found:
        codes = [bytes(way) for _, way in found]
        chows, pungs_at, pair_at = _way_facts(codes[0].translate(_SHAPE_OF_CODE))
        ways = (found[0][0], chows, bytes(pungs_at), pair_at, *codes)
    else:
        ways = _NO_SUIT_READING
    if len(_RUN_WAYS) >= RUN_WAYS_LIMIT:
        _RUN_WAYS.clear()
    _RUN_WAYS[relative] = ways
    return ways


# the kinds above each suit (and none above the honors): what `bytes.rstrip` takes off to leave a suit's run
_ABOVE_SUIT = (bytes(range(9, T.PLAYABLE)), bytes(range(18, T.PLAYABLE)), bytes(range(T.EAST, T.PLAYABLE)), b"")
_BELOW_SUIT = (b"", bytes(range(9)), bytes(range(18)), bytes(range(T.EAST)))  # and the kinds below, for `lstrip`


def kinds_readings(
    kinds: bytes, sets: int, pair: bool, classify: Callable[[Group], tuple[Any, ...]] | None = None
) -> tuple[tuple[Group, ...], ...]:
    """The readings of wildcard-free tiles given as their sorted kinds in bytes, suit by suit.

    Each suit's run of the sorted kinds is cut off by `bytes.rstrip` and looked
    up whole in a memo, so a hand costs no count array: its suits' readings are
    memoised and combined. Every reading of a suit uses the same number of
    pairs, so the tile count and the pairs are checked once for the hand; and
    when each suit reads one way (most hands) its one reading is made as the
    suits are looked up.
    """
    if len(kinds) != 3 * sets + 2 * pair:
        return ()
    parts = []
    pairs = 0
    several = False  # whether a suit reads more than one way
    codes = b""  # the one reading's group codes while each suit reads one way
    rest = kinds
    for above in _ABOVE_SUIT:
        run = rest.rstrip(above)  # the sorted kinds up to the suit's last: its run
        if run:
            rest = rest[len(run) :]
            ways = _SUIT_MEMO.get(run) or _suit_memo_miss(run)
            if len(ways) != FIRST_WAY + 1:
                if len(ways) == FIRST_WAY:
                    return ()
                several = True
            pairs += ways[PAIRS]
            codes += ways[FIRST_WAY]
            parts.append(ways)
            if not rest:
                break
    if pairs != pair:
        return ()
    if not several:
        return (tuple(map(_PLAIN_AT, codes)),)
    found = [tuple(map(_PLAIN_AT, b"".join(combo))) for combo in product(*[ways[FIRST_WAY:] for ways in parts])]
    if classify is None:
        return tuple(found)
    kept: dict[tuple[Any, ...], tuple[Group, ...]] = {}
    for grouping in found:
        kept.setdefault(tuple(sorted(classify(g) for g in grouping)), grouping)
    return tuple(kept.values())


def extra_tile_decompositions(
    counts: list[int] | tuple[int, ...] | bytes,
    jokers: int,
    sets: int,
    pair: bool,
    stand_ins: StandIns,
    kinds: Iterable[int],
) -> dict[int, tuple[Decomposition, ...]]:
    """What the search gives for `counts` + one tile of each of `kinds` (playable), from one search shared
    by all of them; each answer is also left in the search's memo, where scoring that hand looks first.

    For a hand one tile short, as `waits` scores it with each tile (docs/architecture.md:
    memoise, prune what cannot differ). Below the hand's lowest tile the
    added tile is the lowest and is searched as usual; above it, the groups
    through the lowest tile are the same whatever tile was added, so each is
    tried once and the rest searched for all added tiles together — the added
    tile either fills a wildcard's place in that group or is carried on.
    The same decompositions in the same order as the search of each hand by
    itself (tests/test_waits_fast_paths.py), so scoring reads the same.
    """
    base = bytes(counts[: T.PLAYABLE])
    wanted = tuple(kind for kind in dict.fromkeys(kinds) if 0 <= kind < T.PLAYABLE)
    memo = _MEMOS.table(stand_ins)
    found = _search_extra(base, jokers, sets, pair, wanted, _Sweep(stand_ins, memo, {}))
    for kind in wanted:
        memo[(_plus(base, kind), jokers, sets, pair)] = found[kind]
    return found


ExtraFound = dict[int, tuple[Decomposition, ...]]  # by added kind


class _Sweep(NamedTuple):
    """What a sweep searches with: the stand_ins, the search's lasting memo, and the sweep's own states
    (with the added tiles still to place, not kept after it)."""

    stand_ins: StandIns
    memo: SearchMemo
    shared: dict[tuple[bytes, int, int, bool, tuple[int, ...]], ExtraFound]


def _plus(counts: bytes, kind: int) -> bytes:
    more = bytearray(counts)
    more[kind] += 1
    return bytes(more)


def _search_extra(
    counts: bytes, jokers: int, sets: int, pair: bool, kinds: tuple[int, ...], sweep: _Sweep
) -> ExtraFound:
    """`_search(counts + kind, …)` for each of `kinds`."""
    key = (counts, jokers, sets, pair, kinds)
    known = sweep.shared.get(key)
    if known is not None:
        return known
    held = counts.lstrip(_NONE_HELD)
    first = len(counts) - len(held)
    found: ExtraFound = {}
    if 3 * sets + 2 * pair < sum(held) + jokers + 1:
        found = dict.fromkeys(kinds, ())
    else:
        for kind in kinds:
            if kind <= first:  # the added tile is the lowest: the search as usual
                found[kind] = _search(_plus(counts, kind), jokers, sets, pair, sweep.stand_ins, sweep.memo)
        above = tuple(kind for kind in kinds if kind > first)
        if above:
            found.update(_through_extra(first, counts, jokers, sets, pair, above, sweep))
    sweep.shared[key] = found
    return found


def _through_extra(
    first: int, counts: bytes, jokers: int, sets: int, pair: bool, kinds: tuple[int, ...], sweep: _Sweep
) -> ExtraFound:
    """`_through(first, counts + kind, …)` for each of `kinds`, all above `first` (which stays the lowest tile).

    Each added kind's decompositions come branch by branch in `_through`'s
    order, one per signature as `_through` keeps them.
    """
    stand_ins, memo = sweep.stand_ins, sweep.memo
    classify = stand_ins.classify
    out: dict[int, list[Decomposition]] = {kind: [] for kind in kinds}
    seen: dict[int, set[str] | None] = {kind: None if classify is None else set() for kind in kinds}
    for places, shape, kind in _groups_through(first, sets, pair):
        left, slots = _fill(counts, places)
        more_sets, more_pair = sets - (shape != PAIR), pair and shape != PAIR
        carried = tuple(k for k in kinds if k not in slots) if slots else kinds  # the added tile is left for the rest
        if carried and len(slots) <= jokers:
            code = _CODE[shape, kind, slots]
            mine = _class_of(classify, code)
            by_added = _search_extra(left, jokers - len(slots), more_sets, more_pair, carried, sweep)
            for added in carried:
                tails = by_added[added]
                if tails:
                    _lead(out[added], mine, code, tails, seen[added])
        for added in dict.fromkeys(slots):
            if added in out:  # the added tile takes this wildcard's place in the group (each kind its own list)
                own = list(slots)
                own.remove(added)
                if len(own) <= jokers:
                    code = _CODE[shape, kind, tuple(own)]
                    tails = _search(left, jokers - len(own), more_sets, more_pair, stand_ins, memo)
                    _lead(out[added], _class_of(classify, code), code, tails, seen[added])
    return {kind: tuple(found) for kind, found in out.items()}


def _groups_through(first: int, sets: int, pair: bool) -> list[tuple[tuple[int, ...], str, int]]:
    """The groups through a tile in `_through`'s order: (places, shape, kind) of the pair, pung, chows."""
    found: list[tuple[tuple[int, ...], str, int]] = []
    if pair:
        found.append(((first, first), PAIR, first))
    if sets:
        found.append(((first, first, first), PUNG, first))
        if T.is_suited(first):
            r = T.rank(first)
            for start_rank in (r - 2, r - 1, r):
                if 1 <= start_rank <= 7:
                    start = first - (r - start_rank)
                    found.append(((start, start + 1, start + 2), CHOW, start))
    return found


def completing_kinds(kinds: bytes, sets: int, candidates: Iterable[int]) -> list[int]:
    """The candidates X (playable kinds) for which the wildcard-free tiles `kinds` + X read as `sets` sets
    and a pair: whether `kinds_readings(kinds + X, sets, True)` finds a reading, for every X in one pass.

    The tiles are counted suit by suit once, and what each suit can make is
    read once as the (pairs, groups) of its readings, off the same stretch
    table the search reads; a candidate then only reads its own suit with X
    added and checks that the other suits make up the rest. `waits` asks
    this of a hand one tile short instead of searching the whole hand once
    per candidate.
    """
    counts = [bytearray(9), bytearray(9), bytearray(9), bytearray(T.PLAYABLE - T.EAST)]
    for kind in kinds:
        counts[_suit_index(kind)][kind - _SUIT_STARTS[_suit_index(kind)]] += 1
    shapes = [_suit_shapes(index == 3, bytes(held)) for index, held in enumerate(counts)]
    rest_of: dict[int, set[tuple[int, int]]] = {}  # by suit: what the other suits make together
    found = []
    for x in candidates:
        suit = _suit_index(x)
        place = x - _SUIT_STARTS[suit]
        if not (counts[suit][place] if suit == 3 else any(counts[suit][max(0, place - 2) : place + 3])):
            continue  # no tile held it could pair or run with: it would stand alone
        others = rest_of.get(suit)
        if others is None:
            others = {(0, 0)}
            for index, made in enumerate(shapes):
                if index != suit:
                    others = {(p + q, n + m) for p, n in others for q, m in made}
            rest_of[suit] = others
        held = bytearray(counts[suit])
        held[place] += 1
        if any((1 - p, sets + 1 - n) in others for p, n in _suit_shapes(suit == 3, bytes(held))):
            found.append(x)
    return found


_SUIT_STARTS = (0, 9, 18, T.EAST)


def standard_waits(kinds: bytes, sets: int) -> list[int]:
    """`completing_kinds(kinds, sets, range(T.PLAYABLE))`, found suit by suit: the kinds X for which the
    wildcard-free tiles `kinds` (sorted) + X read as `sets` sets and a pair.

    In a winning hand every suit (and the honors) reads whole: as sets, with
    the pair where its count is two more than a multiple of three, and one
    suit only holds that pair. So X goes to the one suit that does not read
    whole yet, or, where all do, to a suit holding a pair. Each suit's run of
    the sorted kinds is cut off as `kinds_readings` cuts it and read whole or
    not off its memo (where a winning hand's readings have left every suit
    the winning tile is not in); what makes a run whole is memoised by its
    stretch.
    The same kinds as `completing_kinds` (tests/test_engine_fast_paths.py).
    """
    if len(kinds) != 3 * sets + 1:
        return []
    runs = []
    pairs = []
    broken: list[int] = []
    rest = kinds
    for suit, above in enumerate(_ABOVE_SUIT):
        run = rest.rstrip(above)
        if run:
            rest = rest[len(run) :]
            pair = _whole_pairs(run)
            if pair < 0:
                if broken:  # a second suit that does not read whole: one tile cannot mend both
                    return []
                broken.append(suit)
        else:
            pair = 0
        runs.append(run)
        pairs.append(pair)
    found = []
    for suit in broken or [suit for suit, pair in enumerate(pairs) if pair == 1]:
        others = sum(pairs) - pairs[suit]
        found += [kind for kind, pair in _run_completions(suit, runs[suit]) if others + pair == 1]
    return found


def standard_waits_with(kinds: bytes, sets: int, kind: int) -> list[int]:
    """`standard_waits(kinds, sets)` of tiles known to read as `sets` sets and a pair with a tile of `kind`
    added (a winning hand's tiles before the win), found in the suit of `kind` alone where it can be.

    The other suits read whole as they are. Where the suit of `kind` holds the
    pair, its run without that tile leaves one over a multiple of three: it
    does not read whole, so every wait is a tile that mends it, and the other
    suits want no pair. Where another suit holds the pair, the run leaves two
    over: if it does not read whole either, the waits are again the tiles that
    mend it, with no pair of its own; if it does (the pair suit could then take
    a tile too), every suit is asked (`standard_waits`).
    The same kinds as `standard_waits` (tests/test_wait_fast.py).
    """
    suit = _SUIT_OF[kind]
    run = kinds.rstrip(_ABOVE_SUIT[suit]).lstrip(_BELOW_SUIT[suit])
    left = len(run) % 3
    if left and suit == 3:
        if left == 1 or _honors_whole(run) < 0:
            return [found for found, _ in _honors_completions(run)]
    elif left:
        first = run[0]
        relative = run.translate(_DOWN_FROM[first])
        if left == 1 or _stretch_whole(relative) < 0:
            low = _SUIT_STARTS[suit]
            mends = _stretch_completions(relative)
            return [first + offset for offset, _ in mends if low <= first + offset < low + 9]
    return standard_waits(kinds, sets)


def _whole_pairs(run: bytes) -> int:
    """The pairs (0 or 1) one suit's run of sorted kinds (not empty) uses when it reads whole (as sets, and a
    pair where its count is two more than a multiple of three); -1 where it does not, honors of more than one
    pair too. Read off the run's readings in `kinds_readings`' memo."""
    if len(run) % 3 == 1:
        return -1
    ways = _SUIT_MEMO.get(run) or _suit_memo_miss(run)
    if len(ways) == FIRST_WAY or ways[PAIRS] > 1:
        return -1
    return ways[PAIRS]


@M.lru_cache("engine.stretch_whole", maxsize=20_000, bytes_per_entry=150)
def _stretch_whole(relative: bytes) -> int:
    """`_whole_pairs` of a suited run moved down to rank 0, read off its counts."""
    n = len(relative)
    if n % 3 == 1:
        return -1
    counts = bytearray(relative[-1] + 1)
    for rank in relative:
        counts[rank] += 1
    # every way of the stretch table uses the one pair where the count leaves two over, and none elsewhere
    return (1 if n % 3 == 2 else 0) if _suit_ways(bytes(counts)) else -1


@M.lru_cache("engine.honors_whole", maxsize=4096, bytes_per_entry=150)
def _honors_whole(run: bytes) -> int:
    """`_whole_pairs` of the honors: pungs, and a pair where the count is two more than a multiple of three."""
    sizes = [run.count(kind) for kind in sorted(set(run))]
    if any(size not in (2, 3) for size in sizes) or sizes.count(2) != (1 if len(run) % 3 == 2 else 0):
        return -1
    return sizes.count(2)


def _run_completions(suit: int, run: bytes) -> list[tuple[int, int]] | tuple[tuple[int, int], ...]:
    """(kind, pairs used) of each kind of the suit that makes its run read whole (`_whole_pairs`): a kind held,
    or for a suit one up to two ranks from one, as a tile with neither stands alone."""
    if not run:
        return ()
    if suit == 3:
        return _honors_completions(run)
    first = run[0]
    low, high = _SUIT_STARTS[suit], _SUIT_STARTS[suit] + 9
    relative = run.translate(_DOWN_FROM[first])
    return [(first + offset, pair) for offset, pair in _stretch_completions(relative) if low <= first + offset < high]


@M.lru_cache("engine.stretch_completions", maxsize=20_000, bytes_per_entry=200)
def _stretch_completions(relative: bytes) -> tuple[tuple[int, int], ...]:
    """(offset from the run's first kind, pairs used) of each tile up to two ranks beyond a suited run moved
    down to rank 0 that makes it read whole, the suit's edges not yet applied.

    As `_stretch_whole` of the run with each tile added, from the run's counts made once: the tile count
    fixes the pairs (and rules every tile out where it leaves one over a multiple of three), and each added
    tile's counts are looked up in the stretch table (tests/test_engine_fast_paths.py). Only tiles that can
    mend the run are tried: a tile with no tile held a rank either side stands alone, and no set crosses a
    rank held by none, so a stretch of the run between such ranks that does not read whole by itself must
    have the tile in it or beside it."""
    size = len(relative) + 1
    if size % 3 == 1:
        return ()
    pair = 1 if size % 3 == 2 else 0
    last = relative[-1]
    counts = bytearray(last + 3)  # the run's counts, and two ranks above it for a tile added there
    for rank in relative:
        counts[rank] += 1
    held = bytes(counts).rstrip(_NONE_HELD)
    # once the table is built, a stretch of no more tiles than it holds reads whole where it is in the table
    whole = _STRETCHES.__contains__ if _STRETCHES and size <= TABLE_TILES else _suit_ways
    low, high = -1, last + 1  # the ranks a tile beside some tile held may take
    start = 0
    for stretch in held.split(_NONE_HELD):
        if stretch and not whole(stretch):
            low, high = max(low, start - 1), min(high, start + len(stretch))
        start += len(stretch) + 1
    found = []
    if low < 0 and whole(b"\1" + held):  # one below the run's first
        found.append((-1, pair))
    for offset in range(max(low, 0), high + 1):
        if counts[offset] or counts[offset - 1] or counts[offset + 1]:
            counts[offset] += 1
            if whole(bytes(counts).rstrip(_NONE_HELD)):
                found.append((offset, pair))
            counts[offset] -= 1
    return tuple(found)


@M.lru_cache("engine.honors_completions", maxsize=4096, bytes_per_entry=200)
def _honors_completions(run: bytes) -> tuple[tuple[int, int], ...]:
    """(kind, pairs used) of each honor held whose tile added makes the honors read whole."""
    found = []
    for kind in sorted(set(run)):
        pair = _honors_whole(bytes(sorted((*run, kind))))
        if pair >= 0:
            found.append((kind, pair))
    return tuple(found)


def _suit_index(kind: int) -> int:
    return 3 if kind >= T.EAST else kind // 9


_SUIT_OF = tuple(_suit_index(kind) for kind in range(T.PLAYABLE))  # `_suit_index`, as a table


@M.lru_cache("engine.suit_shapes", maxsize=20_000, bytes_per_entry=300)
def _suit_shapes(honors: bool, counts: bytes) -> frozenset[tuple[int, int]]:
    """The (pairs used, groups) of each way to read one suit's counts (no tiles: none of either).

    Suited tiles are read off their stretch (from the lowest tile held to the
    highest) as `_suit_memo_miss` reads it, without placing the groups: only
    their number counts here. Honors only make pungs and pairs.
    """
    if honors:
        if any(count not in (0, 2, 3) for count in counts):
            return frozenset()
        return frozenset({(counts.count(2), len(counts) - counts.count(0))})
    return frozenset((pairs, len(codes)) for pairs, codes in _suit_ways(counts.strip(_NONE_HELD)))


def _natural(
    counts: list[int] | tuple[int, ...], sets: int, pair: bool, classify: Callable[[Group], tuple[Any, ...]] | None
) -> tuple[tuple[Group, ...], ...]:
    """The wildcard-free case from a count array."""
    kinds = b"".join([_KIND_BYTE[kind] * count for kind, count in enumerate(counts[: T.PLAYABLE]) if count])
    return kinds_readings(kinds, sets, pair, classify)


_KIND_BYTE = tuple(bytes((kind,)) for kind in range(T.PLAYABLE))


def _joker_only(jokers: int, sets: int, pair: bool, stand_ins: StandIns) -> tuple[Decomposition, ...]:
    if jokers != 3 * sets + 2 * pair:
        return ()
    pair_codes = [_CODE[PAIR, k, (k, k)] for k in stand_ins.pairs] if pair else [""]
    set_codes: list[str] = []
    for shape, kind in stand_ins.sets:
        if shape == WILD_SET:
            set_codes.append(_CODE[WILD_SET, -1, (-1, -1, -1)])
        elif shape == CHOW:
            set_codes.append(_CODE[CHOW, kind, (kind, kind + 1, kind + 2)])
        else:
            set_codes.append(_CODE[shape, kind, (kind, kind, kind)])
    classify = stand_ins.classify
    out: list[Decomposition] = []
    for chosen in combinations_with_replacement(set_codes, sets):
        for p in pair_codes:
            codes = p + "".join(chosen)
            out.append("".join(sorted(_class_of(classify, code) for code in codes)) + codes)
    return _distinct(out, classify)


def place_wildcards(groups: tuple[Group, ...], wild_tiles: tuple[int, ...]) -> tuple[Group, ...]:
    """Puts the physical wildcard tiles on the slots of a reading.

    A wildcard goes first where it stands for its own kind; wind wildcards
    go last onto wind slots, since some rules (四风齐) count a wind wildcard
    only as itself.
    """
    if not wild_tiles:
        return groups
    pool = list(wild_tiles)
    placed: list[list[tuple[int, int]]] = [[] for _ in groups]
    pending: list[tuple[int, int]] = []  # (group index, stood-for)
    for gi, group in enumerate(groups):
        for kind in group.slots:
            if kind >= 0 and kind in pool:
                pool.remove(kind)
                placed[gi].append((kind, kind))
            else:
                pending.append((gi, kind))
    # with wildcards of more than one kind left, wind slots first and non-wind wildcards first (stable: a group's
    # slots are all wind or all not); wildcards all alike fit any order
    if len(pending) > 1 and pool.count(pool[0]) != len(pool):
        pending.sort(key=_not_a_wind_slot)
        pool.sort(key=T.is_wind)
    for (gi, kind), tile in zip(pending, pool, strict=False):
        placed[gi].append((tile, kind))
    out = []
    for g, wilds in zip(groups, placed, strict=True):
        out.append(Group(g.shape, g.kind, g.slots, g.exposed, g.concealed_kong, tuple(wilds)) if g.slots else g)
    return tuple(out)


def _not_a_wind_slot(pending: tuple[int, int]) -> bool:
    return not T.is_wind(pending[1])


def standard_readings(
    counts: list[int] | tuple[int, ...],
    wild_tiles: tuple[int, ...],
    sets: int,
    stand_ins: StandIns,
    placed: bool = True,
) -> Iterator[tuple[Group, ...]]:
    """Every pair + `sets` sets reading of the concealed tiles, wildcards placed.

    `placed=False` leaves the wildcard tiles off their slots (`Group.wilds`
    empty), for a rule set whose values cannot depend on which wildcard
    stands where: it places them (`place_wildcards`) on the one reading it
    shows.
    """
    if not wild_tiles:
        return iter(_natural(counts, sets, True, stand_ins.classify))
    found = _decompose(bytes(counts[: T.PLAYABLE]), len(wild_tiles), sets, True, stand_ins)
    if not placed:
        return map(_groups, found)
    return (place_wildcards(_groups(decomposition), wild_tiles) for decomposition in found)


def classed_readings(
    counts: list[int] | tuple[int, ...], wild_tiles: tuple[int, ...], sets: int, stand_ins: StandIns
) -> Iterator[tuple[str, tuple[Group, ...]]]:
    """`standard_readings(…, placed=False)` of a hand holding wildcards, each reading with its signature
    (the sorted class codes of its groups, `stand_ins.classify`'s): readings of one signature have groups
    of the same classes, which is all the rule set's items see of them."""
    for decomposition in _decompose(bytes(counts[: T.PLAYABLE]), len(wild_tiles), sets, True, stand_ins):
        yield decomposition[: len(decomposition) >> 1], _groups(decomposition)


def to_counts(kinds: Iterable[int]) -> list[int]:
    counts = [0] * T.KIND_COUNT
    for k in kinds:
        counts[k] += 1
    return counts


def win_places(reading: tuple[Group, ...], win: int, win_is_wild: bool) -> list[tuple[int, int]]:
    """Where the winning tile can sit in a reading: (group index, kind it stands for).

    The places of `win_placements`, for a caller that keeps the reading as found.
    """
    return [(at, stands_for) for _, at, stands_for in win_placements(reading, win, win_is_wild)]


Placement = tuple[tuple[Group, ...], int, int]  # (the reading, wildcards moved to fit; group index; kind)


def win_placements(reading: tuple[Group, ...], win: int, win_is_wild: bool) -> list[Placement]:
    """Every place of the winning tile in a reading, each with the reading as it then lies.

    Melds on the table (exposed, or concealed kongs) were there before the
    win, so only concealed groups count. The search puts natural tiles
    before wildcards, but the tiles standing for one kind are
    interchangeable between groups: a natural winning tile may take any
    place of its kind (a wildcard standing there moves to where that natural
    tile was found), and a winning wildcard any place of a kind some
    wildcard stands for (a natural tile found there moves to that
    wildcard's place). Wait bonuses (Luoshan) and a lone wildcard's pair
    (Jinhua 爆头) depend on this place, so each one is a reading to score.
    """
    places: list[Placement] = []
    if win_is_wild:
        for index, kind, donor in wild_win_places(reading):
            places.append((reading if donor < 0 else _moved(reading, kind, donor, index), index, kind))
        return places
    held: list[Placement] = []  # at each group holding a natural tile of the winning kind
    takers: list[int] = []  # groups where only a wildcard stands for it
    lowest = win - 2  # a group's tiles lie within its kind and the two above (a chow's)
    index = -1  # counted by hand and compared one bound at a time: fewer steps than `enumerate` and `a <= b <= c`
    for group in reading:
        index += 1
        kind = group.kind
        if kind > win or kind < lowest or group.exposed or group.concealed_kong:
            continue
        if not group.slots:  # all natural: the tile is in it if the group covers its kind
            if kind == win or group.shape == CHOW:
                held.append((reading, index, win))
        elif win in _naturals(group):
            held.append((reading, index, win))
        elif win in group.slots:
            takers.append(index)
    if not takers:
        return held
    holders = [index for _, index, _ in held]
    for index in sorted(holders + takers):
        if index in holders:
            places.append((reading, index, win))
        elif holders:  # the wildcard here goes where the natural tile was
            places.append((_moved(reading, win, index, holders[0]), index, win))
    return places


def wild_win_places(reading: tuple[Group, ...]) -> list[tuple[int, int, int]]:
    """The places of a winning wildcard in `win_placements`, without moving anything: (group index, kind
    it stands for, the group whose wildcard comes there for a natural tile that goes to it, or -1)."""
    concealed = [i for i, g in enumerate(reading) if not (g.exposed or g.concealed_kong)]
    places = []
    donors: dict[int, int] = {}  # by kind, the first group where a wildcard stands for it
    for index in concealed:
        for kind in dict.fromkeys(reading[index].slots):
            places.append((index, kind, -1))
            donors.setdefault(kind, index)
    for index in concealed:
        group = reading[index]
        if not donors.keys() & group.kinds:
            continue
        for kind in dict.fromkeys(_naturals(group)):
            if kind not in group.slots and kind in donors:  # the donor's wildcard comes here, our tile goes there
                places.append((index, kind, donors[kind]))
    return places


def _naturals(group: Group) -> list[int]:
    """The kinds of a group's natural tiles (those no wildcard stands for)."""
    natural = list(group.kinds)
    for kind in group.slots:
        if kind in natural:
            natural.remove(kind)
    return natural


def _moved(reading: tuple[Group, ...], kind: int, source: int, target: int) -> tuple[Group, ...]:
    """The reading with one wildcard standing for `kind` moved from group `source` to group `target`,
    and a natural tile of that kind from `target` to `source`: the same tiles, relabelled."""
    giver, taker = reading[source], reading[target]
    slots = list(giver.slots)
    slots.remove(kind)
    wilds = list(giver.wilds)
    wild = next((w for w in wilds if w[1] == kind), None)
    if wild is not None:
        wilds.remove(wild)
    moved = list(reading)
    moved[source] = giver._replace(slots=tuple(slots), wilds=tuple(wilds))
    moved[target] = taker._replace(
        slots=(*taker.slots, kind), wilds=(*taker.wilds, wild) if wild is not None else taker.wilds
    )
    return tuple(moved)


def seven_pairs_readings(
    counts: list[int] | tuple[int, ...],
    wild_tiles: tuple[int, ...],
    stand_ins: StandIns,
    pairs: int = 7,
) -> Iterator[tuple[Group, ...]]:
    """The seven-pairs readings of the concealed tiles, wildcards placed.

    Four alike are two pairs. Each natural single takes one wildcard. Two
    spare wildcards either pair together (as the rule set's representative
    kinds) or split a natural pair into two tile + wildcard pairs — the
    reading where a wildcard waited alone (Jinhua 七对子爆头).
    """
    counts = counts[: T.PLAYABLE]
    if sum(counts) + len(wild_tiles) != 2 * pairs:
        return
    whole: list[int] = []  # kinds of natural pairs
    halves: list[Group] = []  # natural singles, each with a wildcard
    for kind, count in enumerate(counts):
        whole += [kind] * (count // 2)
        if count % 2:
            halves.append(Group(PAIR, kind, (kind,)))
    spare = len(wild_tiles) - len(halves)
    if spare < 0 or spare % 2:
        return
    for split in range(min(spare // 2, len(whole)) + 1):
        for chosen in dict.fromkeys(combinations(whole, split)):
            kept = list(whole)
            for kind in chosen:
                kept.remove(kind)
            groups = [Group(PAIR, k) for k in kept] + halves
            groups += [Group(PAIR, k, (k,)) for k in chosen for _ in range(2)]
            for extra in combinations_with_replacement(stand_ins.pairs, spare // 2 - split):
                yield place_wildcards(tuple(groups) + tuple(Group(PAIR, k, (k, k)) for k in extra), wild_tiles)


def set_readings(
    counts: list[int] | tuple[int, ...],
    wild_tiles: tuple[int, ...],
    sets: int,
    stand_ins: StandIns,
) -> Iterator[tuple[Group, ...]]:
    """Every reading of the concealed tiles as exactly `sets` sets and no pair, wildcards placed.

    For shapes whose pair is not made of hand tiles: Putian 游金 keeps a
    lone wildcard whose partner was discarded, so the rest must be sets only.
    """
    if not wild_tiles:
        return iter(_natural(counts, sets, False, stand_ins.classify))
    return (
        place_wildcards(_groups(decomposition), wild_tiles)
        for decomposition in _decompose(bytes(counts[: T.PLAYABLE]), len(wild_tiles), sets, False, stand_ins)
    )


@M.lru_cache("engine.spaced_masks", maxsize=64, bytes_per_entry=5000)
def _spaced_masks(gap: int) -> tuple[int, ...]:
    """Every set of ranks 0–8 whose members lie at least `gap` apart, as bit masks."""
    masks = []
    for mask in range(1 << 9):
        ranks = [r for r in range(9) if mask >> r & 1]
        if all(b - a >= gap for a, b in zip(ranks, ranks[1:], strict=False)):
            masks.append(mask)
    return tuple(masks)


@M.lru_cache("engine.spaced_fill", maxsize=20_000, bytes_per_entry=500)
def spaced_fill(suited: tuple[int, ...], wilds: int, gap: int = 3) -> tuple[int, ...] | None:
    """十三不靠/七风 (Jinhua): suited tiles of one suit at least `gap` ranks apart.

    `suited` is the 27-count array of the suited tiles held. Returns the kinds
    `wilds` wildcards can stand for so every suit stays spaced (one answer:
    which spaced tile a wildcard is never changes a score), or None when the
    held tiles are not spaced or the wildcards do not fit. Honors are the
    rule set's business.
    """
    fill: list[int] = []
    for suit in range(3):
        counts = suited[suit * 9 : suit * 9 + 9]
        if any(c > 1 for c in counts):
            return None
        held = sum(1 << r for r in range(9) if counts[r])
        room = [m for m in _spaced_masks(gap) if m & held == held]
        if not room:
            return None
        widest = max(room, key=lambda m: bin(m).count("1"))
        free = [suit * 9 + r for r in range(9) if widest >> r & 1 and not held >> r & 1]
        fill += free[: wilds - len(fill)]
    return tuple(fill) if len(fill) == wilds else None


# -- what the items ask of a reading ------------------------------------------------


def wait_of(group: Group, win_as: int) -> str:
    """The winning tile's place in its group: pung, pair, edge, closed or two-sided (a chow's)."""
    if group.shape == PAIR:
        return "pair"
    if group.shape != CHOW:
        return "pung"
    place, start = win_as - group.kind, group.kind % 9 + 1  # the place in the chow, the chow's first rank
    if place == 1:
        return "closed"
    if (place == 2 and start == 1) or (place == 0 and start == 7):
        return "edge"
    return "two-sided"


# a kind's bit among the suits and honors present: its suit's (1, 2, 4) or the honors' (8); a wild set's kind,
# -1, shows neither (the last entry)
_KIND_BIT = (*(1 << (kind // 9) for kind in range(27)), *(8 for _ in range(27, 34)), 0)
_SUITS_BITS = 7
# the letter of the one suit present, by the bits of the suits present ('' unless exactly one)
_ONLY_SUIT = tuple(T.SUITS[bits.bit_length() - 1] if bits and not bits & (bits - 1) else "" for bits in range(8))
# the facts a gate can name (`Item.gate`), one of which a reading's `present` must hold to open it
GATE_FACTS = frozenset(
    {"pungs", "kongs", "honors", "no_chows", "four_chows", "one_suit", "one_suit_honors"}
    | {f"wait_{place}" for place in ("pung", "pair", "edge", "closed", "two_sided")}
)


class ReadingFacts:
    """What the items of every rule set ask of one reading, found in one pass when the reading is.

    `groups` is the reading; `win_at`/`win_as` the winning tile's group and
    the kind it stands for there (-1: not placed), `wait` its place
    (`wait_of`). `present` names the gate facts that hold (`Item.gate`):
    pungs, kongs, honors, no_chows, four_chows, one_suit, one_suit_honors,
    wait_pung, wait_pair, wait_edge, wait_closed, wait_two_sided.
    """

    __slots__ = (
        "groups",
        "win_at",
        "win_as",
        "wait",
        "pungs",
        "kongs",
        "pairs",
        "chows",
        "wild_sets",
        "honors",
        "suit",
        "one_suit",
        "gates",
        "present",
    )
    groups: tuple[Group, ...]
    win_at: int
    win_as: int
    wait: str
    pungs: list[tuple[int, Group]]  # (index, group) of each pung, exposed or not
    kongs: tuple[Group, ...]
    pairs: list[Group]
    chows: int
    wild_sets: tuple[Group, ...]  # three wildcards standing for nothing (财神汇)
    honors: bool
    suit: str  # the suit letter when the suited tiles are of one suit (wildcards as assigned), else ''
    one_suit: str  # the suit letter of a reading in one suit and no honors, else ''
    gates: int  # the grouping's gate facts, as an index into _PRESENT
    present: frozenset[str]  # the gate facts that hold (`GATE_FACTS`): the grouping's and the wait's

    def __init__(
        self, groups: tuple[Group, ...], win_at: int = -1, win_as: int = -1, same: ReadingFacts | None = None
    ) -> None:
        """`same`: the facts of these very groups, when only the winning tile's place differs."""
        self.groups = groups
        self.win_at = win_at
        self.win_as = win_as
        wait = ""
        if win_at >= 0:  # `wait_of`, read off its tables: a call less for every reading
            group = groups[win_at]
            shape = group.shape
            if shape == CHOW:
                kind = group.kind
                wait = _CHOW_WAIT_AT[3 * (kind % 9) + win_as - kind]
            else:
                wait = _SET_WAIT[shape]
        self.wait = wait
        if same is not None:
            self.pungs, self.kongs, self.pairs, self.chows = same.pungs, same.kongs, same.pairs, same.chows
            self.wild_sets, self.honors = same.wild_sets, same.honors
            self.suit, self.one_suit, self.gates = same.suit, same.one_suit, same.gates
            self.present = _PRESENT[wait][same.gates]
            return
        pungs: list[tuple[int, Group]] = []
        pairs: list[Group] = []
        kongs: tuple[Group, ...] = ()  # rare: no list made for most readings
        wild_sets: tuple[Group, ...] = ()
        chows = kind_bits = 0
        index = 0
        for g in groups:
            shape = g.shape
            if shape == CHOW:
                chows += 1
            elif shape == PUNG:
                pungs.append((index, g))
            elif shape == PAIR:
                pairs.append(g)
            elif shape == KONG:
                kongs += (g,)
            else:
                wild_sets += (g,)
            kind_bits |= _KIND_BIT[g.kind]
            index += 1
        self.pungs = pungs
        self.kongs = kongs
        self.pairs = pairs
        self.chows = chows
        self.wild_sets = wild_sets
        self.honors = honors = kind_bits > _SUITS_BITS
        self.suit = suit = _ONLY_SUIT[kind_bits & _SUITS_BITS]
        self.one_suit = "" if honors else suit
        gates = _SUIT_GATES[kind_bits]
        if pungs:
            gates |= _PUNGS
        if kongs:
            gates |= _KONGS
        if not chows:
            gates |= _NO_CHOWS
        elif chows == 4:
            gates |= _FOUR_CHOWS
        self.gates = gates
        self.present = _PRESENT[wait][gates]


# The grouping's gate facts as bits (engine-internal: items name facts, `present` names them too)
_PUNGS, _KONGS, _HONORS, _NO_CHOWS, _FOUR_CHOWS, _ONE_SUIT = (1 << bit for bit in range(6))


def _present(gates: int, wait: str) -> frozenset[str]:
    honors, one_suit = bool(gates & _HONORS), bool(gates & _ONE_SUIT)
    names = {
        "pungs": gates & _PUNGS,
        "kongs": gates & _KONGS,
        "honors": honors,
        "no_chows": gates & _NO_CHOWS,
        "four_chows": gates & _FOUR_CHOWS,
        "one_suit": one_suit and not honors,
        "one_suit_honors": one_suit and honors,
        f"wait_{wait.replace('-', '_')}": bool(wait),
    }
    return frozenset(name for name, holds in names.items() if holds)


# every reading's gate facts by its wait and its grouping's bits: made once, a few hundred small sets
_PRESENT = {
    wait: tuple(_present(gates, wait) for gates in range(1 << 6))
    for wait in ("", "pung", "pair", "edge", "closed", "two-sided")
}

# `wait_of` as tables, made from it: a chow's by 3 × its first rank (0-based) + the place in it, a set's by shape
_CHOW_WAIT_AT = tuple(wait_of(Group(CHOW, start), start + place) for start in range(9) for place in range(3))
_SET_WAIT = {shape: wait_of(Group(shape, 0), 0) for shape in (PAIR, PUNG, KONG, WILD_SET)}


def _wait_at_code(win: int, code: int) -> str:
    """The wait of `_PLAIN[code]` where it holds the winning tile `win` (natural), as `win_placements` and
    `wait_of` find it; "" where it does not hold it."""
    group = _PLAIN[code]
    kind = group.kind
    if kind == win:
        return _CHOW_WAIT_AT[3 * (kind % 9)] if group.shape == CHOW else _SET_WAIT[group.shape]
    if win - 2 <= kind < win and group.shape == CHOW:
        return _CHOW_WAIT_AT[3 * (kind % 9) + win - kind]
    return ""


# by the winning tile, then a group's code: `_wait_at_code`
_WAIT_AT_CODE = tuple(tuple(_wait_at_code(win, code) for code in range(len(_PLAIN))) for win in range(T.PLAYABLE))
# the gate facts the suits and honors present give (`_KIND_BIT`s ored), by those bits
_SUIT_GATES = tuple(
    (_HONORS if bits > _SUITS_BITS else 0) | (_ONE_SUIT if _ONLY_SUIT[bits & _SUITS_BITS] else 0) for bits in range(16)
)


# by the suits and honors present (`_KIND_BIT`s ored): (honors, suit, one_suit) as `ReadingFacts` names them
_SUIT_FACTS = tuple(
    (bits > _SUITS_BITS, _ONLY_SUIT[bits & _SUITS_BITS], "" if bits > _SUITS_BITS else _ONLY_SUIT[bits & _SUITS_BITS])
    for bits in range(16)
)
_CHOW_GATES = {0: _NO_CHOWS, 4: _FOUR_CHOWS}  # by the number of chows (none: no gate)
_SUIT_CUTS = tuple(zip(_ABOVE_SUIT, (1, 2, 4, 8), strict=True))  # each suit's cut and its `_KIND_BIT`


def wildcard_free_facts(kinds: bytes, sets: int, win: int, melds: tuple[Group, ...] = ()) -> list[ReadingFacts]:
    """`ReadingFacts` of each place of a natural winning tile in each reading of wildcard-free tiles, put
    together from their suits' parts instead of found group by group.

    The same facts in the same order as `ReadingFacts(placed, at, kind)` for each of `win_placements(melds +
    groups, win, False)` for each of `kinds_readings(kinds, sets, True)` (tests/test_engine_fast_paths.py):
    `kinds` the concealed tiles' sorted kinds, the winning tile `win` among them, `melds` on the table in
    front. Each way of reading a suit is memoised with its facts (`WayFacts`: its chows, where its pungs and
    pair are), so when each suit reads one way (all but a few hands) the one grouping's facts are put
    together as the suits are looked up, a few steps a suit, and only the winning tile's suit is looked
    through for its places, where `ReadingFacts` and `win_placements` loop over every group (most of a
    hand's time otherwise). A hand with more readings is read the plain way.
    """
    if len(kinds) != 3 * sets + 2:
        return []
    if melds:  # the melds' facts, found the plain way: they are in front in every reading
        on_table = ReadingFacts(melds)
        pungs, pair_groups, kongs, wild_sets = [*on_table.pungs], [*on_table.pairs], on_table.kongs, on_table.wild_sets
        chows, bits = on_table.chows, 0
        for group in melds:
            bits |= _KIND_BIT[group.kind]
    else:
        pungs, pair_groups, kongs, wild_sets, chows, bits = [], [], (), (), 0, 0
    win_bit = _KIND_BIT[win]
    win_at = _WAIT_AT_CODE[win]  # each code's wait where its group holds the winning tile ("": it does not)
    offset = len(melds)  # where the suit's groups start in the reading
    codes = b""  # the reading's group codes after the melds
    waits: list[tuple[int, str]] = []  # (group index, wait) of each group holding the winning tile
    pairs = 0
    combos = 1
    rest = kinds
    for above, bit in _SUIT_CUTS:
        run = rest.rstrip(above)  # as `kinds_readings` cuts the suits
        if run:
            rest = rest[len(run) :]
            ways = _SUIT_MEMO.get(run) or _suit_memo_miss(run)
            if len(ways) == FIRST_WAY:
                return []
            pairs += ways[PAIRS]
            combos *= len(ways) - FIRST_WAY
            suit_codes = ways[FIRST_WAY]
            suit_chows, pungs_at, pair_at = ways[CHOWS], ways[PUNGS_AT], ways[PAIR_AT]
            for at in pungs_at:
                pungs.append((offset + at, _PLAIN[suit_codes[at]]))
            if pair_at >= 0:
                pair_groups.append(_PLAIN[suit_codes[pair_at]])
            if bit == win_bit:  # the winning tile's suit: its places as `win_placements` finds them
                at = offset
                for code in suit_codes:
                    wait = win_at[code]
                    if wait:
                        waits.append((at, wait))
                    at += 1
            chows += suit_chows
            bits |= bit
            codes += suit_codes
            offset += len(suit_codes)
    if pairs != 1:
        return []
    if combos > 1:
        return _plain_facts(kinds, sets, win, melds)
    groups = melds + tuple(map(_PLAIN_AT, codes))
    honors, suit, one_suit = _SUIT_FACTS[bits]
    gates = _SUIT_GATES[bits] | _CHOW_GATES.get(chows, 0)
    if pungs:
        gates |= _PUNGS
    if kongs:
        gates |= _KONGS
    new_facts = ReadingFacts.__new__
    found = []
    for at, wait in waits:
        facts = new_facts(ReadingFacts)  # its fields three at a time (more would build a tuple to unpack)
        facts.groups, facts.win_at, facts.win_as = groups, at, win
        facts.wait, facts.pungs, facts.kongs = wait, pungs, kongs
        facts.pairs, facts.chows, facts.wild_sets = pair_groups, chows, wild_sets
        facts.honors, facts.suit, facts.one_suit = honors, suit, one_suit
        facts.gates, facts.present = gates, _PRESENT[wait][gates]
        found.append(facts)
    return found


def _plain_facts(kinds: bytes, sets: int, win: int, melds: tuple[Group, ...]) -> list[ReadingFacts]:
    """`wildcard_free_facts` found the plain way: each reading's placements, each one's facts."""
    return [
        ReadingFacts(placed, at, stands_for)
        for groups in kinds_readings(kinds, sets, True)
        for placed, at, stands_for in win_placements(melds + groups, win, False)
    ]
