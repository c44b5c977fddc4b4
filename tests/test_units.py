"""Units that add up: each item's `unit` from its kind, and each rule set's arithmetic.

The hands are the worked examples of the rules pages (docs/rules/*.md); the
arithmetic lines are asserted exactly, so a player can check the total by
hand from what `taihu score` prints under its table.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from api_app import app as api
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from registry_examples import example_hands
from settle_helpers import API_TABLE
from typer.testing import CliRunner

from taihu.cli.main import app as taihu_app
from taihu.messages import known
from taihu.scorer import HandError, HandScore, score_hand, settle_table
from taihu.scorer.arithmetic_lines import arithmetic
from taihu.scorer.rulesets import REGISTRY, RULESETS
from taihu.scorer.rulesets.interface import WINNER_ONLY, Item, flag_item

ROOT = Path(__file__).resolve().parent.parent
DESK = {"COLUMNS": "100", "LINES": "50", "TERM": "xterm", "NO_COLOR": "1", "FORCE_COLOR": None}
PHONE = {**DESK, "COLUMNS": "40"}


def example_scores() -> list[HandScore]:
    """Every example hand of every registered rule set that scores."""
    scores = []
    for rules, hand in example_hands():
        try:
            scores.append(score_hand(hand, rules=rules))
        except HandError:
            continue
    return scores


EXAMPLES = example_scores()


def test_each_rule_sets_kinds_count_in_units_the_answers_name() -> None:
    """Each kind of a rule set's items counts in a unit the message catalog names (`unit.NAME`), or
    multiplies (`multiplier`): its kinds declare their units, so a new rule set brings its own."""
    for name in REGISTRY:
        units = RULESETS[name].item_units()
        assert units, name
        for kind, unit in units.items():
            assert unit == "multiplier" or known(f"unit.{unit}"), (name, kind, unit)


def test_every_example_item_has_the_unit_its_kind_gives() -> None:
    assert {s.rules for s in EXAMPLES} == set(REGISTRY)  # every rule set has an example that scores
    for score in EXAMPLES:
        rule_set = RULESETS[score.rules]
        kinds = {item.key: item.kind for item in rule_set.items}
        units = rule_set.item_units()
        for item in score.items:
            if item.key in kinds:
                assert item.unit == kinds[item.key].unit, (score.hand, item)
            else:  # a rule set whose lines are no `Item`s (riichi's yaku) counts them all in its one unit
                assert [item.unit] == list(units.values()), (score.hand, item)


def test_an_item_of_a_kind_without_a_unit_is_refused_when_declared() -> None:
    with pytest.raises(ValueError, match="kind 'bonus' is no Kind"):
        Item("zi_mo", "自摸", "Self-drawn", 1, "bonus", WINNER_ONLY, flag_item("self"))


# (rules, hand, options, the arithmetic lines): the rules pages' worked examples
ARITHMETIC = [
    (
        "lingxi",  # lingxi.md example 1: 28 ≥ 13 → 56
        "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S",
        {},
        ["3 + 3 + 8 + 7 + 7 = 28 tai", "doubled (≥ double_at): 28 × 2 = 56 tai"],
    ),
    (
        "lingxi",  # lingxi.md example 3: a non-winner never doubles
        "3p3p 123m 456m 78m 11s 45s 99p f5f6f7f8 P wild:3p,W seat:N",
        {},
        ["10 + 1 + 5 = 16 tai", "not doubled (a non-winner): 16 tai"],
    ),
    (
        "lingxi",  # a winner under double_at
        "CC 5m (FFFF) 123p 456p 12s 99s +3s self wild:5m,E seat:W",
        {},
        ["1 + 5 + 2 + 1 = 9 tai", "not doubled (under double_at): 9 tai"],
    ),
    (
        "luoshan",  # luoshan.md example 1: 62 × 2³ = 496 → 500
        "[EEE] (CCCC) [999m] 11p FF +1p self flip:5s seat:E",
        {},
        ["hu: 4 + 4 + 32 + 2 + 10 + 10 = 62", "tai: 1 + 1 + 1 = 3", "62 hu × 2³ = 496 → 500 hu"],
    ),
    (
        "luoshan",  # luoshan.md example 2: 20 × 2 = 40, not legal (the note says why)
        "[CCC] 55m 789s 345m 99s +5m self flip:1p seat:S",
        {},
        ["hu: 4 + 6 + 10 = 20", "tai: 1", "20 hu × 2¹ = 40 hu"],
    ),
    ("luoshan", "123m 456m 789p 23s 55p +4s flip:9p seat:W", {}, ["special hand: a fixed total, 30 hu"]),
    (
        "putian",  # 三金倒: 底分 4 × 9
        "123m 456m 789p 234s 9s9s9s 5p +5p wild:9s seat:W",
        {},
        ["底分: 1 + 3 = 4 fen", "winning type ×9: the winner gets 4 × 9 = 36; each other pays 4 × 3 = 12"],
    ),
    (
        "putian",  # 平胡 on a discard: the discarder pays the 底分 once
        "123m 456m 789p 234s 567s 9s P P +5p wild:9s seat:S",
        {},
        ["底分: 1 + 2 + 1 = 4 fen", "winning type ×1: the winner gets 4 × 1 = 4; the discarder pays 4 × 1 = 4"],
    ),
    (
        "putian",  # 搶槓胡: the robbed kong's player pays it all
        "123m 456m 789p 234s 567s 9s P P +5p rob-kong wild:9s seat:S",
        {},
        ["底分: 1 + 2 + 1 = 4 fen", "winning type ×6: the winner gets 4 × 6 = 24; the kong player pays 4 × 6 = 24"],
    ),
    ("jinhua", "1122m 3344p 5566s 7s +7s last-tile wild:9m", {}, ["1 × 4 × 2 = 8 bei"]),  # 海捞清七对 = 8
    # non-winners: only Lingxi and Putian count a loser's hand
    ("luoshan", "123m 456m 789p 23s 55p flip:9p", {}, ["non-winner: 0 hu"]),
    ("jinhua", "123m 456p 789s 234s 5s wild:9m", {}, ["non-winner: 0 bei"]),
    ("guannan", "123m 456p 789s 234m 5s", {}, ["non-winner: 0 points"]),
    ("riichi", "234567m 234p 88p 67s", {}, ["non-winner: 0 points"]),
    ("guannan", "1133557799m 11p 2s +2s", {}, ["one hand type counts, the highest: 2 points"]),
    (
        "riichi",  # riichi.md example 1: haneman, non-dealer self-drawn, one stick
        "234567m 234p 88p 67s +8s seat:S round:E self riichi dora:1p ura:7s sticks:1",
        {},
        [
            "han: 1 + 1 + 1 + 1 + 1 + 1 = 6",
            "fu: 20",
            "basic points: 6 han, haneman 3000",
            "the dealer pays 2 × 3000 = 6000",
            "each non-dealer pays 1 × 3000 = 3000",
            "total: 6000 + 2 × 3000 = 12000 + 1000 sticks = 13000 points",
        ],
    ),
    (
        "riichi",  # riichi.md example 4: 30 × 2^6 × 6 = 11520 → 11600
        "223344m 567p 34s 66s +5s seat:E round:E riichi dora:9p ura:9p",
        {},
        [
            "han: 1 + 1 + 1 + 1 = 4",
            "fu: 20 + 10 = 30",
            "basic points: 30 fu × 2^(4 + 2) = 1920",
            "the discarder pays 6 × 1920 = 11520 → 11600",
            "total: 11600 points",
        ],
    ),
    (
        "riichi",  # the same with kiriage: 4 han 30 fu is mangan
        "223344m 567p 34s 66s +5s seat:E round:E riichi dora:9p ura:9p",
        {"kiriage": 1},
        [
            "han: 1 + 1 + 1 + 1 = 4",
            "fu: 20 + 10 = 30",
            "basic points: 30 fu × 2^(4 + 2) = 1920, kiriage: mangan 2000",
            "the discarder pays 6 × 2000 = 12000",
            "total: 12000 points",
        ],
    ),
    (
        "riichi",  # riichi.md example 5: 42 → 50 fu
        "234m 999p 345s 78s EE +6s seat:E round:E riichi dora:9s ura:9s",
        {},
        [
            "han: 1",
            "fu: 20 + 10 + 4 + 8 = 42 → 50",
            "basic points: 50 fu × 2^(1 + 2) = 400",
            "the discarder pays 6 × 400 = 2400",
            "total: 2400 points",
        ],
    ),
    (
        "riichi",  # riichi.md example 6: honba and sticks
        "345m 789p 234s 66s 45p +6p seat:N round:S riichi ippatsu dora:3m ura:5s honba:2 sticks:3",
        {},
        [
            "han: 1 + 1 + 1 + 1 + 2 = 6",
            "fu: 20 + 10 = 30",
            "basic points: 6 han, haneman 3000",
            "the discarder pays 4 × 3000 = 12000 + 600 honba = 12600",
            "total: 12600 + 3000 sticks = 15600 points",
        ],
    ),
    ("riichi", "[234m] 567m 44p 678s 33s +3s seat:W round:E", {}, ["no yaku: 0 points"]),  # riichi.md example 2
]


@pytest.mark.parametrize(
    ("rules", "hand", "options", "lines"), ARITHMETIC, ids=[f"{r}: {h}" for r, h, _, _ in ARITHMETIC]
)
def test_the_arithmetic_of_the_rules_pages_worked_examples(
    rules: str, hand: str, options: dict[str, int], lines: list[str]
) -> None:
    assert arithmetic(score_hand(hand, rules=rules, options=options)) == lines


def table_scores() -> list[HandScore]:
    """Every hand scored at the example tables of examples/tables/, those a table counts 0 included."""
    tables = sorted((ROOT / "examples" / "tables").glob("*.json"))
    settled = [settle_table(json.loads(path.read_text(encoding="utf-8"))) for path in tables]
    return [score for s in settled for score in s.scores.values() if isinstance(score, HandScore)]


def test_the_arithmetic_of_every_example_hand_and_table_reaches_its_total() -> None:
    scores = EXAMPLES + table_scores()
    assert any(s.total == 0 and s.subtotal > 0 for s in scores)  # a hand a table counts 0 is among them
    for score in scores:
        lines = arithmetic(score)
        reached = re.compile(rf"(?:^|[=→:,] ){score.total} {score.unit}$", re.MULTILINE)
        assert reached.search("\n".join(lines)), (score.hand, score.total, lines)


# The example hands varied the ways that change the arithmetic: how it was won, the seat, the house options
VARIANTS = st.sampled_from(["", "self", "seat:E", "seat:S", "seat:N", "last-tile", "kong-draw"])
HANDS = [(s.rules, s.hand) for s in EXAMPLES]


def house_options(rules: str) -> st.SearchStrategy[dict[str, int]]:
    """The rule set's own house options, each at its default or a value its seed names (riichi's limits)."""
    options = RULESETS[rules].options
    return st.fixed_dictionaries({o.name: st.sampled_from((o.default, *o.seed_alternatives)) for o in options})


@settings(max_examples=60, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(HANDS), VARIANTS, st.data())
def test_the_arithmetic_of_a_varied_example_reaches_its_total(
    example: tuple[str, str], variant: str, data: st.DataObject
) -> None:
    rules, hand = example
    options = data.draw(house_options(rules))
    try:
        score = score_hand(f"{hand} {variant}", rules=rules, options=options)
    except HandError:  # a variant this hand or rule set refuses (a second seat:, kong-draw without a kong)
        return
    reached = re.compile(rf"(?:^|[=→:,] ){score.total} {score.unit}$", re.MULTILINE)
    assert reached.search("\n".join(arithmetic(score))), (score.hand, score.total, arithmetic(score))


def test_the_openapi_document_describes_the_item_unit() -> None:
    schemas = TestClient(api).get("/openapi.json").json()["components"]["schemas"]
    assert schemas["ScoreItem"]["properties"]["unit"]["type"] == "string"  # each rule set's kinds bring theirs
    assert "unit" in schemas["ScoreItem"]["required"]


def test_a_hand_a_table_counts_0_says_so_and_why() -> None:
    drawn = json.loads((ROOT / "examples" / "tables" / "drawn.json").read_text(encoding="utf-8"))
    east = settle_table(drawn).scores["E"]
    assert isinstance(east, HandScore) and east.total == 0
    assert arithmetic(east) == [
        "1 + 1 = 2 tai",
        "not doubled (a non-winner): 2 tai",
        "counted 0 at this table (drawn hand (流局): everyone counts 0): 0 tai",
    ]


def taihu(args: list[str], env: dict[str, str | None]) -> str:
    result = CliRunner().invoke(taihu_app, args, env=env)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("env", [DESK, PHONE], ids=["desk", "phone"])
def test_the_score_table_shows_each_rows_unit_and_the_arithmetic_under_it(env: dict[str, str | None]) -> None:
    hand = "[EEE] (CCCC) [999m] 11p FF +1p self flip:5s seat:E"
    output = taihu(["score", hand, "-r", "luoshan"], env)
    assert "32 hu" in output and "1 tai" in output
    lines = [line.strip() for line in output.splitlines()]
    steps = ["hu: 4 + 4 + 32 + 2 + 10 + 10 = 62", "tai: 1 + 1 + 1 = 3", "62 hu × 2³ = 496 → 500 hu"]
    at = lines.index(steps[0])
    assert lines[at : at + 3] == steps
    assert lines[at + 3].startswith("arrangement:")  # under the table, before what follows it


def test_a_multiplier_row_shows_a_times_sign() -> None:
    output = taihu(["score", "123m 456m 789p 234s 9s9s9s 5p +5p wild:9s seat:W", "-r", "putian"], DESK)
    assert "×9" in output and "3 fen" in output and "1 fen" in output


def test_the_json_of_score_settle_and_the_api_carries_each_items_unit() -> None:
    client = TestClient(api)
    scored = client.post("/score", json={"rules": "luoshan", "hand": "[EEE] (CCCC) [999m] 11p FF +1p self flip:5s"})
    assert [i["unit"] for i in scored.json()["items"]] == ["hu"] * 6 + ["tai"] * 3
    settled = client.post("/settle", json=API_TABLE).json()
    assert {i["unit"] for s in settled["scores"].values() for i in s.get("items", [])} == {"tai"}
    assert settled["scores"] == settle_table(API_TABLE).to_dict()["scores"]


def test_riichis_compact_subtotal_is_counted_in_han() -> None:
    output = taihu(["score", "223344m 567p 34s 66s +5s seat:E round:E riichi dora:9p ura:9p", "-r", "riichi"], PHONE)
    assert "subtotal (han)" in output and "total (points)" in output and "1 han" in output
