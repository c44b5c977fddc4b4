"""Putian 莆田: the items, exclusions and house options of docs/rules/putian.md, as data in its order."""

from __future__ import annotations

from ... import tiles as T
from ...engine import KONG
from ...said import phrase, said
from .. import interface as I
from ..interface import EVERY_PLAYER, NONE, ONE, WINNER_ONLY, Item, Kind, Variant, once
from .hand import SELF_DRAWN, WIN_TYPES, PutianHand, _who_pays, pay_text

# How its items count: 底 and 分 add up to the 底分 (in fen), the multipliers multiply it
DI, FEN, MULTIPLIER = Kind("di", "fen"), Kind("fen", "fen"), Kind("multiplier", "multiplier")

# the texts of the details found for every reading (taihu/scorer/said.py)
DEALER = phrase("detail.dealer")
JIN_HELD = phrase("detail.putian.jin_held", "held")
NON_DEALER = phrase("detail.non_dealer")
TIAN_HU = phrase("detail.putian.tian_hu")
WHY = phrase("detail.putian.why", "pays", "why")
YOU_JIN_WITH = phrase("detail.putian.you_jin_with", "held")

# -- items ---------------------------------------------------------------------


def di(hand: PutianHand, facts: None) -> list[tuple[Variant, str]]:
    """A continuing dealer still has 底 2 (seed: 連莊莊家"底"仍為2分)."""
    return once("dealer", DEALER()) if hand.seat == "E" else once("other", NON_DEALER())


def bai(hand: PutianHand, facts: None) -> list[tuple[Variant, str]]:
    n = hand.whites
    if not n:
        return NONE
    code = BAI_DETAIL[hand.jin == T.WHITE, n == 4]
    return once("four" if n == 4 else ("each",) * n, said(code, count=n) if code else f"白 ×{n}")


# (白 is the 金, all four held) -> the detail's code; "" for neither: `白 ×2` has no word to translate
BAI_DETAIL = {
    (False, False): "",
    (True, False): "detail.putian.bai_as_jin",
    (False, True): "detail.putian.bai_all_four",
    (True, True): "detail.putian.bai_as_jin_all_four",
}


def jin(hand: PutianHand, facts: None) -> list[tuple[Variant, str]]:
    n = len(hand.jin_tiles)
    return once((ONE,) * n, f"{T.name(hand.jin or 0)} ×{n}") if n else NONE


def _kongs(concealed: bool) -> I.Finder:
    def find(hand: PutianHand, facts: None) -> list[tuple[Variant, str]]:
        kongs = [g for g in hand.melds if g.shape == KONG and g.concealed_kong == concealed]
        return once((ONE,) * len(kongs), " ".join(g.text() for g in kongs)) if kongs else NONE

    return find


def winning_type(hand: PutianHand) -> tuple[str, str]:
    """The one winning type that pays, by the seed's priority, with why it applies."""
    held = len(hand.jin_tiles)
    flags = hand.parsed.flags
    if hand.you_jin:
        return ("san_jin_you", YOU_JIN_WITH(held)) if held >= 3 else ("you_jin", "游金")
    if held >= 3:
        return "san_jin_dao", JIN_HELD(held)
    if "heaven" in flags:
        return "tian_hu", TIAN_HU()
    if hand.parsed.declare == "qiang-jin":
        return "qiang_jin", "莊家搶金" if hand.seat == "E" else "閒家搶金"
    if any(f in flags for f in SELF_DRAWN):
        return "zi_mo", ""
    if "rob-kong" in flags:
        return "qiang_gang", ""
    return "ping_hu", ""


def _win_type(key: str) -> I.Finder:
    def find(hand: PutianHand, facts: None) -> list[tuple[Variant, str]]:
        found, why = winning_type(hand)
        if found != key:
            return NONE
        return once(ONE, WHY(pay_text(key), why) if why else pay_text(key))

    return find


EACH = "value.each"
ITEMS = (
    # 底分 = 底 + 分 — every player
    Item("di", "底", "Base", {"dealer": 2, "other": 1}, DI, EVERY_PLAYER, di, text="value.putian.di"),
    Item("bai", "白", "白 set aside", {"each": 1, "four": 5}, FEN, EVERY_PLAYER, bai, text="value.putian.bai"),
    Item("jin", "金", "金 held", 1, FEN, EVERY_PLAYER, jin, text=EACH),
    Item("ming_gang", "明槓", "Open or added kong", 1, FEN, EVERY_PLAYER, _kongs(False), text=EACH),
    Item("an_gang", "暗槓", "Concealed kong", 2, FEN, EVERY_PLAYER, _kongs(True), text=EACH),
    # The winning type — the winner only; value is the multiplier, not added to 底分
    *(
        Item(
            key,
            wt.name,
            wt.name_en,
            wt.multiplier,
            MULTIPLIER,
            WINNER_ONLY,
            _win_type(key),
            text=_who_pays(key),
            text_params={"pays": wt.pays},
        )
        for key, wt in WIN_TYPES.items()
    ),
)
KONG_KEYS = ("ming_gang", "an_gang")  # counted for the winner and a false win only
