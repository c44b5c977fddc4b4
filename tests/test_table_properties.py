"""Table-level properties for all five rule sets.

Random tables that are valid by construction — a winning hand built from random sets and a pair
out of the rule set's own tiles, the other hands dealt from what is left of the wall, wildcards
as the rule set reveals them, self-draws, discards, drawn deals, `{"total": N}` seats where the
rule set takes them, and the side events each rule set accepts — must settle so that:
- the nets sum to 0;
- the payments add up to the nets (for each seat, received − paid == net);
- each hand scored alone, with the table's wild/flip/seat written into it, is its line in `scores`;
and a valid table broken in one place is refused with one HandError whose message starts with the
field at fault.

The events generated are the ones each rule set accepts today; FOUL_RULES is where `foul` can be
widened to every rule set once the 2026-11-30 ruling on it is merged.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from taihu.scorer import HandError, HandScore, PlayerTotal, Settlement, score_hand, settle_table

SETTINGS = settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
SEATS = ("E", "S", "W", "N")
# riichi is left out: its nets sum to 1000 × (pot_before − pot_after), not 0, and its seats take
# {"tenpai": …}; tests/test_riichi_settlement.py holds its own property test (the pot invariant).
RULES = ("lingxi", "luoshan", "putian", "jinhua", "guannan")

# `foul` is accepted by every rule set (ruling of 2026-11-30).
FOUL_RULES: tuple[str, ...] = RULES
# The rule sets with a false-win (诈胡) penalty that ends the deal.
FALSE_WIN_RULES = ("lingxi", "putian")
# Where a non-winner may be given as {"total": N} with N > 0 (Lingxi: tai; Putian: the loser's 分);
# elsewhere non-winners count nothing and only {"total": 0} is accepted.
TOTAL_RULES = {"lingxi": 40, "putian": 10, "luoshan": 0, "jinhua": 0, "guannan": 0}
# Where the winner too may be given as {"total": N} (Lingxi: its tai; Jinhua: its multiplier):
# the others settle the win from the hand itself.
WINNER_TOTAL = {"lingxi": 60, "jinhua": 16}

SUITED = [f"{n}{s}" for s in "mps" for n in range(1, 10)]
WINDS = ["E", "S", "W", "N"]
FLOWERS = [f"f{n}" for n in range(1, 9)]


@dataclass(frozen=True)
class Shape:
    """What a rule set deals: copies of each tile, the kinds that form sets, the hand size, the extras."""

    wall: dict[str, int]
    set_kinds: list[str]  # kinds a generated set or pair is made of
    sets: int  # sets in a winning hand (plus one pair)
    extras: list[str] = field(default_factory=list)  # set aside and not counted (flowers, Lingxi/Putian 白)


SHAPES = {
    "lingxi": Shape(
        wall={**dict.fromkeys([*SUITED, *WINDS, "C", "F", "P"], 4), **dict.fromkeys(FLOWERS, 1)},
        set_kinds=[*SUITED, *WINDS, "C", "F"],
        sets=5,
        extras=[*FLOWERS, "P"],
    ),
    "luoshan": Shape(
        wall=dict.fromkeys([*SUITED, *WINDS, "C", "F", "P"], 4), set_kinds=[*SUITED, *WINDS, "C", "F", "P"], sets=4
    ),
    "jinhua": Shape(
        wall=dict.fromkeys([*SUITED, *WINDS, "C", "F", "P"], 4), set_kinds=[*SUITED, *WINDS, "C", "F"], sets=4
    ),
    "putian": Shape(wall=dict.fromkeys([*SUITED, "P"], 4), set_kinds=SUITED, sets=5, extras=["P"]),
    "guannan": Shape(wall={**dict.fromkeys(SUITED, 4), **dict.fromkeys(WINDS, 1)}, set_kinds=SUITED, sets=4),
}


def next_kind(tile: str) -> str:
    """Luoshan's flip: the wildcard is the kind after the indicator (rules/luoshan.md "Wildcards")."""
    for cycle in (WINDS, ["C", "F", "P"]):
        if tile in cycle:
            return cycle[(cycle.index(tile) + 1) % len(cycle)]
    return f"{int(tile[0]) % 9 + 1}{tile[1]}"


@dataclass
class Deal:
    """A table under construction, with what is left of the wall."""

    rules: str
    wall: Counter[str]
    wild: list[str]  # the wildcard kinds (for Luoshan: the kind after the flip)
    table: dict[str, Any]

    def take(self, tiles: list[str]) -> None:
        need = Counter(tiles)
        assert all(self.wall[t] >= n for t, n in need.items()), (tiles, "the generator took a tile the wall lacks")
        self.wall -= need


def conditions(deal: Deal, seat: str) -> str:
    """The table's wild/flip and the seat, written into a hand as score_hand takes them."""
    table = deal.table
    parts = [f"seat:{seat}"]
    if table.get("wild"):
        parts.append("wild:" + ",".join(table["wild"]))
    if table.get("flip"):
        parts.append(f"flip:{table['flip']}")
    return " ".join(parts)


@st.composite
def new_deal(draw: st.DrawFn, rules: str) -> Deal:
    shape = SHAPES[rules]
    wall = Counter(shape.wall)
    table: dict[str, Any] = {"rules": rules, "players": {}, "events": []}
    wild: list[str] = []
    if rules == "lingxi":  # two revealed tiles; a revealed tile is out of play
        wild = draw(st.lists(st.sampled_from(shape.set_kinds), min_size=2, max_size=2))
        table["wild"] = wild
        wall -= Counter(wild)
    elif rules in ("jinhua", "putian"):  # one flipped tile; its other three copies are wild
        wild = [draw(st.sampled_from([*shape.set_kinds, "P"]))]
        table["wild"] = wild
        wall -= Counter(wild)
    elif rules == "luoshan":  # the flip names the kind after it; all four copies stay in play
        flip = draw(st.sampled_from(sorted(shape.wall)))
        table["flip"] = flip
        wild = [next_kind(flip)]
    return Deal(rules, wall, wild, table)


def write_set(kind: str, tiles: list[str], exposed: bool) -> str:
    if not exposed and len(tiles) < 4:
        return " ".join(tiles)
    body = "".join(t[0] for t in tiles) + tiles[0][1] if kind in SUITED else "".join(tiles)
    return f"[{body}]" if exposed else f"({body})"


def possible_sets(deal: Deal, style: str) -> list[list[str]]:
    """Every set the wall can still give: chows, pungs and (of a kind that is not wild) kongs.

    `style` biases the draw: "chows" gives only chows; "heavy" only pungs and kongs (Luoshan's hu
    come from them, and a Luoshan win must reach its minimum).
    """
    kinds = SHAPES[deal.rules].set_kinds
    chows = [[f"{n + i}{suit}" for i in range(3)] for suit in "mps" for n in range(1, 8) if f"{n}{suit}" in kinds]
    pungs = [[k] * 3 for k in kinds]
    kongs = [[k] * 4 for k in kinds if k not in deal.wild]
    pool = {"chows": chows, "heavy": pungs + kongs, "any": chows + chows + pungs + kongs}[style]
    return [tiles for tiles in pool if all(deal.wall[t] >= tiles.count(t) for t in tiles)]


@st.composite
def winning_hand(draw: st.DrawFn, deal: Deal) -> tuple[str, int, bool] | None:
    """A winning hand from the wall (sets + pair, one tile of them the winning `+X`).

    Also gives the number of exposed melds (Jinhua 承包 needs three) and whether the hand is Lingxi's
    四风齐 on three exposed wind pungs (包赔). None when the wall has no set or pair left to give.
    """
    shape = SHAPES[deal.rules]
    style = draw(st.sampled_from(("chows", "heavy", "heavy"))) if deal.rules == "luoshan" else "any"
    four_winds = deal.rules == "lingxi" and not set(WINDS) & set(deal.wild) and draw(st.integers(0, 3)) == 0
    openness = draw(st.integers(0, 2))  # none exposed, some, or every set that can be (承包 needs three)
    parts: list[str] = []
    concealed: list[str] = []
    exposed_count = 0
    for i in range(shape.sets):
        if four_winds and i < 4:
            tiles = [WINDS[i]] * 3
            exposed = i < 3 or draw(st.booleans())
        else:
            choices = possible_sets(deal, style)
            if not choices:
                return None
            tiles = draw(st.sampled_from(choices))
            exposed = not set(tiles) & set(deal.wild) and (openness == 2 or openness == 1 and draw(st.booleans()))
        deal.take(tiles)
        if exposed or len(tiles) == 4:
            parts.append(write_set(tiles[0], tiles, exposed))
            exposed_count += exposed
        else:
            concealed += tiles
    pairs = [k for k in shape.set_kinds if deal.wall[k] >= 2]
    if not pairs:
        return None
    pair = draw(st.sampled_from(pairs))
    deal.take([pair, pair])
    concealed += [pair, pair]
    won = concealed.pop(draw(st.integers(0, len(concealed) - 1)))
    extras = [t for t in shape.extras if deal.wall[t] and t not in deal.wild]
    flowers = draw(st.lists(st.sampled_from(extras), max_size=3, unique=True)) if extras else []
    deal.take(flowers)
    tiles = draw(st.permutations(concealed + flowers))
    return " ".join([*parts, *tiles, f"+{won}"]), exposed_count, four_winds


@st.composite
def other_hand(draw: st.DrawFn, deal: Deal) -> str | None:
    """A non-winning hand: the hand size in random tiles from what is left of the wall."""
    shape = SHAPES[deal.rules]
    counted = sorted(t for t in deal.wall.elements() if t not in shape.extras or t in deal.wild)
    size = 3 * shape.sets + 1
    if len(counted) < size:
        return None
    tiles = draw(st.lists(st.integers(0, len(counted) - 1), min_size=size, max_size=size, unique=True))
    hand = [counted[i] for i in tiles]
    deal.take(hand)
    return " ".join(hand)


@dataclass
class Case:
    table: dict[str, Any]
    alone: dict[str, str]  # seat -> the hand with the table's conditions, as score_hand takes it
    zeroed: set[str]  # seats the settlement counts 0 (a foul, a drawn Lingxi deal, ...)
    spare: list[str]  # counted tiles still in the wall: one more of these breaks only a hand's size


@st.composite
def valid_tables(draw: st.DrawFn, rules: str, kind: str) -> Case:
    """A valid table of one kind of deal: "discard", "self" (self-drawn), "drawn" or "false-win"."""
    for _ in range(8):  # a Luoshan hand may fall under its minimum, a shape be refused: deal again
        case = draw(one_table(rules, kind))
        if case is not None:
            return case
    assume(False)
    raise AssertionError  # pragma: no cover


@st.composite
def one_table(draw: st.DrawFn, rules: str, kind: str) -> Case | None:
    deal = draw(new_deal(rules))
    table = deal.table
    winner = draw(st.sampled_from(SEATS)) if kind in ("discard", "self") else None
    table["winner"] = winner
    table["discarder"] = None
    alone: dict[str, str] = {}
    exposed, four_winds = 0, False
    if winner is not None:
        built = draw(winning_hand(deal))
        if built is None:
            return None
        hand, exposed, four_winds = built
        if kind == "self":
            hand += " self"
        else:
            table["discarder"] = draw(st.sampled_from([s for s in SEATS if s != winner]))
        try:
            scored = score_hand(f"{hand} {conditions(deal, winner)}", rules=rules)
        except HandError:
            return None  # a shape the rule set does not take (e.g. a wind that cannot pair in Guannan)
        if not scored.legal:
            return None  # Luoshan minimums, Putian 打金: a table with this winner is refused
        table["players"][winner] = hand
        if rules in WINNER_TOTAL and draw(st.integers(0, 4)) == 0:
            # only the count is known; the events that rest on the hand's melds need the hand itself
            table["players"][winner] = {"total": draw(st.integers(1, WINNER_TOTAL[rules]))}
            exposed, four_winds = 0, False
    others = [s for s in SEATS if s != winner]
    for seat in others:
        if draw(st.integers(0, 3)) == 0:
            table["players"][seat] = {"total": draw(st.integers(0, TOTAL_RULES[rules]))}
            continue
        hand = draw(other_hand(deal))
        if hand is None:
            return None
        table["players"][seat] = hand
    table["players"] = {s: table["players"][s] for s in SEATS}
    for seat, player in table["players"].items():
        if isinstance(player, str):
            alone[seat] = f"{player} {conditions(deal, seat)}"
    zeroed: set[str] = set()
    events = table["events"]
    if kind == "false-win":
        events.append({"type": "false-win", "seat": draw(st.sampled_from(SEATS))})
    if rules in FOUL_RULES and winner is not None:
        for seat in draw(st.lists(st.sampled_from(others), unique=True, max_size=2)):
            events.append({"type": "foul", "seat": seat})
            zeroed.add(seat)
    if rules == "lingxi" and winner is not None and four_winds and draw(st.integers(0, 2)):
        events.append({"type": "liable", "seat": draw(st.sampled_from(others))})  # 包赔: fed the fourth wind
    if rules == "jinhua" and winner is not None and exposed >= 3 and draw(st.booleans()):
        events.append({"type": "liable", "seat": draw(st.sampled_from(others))})  # 承包: three claims or more
    if rules == "putian":
        if draw(st.booleans()):
            events.append({"type": "gen-da", "seat": "E"})
        if winner is not None and draw(st.booleans()):
            seat = draw(st.sampled_from(others))
            events.append({"type": "xiao-xiang-gong", "seat": seat})
            zeroed.add(seat)
    if rules == "lingxi" and kind == "drawn":
        zeroed.update(SEATS)  # a drawn hand: everyone counts 0 (a false win settles only its penalty)
    spare = sorted(t for t in deal.wall if deal.wall[t] and t not in SHAPES[rules].extras and t not in deal.wild)
    return Case(table, alone, zeroed, spare)


def check_sums(result: Settlement) -> None:
    assert set(result.net) == set(SEATS)
    assert sum(result.net.values()) == 0
    balance = dict.fromkeys(SEATS, 0)
    for payment in result.payments:
        assert payment.amount > 0 and payment.from_ != payment.to, payment
        balance[payment.to] += payment.amount
        balance[payment.from_] -= payment.amount
    assert balance == result.net, (balance, result.net)


def without(data: dict[str, Any], keys: set[str]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in keys}


def check_lines(case: Case, result: Settlement) -> None:
    """Each hand scored alone is its line in `scores`; a zeroed seat keeps everything but its count."""
    for seat, player in case.table["players"].items():
        line = result.scores[seat]
        if isinstance(player, dict):
            assert isinstance(line, PlayerTotal)
            assert line.total == (0 if seat in case.zeroed else player["total"])
            continue
        assert isinstance(line, HandScore)
        alone = score_hand(case.alone[seat], rules=case.table["rules"])
        if seat in case.zeroed:
            assert line.total == 0
            skip = {"total", "notes"}
            assert without(line.to_dict(), skip) == without(alone.to_dict(), skip), seat
        else:
            # scored alone, a non-winner also says how to mark a winning tile; at the table the winner is named
            expected = alone.to_dict()
            marks = [n for n in alone.notes if getattr(n, "code", "") == "note.no_winning_tile"]
            expected["notes"] = [n for n in expected["notes"] if n not in marks]
            assert line.to_dict() == expected, (seat, case.alone[seat])


KINDS = [
    pytest.param(rules, kind, id=f"{rules}-{kind}")
    for rules in RULES
    for kind in ("discard", "self", "drawn", "false-win")
    if kind != "false-win" or rules in FALSE_WIN_RULES
]


@pytest.mark.parametrize(("rules", "kind"), KINDS)
@SETTINGS
@given(data=st.data())
def test_valid_tables_are_zero_sum_and_agree_with_each_hand_alone(rules: str, kind: str, data: st.DataObject) -> None:
    case = data.draw(valid_tables(rules, kind))
    result = settle_table(json.loads(json.dumps(case.table)))
    table = case.table
    event("events: " + ",".join(sorted({e["type"] for e in table["events"]})))
    event(f"{sum(isinstance(p, dict) for p in table['players'].values())} total-only seats")
    check_sums(result)
    check_lines(case, result)


# -- one thing broken: one HandError that names the field -------------------------------------


def hand_seats(table: dict[str, Any]) -> list[str]:
    return [s for s, p in table["players"].items() if isinstance(p, str)]


def break_table(draw: st.DrawFn, case: Case) -> tuple[dict[str, Any], str]:
    """The table with one fault, and the field its error must start with."""
    table = json.loads(json.dumps(case.table))
    winner = table["winner"]
    faults = ["unknown-event", "unknown-option", "unknown-seat-event"]
    if hand_seats(table) and case.spare:
        faults.append("tile-too-many")
    if winner is not None:
        faults.append("discarder-is-winner")
        if isinstance(table["players"][winner], str):
            faults.append("winner-moved")  # the winning hand stays where it is: that seat is at fault
        if table["rules"] in FOUL_RULES:
            faults.append("foul-on-winner")
    fault = draw(st.sampled_from(faults))
    if fault == "tile-too-many":
        seat = draw(st.sampled_from(hand_seats(table)))
        table["players"][seat] = draw(st.sampled_from(case.spare)) + " " + table["players"][seat]
        return table, f"players.{seat}"
    if fault == "unknown-event":
        table["events"].append({"type": "bogus-event", "seat": "S"})
        return table, f"events[{len(table['events']) - 1}]"
    if fault == "unknown-option":
        table["options"] = {"no_such_option": 1}
        return table, "options"
    if fault == "unknown-seat-event":
        table["events"].append({"type": "foul", "seat": "X"})
        return table, f"events[{len(table['events']) - 1}].seat"
    if fault == "foul-on-winner":
        table["events"].append({"type": "foul", "seat": winner})
        return table, f"events[{len(table['events']) - 1}]"
    if fault == "discarder-is-winner":
        table["discarder"] = winner
        return table, "discarder"
    # the winner named at a seat whose hand has no winning tile: the winning hand's seat is at fault
    table["winner"] = draw(st.sampled_from([s for s in SEATS if s != winner]))
    table["discarder"] = None
    table["events"] = []
    return table, "players."


@pytest.mark.parametrize(("rules", "kind"), KINDS)
@settings(SETTINGS, max_examples=10)
@given(data=st.data())
def test_a_broken_table_gets_one_error_naming_the_field(rules: str, kind: str, data: st.DataObject) -> None:
    case = data.draw(valid_tables(rules, kind))
    table, where = break_table(data.draw, case)
    with pytest.raises(HandError) as info:
        settle_table(table)
    message = str(info.value)
    assert message.startswith(where), (where, message, table)
