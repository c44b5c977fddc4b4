"""What a hand with one tile too many most likely slipped on, for the count error to name it.

A winning hand with a tile too many is often a stray tile (a `1p` typed twice,
a seat word `南` left among the tiles), and only sometimes the winning tile
written twice; a complete hand with no `+` is a winner whose `+` was left out.
Which it is shows by trying: the tile whose one removal (or whose mark as `+`)
leaves a hand the rule set scores as a win. The search is bounded, so a hostile
line cannot make it costly: at most `MAX_CANDIDATES` kinds are tried, each one
score of a hand of the rule set's size, scored with `hints=False`: a candidate's count error is the plain one,
so a search never starts inside another.
"""

from __future__ import annotations

from collections.abc import Collection

from . import tiles as T
from .errors import HandError
from .models import HandScore
from .notation import ParsedHand

MAX_CANDIDATES = 18  # kinds tried: a winning hand of 17 tiles has at most 17 distinct ones, and the `+` kind


def removals_that_win(parsed: ParsedHand, rule_set: str, set_aside: Collection[int] = ()) -> list[int]:
    """The kinds of the hand tiles whose one removal leaves a winning hand (the `+` tile kept), those that leave
    the best one: with wildcards nearly any removal leaves some win, and the hand meant is the one worth most
    (a legal win first, then the total), as a player claims the reading that lets them win best."""
    ranked = []
    for kind in _candidates(parsed, set_aside):
        score = _score(rule_set, _without(parsed, kind))
        if score is not None and score.winner:
            ranked.append(((score.legal, score.total), kind))
    best = max((rank for rank, _ in ranked), default=None)
    return [kind for rank, kind in ranked if rank == best]


def additions_that_win(parsed: ParsedHand, rule_set: str) -> list[int]:
    """For a winner one tile short: the kinds whose one more tile among the hand tiles makes the best win.

    Tried are the kinds a tile could join (a held honor, a suited tile within two of a held one, the
    `+` tile's), at most `T.PLAYABLE`, each a score of a hand without wildcards: with wildcards nearly
    any tile would make some win, which finds nothing, so such a hand is not searched.
    """
    if parsed.wild is not None or parsed.flip is not None:
        return []
    held = [k for k in (*parsed.tiles, *([parsed.win] if parsed.win is not None else [])) if k < T.PLAYABLE]
    near: dict[int, None] = {}
    for reach in (0, 1, 2):
        for kind in held:
            for other in {kind - reach, kind + reach} if T.is_suited(kind) else {kind}:
                if 0 <= other < T.PLAYABLE and T.is_suited(other) == T.is_suited(kind):
                    if not T.is_suited(kind) or T.suit_of(other) == T.suit_of(kind):
                        near[other] = None
    ranked = []
    for kind in near:
        score = _score(rule_set, parsed._replace(tiles=tuple(sorted((*parsed.tiles, kind)))))
        if score is not None and score.winner:
            ranked.append(((score.legal, score.total), kind))
    best = max((rank for rank, _ in ranked), default=None)
    return [kind for rank, kind in ranked if rank == best]


def marks_that_win(parsed: ParsedHand, rule_set: str, set_aside: Collection[int] = ()) -> list[int]:
    """For a hand with no `+` and a winner's count: the kinds whose one tile marked `+` makes it a win."""
    return list(_ranked_marks(parsed, rule_set, set_aside))


def suggested_mark(parsed: ParsedHand, rule_set: str, set_aside: Collection[int] = ()) -> int | None:
    """The `+` to suggest for a winner's count written with none: a tile of the hand, one whose mark makes a win
    where one does, the best win (a legal one first, then the total: `234567m 234p 88p 67s 8s` is +8s, the
    two-sided wait, not +8p), then a pair's tile (the wait most often), then the highest; where no mark wins, the
    cheap guess of the note on a non-winner (`heuristics.likely_wait_kind`); None for a hand of flowers."""
    ranked = _ranked_marks(parsed, rule_set, set_aside)
    if ranked:
        return max(ranked, key=lambda kind: (ranked[kind], parsed.tiles.count(kind) == 2, kind))
    from .rulesets.heuristics import likely_wait_kind  # slips is loaded with the first count error

    return likely_wait_kind(parsed, set_aside)


def _ranked_marks(parsed: ParsedHand, rule_set: str, set_aside: Collection[int]) -> dict[int, tuple[bool, int]]:
    """The kinds whose mark as `+` wins, each with its win's rank (legal, total)."""
    ranked = {}
    for kind in _candidates(parsed, set_aside):
        score = _score(rule_set, _without(parsed, kind, win=kind))
        if score is not None and score.winner:
            ranked[kind] = (score.legal, score.total)
    return ranked


def _candidates(parsed: ParsedHand, set_aside: Collection[int]) -> list[int]:
    """The kinds to try, at most `MAX_CANDIDATES`."""
    kinds = [k for k in dict.fromkeys(parsed.tiles) if k not in set_aside and not T.is_flower(k)]
    return kinds[:MAX_CANDIDATES]


def _without(parsed: ParsedHand, kind: int, win: int | None = None) -> ParsedHand:
    tiles = list(parsed.tiles)
    tiles.remove(kind)
    return parsed._replace(tiles=tuple(tiles), win=parsed.win if win is None else win)


def _score(rule_set: str, parsed: ParsedHand) -> HandScore | None:
    """The candidate's score by the rule set's defaults; None where it is no hand at all."""
    from .rulesets import RULESETS

    if rule_set not in RULESETS:
        return None
    try:
        return RULESETS[rule_set].score(parsed, hints=False)  # its count error, if any, searches nothing
    except HandError:
        return None
