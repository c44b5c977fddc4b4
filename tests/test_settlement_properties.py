"""Settlement properties: zero-sum, the winner's take, and HandError as the only failure."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from taihu.scorer import HandError, Settlement, settle_table

SEATS = ("E", "S", "W", "N")
# (hand, wild, won on its own turn, 四风齐) — valid winning hands at any seat.
WINNING_HANDS = (
    ("555m 222p 777p 333s 888s 9m f1 f2 P P +9m", ["5m", "E"], False, False),
    ("555m 222p 777p 333s 888s 9m f1 f2 P P +9m self", ["5m", "E"], True, False),
    ("123m 456m 789p 234s 678s 5p +5p", ["9s", "N"], False, False),
    ("123m 456m 789p 234s 678s 5p +5p self", ["9s", "N"], True, False),
    ("[EEE] [SSS] [WWW] 234m 567p N +N", ["3s", "C"], False, True),
    ("5m5m5m E 123p 456p 789s 11s 23m declare:sha-zhu", ["5m", "E"], True, False),
)
EVENT_TYPES = ("false-win", "foul", "liable", "gen-da")

RELAXED = settings(max_examples=100, deadline=None)


def check(result: Settlement) -> None:
    assert sum(result.net.values()) == 0
    totals = {s: 0 for s in SEATS}
    for p in result.payments:
        assert p.amount > 0 and p.from_ != p.to
        totals[p.from_] -= p.amount
        totals[p.to] += p.amount
    assert totals == result.net
    assert result.next_dealer in ("E", "S")


@st.composite
def valid_tables(draw: st.DrawFn) -> tuple[dict[str, Any], int]:
    """A table that is valid by construction, and the winner's expected tai (or -1)."""
    kind = draw(st.sampled_from(("win", "drawn", "false-win")))
    players: dict[str, Any] = {s: {"total": draw(st.integers(0, 60))} for s in SEATS}
    table: dict[str, Any] = {"rules": "lingxi", "players": players, "events": []}
    if kind == "drawn":
        table["winner"] = None
        return table, -1
    if kind == "false-win":
        table["events"] = [{"type": "false-win", "seat": draw(st.sampled_from(SEATS))}]
        return table, -1
    hand, wild, own_turn, four_winds = draw(st.sampled_from(WINNING_HANDS))
    winner = draw(st.sampled_from(SEATS))
    others = [s for s in SEATS if s != winner]
    players[winner] = hand
    table.update(winner=winner, wild=wild, discarder=None if own_turn else draw(st.sampled_from(others)))
    fouls = draw(st.lists(st.sampled_from(others), unique=True, max_size=3))
    table["events"] = [{"type": "foul", "seat": s} for s in fouls]
    if four_winds and draw(st.booleans()):
        table["events"].append({"type": "liable", "seat": draw(st.sampled_from(others))})
    return table, 0


@RELAXED
@given(valid_tables())
def test_valid_tables_settle_to_zero(case: tuple[dict[str, Any], int]) -> None:
    table, _ = case
    result = settle_table(table)
    check(result)
    winner = table.get("winner")
    if winner is not None:
        tai = result.scores[winner].total
        # every other player pays (or is paid for by the liable player) the winner's tai, x2 with the dealer
        assert result.net[winner] == tai * (6 if winner == "E" else 4)
        assert result.next_dealer == ("E" if winner == "E" else "S")
    elif table["events"]:
        assert result.net[table["events"][0]["seat"]] == -26 * (6 if table["events"][0]["seat"] == "E" else 4)
    else:
        assert result.payments == [] and result.next_dealer == "E"


@st.composite
def loose_tables(draw: st.DrawFn) -> dict[str, Any]:
    """Tables with every field drawn freely: often invalid, sometimes valid."""
    hand, wild, _, _ = draw(st.sampled_from(WINNING_HANDS))
    players: dict[str, Any] = {s: {"total": draw(st.integers(0, 30))} for s in SEATS}
    players[draw(st.sampled_from(SEATS))] = hand
    table: dict[str, Any] = {
        "rules": draw(st.sampled_from(("lingxi", "lingxi", "lingxi", "luoshan", "mars"))),
        "wild": draw(
            st.one_of(st.just(wild), st.none(), st.lists(st.sampled_from(("5m", "E", "C", "x", "f1")), max_size=3))
        ),
        "winner": draw(st.one_of(st.none(), st.sampled_from(SEATS))),
        "discarder": draw(st.one_of(st.none(), st.sampled_from(SEATS))),
        "players": players,
        "events": draw(
            st.lists(
                st.fixed_dictionaries({"type": st.sampled_from(EVENT_TYPES), "seat": st.sampled_from(SEATS)}),
                max_size=3,
            )
        ),
        "options": draw(st.sampled_from(({}, {"double_at": 10}, {"nope": 1}))),
    }
    if draw(st.booleans()):
        key = draw(st.sampled_from(sorted(table)))
        table[key] = draw(st.one_of(st.none(), st.integers(), st.text(max_size=5), st.lists(st.integers(), max_size=2)))
    return table


@RELAXED
@given(loose_tables())
def test_any_table_settles_or_raises_hand_error(table: dict[str, Any]) -> None:
    try:
        result = settle_table(table)
    except HandError as exc:
        assert str(exc)
        return
    check(result)


JSONISH = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12,
)


@RELAXED
@given(JSONISH)
def test_junk_raises_only_hand_error(junk: Any) -> None:
    try:
        settle_table(junk)
    except HandError:
        pass
