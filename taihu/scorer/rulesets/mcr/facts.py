"""MCR 国标: what the fan read of one reading (`McrFacts`), the fan made between sets among them.

The fan made *between* sets follow the rulebook's principles once per
reading: 不拆移 (a set once combined is not split off again), 不得相同 (the
same sets make no second fan of one kind with each other) and 套算一次 (a set
not yet combined combines once with one that was). Chows and pungs are each
looked at from the largest combination down: a fan of four, else a fan of
three and the fourth set's one fan with one of them, else the pairs that
qualify, no more of them than the sets can account for.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

from ... import tiles as T
from ...engine import CHOW, KONG, PAIR, PUNG, Group, ReadingFacts, group_text

# the shapes a reading can have: sets and a pair, the 组合龙 shape, 七对, 十三幺, 全不靠 (七星不靠 among them)
STANDARD, KNITTED, SEVEN_PAIRS, ORPHANS = "standard", "knitted straight", "seven pairs", "thirteen orphans"
HONORS_AND_KNITTED = "honors and knitted"

# the fan two chows make, in the order the fourth chow of a fan of three takes the first it can make
TRIPLETS = (PUNG, KONG)
TWO_CHOWS = ("yi_ban_gao", "xi_xiang_feng", "lian_liu", "lao_shao_fu")
Linked = dict[str, list[str]]  # fan key -> one detail per occurrence
NO_LINKS: Linked = {}  # a reading's whose sets make none (most): shared, read only


# What a reading holds that a fan of its sets needs, as bits (`McrFacts.holds`): the scoring loop runs that fan's
# finder only on a reading holding one of the bits it needs (`items.READING_NEEDS`), and a reading without them
# finds nothing there (tests/test_mcr_fast_paths.py runs every finder on every reading)
(
    STANDARD_SHAPE,
    KNITTED_SHAPE,
    SEVEN_PAIRS_SHAPE,
    ORPHANS_SHAPE,
    HONORS_AND_KNITTED_SHAPE,
    EDGE_WAIT,  # the winning tile at a concealed chow's end (边张)
    CLOSED_WAIT,  # in its middle (坎张)
    PAIR_WAIT,  # in the pair (单钓将)
    TWO_CONCEALED,  # 暗刻: two concealed pungs or kongs, three, four
    THREE_CONCEALED,
    FOUR_CONCEALED,
    WIND_PAIR,
    DRAGON_PAIR,
    DRAGON_PUNG,
    WIND_PUNG,
    YAO_JIU_PUNG,  # a pung of a 1, a 9 or a wind
    ALL_CHOWS,  # four chows, the knitted straight counting as three
    YAO_PAIR,  # a pair of a 1, a 9 or an honor (全带幺 needs one)
    FIVE_PAIR,  # a pair of a 5 (全带五 needs one)
) = (1 << bit for bit in range(19))
SHAPE_HOLDS = {
    STANDARD: STANDARD_SHAPE,
    KNITTED: KNITTED_SHAPE,
    SEVEN_PAIRS: SEVEN_PAIRS_SHAPE,
    ORPHANS: ORPHANS_SHAPE,
    HONORS_AND_KNITTED: HONORS_AND_KNITTED_SHAPE,
}
WAIT_HOLDS = {"bian": EDGE_WAIT, "kan": CLOSED_WAIT, "dan": PAIR_WAIT, "": 0}
CONCEALED_HOLDS = (0, 0, TWO_CONCEALED, THREE_CONCEALED, FOUR_CONCEALED)
_TERMINAL_RANKS = (0, 8)
# by kind: what a pung (or kong) of it holds, and what a pair of it holds
PUNG_HOLDS = tuple(
    DRAGON_PUNG
    if k >= T.RED
    else WIND_PUNG | YAO_JIU_PUNG
    if k >= T.EAST
    else YAO_JIU_PUNG
    if k % 9 in _TERMINAL_RANKS
    else 0
    for k in range(T.PLAYABLE)
)
PAIR_HOLDS = tuple(
    DRAGON_PAIR | YAO_PAIR
    if k >= T.RED
    else WIND_PAIR | YAO_PAIR
    if k >= T.EAST
    else YAO_PAIR
    if k % 9 in _TERMINAL_RANKS
    else FIVE_PAIR
    if k % 9 == 4
    else 0
    for k in range(T.PLAYABLE)
)


class McrFacts(ReadingFacts):
    """A reading's facts (`ReadingFacts`) and MCR's own: its shape, the knitted straight, the pair, the
    concealed pungs, the fan made between its sets (`linked`) and what its fan of sets need (`holds`)."""

    __slots__ = ("shape", "knit", "pair", "triplets", "linked", "concealed_pungs", "wait_place", "holds")
    shape: str
    knit: tuple[int, ...]  # the knitted straight's nine kinds (组合龙), else ()
    pair: int  # the pair's kind, -1 where the shape has none
    triplets: list[int]  # the kinds of the pungs and kongs, ascending
    linked: Linked
    concealed_pungs: int  # 暗刻: concealed pungs and concealed kongs
    wait_place: str  # the winning tile's place that may score a wait fan: "bian", "kan", "dan" or ""
    holds: int  # the bits above (`STANDARD_SHAPE` …) the reading holds

    def __init__(
        self, groups: tuple[Group, ...], shape: str, win: int, self_drawn: bool, knit: tuple[int, ...] = ()
    ) -> None:
        ReadingFacts.__init__(self, groups)  # not super(): no super object made for every reading
        self.shape = shape
        self.knit = knit
        if shape != STANDARD and shape != KNITTED:
            # 七对 and the shapes of single tiles: no pung, no set, no one pair
            self.pair = -1
            self.triplets = []
            self.linked = NO_LINKS
            self.concealed_pungs = 0
            self.wait_place = ""
            self.holds = SHAPE_HOLDS[shape]
            return
        # sets and one pair: the chows, the pungs, the pair, the concealed pungs and the winning tile's place in
        # one pass, as `plain_facts` finds them apart (tests/test_mcr_links_fast.py)
        holds = STANDARD_SHAPE if shape == STANDARD else KNITTED_SHAPE
        starts: list[int] = []
        triplets: list[int] = []
        pair = -1
        hidden = 0
        completed = edge = middle = False
        in_chow = win in knit
        for g in groups:
            group_shape = g.shape
            if group_shape == CHOW:
                start = g.kind
                starts.append(start)
                if start <= win <= start + 2 and not g.exposed:
                    in_chow = True
                    if win == start + 1:
                        middle = True
                    else:
                        edge = True
            elif group_shape == PAIR:
                pair = g.kind
            else:  # a pung or a kong
                kind = g.kind
                triplets.append(kind)
                holds |= PUNG_HOLDS[kind]
                if not g.exposed:
                    hidden += 1
                    completed = completed or (not self_drawn and not g.concealed_kong and kind == win)
        if completed and not in_chow:
            hidden -= 1  # the pung the winning tile completed on a discard is exposed
        chows = len(starts)
        if chows > 1:
            starts.sort()
        if len(triplets) > 1:
            triplets.sort()
        self.linked = between_sets(starts, triplets, pair) if chows > 1 or len(triplets) > 1 else NO_LINKS
        self.pair = pair
        self.triplets = triplets
        self.concealed_pungs = hidden
        self.wait_place = place = "bian" if edge else "kan" if middle else "dan" if pair == win else ""
        holds |= PAIR_HOLDS[pair] | CONCEALED_HOLDS[hidden] | WAIT_HOLDS[place]
        if chows == (1 if knit else 4):  # the knitted straight counts as three chows
            holds |= ALL_CHOWS
        self.holds = holds

    @property
    def sets(self) -> tuple[Group, ...]:
        """The sets, melds included (not the knitted straight): made when a fan asks (few do)."""
        groups = self.groups
        return tuple([g for g in groups if g.shape != PAIR]) if self.pairs else groups


def concealed_pungs(sets: tuple[Group, ...], win: int, self_drawn: bool, knit: tuple[int, ...]) -> int:
    """暗刻: the concealed pungs and concealed kongs. A pung the winning tile completed on a discard is exposed,
    unless a concealed chow (or the knitted straight) holds that kind: the tile is then read there."""
    count = 0
    completed = False  # a concealed pung of the winning tile's kind, won on a discard
    for g in sets:
        if g.shape in TRIPLETS and not g.exposed:
            count += 1
            completed = completed or (not self_drawn and not g.concealed_kong and g.kind == win)
    if completed:
        in_chow = win in knit or any(g.shape == CHOW and not g.exposed and g.kind <= win <= g.kind + 2 for g in sets)
        if not in_chow:
            count -= 1
    return count


def wait_place(groups: tuple[Group, ...], win: int) -> str:
    """The winning tile's place in the concealed sets and pair that a wait fan reads (where the hand waited on
    it alone): an end of a chow holding it ("bian") before its middle ("kan") before the pair ("dan")."""
    kan = dan = False
    for g in groups:
        shape = g.shape
        if shape == CHOW:
            if g.kind <= win <= g.kind + 2 and not g.exposed:
                if win != g.kind + 1:
                    return "bian"
                kan = True
        elif shape == PAIR and g.kind == win:
            dan = True
    return "kan" if kan else "dan" if dan else ""


def tie_order(shape: str, groups: tuple[Group, ...], knit: tuple[int, ...]) -> tuple[int, ...]:
    """Rule 6's last tie-break, as a key to minimise: the concealed sets, each written as its three tiles, in
    ascending order, compared in dictionary order."""
    written = sorted(tuple(g.kinds[:3]) for g in groups if g.shape != PAIR and not g.exposed and not g.concealed_kong)
    if knit:
        written = sorted([*written, *(tuple(knit[i : i + 3]) for i in range(0, 9, 3))])
    return tuple(k for w in written for k in w)


# -- chows ----------------------------------------------------------------------


def two_chows(a: int, b: int) -> str:
    """The fan two chows (by their lowest kinds) make together, or ''."""
    if a == b:
        return "yi_ban_gao"
    if a % 9 == b % 9:
        return "xi_xiang_feng"
    if a // 9 == b // 9:
        gap = abs(a - b)
        if gap == 3:
            return "lian_liu"
        if gap == 6:
            return "lao_shao_fu"
    return ""


def three_chows(a: int, b: int, c: int) -> str:
    """The fan three chows (lowest kinds, ascending) make together, or ''."""
    if a // 9 == b // 9 == c // 9:
        if a == b == c:
            return "yi_se_san_tong_shun"
        if a % 9 == 0 and b - a == 3 and c - b == 3:
            return "qing_long"
        if b - a == c - b and b - a in (1, 2):
            return "yi_se_san_bu_gao"
        return ""
    if len({a // 9, b // 9, c // 9}) == 3:
        ranks = sorted((a % 9, b % 9, c % 9))
        if ranks == [0, 3, 6]:
            return "hua_long"
        if ranks[0] == ranks[2]:
            return "san_se_san_tong_shun"
        if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
            return "san_se_san_bu_gao"
    return ""


def four_chows(starts: list[int], pair: int) -> str:
    """The fan four chows (lowest kinds, ascending) make together, or ''."""
    a, b, c, d = starts
    if a // 9 == d // 9:
        if a == d:
            return "yi_se_si_tong_shun"
        if b - a == c - b == d - c and b - a in (1, 2):
            return "yi_se_si_bu_gao"
        if a == b and c == d and a % 9 == 0 and c % 9 == 6 and pair == a + 4:
            return "yi_se_shuang_long_hui"
        return ""
    suits = {a // 9, b // 9, c // 9, d // 9}
    if len(suits) == 2 and T.is_suited(pair) and pair % 9 == 4 and pair // 9 not in suits:
        if starts == sorted(k for s in suits for k in (9 * s, 9 * s + 6)):
            return "san_se_shuang_long_hui"
    return ""


def chow_fans(starts: list[int], pair: int) -> list[tuple[str, tuple[int, ...]]]:
    """The fan between the chows of a reading, each with the chows (lowest kinds) that make it."""
    n = len(starts)
    if n < 2:
        return []
    if n == 2:
        fan = two_chows(*starts)
        return [(fan, tuple(starts))] if fan else []
    if n == 4:
        fan = four_chows(starts, pair)
        if fan:
            return [(fan, tuple(starts))]
    for trio in combinations(range(n), 3):
        fan = three_chows(*(starts[i] for i in trio))
        if fan:
            found = [(fan, tuple(starts[i] for i in trio))]
            rest = [i for i in range(n) if i not in trio]
            if rest:
                (extra,) = rest
                made = {two_chows(starts[i], starts[extra]): (starts[i], starts[extra]) for i in reversed(trio)}
                fan = next((f for f in TWO_CHOWS if f in made), "")
                if fan:
                    found.append((fan, made[fan]))
            return found
    pairs = [(i, j, two_chows(starts[i], starts[j])) for i, j in combinations(range(n), 2)]
    pairs = [(i, j, fan) for i, j, fan in pairs if fan]
    linked = {i for i, j, _ in pairs} | {j for i, j, _ in pairs}
    most = n - 1 - (n - len(linked))
    return [(fan, (starts[i], starts[j])) for i, j, fan in account_once(pairs, most)]


def account_once(pairs: list[tuple[int, int, str]], most: int) -> list[tuple[int, int, str]]:
    """At most `most` of the fan two chows make: first a second of one fan is dropped, then whole fan, each
    time from 老少副 up to 一般高."""
    if len(pairs) <= most:
        return pairs  # none to drop
    kept = list(pairs)
    for limit in (1, 0):
        for fan in reversed(TWO_CHOWS):
            while len(kept) > max(most, 0) and sum(1 for _, _, f in kept if f == fan) > limit:
                last = max(i for i, (_, _, f) in enumerate(kept) if f == fan)
                del kept[last]
    return kept


# -- pungs ----------------------------------------------------------------------


def two_pungs(a: int, b: int) -> str:
    """The fan two pungs (by their kinds, in either order) make together, or ''."""
    if a < T.EAST and b < T.EAST and a % 9 == b % 9 and a != b:
        return "shuang_tong_ke"
    if a >= T.RED and b >= T.RED and a != b:
        return "shuang_jian_ke"
    return ""


def three_pungs(a: int, b: int, c: int) -> str:
    """The fan three pungs (kinds, ascending) make together, or '': all suited where the highest is, all winds
    where the lowest and the highest are, all dragons where the lowest is."""
    if c < T.EAST:
        if len({a // 9, b // 9, c // 9}) == 3:
            ranks = sorted((a % 9, b % 9, c % 9))
            if ranks[0] == ranks[2]:
                return "san_tong_ke"
            if ranks == [ranks[0], ranks[0] + 1, ranks[0] + 2]:
                return "san_se_san_jie_gao"
        elif a // 9 == c // 9 and b == a + 1 and c == b + 1:
            return "yi_se_san_jie_gao"
        return ""
    if T.is_wind(a) and T.is_wind(c):
        return "san_feng_ke"
    if a >= T.RED:
        return "da_san_yuan"
    return ""


def four_pungs(kinds: list[int]) -> str:
    a, b, c, d = kinds
    if all(T.is_wind(k) for k in kinds):
        return "da_si_xi"
    if T.is_suited(a) and a // 9 == d // 9 and b == a + 1 and c == b + 1 and d == c + 1:
        return "yi_se_si_jie_gao"
    return ""


def pung_fans(kinds: list[int]) -> list[tuple[str, tuple[int, ...]]]:
    """The fan between the pungs (and kongs) of a reading, each with the pungs (kinds) that make it."""
    n = len(kinds)
    if n == 4:
        fan = four_pungs(kinds)
        if fan:
            return [(fan, tuple(kinds))]
    for trio in combinations(range(n), 3):
        fan = three_pungs(*(kinds[i] for i in trio))
        if fan:
            found = [(fan, tuple(kinds[i] for i in trio))]
            for extra in (i for i in range(n) if i not in trio):
                made = [(two_pungs(kinds[i], kinds[extra]), kinds[i]) for i in trio]
                fan, kind = next(((f, k) for f, k in made if f), ("", -1))
                if fan:
                    found.append((fan, (kind, kinds[extra])))
            return found
    return [(fan, (a, b)) for a, b in combinations(kinds, 2) if (fan := two_pungs(a, b))]


# The fan between some sets, each followed by its detail, in one flat tuple of strings: ("yi_ban_gao", "123m
# 123m", ...); the chows' and the pungs' are added together
Made = tuple[str, ...]

SUITED = T.EAST  # the suited kinds come first: a chow's lowest kind is below this
# each chow's text by its lowest kind (123m), and each kind's name, for the details of the fan between sets
CHOW_TEXT = tuple(group_text(Group(CHOW, k)) if k % 9 < 7 else "" for k in range(SUITED))
KIND_NAME = tuple(T.name(k) for k in range(T.PLAYABLE))

# The fan two sets make and its detail, for every two chows (by their lowest kinds a, b: at a × 27 + b) and every
# two pungs (by their kinds: at a × 34 + b), in either order, the detail in that order; () where they make none.
# A few hundred small tuples made once: most readings' sets are looked up here, none combined afresh
TWO_CHOWS_MADE: tuple[Made, ...] = tuple(
    (fan, f"{CHOW_TEXT[a]} {CHOW_TEXT[b]}") if (fan := two_chows(a, b)) else ()
    for a in range(SUITED)
    for b in range(SUITED)
)
TWO_PUNGS_MADE: tuple[Made, ...] = tuple(
    (fan, f"{KIND_NAME[a]} {KIND_NAME[b]}") if (fan := two_pungs(a, b)) else ()
    for a in range(T.PLAYABLE)
    for b in range(T.PLAYABLE)
)
# The fan three chows make, by their lowest kinds a ≤ b ≤ c at (a × 27 + b) × 27 + c: only the few that make one
THREE_CHOWS_FAN: dict[int, str] = {
    (a * SUITED + b) * SUITED + c: fan
    for a, b, c in combinations_with_replacement([k for k in range(SUITED) if k % 9 < 7], 3)
    if (fan := three_chows(a, b, c))
}
# each three of four sets, and each two of three or four, as places, in `combinations`' order
FOUR_TRIOS = tuple(combinations(range(4), 3))
TWOS = {3: tuple(combinations(range(3), 2)), 4: tuple(combinations(range(4), 2))}


def between_sets(starts: list[int], kinds: list[int], pair: int) -> Linked:
    """Every fan made between the sets of a reading, one detail per occurrence: its chows by their lowest kinds
    and its pungs and kongs by their kinds, each ascending, and its pair (only four chows read it)."""
    made = chows_made(starts, pair) if len(starts) > 1 else ()
    if len(kinds) > 1:
        made += pungs_made(kinds)
    if not made:
        return NO_LINKS
    if len(made) == 2:  # one fan (most readings that make any)
        return {made[0]: [made[1]]}
    linked: Linked = {}
    for at in range(0, len(made), 2):
        linked.setdefault(made[at], []).append(made[at + 1])
    return linked


def chows_made(starts: list[int], pair: int) -> Made:
    """The fan between two to four chows (lowest kinds, ascending), each followed by its detail (123m 456m): as
    `chow_fans` finds them (tests/test_mcr_links_fast.py), read off the tables of two and three chows."""
    n = len(starts)
    if n == 2:
        return TWO_CHOWS_MADE[starts[0] * SUITED + starts[1]]
    if n == 3:
        a, b, c = starts
        fan = THREE_CHOWS_FAN.get((a * SUITED + b) * SUITED + c)
        if fan:
            return (fan, f"{CHOW_TEXT[a]} {CHOW_TEXT[b]} {CHOW_TEXT[c]}")
        ab, ac, bc = TWO_CHOWS_MADE[a * SUITED + b], TWO_CHOWS_MADE[a * SUITED + c], TWO_CHOWS_MADE[b * SUITED + c]
        if ab and ac and bc:
            return chow_pairs_made(starts)  # each two of the three make one: one too many for three chows
        return ab + ac + bc
    fan = four_chows(starts, pair)
    if fan:
        return (fan, " ".join([CHOW_TEXT[k] for k in starts]))
    for i, j, k in FOUR_TRIOS:
        a, b, c = starts[i], starts[j], starts[k]
        fan = THREE_CHOWS_FAN.get((a * SUITED + b) * SUITED + c)
        if fan:
            # the fourth chow's one fan with one of the three: the first of `TWO_CHOWS` it makes, with the first
            # of them that makes it
            extra = starts[6 - i - j - k]
            best: Made = ()
            for start in (a, b, c):
                two = TWO_CHOWS_MADE[start * SUITED + extra]
                if two and (not best or TWO_CHOWS.index(two[0]) < TWO_CHOWS.index(best[0])):
                    best = two
            return (fan, f"{CHOW_TEXT[a]} {CHOW_TEXT[b]} {CHOW_TEXT[c]}", *best)
    return chow_pairs_made(starts)


def chow_pairs_made(starts: list[int]) -> Made:
    """The fan of two chows among three or four, no more of them than the chows account for (`account_once`)."""
    found = []
    for i, j in TWOS[len(starts)]:
        two = TWO_CHOWS_MADE[starts[i] * SUITED + starts[j]]
        if two:
            found.append((i, j, two))
    linked = {i for i, _, _ in found} | {j for _, j, _ in found}
    kept = account_once([(i, j, two[0]) for i, j, two in found], len(linked) - 1)
    return tuple([text for i, j, _ in kept for text in TWO_CHOWS_MADE[starts[i] * SUITED + starts[j]]])


def pungs_made(kinds: list[int]) -> Made:
    """The fan between two to four pungs and kongs (kinds, ascending), each followed by its detail (5m 5p): as
    `pung_fans` finds them (tests/test_mcr_links_fast.py), two pungs at a time read off `TWO_PUNGS_MADE`."""
    n = len(kinds)
    if n == 2:
        return TWO_PUNGS_MADE[kinds[0] * T.PLAYABLE + kinds[1]]
    if n == 3:
        a, b, c = kinds
        fan = three_pungs(a, b, c)
        if fan:
            return (fan, f"{KIND_NAME[a]} {KIND_NAME[b]} {KIND_NAME[c]}")
        ab, ac, bc = a * T.PLAYABLE + b, a * T.PLAYABLE + c, b * T.PLAYABLE + c
        return TWO_PUNGS_MADE[ab] + TWO_PUNGS_MADE[ac] + TWO_PUNGS_MADE[bc]
    fan = four_pungs(kinds)
    if fan:
        return (fan, " ".join([KIND_NAME[k] for k in kinds]))
    for i, j, k in FOUR_TRIOS:
        a, b, c = kinds[i], kinds[j], kinds[k]
        fan = three_pungs(a, b, c)
        if fan:
            # the fourth pung's fan with the first of the three it makes one with
            extra = kinds[6 - i - j - k]
            for kind in (a, b, c):
                two = TWO_PUNGS_MADE[kind * T.PLAYABLE + extra]
                if two:
                    return (fan, f"{KIND_NAME[a]} {KIND_NAME[b]} {KIND_NAME[c]}", *two)
            return (fan, f"{KIND_NAME[a]} {KIND_NAME[b]} {KIND_NAME[c]}")
    made: Made = ()
    for i, j in TWOS[4]:
        made += TWO_PUNGS_MADE[kinds[i] * T.PLAYABLE + kinds[j]]
    return made


CHOW_FANS = frozenset(
    {
        *TWO_CHOWS,
        "yi_se_san_tong_shun",
        "qing_long",
        "yi_se_san_bu_gao",
        "hua_long",
        "san_se_san_tong_shun",
        "san_se_san_bu_gao",
        "yi_se_si_tong_shun",
        "yi_se_si_bu_gao",
        "yi_se_shuang_long_hui",
        "san_se_shuang_long_hui",
    }
)
