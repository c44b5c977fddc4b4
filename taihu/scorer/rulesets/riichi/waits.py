"""Waits (听牌) and 何切る for riichi: every tile that completes a 13-tile hand, each scored by the riichi scorer.

Each tile kind is added as `+tile` and scored on a discard (ron) and
self-drawn (tsumo) exactly as `score_hand` scores that line, so the han, fu
and points can never disagree with it; a completion with no yaku (役なし) or
on a discard while furiten is listed with `legal: false` and the reason.

What taihu can and cannot know of furiten (振听): a line holds no discards,
so taihu cannot see whether a wait is among them; the player writes
`furiten` (docs/rules/riichi.md), and then every win on a discard is listed
as not legal. In a 何切る it does know one discard, the tile just thrown: a
discard that leaves a wait on that very tile leaves the hand furiten, and
its waits are scored so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from taihu.messages import Language

from ... import tiles as T
from ...errors import HandError
from ...models import HandScore, text_code
from ...notation import ParsedHand, parse, reject_stand_in_pungs, to_text
from ...said import in_lang
from ...waiting import Check, Discard, Discards, Wait, Waits, WinValue, check_waiting_line, no_check
from . import FURITEN_NOTE, NO_YAKU_NOTE, RIICHI
from .hand import CONDITIONS, WIN_CONDITIONS, deal_of, prepare, reject_flowers

FIVES = {4: 0, 13: 1, 22: 2}  # the kind of each suit's five -> its suit (m p s)


@dataclass(frozen=True)
class RiichiWinValue(WinValue):
    """A win in riichi: the HandScore's han (`subtotal`), fu, limit and payments, and why it is not legal."""

    han: int
    fu: int | None
    limit: str | None
    payments: dict[str, int] | None
    reason: str | None  # 役なし or 振听 when the win is not legal

    @classmethod
    def of(cls, score: HandScore) -> RiichiWinValue:
        reason = next((n for n in score.notes if getattr(n, "code", "") in (NO_YAKU_NOTE, FURITEN_NOTE)), None)
        return cls(
            score.total,
            score.legal,
            tuple(score.arrangement),
            han=score.subtotal,
            fu=score.extra["fu"],
            limit=score.extra["limit"],
            payments=score.extra["payments"],
            reason=None if score.legal else reason,
        )

    def to_dict(self, lang: Language = "en", *, codes: bool = False) -> dict[str, Any]:
        limit, reason = in_lang(self.limit, lang), in_lang(self.reason, lang)
        extra = {"han": self.han, "fu": self.fu, "limit": limit, "payments": self.payments, "reason": reason}
        if codes:
            extra |= {"limit_code": text_code(self.limit), "reason_code": text_code(self.reason)}
        return super().to_dict(lang, codes=codes) | extra


@dataclass(frozen=True)
class RiichiWait(Wait):
    """A riichi wait; `red_unseen` (fives under `aka_dora=1` only): whether the red five of its suit is unseen."""

    red_unseen: int | None = None

    def to_dict(self, lang: Language = "en", *, codes: bool = False) -> dict[str, Any]:
        out = super().to_dict(lang, codes=codes)
        if self.red_unseen is not None:
            out["red_unseen"] = self.red_unseen
        return out


@dataclass(frozen=True)
class RiichiWaits(Waits):
    """The waits of a riichi hand; `furiten`: the line says so, and no win on a discard is legal."""

    furiten: bool = False

    def to_dict(self, lang: Language = "en", *, codes: bool = False) -> dict[str, Any]:
        return super().to_dict(lang, codes=codes) | {"furiten": self.furiten}


@dataclass(frozen=True)
class RiichiDiscard(Discard):
    """One discard of a 何切る; `furiten`: it leaves a wait on the tile just discarded (or the line says so)."""

    furiten: bool = False

    def to_dict(self, lang: Language = "en", *, codes: bool = False) -> dict[str, Any]:
        return super().to_dict(lang, codes=codes) | {"furiten": self.furiten}


def riichi_waits(text: str, options: Mapping[str, Any] | None, check: Check = no_check) -> RiichiWaits | Discards:
    """`waits` for riichi: a 13-tile hand's waits; with 14 tiles, each discard and its waits, best first.

    `check` as for `waits`: called before each tile is scored, raising to stop the search.
    """
    parsed = parse(text, CONDITIONS, "Riichi", rules="riichi")
    check_waiting_line(parsed, text, frozenset(WIN_CONDITIONS))
    reject_stand_in_pungs(parsed)
    reject_flowers(parsed)
    resolved = RIICHI.resolve_options(options)
    try:
        prepare(parsed, resolved)  # a tile too many: its error has no hint, as its discards answer it
    except HandError:
        discards = _discards(parsed, options, resolved, check)
        if discards is None:
            raise
        return Discards("riichi", to_text(parsed), discards)
    furiten = "furiten" in parsed.flags
    return RiichiWaits("riichi", to_text(parsed), find_waits(parsed, options, resolved, check=check), furiten=furiten)


def seen_in_line(parsed: ParsedHand) -> list[int]:
    """Copies of each kind the player sees in the line: hand, melds and the dora and ura indicators."""
    seen = [0] * T.PLAYABLE
    deal = deal_of(parsed)
    for kind in [*parsed.tiles, *(k for meld in parsed.melds for k in meld.tiles), *(deal.dora or ())]:
        seen[kind] += 1
    for kind in deal.ura or ():
        seen[kind] += 1
    return seen


def red_suits_seen(parsed: ParsedHand) -> set[int]:
    """The suits whose red five is in the line (in hand, a meld or an indicator)."""
    suits = set()
    for where in deal_of(parsed).red:
        if where[0] == "meld":
            suits.add(T.suit_of(where[1][0]))
        else:
            suits.add(where[1])
    return suits


def find_waits(
    parsed: ParsedHand,
    options: Mapping[str, Any] | None,
    resolved: dict[str, int],
    discarded: int | None = None,
    check: Check = no_check,
) -> tuple[Wait, ...]:
    """Every kind that completes the 13-tile hand, scored on a discard and self-drawn, in tile order.

    `discarded`: the tile a 何切る just threw, seen on the table. A kind whose four copies are all seen
    cannot be drawn: it is no wait (as for 听牌 at a draw). A natural tile's shape is the same both
    ways, so a kind that is no win on a discard is none at all.
    """
    seen = seen_in_line(parsed)
    if discarded is not None:
        seen[discarded] += 1
    reds = red_suits_seen(parsed) if resolved["aka_dora"] else None
    found: list[Wait] = []
    for kind in range(T.PLAYABLE):
        if seen[kind] >= 4:
            continue
        check()
        ron = _score(parsed, kind, options, self_drawn=False)
        if ron is None:
            continue
        tsumo = _score(parsed, kind, options, self_drawn=True)
        red = None if reds is None or kind not in FIVES else int(FIVES[kind] not in reds)
        found.append(
            RiichiWait(
                tile=T.name(kind),
                unseen=4 - seen[kind],
                discard=RiichiWinValue.of(ron),
                self_drawn=None if tsumo is None else RiichiWinValue.of(tsumo),
                red_unseen=red,
            )
        )
    return tuple(found)


def _score(parsed: ParsedHand, kind: int, options: Mapping[str, Any] | None, self_drawn: bool) -> HandScore | None:
    """The hand won on `kind` as `score_hand` scores that line; None where it is no win."""
    flags = parsed.flags | {"self"} if self_drawn else parsed.flags
    try:
        return RIICHI.score(parsed._replace(win=kind, flags=flags), options)
    except HandError:
        return None


def _discards(
    parsed: ParsedHand, options: Mapping[str, Any] | None, resolved: dict[str, int], check: Check
) -> tuple[Discard, ...] | None:
    """Each discard that leaves a valid 13-tile hand, with its waits, best first; None if none does.

    Best first: those that leave the hand not furiten before those that do, then as for every rule set.

    A red five is discarded only when it is the hand's one five of its suit (a player keeps the red one).
    """
    choices: list[tuple[RiichiDiscard, int]] = []
    for kind in sorted(set(parsed.tiles)):
        after = _without(parsed, kind)
        try:
            prepare(after, resolved)
        except HandError:
            continue
        found = find_waits(after, options, resolved, discarded=kind, check=check)
        furiten = "furiten" in after.flags
        if not furiten and any(w.tile == T.name(kind) for w in found):
            furiten = True  # the tile just discarded is a wait: 振听, no win on a discard
            after = after._replace(flags=after.flags | {"furiten"})
            found = find_waits(after, options, resolved, discarded=kind, check=check)
        in_hand = ("hand", FIVES[kind]) if kind in FIVES else None
        red = in_hand is not None and in_hand in deal_of(parsed).red and in_hand not in deal_of(after).red
        name = "0" + T.name(kind)[1] if red else T.name(kind)
        choices.append((RiichiDiscard(name, found, furiten=furiten), kind))
    if not choices:
        return None
    # best first as for every rule set (most unseen winning copies, then the best total), but a discard
    # that leaves the hand furiten after those that do not: it can then win only by self-draw
    choices.sort(key=lambda choice: (choice[0].furiten, -choice[0].unseen_wins, -choice[0].best_total, choice[1]))
    return tuple(choice for choice, _ in choices)


def _without(parsed: ParsedHand, kind: int) -> ParsedHand:
    """The hand with one tile of `kind` discarded (a red five only if it is the one five of its suit held)."""
    rest = list(parsed.tiles)
    rest.remove(kind)
    red = deal_of(parsed).red
    if kind in FIVES and ("hand", FIVES[kind]) in red and kind not in rest:
        return parsed._replace(tiles=tuple(rest)).with_values(red=red - {("hand", FIVES[kind])})
    return parsed._replace(tiles=tuple(rest))
