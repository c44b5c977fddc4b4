"""The hint of a wrong tile count: the search for the slip (`slips`) that names its likely cause, added where a
hand is scored (`RuleSet.score`) to the plain error its `prepare` raised.

The search scores up to `slips.MAX_CANDIDATES` hands, each through `RuleSet.score(..., hints=False)`: a
count error of a candidate is the plain one (`validation.tile_count_error`), so a search never starts another.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from ..errors import HandError
from ..notation import ParsedHand
from .validation import SlipSearch, TileCountError, count_error

P = TypeVar("P")


def prepared_with_hint(
    prepare: Callable[[ParsedHand, dict[str, int]], P], parsed: ParsedHand, options: dict[str, int]
) -> P:
    """`prepare(parsed, options)`, a wrong tile count's error naming its likely slip (`with_hint`)."""
    try:
        return prepare(parsed, options)
    except TileCountError as error:
        raise with_hint(error) from None


def with_hint(error: TileCountError) -> HandError:
    """The count error with the slip the search finds: the tile too many, the tile short, or the `+` to mark."""
    from .. import slips  # the search for the slip: loaded with the first count error only

    search = SlipSearch(slips.removals_that_win, slips.additions_that_win, slips.suggested_mark)
    return count_error(error.count, search)
