"""An error about a tile points where the line wrote it, made so by the check that finds it.

The parsed hand knows its line (`ParsedHand.tile_column`), so the error has its column whoever scores the
hand: `score_hand`, a rule set's `score` of a hand read before (the API's loop), or riichi's own waits.
"""

from __future__ import annotations

import pytest

from taihu.scorer import HandError, score_hand
from taihu.scorer.notation import parse
from taihu.scorer.rulesets import RULESETS
from taihu.scorer.waiting import waits

# (rule set, line, the error's code, the column: the copy over the limit, the first of four alike, the last copy
# of the tile too many, a tile not played)
TILE_ERRORS = [
    ("lingxi", "11111m 456m 789m 123p 456p 9s +9s wild:5m,E", "tile_copies", 5),
    ("lingxi", "[1111m] 11m 234p 567p 789s f1 +9s wild:5m,E", "tile_copies", 9),
    ("lingxi", "1111m 456m 789m 123p 456p 1s +1s wild:5m,E", "unmarked_kong", 1),
    ("lingxi", "5559m 222777p 333888s 1p PP f1f2 +9m wild:5m,E seat:S", "stray_tile", 23),
    ("lingxi", "555m 222p 777p 333s 888s 9m 南 f1 f2 P P +9m wild:5m,E", "stray_tile", 29),
    ("luoshan", "123m 456m 789m 123p 5s +5s f1", "tile_not_played", 28),
    ("guannan", "123m 456m 789m 123p 5s +5s C", "tile_not_played", 28),
    ("guannan", "123m 456m 789m 123p EE +E", "tile_copies", 22),
    ("putian", "123m 456m 789m 123p 456p E 1s +1s", "tile_not_played", 26),
    ("putian", "123m 456m 789m 1p 5p 5p 5p 5p 456s +7s wild:5p", "tile_copies", 28),
    ("jinhua", "123m 456m 789m 123p 5s +5s f1", "tile_not_played", 28),
    ("riichi", "11m 123m 456m 789m 1m 1m 1m +5p seat:S round:E", "tile_copies", 23),
    ("riichi", "123m 456m 789m 123p 5s +5s f1 seat:S round:E", "tile_not_played", 28),
]


def error_of(call: object, *args: object) -> tuple[str, int | None]:
    with pytest.raises(HandError) as info:
        call(*args)  # type: ignore[operator]
    return info.value.code, info.value.column


@pytest.mark.parametrize(("rules", "line", "code", "column"), TILE_ERRORS)
def test_a_tile_error_has_its_column_however_the_hand_is_scored(rules: str, line: str, code: str, column: int) -> None:
    rule_set = RULESETS[rules]
    assert error_of(score_hand, line, rules) == (code, column)
    assert error_of(rule_set.score, rule_set.read_line(line)) == (code, column)


# riichi finds its waits its own way (`RuleSet.own_waits`); its errors point at the tile too
RIICHI_WAITS = [
    ("11m 123m 456m 789m 1m 1m seat:S round:E", "tile_copies", 23),
    ("123m 456m 789m 123p 5s f1 seat:S round:E", "tile_not_played", 24),
]


@pytest.mark.parametrize(("line", "code", "column"), RIICHI_WAITS)
def test_riichi_waits_errors_point_at_the_tile(line: str, code: str, column: int) -> None:
    assert error_of(waits, line, "riichi") == (code, column)


@pytest.mark.parametrize(
    ("line", "kind", "nth", "column"),
    [
        ("1m 1m [111m] +1m", 0, 1, 1),
        ("1m 1m [111m] +1m", 0, 3, 8),
        ("1m 1m [111m] +1m", 0, -1, 15),
        ("1m 1m [111m] +1m", 0, 7, None),
        ("5m wild:1m 1m", 0, 1, 12),  # a condition's tile is no copy
    ],
)
def test_tile_column_counts_the_copies_in_line_order(line: str, kind: int, nth: int, column: int | None) -> None:
    assert parse(line).tile_column(kind, nth) == column


def test_a_hand_not_read_from_a_line_has_no_tile_columns() -> None:
    hand = parse("1m 1m 1m")
    assert hand._replace(columns={}).tile_column(0) is None
