"""The settlement and condition rulings of 2026-11-30.

Each ruling is checked both ways: the table or hand it allows settles, and
the one it forbids is refused with a message naming the field or seat, the
problem and the fix. The tables start from the example tables, whose nets
the README documents.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from settle_helpers import error, paid

from taihu.scorer import HandError, score_hand, settle_table

TABLES = Path(__file__).parent.parent / "examples" / "tables"
SEATS = ("E", "S", "W", "N")


def example(name: str, **changes: Any) -> dict[str, Any]:
    """An example table with some fields changed; `players` updates seats rather than replacing them."""
    data: dict[str, Any] = json.loads((TABLES / f"{name}.json").read_text(encoding="utf-8"))
    data["players"].update(changes.pop("players", {}))
    data.update(changes)
    return data


def hand_error(hand: str, rules: str) -> str:
    with pytest.raises(HandError) as info:
        score_hand(hand, rules=rules)
    return str(info.value)


def keys(hand: str, rules: str) -> list[str]:
    return [item.key for item in score_hand(hand, rules=rules).items]


# -- 3. foul is accepted by every rule set: the seat counts 0 and cannot win -------------------

# (rule set, example table, the seat that fouls, the winner)
FOUL_TABLES = [
    ("lingxi", "normal-win", "N", "S"),
    ("luoshan", "luoshan-win", "W", "E"),
    ("putian", "putian-seed", "S", "N"),
    ("jinhua", "jinhua-win", "E", "S"),
    ("guannan", "guannan-win", "W", "N"),
]


@pytest.mark.parametrize(("rules", "name", "seat", "winner"), FOUL_TABLES, ids=[row[0] for row in FOUL_TABLES])
def test_foul_accepted_in_every_rule_set(rules: str, name: str, seat: str, winner: str) -> None:
    result = settle_table(example(name, events=[{"type": "foul", "seat": seat}]))
    assert result.scores[seat].total == 0
    assert sum(result.net.values()) == 0
    assert result.net[winner] > 0


@pytest.mark.parametrize(("rules", "name", "seat", "winner"), FOUL_TABLES, ids=[row[0] for row in FOUL_TABLES])
def test_foul_seat_cannot_be_the_winner_in_every_rule_set(rules: str, name: str, seat: str, winner: str) -> None:
    message = error(example(name, events=[{"type": "foul", "seat": winner}]))
    assert message.startswith(f"events[0]: {winner} fouled (诈胡) and counts 0, so {winner} cannot be the winner")
    assert "set winner to another seat or null, or drop the foul" in message


@pytest.mark.parametrize(
    ("name", "seat", "nets"),
    [
        # N's 4 tai count 0: N pays W 4 and E 2 (x2) instead of being paid
        ("normal-win", "N", {"E": -112, "S": 224, "W": -48, "N": -64}),
        # S's 分 3 counts 0 among the losers: S pays E 3 and W 1
        ("putian-seed", "S", {"E": -1, "S": -10, "W": -7, "N": 18}),
    ],
)
def test_foul_counts_0_where_non_winners_are_paid(name: str, seat: str, nets: dict[str, int]) -> None:
    result = settle_table(example(name, events=[{"type": "foul", "seat": seat}]))
    assert result.net == nets
    assert any("foul (诈胡)" in note for note in getattr(result.scores[seat], "notes", ["foul (诈胡)"]))


def test_foul_where_non_winners_count_nothing_changes_no_payment() -> None:
    for rules, name, seat, _ in FOUL_TABLES:
        if rules in ("luoshan", "jinhua", "guannan"):
            plain = settle_table(example(name))
            fouled = settle_table(example(name, events=[{"type": "foul", "seat": seat}]))
            assert fouled.payments == plain.payments, rules


# -- 4. a false-win offender's hand may carry its claim; only its tiles are checked --------------

LINGXI_OFFENDER = "123m 456m 789m 11p 234p 56s f5"  # W in false-win.json
PUTIAN_OFFENDER = "[3333s] 123m 456m 789p 12s 9s 5p P"  # S in putian-false-win.json


@pytest.mark.parametrize(
    ("name", "seat", "claim"),
    [
        ("false-win", "W", f"{LINGXI_OFFENDER} +9s"),  # a claimed tile that makes no winning shape
        ("false-win", "W", f"{LINGXI_OFFENDER} +9s self"),  # claimed as self-drawn
        ("false-win", "W", f"{LINGXI_OFFENDER} declare:sha-zhu"),  # a declared win it does not hold
        ("putian-false-win", "S", f"{PUTIAN_OFFENDER} +4m self"),
        ("putian-false-win", "S", f"{PUTIAN_OFFENDER} declare:you-jin"),  # not five sets and a lone 金
    ],
)
def test_false_win_offender_may_carry_its_claim(name: str, seat: str, claim: str) -> None:
    plain = settle_table(example(name))
    claimed = settle_table(example(name, players={seat: claim}))
    assert claimed.net == plain.net
    assert claimed.next_dealer == plain.next_dealer


@pytest.mark.parametrize(
    ("name", "seat", "declared"),
    [
        # the drawn tile among the 17 (a declared win takes 16 or 17): the 16 that score most are kept
        ("false-win", "W", f"{LINGXI_OFFENDER} 9s declare:sha-zhu"),
        ("putian-false-win", "S", f"{PUTIAN_OFFENDER} 4m declare:san-jin-dao"),
    ],
)
def test_false_win_offender_may_declare_with_the_drawn_tile(name: str, seat: str, declared: str) -> None:
    plain = settle_table(example(name))
    claimed = settle_table(example(name, players={seat: declared}))
    assert claimed.net == plain.net
    kept, written = claimed.scores[seat].to_dict(), plain.scores[seat].to_dict()
    assert (kept["total"], kept["items"]) == (written["total"], written["items"])  # ties keep any 16 that score so


def test_false_win_offender_claim_counts_across_the_table() -> None:
    # E holds [CCC]; W's hand holds one C and claims another: five C
    data = example("false-win", players={"W": "123m 456m 789m 11p 234p 5s C f5 +C"})
    assert error(data) == "players: C appears 5 times across the table (E 3, W 2); at most 4 exist"


def test_false_win_claim_is_only_the_offenders() -> None:
    """Another non-winner's `+X` is still refused: only the false-win seat's claim is set aside."""
    data = example("false-win", players={"E": "[CCC] 123p 456p 78s 11s 34p f3 +9s"})
    message = error(data)
    assert message.startswith("players.E: the hand has a winning tile +9s, but winner is null (a drawn hand)")
    assert "set winner to E or drop it" in message


# -- 5. Jinhua: 承包 needs three exposed melds; 人胡 is self-drawn by nature ----------------------


@pytest.mark.parametrize(
    "hand",
    [
        "[111m] [222m] [333p] [444s] 5s +5s",  # the example: four exposed
        "[111m] [222m] [333p] 444s 5s +5s",  # exactly three
        "[111m] [222m] [3333p] 444s 5s +5s",  # an exposed kong counts
    ],
)
def test_jinhua_liable_with_three_exposed_melds(hand: str) -> None:
    result = settle_table(example("jinhua-liable", players={"S": hand}))
    assert {p.from_ for p in result.payments} == {"N"}


@pytest.mark.parametrize(
    ("hand", "shown"),
    [
        ("[111m] [222m] (3333p) 444s 5s +5s", "2 exposed melds [..] ([111m] [222m])"),  # a concealed kong does not
        ("[111m] 222m 333p 444s 5s +5s", "1 exposed meld [..] ([111m])"),
        ("111m 222m 333p 444s 5s +5s", "0 exposed melds [..];"),
    ],
)
def test_jinhua_liable_needs_three_exposed_melds(hand: str, shown: str) -> None:
    message = error(example("jinhua-liable", players={"S": hand}))
    assert message.startswith("events[0]: liable (承包) is for a player who fed the winner 3 or more claims")
    assert f"S's hand shows {shown}" in message
    assert "concealed kongs (..) do not count; drop the event or write the claimed melds as [..]" in message


HUMAN = "123m 456p 789s 234s 5s +5s human seat:S wild:9m"  # 人胡 = 2, no `self`


def test_jinhua_human_is_self_drawn_without_self() -> None:
    assert keys(HUMAN, "jinhua") == keys(HUMAN + " self", "jinhua") == ["ping_hu", "ren_hu"]
    result = settle_table(example("jinhua-win", discarder=None, players={"S": HUMAN}))
    assert paid(result) == [(s, "S", 4, "self-drawn: 2X, X = 1 × 2") for s in ("E", "W", "N")]


def test_jinhua_human_with_a_discarder_is_an_error() -> None:
    message = error(example("jinhua-win", discarder="W", players={"S": HUMAN}))
    assert message == "discarder: S's win is on its own turn (human), so there is no discarder; set discarder to null"


# -- 6. Lingxi 包赔: 四风齐 with three wind pungs/kongs exposed; self-drawn wins may carry it -------


def test_lingxi_liable_self_drawn_win() -> None:
    data = example("liable-si-feng-qi", discarder=None, players={"S": "[EEE] [SSS] [WWW] 234m 567p N +N self"})
    result = settle_table(data)
    to_winner = [p for p in result.payments if p.to == "S"]
    assert to_winner and {p.from_ for p in to_winner} == {"N"}
    assert sum(result.net.values()) == 0


def test_lingxi_liable_exposed_wind_kong_counts() -> None:
    data = example("liable-si-feng-qi", players={"S": "[EEE] [SSS] [WWWW] 234m 567p N +N"})
    assert {p.from_ for p in settle_table(data).payments if p.to == "S"} == {"N"}


@pytest.mark.parametrize(
    ("hand", "problem"),
    [
        # a concealed kong was fed by nobody
        (
            "[EEE] [SSS] (WWWW) 234m 567p N +N",
            "it shows 2 exposed wind pungs/kongs [..] ([EEE] [SSS]), not 3 (a concealed kong (..) does not count)",
        ),
        ("[EEE] [SSS] [WWW] 234m 567p 9p +9p", "it does not score 四风齐 (si_feng_qi)"),
    ],
)
def test_lingxi_liable_needs_si_feng_qi_with_three_exposed_wind_melds(hand: str, problem: str) -> None:
    message = error(example("liable-si-feng-qi", players={"S": hand}))
    assert message.startswith(
        "events[0]: liable (包赔) in Lingxi is for a 四风齐 win with three wind pungs/kongs exposed"
    )
    assert problem in message
    assert message.endswith("drop the event")


# -- 7. Putian: a fourth 金 only with declare:qiang-jin -------------------------------------------


def test_putian_fourth_jin_in_one_hand_needs_qiang_jin() -> None:
    assert "qiang_jin" not in keys("P P P 123m 456m 789p 234s 5s +P wild:P declare:qiang-jin seat:N", "putian")
    message = hand_error("123m 456m 789p 12s 4s P P P P wild:P seat:S", "putian")
    assert message.startswith("the hand holds 4 金 P, but only 3 are in play")
    assert "write declare:qiang-jin, or fix the tiles" in message


def test_putian_fourth_jin_across_the_table_needs_qiang_jin() -> None:
    # the example before the fix: E held one 9s while S held 9s9s9s under wild:9s
    data = example("putian-hands", players={"E": "[8888s] 456p 12p 33m 7m 9s 1s 5s 6s 6m P P"})
    message = error(data)
    assert message.startswith("players: 9s appears 4 times across the table (E 1, S 3); at most 3 exist")
    assert "the hand that took it writes declare:qiang-jin" in message


def test_putian_fourth_jin_across_the_table_by_qiang_jin() -> None:
    data = example(
        "putian-hands",
        discarder=None,
        events=[],
        players={
            "E": "[8888s] 456p 12p 33m 7m 9s 1s 5s 6s 6m P P",
            "S": "123m 456m 789p 234s 9s9s 55p +9s declare:qiang-jin",
        },
    )
    result = settle_table(data)
    assert sum(result.net.values()) == 0 and result.net["S"] > 0


def test_putian_hands_example_holds_three_jin() -> None:
    data = example("putian-hands")
    held = sum(str(hand).count("9s") for hand in data["players"].values())
    assert held == 3
    assert settle_table(data).net == {"E": -10, "S": 37, "W": -12, "N": -15}


# -- 8. kong-draw needs a kong in every rule set; Putian takes it as a self-draw -------------------

KONG_DRAW = [  # (rule set, a hand won on a kong replacement, the same hand without a kong)
    (
        "lingxi",
        "[1111p] 123m 789m 234s 67s 5m 5p +5p wild:5m,E seat:W kong-draw",
        "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W kong-draw",
    ),
    ("luoshan", "[5555m] [CCCC] 234s 567s 9m +9m kong-draw seat:S", "123m 456m 789p 23s 55p +4s kong-draw"),
    (
        "putian",
        "[1111m] 456m 789p 234s 567s 9s P +5p kong-draw wild:9s seat:S",
        "123m 456m 789p 234s 567s 9s P +5p kong-draw wild:9s seat:S",
    ),
    ("jinhua", "[2222m] 123p 456p 789s 5s +5s kong-draw wild:9m", "123m 456p 789s 234s 5s +5s kong-draw wild:9m"),
    ("guannan", "(1111m) 222p 333s 444m 5s +5s kong-draw", "123m 456p 789s 234m 5s +5s kong-draw"),
]


@pytest.mark.parametrize(("rules", "with_kong", "without"), KONG_DRAW, ids=[row[0] for row in KONG_DRAW])
def test_kong_draw_needs_a_kong_in_every_rule_set(rules: str, with_kong: str, without: str) -> None:
    assert score_hand(with_kong, rules=rules).winner
    assert hand_error(without, rules) == "condition 'kong-draw' needs a kong in the hand ([5555p] or (5555p))"


def test_putian_kong_draw_is_a_self_draw_with_no_item_of_its_own() -> None:
    hand = "[1111m] 456m 789p 234s 567s 9s P +5p wild:9s seat:N"
    assert keys(f"{hand} kong-draw", "putian") == keys(f"{hand} self", "putian")
    assert "zi_mo" in keys(f"{hand} kong-draw", "putian")
    data = example("putian-seed", players={"N": f"{hand} kong-draw"})
    assert settle_table(data).net == settle_table(example("putian-seed", players={"N": f"{hand} self"})).net
    message = error(example("putian-seed", discarder="E", players={"N": f"{hand} kong-draw"}))
    assert (
        message == "discarder: N's win is on its own turn (kong-draw), so there is no discarder; set discarder to null"
    )


@pytest.mark.parametrize(
    ("name", "total", "what"),
    [("liable-si-feng-qi", 42, "包赔"), ("jinhua-liable", 4, "承包")],
)
def test_liable_needs_the_winners_hand_string(name: str, total: int, what: str) -> None:
    message = error(example(name, players={"S": {"total": total}}))
    assert message == (
        f"events[0]: liable ({what}) rests on the melds of the winner S, but players.S is "
        f'{{"total": {total}}}; give S\'s hand string, or drop the event'
    )


def test_jinhua_cai_shen_never_melds() -> None:
    message = hand_error("[9m9m9m] 123p 456p 789s 5s +5s wild:9m", "jinhua")
    assert message == "财神 9m used in exposed meld [9m9m9m]: a 财神 never melds in Jinhua"
    # 白 playing as the 财神's face (3m) melds as that plain tile
    assert score_hand("[PPP] 123p 456p 789s 5s +5s wild:3m", rules="jinhua").winner


# -- 9. Lingxi option hua_hu: the declared 花胡 and the bonus on a won hand with all eight flowers ------

FLOWERS = "f1f2f3f4f5f6f7f8"


@pytest.mark.parametrize(
    ("hand", "option", "value"),
    [
        (f"123m 456m 789p 234s 678s 5p {FLOWERS} wild:9s,N seat:W declare:hua-hu", None, 52),
        (f"123m 456m 789p 234s 678s 5p {FLOWERS} wild:9s,N seat:W declare:hua-hu", 100, 100),
        (f"123m 456m 789p 234s 678s 5p {FLOWERS} +5p wild:9s,N seat:W", None, 52),
        (f"123m 456m 789p 234s 678s 5p {FLOWERS} +5p wild:9s,N seat:W", 100, 100),
    ],
)
def test_lingxi_hua_hu_option_sets_both_values(hand: str, option: int | None, value: int) -> None:
    options = {} if option is None else {"hua_hu": option}
    items = score_hand(hand, rules="lingxi", options=options).items
    assert [item.value for item in items if item.key == "hua_hu"] == [value]
    table = {
        "rules": "lingxi",
        "winner": "W",
        "discarder": None if "declare" in hand else "S",
        "players": {"E": {"total": 0}, "S": {"total": 0}, "W": hand, "N": {"total": 0}},
        "options": options,
    }
    won = settle_table(table).scores["W"].total
    assert won == score_hand(hand, rules="lingxi", options=options).total
