"""Tile kinds as small integers, so the search can work on count arrays.

0–8 are 1m–9m, 9–17 1p–9p, 18–26 1s–9s, 27–30 the winds E S W N,
31–33 the dragons C F P (中 发 白), 34–41 the flowers f1–f8.
"""

from __future__ import annotations

from .errors import Term

SUITS = "mps"
WINDS = "ESWN"
DRAGONS = "CFP"

EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
RED, GREEN, WHITE = 31, 32, 33  # 中 发 白
FIRST_FLOWER = 34
KIND_COUNT = 42  # including flowers
PLAYABLE = 34  # kinds that can stand in a set

SEATS = ("E", "S", "W", "N")
SEAT_WIND = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH}

CHINESE = {
    "东": EAST,
    "東": EAST,
    "南": SOUTH,
    "西": WEST,
    "北": NORTH,
    "中": RED,
    "发": GREEN,
    "發": GREEN,
    "白": WHITE,
    "春": 34,
    "夏": 35,
    "秋": 36,
    "冬": 37,
    "梅": 38,
    "兰": 39,
    "蘭": 39,
    "菊": 40,
    "竹": 41,
}
# tenhou order for 1z..7z: E S W N P F C
HONOR_DIGITS = {1: EAST, 2: SOUTH, 3: WEST, 4: NORTH, 5: WHITE, 6: GREEN, 7: RED}
LETTER = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH, "C": RED, "F": GREEN, "P": WHITE}

CHINESE_NAME = {
    EAST: "东",
    SOUTH: "南",
    WEST: "西",
    NORTH: "北",
    RED: "中",
    GREEN: "发",
    WHITE: "白",
    34: "春",
    35: "夏",
    36: "秋",
    37: "冬",
    38: "梅",
    39: "兰",
    40: "菊",
    41: "竹",
}


def _name(kind: int) -> str:
    if kind < 27:
        return f"{kind % 9 + 1}{SUITS[kind // 9]}"
    if kind < 31:
        return WINDS[kind - 27]
    if kind < 34:
        return DRAGONS[kind - 31]
    return f"f{kind - 33}"


NAMES = tuple(_name(kind) for kind in range(KIND_COUNT))


def name(kind: int) -> str:
    """The canonical notation of one tile kind (item details ask for it often: a table, not a format)."""
    return NAMES[kind]


def is_suited(kind: int) -> bool:
    return kind < 27


def is_honor(kind: int) -> bool:
    """Winds and dragons (not flowers)."""
    return 27 <= kind < 34


def is_wind(kind: int) -> bool:
    return 27 <= kind < 31


def is_flower(kind: int) -> bool:
    return kind >= FIRST_FLOWER


def suit_of(kind: int) -> int:
    """0, 1, 2 for m, p, s; -1 for anything else."""
    return kind // 9 if kind < 27 else -1


def rank(kind: int) -> int:
    """1–9 for suited tiles."""
    return kind % 9 + 1


def is_terminal_or_honor(kind: int) -> bool:
    return kind >= 27 or rank(kind) in (1, 9)


def group_text(kinds: list[int] | tuple[int, ...]) -> str:
    """Compact text of some tiles: suited digits run together (`123m`, `EEE`)."""
    out: list[str] = []
    run: list[str] = []
    run_suit = ""
    for kind in kinds:
        if is_suited(kind):
            suit = SUITS[suit_of(kind)]
            if run and suit != run_suit:
                out.append("".join(run) + run_suit)
                run = []
            run.append(str(rank(kind)))
            run_suit = suit
        else:
            if run:
                out.append("".join(run) + run_suit)
                run = []
            out.append(name(kind))
    if run:
        out.append("".join(run) + run_suit)
    return "".join(out)


# A tile as players say it in Chinese: 五万 三筒 七条, 东风, 红中 发财 白板, 春 … 竹
_NUMERALS = "一二三四五六七八九"
_SUIT_WORDS = "万筒条"
_HONOR_WORDS = {EAST: "东风", SOUTH: "南风", WEST: "西风", NORTH: "北风", RED: "红中", GREEN: "发财", WHITE: "白板"}


def spoken(kind: int) -> str:
    """The Chinese a player says and writes for a tile (`五条` for 5s, `东风` for E): a players' form the notation
    reads too, so a message may name a tile so where it says what to write."""
    if kind < 27:
        return _NUMERALS[kind % 9] + _SUIT_WORDS[kind // 9]
    return _HONOR_WORDS.get(kind) or CHINESE_NAME[kind]


def said(kind: int, prefix: str = "") -> Term:
    """A tile as a message names it: its notation in English (`5s`), as players say it in Chinese (`五条`);
    `prefix` before either (`+` for the winning tile)."""
    return Term(prefix + name(kind), prefix + spoken(kind))
