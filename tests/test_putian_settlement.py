"""Putian settlement (rules/putian.md): each payment rule, the events, the next dealer, zero-sum."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from settle_helpers import ZERO, error, net, paid

from taihu.scorer import HandError, settle_table

SEATS = ("E", "S", "W", "N")
# Winning hands with wild 9m, and the 底分 they make at a non-dealer seat (the dealer adds 1).
PING_HU = "123m 456m 789p 234s 567s 5p +5p"  # 底 1 = 1
ZI_MO = "123m 456m 789p 234s 567s 9m P +5p self"  # 底 1 + 白 1 + 金 1 = 3
ROB_KONG = "123m 456m 789p 234s 567s 5p P P +5p rob-kong"  # 1 + 2 = 3
SAN_JIN_DAO = "123m 456m 789p 234s 9m9m9m 5p +5p"  # 1 + 3 = 4 (won on a discard, paid by each)
QIANG_JIN = "123m 456m 789p 234s 567s 5p +9m declare:qiang-jin"  # 1 + 1 = 2
TIAN_HU = "123m 456m 789p 234s 567s 5p P +5p heaven"  # dealer: 2 + 1 = 3
YOU_JIN = "[5555s] 123m 456m 789p 234s 9m declare:you-jin"  # 1 + 金 1 + 明槓 1 = 3
SAN_JIN_YOU = "123m 456m 789p 234s 5p 9m9m9m declare:san-jin-you"  # 1 + 3 = 4
# 16-tile non-winning hands
LOSER_3 = "123m 456p 789p 12s 45s 7s 9p 9m P P"  # 分 3: 白 2 + 金 1 (with 底 1 or 2)
LOSER_KONG = "[3333p] 123m 456p 789p 2s 5s 7m 9m P"  # 分 2 for the losers (白 1 + 金 1); 明槓 1 removed


def totals(winner: str | None, hand: str | None, others: dict[str, int], **changes: Any) -> dict[str, Any]:
    players: dict[str, Any] = {s: {"total": n} for s, n in others.items()}
    if winner is not None and hand is not None:
        players[winner] = hand
    return {"rules": "putian", "wild": ["9m"], "winner": winner, "players": players, **changes}


# -- the seed's worked example ------------------------------------------------------------


def test_seed_example_losers_settle_by_fen() -> None:
    """Dealer A (E) 3 分, B (S) 3 分, C (W) 1 分, D (N) wins: C pays A 2 and B 2."""
    result = settle_table(totals("N", ZI_MO, {"E": 3, "S": 3, "W": 1}))
    assert paid(result) == [
        ("E", "N", 6, "zi_mo (自摸): 底分 3 ×2"),
        ("S", "N", 6, "zi_mo (自摸): 底分 3 ×2"),
        ("W", "N", 6, "zi_mo (自摸): 底分 3 ×2"),
        ("W", "E", 2, "losers: 分 3 vs 1"),
        ("W", "S", 2, "losers: 分 3 vs 1"),
    ]
    assert result.net == {"E": -4, "S": -4, "W": -10, "N": 18}
    assert result.next_dealer == "N"


def test_seed_example_with_written_hands_removes_kong_points_and_di() -> None:
    """E's hand: 底 2 + 白 2 + 金 1 → 分 3; W's: 白 1 + 金 1 + 明槓 1 → 分 2 among losers."""
    data = totals("N", ZI_MO, {"S": 3}, discarder=None)
    data["players"].update(E=LOSER_3, W=LOSER_KONG)
    result = settle_table(data)
    assert result.scores["E"].total == 5 and result.scores["W"].total == 4
    assert paid(result)[3:] == [("W", "E", 1, "losers: 分 3 vs 2"), ("W", "S", 1, "losers: 分 3 vs 2")]
    assert result.net == {"E": -5, "S": -5, "W": -8, "N": 18}


EXAMPLES = Path(__file__).parent.parent / "examples" / "tables"


def test_seed_example_file() -> None:
    result = settle_table(json.loads((EXAMPLES / "putian-seed.json").read_text(encoding="utf-8")))
    assert [p for p in paid(result) if p[0] == "W" and p[1] != "N"] == [
        ("W", "E", 2, "losers: 分 3 vs 1"),
        ("W", "S", 2, "losers: 分 3 vs 1"),
    ]
    assert result.net == {"E": -4, "S": -4, "W": -10, "N": 18}


@pytest.mark.parametrize(
    "name, net, next_dealer",
    [
        ("putian-seed.json", {"E": -4, "S": -4, "W": -10, "N": 18}, "N"),
        ("putian-hands.json", {"E": -10, "S": 37, "W": -12, "N": -15}, "S"),
        ("putian-you-jin.json", {"E": -5, "S": -11, "W": -11, "N": 27}, "N"),
        ("putian-false-win.json", {"E": 12, "S": -36, "W": 12, "N": 12}, "S"),
    ],
)
def test_example_tables_match_the_readme(name: str, net: dict[str, int], next_dealer: str) -> None:
    result = settle_table(json.loads((EXAMPLES / name).read_text(encoding="utf-8")))
    assert result.net == net and result.next_dealer == next_dealer
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith(f"| `{name}`"))
    shown = [c.strip().replace("−", "-").replace("+", "") for c in row.split("|")[3:7]]
    assert [int(c) for c in shown] == [net[s] for s in SEATS]


# -- who pays the winner ------------------------------------------------------------------


def test_ping_hu_discarder_pays_x1_only() -> None:
    result = settle_table(totals("S", PING_HU, {"E": 0, "W": 0, "N": 0}, discarder="W"))
    assert paid(result) == [("W", "S", 1, "ping_hu (平胡): 底分 1 ×1")]
    assert result.net == {"E": 0, "S": 1, "W": -1, "N": 0}


def test_zi_mo_each_other_pays_x2() -> None:
    result = settle_table(totals("W", ZI_MO, {"E": 0, "S": 0, "N": 0}))
    assert paid(result) == [(s, "W", 6, "zi_mo (自摸): 底分 3 ×2") for s in ("E", "S", "N")]
    assert result.net["W"] == 18  # 底分 3 ×6


def test_qiang_gang_robbed_kong_player_pays_x6() -> None:
    result = settle_table(totals("N", ROB_KONG, {"E": 0, "S": 0, "W": 0}, discarder="E"))
    assert paid(result) == [("E", "N", 18, "qiang_gang (搶槓胡): 底分 3 ×6")]


@pytest.mark.parametrize(
    "hand, seat, key, name, amount",
    [
        (SAN_JIN_DAO, "S", "san_jin_dao", "三金倒", 12),
        (QIANG_JIN, "S", "qiang_jin", "搶金", 6),
        (TIAN_HU, "E", "tian_hu", "天胡", 9),
        (YOU_JIN, "S", "you_jin", "游金", 9),
    ],
)
def test_x9_types_each_other_pays_x3(hand: str, seat: str, key: str, name: str, amount: int) -> None:
    others = {s: 0 for s in SEATS if s != seat}
    discarder = "W" if hand == SAN_JIN_DAO else None
    result = settle_table(totals(seat, hand, others, discarder=discarder))
    total = amount // 3
    assert paid(result) == [(s, seat, amount, f"{key} ({name}): 底分 {total} ×3") for s in others]
    assert result.net[seat] == total * 9


def test_san_jin_you_each_other_pays_x4() -> None:
    result = settle_table(totals("N", SAN_JIN_YOU, {"E": 0, "S": 0, "W": 0}))
    assert paid(result) == [(s, "N", 16, "san_jin_you (三金游): 底分 4 ×4") for s in ("E", "S", "W")]
    assert result.net["N"] == 48  # 底分 4 ×12


def test_dealer_winner_has_di_2_and_no_dealer_doubling() -> None:
    result = settle_table(totals("E", ZI_MO, {"S": 0, "W": 0, "N": 0}))
    assert paid(result) == [(s, "E", 8, "zi_mo (自摸): 底分 4 ×2") for s in ("S", "W", "N")]
    assert result.next_dealer == "E"


def test_winner_kong_points_count() -> None:
    data = totals("S", "[5555s] (1111s) 123m 456m 789p 5p +5p self", {"E": 0, "W": 0, "N": 0})
    result = settle_table(data)
    assert result.scores["S"].total == 4  # 底 1 + 明槓 1 + 暗槓 2
    assert result.net["S"] == 24


# -- events ---------------------------------------------------------------------------------


def test_false_win_offender_pays_9_plus_fen_nothing_else_and_deals_next() -> None:
    data = totals(None, None, {"E": 5, "S": 2, "N": 7})
    data["players"]["W"] = LOSER_KONG  # 分 with kong points: 白 1 + 金 1 + 明槓 1 = 3
    data["events"] = [{"type": "false-win", "seat": "W"}]
    result = settle_table(data)
    assert paid(result) == [("W", s, 12, "false win (zha_hu): 9 + 分 3") for s in ("E", "S", "N")]
    assert result.net == {"E": 12, "S": 12, "W": -36, "N": 12}
    assert result.next_dealer == "W"


def test_false_win_offender_given_as_total() -> None:
    data = totals(None, None, {"E": 5, "S": 2, "W": 4, "N": 7}, events=[{"type": "false-win", "seat": "S"}])
    result = settle_table(data)
    assert result.net == {"E": 11, "S": -33, "W": 11, "N": 11}
    assert result.next_dealer == "S"


def test_false_you_jin_broken_by_a_self_draw() -> None:
    """The self-draw is settled in full, the false 游金 still pays, the self-drawer deals next."""
    data = totals("N", ZI_MO, {"E": 3, "S": 1, "W": 1}, events=[{"type": "false-win", "seat": "S"}])
    result = settle_table(data)
    assert paid(result) == [
        ("E", "N", 6, "zi_mo (自摸): 底分 3 ×2"),
        ("S", "N", 6, "zi_mo (自摸): 底分 3 ×2"),
        ("W", "N", 6, "zi_mo (自摸): 底分 3 ×2"),
        ("S", "E", 2, "losers: 分 3 vs 1"),
        ("W", "E", 2, "losers: 分 3 vs 1"),
        ("S", "E", 10, "false win (zha_hu): 9 + 分 1"),
        ("S", "W", 10, "false win (zha_hu): 9 + 分 1"),
        ("S", "N", 10, "false win (zha_hu): 9 + 分 1"),
    ]
    assert result.next_dealer == "N"


def test_false_win_with_a_win_on_a_discard_is_an_error() -> None:
    data = totals("N", PING_HU, {"E": 0, "S": 0, "W": 0}, discarder="E", events=[{"type": "false-win", "seat": "S"}])
    assert "false 游金 broken by a self-draw" in error(data)


def test_xiao_xiang_gong_counts_0_and_settles_normally() -> None:
    data = totals("N", ZI_MO, {"S": 3, "W": 1}, events=[{"type": "xiao-xiang-gong", "seat": "E"}])
    data["players"]["E"] = LOSER_3
    result = settle_table(data)
    assert result.scores["E"].total == 0
    assert result.scores["E"].notes[-1] == "小相公 (wrong draw): cannot win, 底分 counts 0"
    assert paid(result)[3:] == [
        ("E", "S", 3, "losers: 分 3 vs 0"),
        ("E", "W", 1, "losers: 分 1 vs 0"),
        ("W", "S", 2, "losers: 分 3 vs 1"),
    ]


def test_xiao_xiang_gong_winner_is_an_error() -> None:
    data = totals("N", ZI_MO, {"E": 0, "S": 0, "W": 0}, events=[{"type": "xiao-xiang-gong", "seat": "N"}])
    assert "N drew wrongly (小相公) and cannot win" in error(data)


def test_gen_da_dealer_pays_each_non_dealer_1_on_top() -> None:
    data = totals("N", ZI_MO, {"E": 0, "S": 0, "W": 0}, events=[{"type": "gen-da", "seat": "E"}])
    result = settle_table(data)
    assert paid(result)[3:] == [("E", s, 1, "gen-da (跟打): dealer pays 1") for s in ("S", "W", "N")]
    assert result.net == {"E": -9, "S": -5, "W": -5, "N": 19}


def test_gen_da_in_a_drawn_hand() -> None:
    result = settle_table(totals(None, None, {s: 2 for s in SEATS}, events=[{"type": "gen-da", "seat": "E"}]))
    assert result.net == {"E": -3, "S": 1, "W": 1, "N": 1}
    assert result.next_dealer == "E"


def test_gen_da_seat_must_be_the_dealer() -> None:
    data = totals(None, None, {s: 0 for s in SEATS}, events=[{"type": "gen-da", "seat": "S"}])
    assert error(data) == "events[0]: gen-da (跟打) is paid by the dealer, so its seat is E"


def test_da_jin_winner_is_an_error() -> None:
    data = totals("N", ZI_MO, {"E": 0, "S": 0, "W": 0}, events=[{"type": "da-jin", "seat": "N"}])
    assert "N discarded or melded a 金 (打金) and cannot win this deal" in error(data)


def test_da_jin_loser_settles_normally() -> None:
    plain = settle_table(totals("N", ZI_MO, {"E": 3, "S": 3, "W": 1}))
    data = totals("N", ZI_MO, {"E": 3, "S": 3, "W": 1}, events=[{"type": "da-jin", "seat": "W"}])
    assert settle_table(data).net == plain.net


def test_drawn_hand_pays_nothing_and_keeps_the_dealer() -> None:
    data = totals(None, None, {"E": 1, "S": 9})
    data["players"].update(W=LOSER_3, N=LOSER_KONG)
    result = settle_table(data)
    assert result.payments == [] and result.net == {s: 0 for s in SEATS}
    assert result.next_dealer == "E"


# -- table errors ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"events": [{"type": "liable", "seat": "S"}]}, "event type 'liable' is not used in putian"),
        ({"options": {"double_at": 10}}, "options: unknown option 'double_at' for putian; known options: none"),
        ({"flip": "8m"}, "flip: Putian gives the flipped 金 itself as wild"),
        ({"wild": ["9m", "5p"]}, "wild: Putian flips one 金"),
        ({"wild": ["E"]}, "wild: E is not a Putian tile"),
        ({"discarder": "E"}, "N's win is on its own turn"),
    ],
)
def test_table_errors(changes: dict[str, Any], message: str) -> None:
    data = totals("N", ZI_MO, {"E": 0, "S": 0, "W": 0})
    data.update(changes)
    assert message in error(data)


def test_winner_must_be_a_written_hand() -> None:
    data = totals("N", None, {s: 1 for s in SEATS})
    assert "players.N: write the winner's hand" in error(data)


def test_bad_hand_names_its_seat() -> None:
    data = totals("N", ZI_MO, {"E": 0, "S": 0})
    data["players"]["W"] = "123m 456p 789p 12s 45s 9p E P P"
    assert error(data).startswith("players.W: E is a wind, not a Putian tile")


def test_tile_counts_across_the_table() -> None:
    data = totals("N", ZI_MO, {"E": 0, "S": 0})
    data["players"]["W"] = "P P P P 123m 456p 789p 12s 45s 9p 9m 1p"
    assert "P appears 5 times across the table" in error(data)


# -- zero-sum, by property ------------------------------------------------------------------

# (hand, won on its own turn, the winner's net as a multiple of its 底分)
WINNING = (
    (PING_HU, False, 1),
    (ZI_MO, True, 6),
    (ROB_KONG, False, 6),
    (SAN_JIN_DAO, False, 9),
    (QIANG_JIN, True, 9),
    (YOU_JIN, True, 9),
    (SAN_JIN_YOU, True, 12),
)


@st.composite
def putian_tables(draw: st.DrawFn) -> dict[str, Any]:
    """A valid table by construction; non-winners given as {"total": N}."""
    kind = draw(st.sampled_from(("win", "drawn", "false-win", "broken-you-jin")))
    players: dict[str, Any] = {s: {"total": draw(st.integers(0, 12))} for s in SEATS}
    table: dict[str, Any] = {"rules": "putian", "wild": ["9m"], "players": players, "winner": None, "events": []}
    if draw(st.booleans()):
        table["events"].append({"type": "gen-da", "seat": "E"})
    if kind in ("drawn", "false-win"):
        if kind == "false-win":
            table["events"].append({"type": "false-win", "seat": draw(st.sampled_from(SEATS))})
        return table
    hand, own_turn, _ = draw(st.sampled_from(WINNING if kind == "win" else [w for w in WINNING if w[1]]))
    winner = draw(st.sampled_from(SEATS))
    others = [s for s in SEATS if s != winner]
    players[winner] = hand
    table.update(winner=winner, discarder=None if own_turn else draw(st.sampled_from(others)))
    for event in ("xiao-xiang-gong", "da-jin"):
        for seat in draw(st.lists(st.sampled_from(others), unique=True, max_size=2)):
            table["events"].append({"type": event, "seat": seat})
    if kind == "broken-you-jin":
        table["events"].append({"type": "false-win", "seat": draw(st.sampled_from(others))})
    return table


@settings(max_examples=50, deadline=None)
@given(putian_tables())
def test_net_sums_to_zero_and_winner_takes_its_rate(table: dict[str, Any]) -> None:
    result = settle_table(table)
    assert sum(result.net.values()) == 0
    assert all(p.amount > 0 and p.from_ != p.to for p in result.payments)
    gen_da = any(e["type"] == "gen-da" for e in table["events"])
    false_win = [e["seat"] for e in table["events"] if e["type"] == "false-win"]
    zeroed = {e["seat"] for e in table["events"] if e["type"] == "xiao-xiang-gong"}
    winner = table["winner"]

    def side(seat: str) -> int:
        """What gen-da and a false win add to or take from a seat."""
        out = (-3 if seat == "E" else 1) if gen_da else 0
        for offender in false_win:
            fine = 9 + (0 if offender in zeroed else table["players"][offender]["total"])
            out += -3 * fine if seat == offender else fine
        return out

    if winner is not None:
        rate = next(r for h, _, r in WINNING if h == table["players"][winner])
        assert result.net[winner] == result.scores[winner].total * rate + side(winner)
        assert result.next_dealer == winner
    else:
        assert all(result.net[s] == side(s) for s in SEATS)
        assert result.next_dealer == (false_win[0] if false_win else "E")


@st.composite
def loose_putian_tables(draw: st.DrawFn) -> dict[str, Any]:
    """Every field drawn freely: often invalid, sometimes valid."""
    hand = draw(st.sampled_from([w[0] for w in WINNING] + [TIAN_HU, LOSER_3, "123m E"]))
    players: dict[str, Any] = {s: {"total": draw(st.integers(0, 9))} for s in SEATS}
    players[draw(st.sampled_from(SEATS))] = hand
    events = st.fixed_dictionaries(
        {
            "type": st.sampled_from(("false-win", "xiao-xiang-gong", "gen-da", "da-jin", "foul")),
            "seat": st.sampled_from(SEATS),
        }
    )
    return {
        "rules": "putian",
        "wild": draw(st.sampled_from((["9m"], ["P"], None, ["E"], ["9m", "5p"]))),
        "winner": draw(st.one_of(st.none(), st.sampled_from(SEATS))),
        "discarder": draw(st.one_of(st.none(), st.sampled_from(SEATS))),
        "players": players,
        "events": draw(st.lists(events, max_size=3)),
    }


@settings(max_examples=50, deadline=None)
@given(loose_putian_tables())
def test_any_putian_table_settles_to_zero_or_raises_hand_error(table: dict[str, Any]) -> None:
    try:
        result = settle_table(table)
    except HandError as exc:
        assert str(exc)
        return
    assert sum(result.net.values()) == 0


# -- checked by hand against the rules page (the review of the four regional rule sets) --


def test_putian_losers_settle_without_kong_points() -> None:
    # E: 白 2 + 明槓 (removed) → 分 2; S: two 金 → 2; W: 0. N wins on W's discard, 底分 1.
    table = {
        "rules": "putian",
        "wild": ["5s"],
        "winner": "N",
        "discarder": "W",
        "players": {
            "E": "[3333s] 456m 789m 123p 456p 7s P P",
            "S": "123m 456m 789p 123p 456s 5s",
            "W": "234m 567m 789p 234p 567p 9s",
            "N": "123m 456m 789m 123p 456p 8s +8s",
        },
    }
    assert net(table) == ({"E": 2, "S": 2, "W": -5, "N": 1}, "N")


def test_putian_winner_kong_points_count() -> None:
    # dealer 底 2 + 白 2 + 明槓 1 = 5; self-drawn: each pays ×2
    table = {
        "rules": "putian",
        "wild": ["5s"],
        "winner": "E",
        "discarder": None,
        "players": {"E": "[3333s] 456m 789m 123p 456p 7s +7s P P self", "S": ZERO, "W": ZERO, "N": ZERO},
    }
    assert net(table) == ({"E": 30, "S": -10, "W": -10, "N": -10}, "E")


def test_putian_false_you_jin_broken_by_self_draw() -> None:
    # S self-draws (底分 1 ×2 each); W's 分 1 > 0 in the losers' step; W pays 9 + 1 to each
    table = {
        "rules": "putian",
        "wild": ["5s"],
        "winner": "S",
        "discarder": None,
        "players": {
            "E": ZERO,
            "S": "123m 456m 789m 123p 456p 7s +7s self",
            "W": "123m 456m 789m 123p 456p 5s",
            "N": ZERO,
        },
        "events": [{"type": "false-win", "seat": "W"}],
    }
    assert net(table) == ({"E": 7, "S": 16, "W": -30, "N": 7}, "S")


def test_putian_false_win_counts_kong_points() -> None:
    table = {
        "rules": "putian",
        "wild": ["5s"],
        "winner": None,
        "discarder": None,
        "players": {"E": "[1111m] 456m 789m 123p 456p 7s P P", "S": ZERO, "W": ZERO, "N": ZERO},
        "events": [{"type": "false-win", "seat": "E"}],
    }
    assert net(table) == ({"E": -36, "S": 12, "W": 12, "N": 12}, "E")


def test_putian_da_jin_winner_cannot_be_settled() -> None:
    table = {
        "rules": "putian",
        "wild": ["5s"],
        "winner": "S",
        "discarder": "W",
        "players": {"E": ZERO, "S": "123m 456m 789m 123p 456p 7s +7s da-jin", "W": ZERO, "N": ZERO},
    }
    with pytest.raises(HandError, match=r"players\.S: not a legal win: 打金"):
        settle_table(table)
