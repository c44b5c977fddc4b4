"""Fu (符) of one reading, item by item as the page's Fu table, and the basic points and payments."""

from __future__ import annotations

from ... import tiles as T
from ...engine import KONG
from ...said import phrase
from .yaku import DRAGON_KINDS, KANCHAN, PENCHAN, SEVEN_PAIRS, TANKI, View

# the texts of the details found for every reading (taihu/scorer/said.py)
DRAGON_PAIR = phrase("detail.riichi.dragon_pair", "tile")
MENZEN_RON = phrase("detail.riichi.menzen_ron")
OPEN_PINFU = phrase("detail.riichi.open_pinfu")
ROUND_WIND_PAIR = phrase("detail.riichi.round_wind_pair", "tile")
SEAT_AND_ROUND = phrase("detail.riichi.seat_and_round", "wind")
SEAT_WIND_PAIR = phrase("detail.riichi.seat_wind_pair", "tile")
SEVEN_PAIRS_FU = phrase("detail.riichi.seven_pairs_fu")
TSUMO = phrase("detail.riichi.tsumo")

FuLine = tuple[str, int, str]  # (key, fu, detail)

SET_FU = {  # (kong, concealed) -> fu of a 2–8 set; terminals and honors double it
    (False, False): ("fu_open_pon", 2),
    (False, True): ("fu_closed_pon", 4),
    (True, False): ("fu_open_kan", 8),
    (True, True): ("fu_closed_kan", 16),
}
TERMINALS_AND_HONORS = frozenset(k for k in range(T.PLAYABLE) if T.is_terminal_or_honor(k))
WAIT_FU = {KANCHAN: "fu_kanchan", PENCHAN: "fu_penchan", TANKI: "fu_tanki"}
WAIT_DETAIL = {
    KANCHAN: phrase("detail.riichi.kanchan_wait", "tile"),
    PENCHAN: phrase("detail.riichi.penchan_wait", "tile"),
    TANKI: phrase("detail.riichi.tanki_wait", "tile"),
}


def fu_lines(view: View, pinfu: bool, detailed: bool = True) -> list[FuLine]:
    """The fu of a reading; `pinfu` (the yaku is scored) takes no tsumo fu; `detailed` writes the details."""
    hand = view.hand
    if view.shape == SEVEN_PAIRS:
        return [("fu_chiitoitsu", 25, SEVEN_PAIRS_FU())]
    lines: list[FuLine] = [("fu_base", 20, "")]
    if hand.closed and not hand.tsumo:
        lines.append(("fu_menzen_ron", 10, MENZEN_RON()))
    extra = []
    if view.wait in WAIT_FU and view.win_group is not None:
        extra.append((WAIT_FU[view.wait], 2, WAIT_DETAIL[view.wait](T.name(hand.win)) if detailed else ""))
    if view.pair >= T.EAST:  # only an honor pair (a dragon, a seat or round wind) counts fu
        extra += _pair_fu(view)
    win_group = None if hand.tsumo else view.win_group  # a pung it completes on a discard counts as open
    for group in view.triplets:
        claimed = group is win_group
        key, fu = SET_FU[group.shape == KONG, not group.exposed and not claimed]
        if group.kind in TERMINALS_AND_HONORS:
            fu *= 2
        detail = "" if not detailed else CLAIMED(group.text()) if claimed else group.text()
        extra.append((key, fu, detail))
    lines += extra
    if hand.tsumo and not pinfu:
        lines.append(("fu_tsumo", 2, TSUMO()))
    elif not hand.closed and not hand.tsumo and not extra and hand.options["open_pinfu_fu"]:
        lines.append(("fu_open_pinfu", 2, OPEN_PINFU()))
    return lines


CLAIMED = phrase("detail.riichi.completed_on_discard", "group")


def _pair_fu(view: View) -> list[FuLine]:
    hand = view.hand
    kind = view.pair
    name = T.name(kind) if kind >= 0 else ""
    if kind in DRAGON_KINDS:
        return [("fu_pair", 2, DRAGON_PAIR(name))]
    if kind == hand.seat_wind and kind == hand.round_wind:
        return [("fu_pair", hand.options["double_wind_fu"], SEAT_AND_ROUND(name))]
    if kind == hand.seat_wind:
        return [("fu_pair", 2, SEAT_WIND_PAIR(name))]
    if kind == hand.round_wind:
        return [("fu_pair", 2, ROUND_WIND_PAIR(name))]
    return []


def rounded(raw: int, shape: str) -> int:
    """Up to the next 10, except the 25 of seven pairs."""
    return raw if shape == SEVEN_PAIRS else -(-raw // 10) * 10


# -- points ---------------------------------------------------------------------------

TIERS = ((13, 8000, "yakuman"), (11, 6000, "sanbaiman"), (8, 4000, "baiman"), (6, 3000, "haneman"), (5, 2000, "mangan"))
MANGAN = 2000
MAX_YAKUMAN = 6


def basic_points(han: int, fu: int, yakuman_han: int, options: dict[str, int]) -> tuple[int, str]:
    """基本点 and the limit's name (docs/rules/riichi.md "What is scored")."""
    if yakuman_han:
        times = min(yakuman_han // 13, MAX_YAKUMAN)
        return 8000 * times, "yakuman" if times == 1 else f"yakuman x{times}"
    if han >= 13:
        kazoe = options["kazoe"]
        if kazoe == 1:
            return 6000, "sanbaiman"
        times = min(han // 13, MAX_YAKUMAN) if kazoe == 2 else 1
        return 8000 * times, "kazoe yakuman" if times == 1 else f"kazoe yakuman x{times}"
    if han >= 5:
        for least, points, name in TIERS[1:]:
            if han >= least:
                return points, name
    if options["kiriage"] and (han, fu) in ((4, 30), (3, 60)):
        return MANGAN, "mangan"
    basic = fu * 2 ** (han + 2)
    return (MANGAN, "mangan") if basic > MANGAN else (basic, "")


def limit_text(limit: str) -> str:
    """A limit's name (`yakuman x2`, `kazoe yakuman`) as the answers give it: its code's text ("" for none)."""
    if not limit:
        return limit
    name, _, times = limit.partition(" x")
    once, several = LIMIT_TEXTS[name]
    return several(int(times)) if times and several is not None else once()


# each limit's text, and its text when it counts several times (`yakuman x2`)
LIMIT_TEXTS = {
    "mangan": (phrase("limit.mangan"), None),
    "haneman": (phrase("limit.haneman"), None),
    "baiman": (phrase("limit.baiman"), None),
    "sanbaiman": (phrase("limit.sanbaiman"), None),
    "yakuman": (phrase("limit.yakuman"), phrase("limit.yakuman_times", "times")),
    "kazoe yakuman": (phrase("limit.kazoe_yakuman"), phrase("limit.kazoe_yakuman_times", "times")),
}


def _up(points: int) -> int:
    return -(-points // 100) * 100


def payments(basic: int, dealer: bool, tsumo: bool, honba: int) -> dict[str, int]:
    """Who pays what, each rounded up to 100, then the counters (本场) added."""
    if not tsumo:
        return {"discarder": _up(basic * (6 if dealer else 4)) + 300 * honba}
    if dealer:
        return {"each": _up(basic * 2) + 100 * honba}
    return {"dealer": _up(basic * 2) + 100 * honba, "non_dealer": _up(basic) + 100 * honba}


def paid(payment: dict[str, int]) -> int:
    """What the winner receives from the payments (before sticks)."""
    if "each" in payment:
        return 3 * payment["each"]
    if "dealer" in payment:
        return payment["dealer"] + 2 * payment["non_dealer"]
    return payment["discarder"]
