"""Putian 莆田: its readings, and what the wildcard search is told of it (representatives for
all-wildcard groups, reading classes): docs/architecture.md, the wildcard search."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ... import engine as E
from ... import tiles as T
from ...engine import PAIR, PUNG, Group
from .. import interface as I
from .hand import SETS, PutianHand

# -- the readings ------------------------------------------------------------


def _display_class(jin: int) -> Callable[[Group], tuple[int, bool]]:
    """What `_stand_ins` sees of a group: its 金 standing for another tile, and whether it mixes 金 and tiles.

    Nothing scored depends on the grouping, only the display choice does, so
    the search keeps one decomposition per display class (docs/architecture.md: prune
    what cannot differ) instead of placing the 金 on every one of them.
    """

    def display_class(group: Group) -> tuple[int, bool]:
        slots = group.slots
        return sum(kind != jin for kind in slots), 0 < len(slots) < len(group.kinds)

    return display_class


# one per 金 kind, made once: StandIns with the same function share the search's memo table
_DISPLAY_CLASSES = {kind: _display_class(kind) for kind in range(T.PLAYABLE)}


def jokers(hand: PutianHand) -> E.StandIns:
    """All-金 groups stand for the 金 itself: nothing scored depends on what they stand for."""
    kind = hand.jin if hand.jin is not None else 4
    return E.StandIns(pairs=(kind,), sets=((PUNG, kind),), classify=_DISPLAY_CLASSES[kind])


def readings(hand: PutianHand) -> Iterable[I.Reading]:
    """One winning reading: no Putian item depends on the grouping, so only its display is chosen.

    游金 sets one 金 aside as the pair's half and needs the rest as sets only;
    a declared 三金倒 ignores the shape (one reading of just the melds).
    """
    sets = SETS - len(hand.melds)
    if hand.shapeless:
        yield hand.melds
        return
    if hand.you_jin:
        kind = hand.jin_tiles[0]
        lone = Group(PAIR, kind, (kind,), wilds=((kind, kind),))  # shown by `arrangement`, not as a pair
        for groups in E.set_readings(hand.naturals, hand.jin_tiles[1:], sets, jokers(hand)):
            yield hand.melds + groups + (lone,)
            return
        return
    found = list(E.standard_readings(hand.naturals, hand.jin_tiles, sets, jokers(hand)))
    if found:
        yield hand.melds + min(found, key=_stand_ins)


def _stand_ins(groups: I.Reading) -> tuple[int, int]:
    """Orders readings for display: 金 standing for themselves first, then fewer slots in natural groups."""
    moved = sum(w != k for g in groups for w, k in g.wilds)
    mixed = sum(1 for g in groups if g.wilds and len(g.wilds) < len(g.kinds))
    return moved, mixed


# The contract with the items (`RuleSet.search_keeps`, checked when the rule set's class is made): for each item
# that reads a reading, the facts the display classes and the one representative of `jokers` (the 金's own kind)
# keep exact. An item reading a fact not listed could score wrong on the readings the search leaves out: make
# them keep it (tests/test_reading_classes.py and tests/test_wildcard_brute_force.py hold them to the full
# search), then list it here.
KEPT_FOR_ITEMS: dict[str, tuple[str, ...]] = {}  # its items read nothing of a reading
