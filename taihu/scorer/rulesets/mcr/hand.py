"""MCR 国标: the hand as the rules page sees it (`McrHand`), built and validated by `prepare`.

What depends on the hand alone, not on a reading, is found here once: the
flowers set aside, the count of every kind (a kong as four), the kongs, and
whether the hand waited on one tile only (独听), which decides 边张, 坎张 and
单钓将 in every reading.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass
from functools import cached_property

from ... import tiles as T
from ...engine import KONG, Group, standard_waits, standard_waits_with
from ...errors import HandError, Text
from ...notation import NO_VALUES, ParsedHand
from ...said import said
from .. import interface as I
from .. import validation as V
from . import shapes as S

WIN_SIZE, HAND_SIZE = 14, 13
MINIMUM = 8  # 起和番: the fan a win needs, flowers apart
CONDITIONS = frozenset(
    {"seat", "round", "self", "kong-draw", "rob-kong", "last-tile", "fourth-tile"}
)  # how the hand was won: the win fans, and who pays
WIN_CONDITIONS = ("self", "kong-draw", "rob-kong", "last-tile", "fourth-tile")
SELF_DRAWN = frozenset({"self", "kong-draw"})  # 杠上开花 is won on one's own draw
CONFLICTS = (
    V.ROB_KONG_NOT_SELF,
    V.ROB_KONG_OR_KONG_DRAW,
    ("rob-kong", "last-tile", "error.conflict.mcr.rob_kong_last_tile"),
)
# what `mcr` refuses, with why: 天和/地和/人和 are no fan of the competition rules, and it plays no wildcard
NOT_MCR_FAN = Text("error.condition.mcr.no_such_fan")
NO_WILDCARDS = Text("error.condition.mcr.no_wild")
HINTS = {"heaven": NOT_MCR_FAN, "earth": NOT_MCR_FAN, "human": NOT_MCR_FAN, "wild": NO_WILDCARDS, "flip": NO_WILDCARDS}
WIND = {"E": T.EAST, "S": T.SOUTH, "W": T.WEST, "N": T.NORTH}
UP_TO_FOUR = bytes(range(5))  # a kind's count that is no error
HELD_DIGIT = bytes.maketrans(bytes(range(256)), b"0" + b"1" * 255)  # a kind's count as its binary digit of `held`


@dataclass
class McrHand(I.Prepared):
    concealed: bytes = b""  # the concealed tiles, the winning tile included, sorted
    melds: tuple[Group, ...] = ()  # exposed melds and concealed kongs, as written
    win: int = -1
    seat_wind: int = T.EAST
    round_wind: int = T.EAST
    self_drawn: bool = False
    flowers: tuple[int, ...] = ()
    counts: tuple[int, ...] = ()  # every kind's tiles in the hand, a kong as four
    held: int = 0  # the kinds held, as bits (1 << kind)
    exposed_kongs: int = 0
    concealed_kongs: int = 0
    nine_gates: bool = False  # 九莲宝灯: the 13 tiles before the win are 1112345678999 of one suit
    four_alike: bool = False  # a kind with its four tiles in the hand (a kong's included)

    @cached_property
    def single_wait(self) -> bool:
        """独听: the 13 tiles before the win waited on this one kind only. Found when a reading asks (the
        winning tile at a chow's edge or middle, or in the pair), as most readings place it otherwise."""
        return self._single_wait(of_sets=False)

    @cached_property
    def single_wait_of_sets(self) -> bool:
        """`single_wait`, asked by a reading of sets and a pair: the tiles are then known to read so, and the
        waits of sets and a pair are found in the winning tile's suit where they can be (`standard_waits_with`)."""
        return self._single_wait(of_sets=True)

    def _single_wait(self, of_sets: bool) -> bool:
        if not self.winner:
            return False
        before = bytearray(self.concealed)
        before.remove(self.win)
        return single_wait(bytes(before), self.melds, self.counts, self.win, self.held, of_sets)


def prepare(parsed: ParsedHand, options: dict[str, int]) -> McrHand:
    V.check_known_conditions(parsed, "mcr", CONDITIONS, HINTS)
    tiles, written, won, seat, _, _, flags, _, _, values = parsed  # unpacked: fields by name cost more each
    # the tiles are sorted: a flower, the highest kind, is last if there is one
    flowers = tuple(k for k in tiles if k >= T.FIRST_FLOWER) if tiles and tiles[-1] >= T.FIRST_FLOWER else ()
    if written:
        for meld in written:
            if meld.is_flower_set:
                raise HandError.of(
                    "error.notation.mcr.flower_group",
                    code="bad_flower_group",
                    column=meld.column or None,
                    group=meld.source or meld.text(),
                )
    if flowers:
        for kind in set(flowers):
            if flowers.count(kind) > 1:
                raise V.too_many_copies(parsed, kind, flowers.count(kind), 1, Text("error.tiles.mcr.one_flower"))
    held = [k for k in tiles if k < T.FIRST_FLOWER] if flowers else list(tiles)
    winner = won is not None
    win = -1
    if won is not None:
        if won >= T.FIRST_FLOWER:
            raise HandError.of("error.notation.mcr.flower_won", code="bad_winning_tile", column=parsed.columns.get("+"))
        insort(held, won)
        win = won
    counts = [0] * T.PLAYABLE
    for kind in held:
        counts[kind] += 1
    if written:
        melds = tuple([I.meld_group(m) for m in written])
        for meld in written:
            for kind in meld.tiles:
                counts[kind] += 1
        exposed_kongs = sum(1 for g in melds if g.shape == KONG and g.exposed)
        concealed_kongs = sum(1 for g in melds if g.concealed_kong)
    else:
        melds = ()
        exposed_kongs = concealed_kongs = 0
    # every count as a byte, read by bytes' own methods, not a compare per kind (capped at 5 on a line of hundreds
    # of tiles, which a byte may not hold: more than 4 is an error all the same)
    seen = bytes(counts) if len(held) + 4 * len(written) < 256 else bytes(min(n, 5) for n in counts)
    if seen.translate(None, UP_TO_FOUR):
        kind = next(k for k, n in enumerate(counts) if n > 4)
        raise V.too_many_copies(parsed, kind, counts[kind], 4)

    size = len(held) + 3 * len(melds)
    if size != (WIN_SIZE if winner else HAND_SIZE):
        raise V.tile_count_error(parsed, "mcr", size, HAND_SIZE, winner)
    if flags:  # the checks of the conditions written: none to check on most hands
        _check_conditions(parsed, winner, melds, counts, held, win)
    round_wind = values is not NO_VALUES and values.get("round")  # (`if values` is a call of its own)
    # the fields in their order (a call by keywords would cost twice as much, tests/test_shell_fast.py)
    return McrHand(
        parsed,
        winner,
        False,  # declared
        options,
        [] if winner else [said("note.mcr.non_winner")],  # notes
        bytes(held),  # concealed
        melds,
        win,
        WIND[seat or "E"],  # seat_wind
        WIND[round_wind or "E"],  # round_wind
        not flags.isdisjoint(SELF_DRAWN) if flags else False,  # self_drawn
        flowers,
        tuple(counts),
        int(seen.translate(HELD_DIGIT)[::-1], 2),  # held: the kinds as bits, kind 0 the lowest
        exposed_kongs,
        concealed_kongs,
        # nine_gates: 九莲宝灯's fourteen tiles run from its suit's 1 to its 9
        winner and not melds and held[-1] - held[0] == 8 and S.nine_gates(_without(held, win)),
        4 in seen,  # four_alike
    )


def _check_conditions(
    parsed: ParsedHand, winner: bool, melds: tuple[Group, ...], counts: list[int], held: list[int], win: int
) -> None:
    """The conditions written need a win, stand together and fit the tiles (a robbed kong's tile not held)."""
    flags = parsed.flags
    V.check_win_conditions(parsed, winner, WIN_CONDITIONS, CONFLICTS)
    V.check_kong_draw(flags, melds)
    if "rob-kong" in flags and counts[win] > 1:
        raise HandError.of(
            "error.condition.mcr.rob_kong_held",
            code="condition_not_met",
            column=parsed.columns.get("rob-kong"),
            tile=T.name(win),
        )
    if "fourth-tile" in flags and held.count(win) > 1:
        raise HandError.of(
            "error.condition.mcr.fourth_tile_held",
            code="condition_not_met",
            column=parsed.columns.get("fourth-tile"),
            tile=T.name(win),
        )


def _without(held: list[int], win: int) -> list[int]:
    before = list(held)
    before.remove(win)
    return before


def single_wait(
    before: bytes, melds: tuple[Group, ...], counts: tuple[int, ...], win: int, held: int, of_sets: bool = False
) -> bool:
    """独听: the winning kind is the one kind that completes the 13 tiles, a kind whose four tiles are all the
    winner's own left out (it cannot be drawn). The waits of sets and a pair are found first (`of_sets`: the 13
    tiles and the winning tile read as sets and a pair); the other shapes are tried only where those leave the
    winning kind alone and the kinds of the hand (`held`, as bits) allow one, and only on the kinds that might
    complete them."""
    sets = 4 - len(melds)
    standard = standard_waits_with(before, sets, win) if of_sets else standard_waits(before, sets)
    for kind in standard:
        if kind != win and counts[kind] < 4:
            return False
    return not any(
        k != win and counts[k] < 4 and k not in standard and S.special_win(before, k, len(melds))
        for k in S.special_candidates(before, len(melds), held)
    )
