"""`Item.gate` only saves work: a reading without a fact an item's gate names never scores that item.

The scoring loop skips a finder when the reading has none of the facts its
gate names (`ReadingFacts.present`), so a gate that is too narrow would
silently drop points. Here every
gated item is run on every reading of random winning hands (melds, kongs,
wildcards, seats, self-drawn or not) and of the worked examples, and must
find nothing wherever its gate is shut.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from mcr_hands import random_hand

from taihu.scorer import HandError, parse
from taihu.scorer import tiles as T
from taihu.scorer.engine import GATE_FACTS, ReadingFacts
from taihu.scorer.rulesets import RULESETS
from taihu.scorer.rulesets.luoshan import LUOSHAN

ROOT = Path(__file__).resolve().parent.parent
GATED = {name: [i for i in rs.items if i.gate] for name, rs in RULESETS.items()}


def shut_gates_finding_something(rules: str, line: str) -> list[str]:
    """The items that find something on a reading whose facts their gate shuts out."""
    ruleset = RULESETS[rules]
    hand = ruleset.prepare(parse(line), {})
    wrong = []
    for reading in ruleset.readings(hand):
        facts = ruleset.facts_of(reading)
        for item in GATED[rules]:
            if facts.present.isdisjoint(item.gate) and list(item.find(hand, facts)):
                wrong.append(f"{item.key} on {line}")
    return wrong


def test_luoshan_and_mcr_gate_their_reading_items() -> None:
    """Luoshan and MCR are the rule sets with gates; the others score every item on every reading."""
    assert len(GATED["luoshan"]) == 15
    assert len(GATED["mcr"]) == 25
    assert not any(GATED[name] for name in RULESETS if name not in ("luoshan", "mcr"))
    assert {i.key for i in LUOSHAN.items if not i.gate} == {"di_he", "gang_kai"}


def _example_lines(rules: str) -> list[str]:
    text = (ROOT / "examples/hands" / f"{rules}.txt").read_text(encoding="utf-8")
    return [line.split("#")[0].strip() for line in text.splitlines() if line.split("#")[0].strip()]


@pytest.mark.parametrize(
    ("rules", "line"), [(rules, line) for rules in ("luoshan", "mcr") for line in _example_lines(rules) if "+" in line]
)
def test_examples_open_every_gate_they_need(rules: str, line: str) -> None:
    assert shut_gates_finding_something(rules, line) == []


def test_no_mcr_item_scores_behind_a_shut_gate() -> None:
    """MCR's random legal hands of the differential test: melds, kongs, the special shapes, every condition."""
    rng = random.Random(20261207)
    assert [wrong for _ in range(300) for wrong in shut_gates_finding_something("mcr", random_hand(rng))] == []


SUITED_STARTS = [s * 9 + r for s in range(3) for r in range(7)]


@st.composite
def luoshan_wins(draw: st.DrawFn) -> str:
    """A 14-tile Luoshan win: four sets (some laid down, kongs as melds) and a pair, a winning tile,
    a wildcard kind (often one the hand holds), a seat, self-drawn or not."""
    concealed: list[int] = []
    melds: list[str] = []
    used = [0] * T.PLAYABLE
    for _ in range(4):
        shape = draw(st.sampled_from(["pung", "chow", "kong"]))
        if shape == "chow":
            start = draw(st.sampled_from(SUITED_STARTS))
            kinds = [start, start + 1, start + 2]
        else:
            kinds = [draw(st.integers(0, T.PLAYABLE - 1))] * (4 if shape == "kong" else 3)
        for k in kinds:
            used[k] += 1
        text = T.group_text(tuple(kinds))
        if shape == "kong":
            melds.append(f"[{text}]" if draw(st.booleans()) else f"({text})")
        elif draw(st.integers(0, 3)) == 0:
            melds.append(f"[{text}]")
        else:
            concealed += kinds
    pair = draw(st.integers(0, T.PLAYABLE - 1))
    used[pair] += 2
    concealed += [pair, pair]
    assume(max(used) <= 4)
    win = concealed.pop(draw(st.integers(0, len(concealed) - 1)))
    wild = draw(st.sampled_from([*concealed, win, *range(T.PLAYABLE)]))
    seat = draw(st.sampled_from(["E", "S", "W", "N"]))
    how = draw(st.sampled_from(["", " self", " rob-kong"]))
    tiles = " ".join(T.name(k) for k in concealed)
    return f"{tiles} {' '.join(melds)} +{T.name(win)} wild:{T.name(wild)} seat:{seat}{how}"


@settings(
    max_examples=300, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(luoshan_wins())
def test_no_luoshan_item_scores_behind_a_shut_gate(line: str) -> None:
    try:
        wrong = shut_gates_finding_something("luoshan", line)
    except HandError:
        assume(False)  # a wildcard in a meld, say: no readings to check
        return
    assert wrong == []


def test_a_wrong_gate_is_caught() -> None:
    """The check above can fail: a pung's hu gated on chows would be lost on a pung hand."""
    peng = next(i for i in LUOSHAN.items if i.key == "peng")
    wrong = replace(peng, gate=("four_chows",))  # a fact a pung hand never has
    GATED["luoshan"].append(wrong)
    try:
        assert shut_gates_finding_something("luoshan", "[999m] 123p 456p 789p 1s +1s wild:E") == [
            "peng on [999m] 123p 456p 789p 1s +1s wild:E"
        ]
    finally:
        GATED["luoshan"].remove(wrong)


def test_every_gate_names_facts_a_reading_can_have() -> None:
    """A misspelt gate fact would shut the gate on every reading: an item naming one is not made."""
    for present in (ReadingFacts(g.groups, g.win_at, g.win_as).present for g in _luoshan_readings()):
        assert present <= GATE_FACTS
    peng = next(i for i in LUOSHAN.items if i.key == "peng")
    with pytest.raises(ValueError, match="pung"):
        replace(peng, gate=("pung",))


def _luoshan_readings() -> list[ReadingFacts]:
    hand = LUOSHAN.prepare(parse("[999m] 123p 456p 789p 1s +1s wild:E"), {})
    return list(LUOSHAN.readings(hand))
