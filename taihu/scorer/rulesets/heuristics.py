"""Guesses made without a search: the tile a hand most likely waits on, for the note on a non-winner scored
alone and for a count error's hint where the search (`slips`) finds nothing."""

from __future__ import annotations

from collections.abc import Collection

from .. import tiles as T
from ..notation import ParsedHand
from ..said import phrase

NO_WINNING_TILE_NOTE = phrase("note.no_winning_tile", "tile")


def no_winning_tile_notes(parsed: ParsedHand) -> list[str]:
    """First among the notes of a non-winner scored alone: a hand typed without its `+` scores as a loser's, and
    says so, with a tile of the hand as the example of the `+` to write (`likely_wait`)."""
    return [NO_WINNING_TILE_NOTE(likely_wait(parsed))]


def likely_wait(parsed: ParsedHand) -> str:
    """The tile of the hand a winner would most likely have won on (`likely_wait_kind`); a hand of flowers only
    gets its first tile."""
    kind = likely_wait_kind(parsed)
    if kind is None:
        return T.name(parsed.tiles[0]) if parsed.tiles else ""
    return T.name(kind)


def likely_wait_kind(parsed: ParsedHand, set_aside: Collection[int] = ()) -> int | None:
    """A tile of the hand a winner would most likely have won on, found without a search (the note is on every
    non-winner scored alone; `slips.suggested_mark`, the search for a winner's count, falls back on it): what
    is left once pungs and chows are taken out, lowest first — a pair's tile (a pair waits on its third), else
    a single's (a single wait) —, else a pair's of the whole hand, else its highest tile. Never a flower nor a
    kind of `set_aside`; None where the hand holds no other."""
    kinds = sorted(kind for kind in parsed.tiles if not T.is_flower(kind) and kind not in set_aside)
    if not kinds:
        return None
    left = {kind: kinds.count(kind) for kind in kinds}
    for kind in sorted(left):
        while left[kind] >= 3:
            left[kind] -= 3
        chow = (kind, kind + 1, kind + 2)
        while T.is_suited(kind) and all(left.get(k, 0) and T.suit_of(k) == T.suit_of(kind) for k in chow):
            for k in chow:
                left[k] -= 1
    rest = [kind for kind, count in left.items() if count] or list(left)
    counts = left if any(left.values()) else {kind: kinds.count(kind) for kind in left}
    return max(rest, key=lambda kind: (counts[kind] == 2, kind))
