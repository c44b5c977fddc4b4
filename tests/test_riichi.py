"""Riichi (docs/rules/riichi.md): the ten worked examples everywhere, the notation additions, every contradiction."""

from __future__ import annotations

import json

import pytest
from api_app import app as http_app
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from taihu.cli.main import app as cli_app
from taihu.scorer import HandError, score_hand, to_text
from taihu.scorer.notation import parse
from taihu.scorer.rulesets import RULESETS

E1 = "234567m 234p 88p 67s +8s seat:S round:E self riichi dora:1p ura:7s sticks:1"
E1_RON = "234567m 234p 88p 67s +8s seat:S round:E riichi dora:1p ura:7s"
E2 = "[234m] 567m 44p 678s 33s +3s seat:W round:E"
E4 = "223344m 567p 34s 66s +5s seat:E round:E riichi dora:9p ura:9p"
E5 = "234m 999p 345s 78s EE +6s seat:E round:E riichi dora:9s ura:9s"
E6 = "345m 789p 234s 66s 45p +6p seat:N round:S riichi ippatsu dora:3m ura:5s honba:2 sticks:3"
E6_SELF = "345m 789p 234s 66s 45p +6p seat:N round:S self riichi ippatsu dora:3m ura:5s honba:2 sticks:3"
E7 = "34056m 234p 55p 678s +7m seat:S round:E self dora:4p"
E8 = "123m 99p 78s (CCCC) [EEE] +9s seat:E round:E kong-draw dora:P,2m"
E9 = "111m 222m 333m 444m 5m +5m seat:S round:E self"
E10 = "19m 19p 19s ESWNPFC +C seat:E round:E"

# (hand, options, han, fu, limit, payments, total, items): docs/rules/riichi.md "Examples run"
WORKED = [
    pytest.param(
        E1,
        {},
        6,
        20,
        "haneman",
        {"dealer": 6000, "non_dealer": 3000},
        13000,
        {"riichi": 1, "menzen_tsumo": 1, "pinfu": 1, "tanyao": 1, "dora": 1, "ura_dora": 1},
        id="1-pinfu-tsumo-haneman",
    ),
    pytest.param(
        E1_RON,
        {},
        5,
        30,
        "mangan",
        {"discarder": 8000},
        8000,
        {"riichi": 1, "pinfu": 1, "tanyao": 1, "dora": 1, "ura_dora": 1},
        id="1-on-a-discard",
    ),
    pytest.param(E2, {"kuitan": 1}, 1, 30, "", {"discarder": 1000}, 1000, {"tanyao": 1}, id="2-kuitan"),
    pytest.param(
        "1199m 2255p 77s EE N +N seat:S round:E riichi dora:W ura:3p",
        {},
        5,
        25,
        "mangan",
        {"discarder": 8000},
        8000,
        {"chiitoitsu": 2, "riichi": 1, "dora": 2},
        id="3-seven-pairs",
    ),
    pytest.param(
        E4,
        {},
        4,
        30,
        "",
        {"discarder": 11600},
        11600,
        {"riichi": 1, "pinfu": 1, "tanyao": 1, "iipeikou": 1},
        id="4-dealer-4-han-30-fu",
    ),
    pytest.param(
        E4,
        {"kiriage": 1},
        4,
        30,
        "mangan",
        {"discarder": 12000},
        12000,
        {"riichi": 1, "pinfu": 1, "tanyao": 1, "iipeikou": 1},
        id="4-kiriage",
    ),
    pytest.param(E5, {}, 1, 50, "", {"discarder": 2400}, 2400, {"riichi": 1}, id="5-double-wind-pair"),
    pytest.param(
        E5.replace("seat:E", "seat:S"), {}, 1, 40, "", {"discarder": 1300}, 1300, {"riichi": 1}, id="5-round-wind-pair"
    ),
    pytest.param(
        E6,
        {},
        6,
        30,
        "haneman",
        {"discarder": 12600},
        15600,
        {"riichi": 1, "ippatsu": 1, "pinfu": 1, "dora": 1, "ura_dora": 2},
        id="6-honba-and-sticks",
    ),
    pytest.param(
        E6_SELF,
        {},
        7,
        20,
        "haneman",
        {"dealer": 6200, "non_dealer": 3200},
        15600,
        {"riichi": 1, "ippatsu": 1, "menzen_tsumo": 1, "pinfu": 1, "dora": 1, "ura_dora": 2},
        id="6-self-drawn",
    ),
    pytest.param(
        E7,
        {"aka_dora": 1},
        6,
        20,
        "haneman",
        {"dealer": 6000, "non_dealer": 3000},
        12000,
        {"menzen_tsumo": 1, "pinfu": 1, "tanyao": 1, "dora": 2, "aka_dora": 1},
        id="7-red-five",
    ),
    pytest.param(
        E7.replace("0", "5"),
        {},
        5,
        20,
        "mangan",
        {"dealer": 4000, "non_dealer": 2000},
        8000,
        {"menzen_tsumo": 1, "pinfu": 1, "tanyao": 1, "dora": 2},
        id="7-plain-five",
    ),
    pytest.param(
        E8,
        {},
        6,
        60,
        "haneman",
        {"each": 6000},
        18000,
        {
            "rinshan": 1,
            "chanta": 1,
            "yakuhai_chun": 1,
            "yakuhai_seat_wind": 1,
            "yakuhai_round_wind": 1,
            "dora": 1,
        },
        id="8-rinshan-white-indicates-green",
    ),
    pytest.param(
        E9,
        {},
        26,
        0,
        "yakuman x2",
        {"dealer": 32000, "non_dealer": 16000},
        64000,
        {"suuankou_tanki": 26},
        id="9-suuankou-tanki",
    ),
    pytest.param(
        E9,
        {"double_yakuman": 0},
        13,
        0,
        "yakuman",
        {"dealer": 16000, "non_dealer": 8000},
        32000,
        {"suuankou_tanki": 13},
        id="9-single-yakuman",
    ),
    pytest.param(
        E10, {}, 26, 0, "yakuman x2", {"discarder": 96000}, 96000, {"kokushi_musou_13": 26}, id="10-kokushi-13"
    ),
]


@pytest.mark.parametrize(("hand", "options", "han", "fu", "limit", "payments", "total", "items"), WORKED)
def test_worked_example_same_everywhere(
    hand: str, options: dict, han: int, fu: int, limit: str, payments: dict, total: int, items: dict
) -> None:
    library = score_hand(hand, rules="riichi", options=options).to_dict()
    found = {item["key"]: item["value"] for item in library["items"]}
    assert (library["subtotal"], library["fu"], library["limit"], library["payments"]) == (han, fu, limit, payments)
    assert (library["total"], library["legal"], library["unit"], found) == (total, True, "points", items)
    flags = [arg for name, value in options.items() for arg in ("-o", f"{name}={value}")]
    cli = CliRunner().invoke(cli_app, ["score", hand, "--rules", "riichi", "--json", *flags])
    assert cli.exit_code == 0, cli.output
    http = TestClient(http_app).post("/score", json={"rules": "riichi", "hand": hand, "options": options})
    assert http.status_code == 200, http.text
    assert json.loads(cli.stdout) == library == http.json()


def test_no_yaku_is_not_a_legal_win() -> None:
    """Worked example 2: open, kuitan=0 → 役なし."""
    score = score_hand(E2, rules="riichi")
    assert (score.legal, score.items, score.subtotal, score.total) == (False, [], 0, 0)
    assert "役なし: no yaku (dora are not yaku)" in score.notes


def test_dora_alone_make_no_yaku() -> None:
    score = score_hand(E2 + " dora:2p", rules="riichi")
    assert (score.legal, score.total) == (False, 0)


def test_furiten_on_a_discard_is_scored_then_not_legal() -> None:
    score = score_hand(E1_RON + " furiten", rules="riichi")
    assert (score.legal, score.total) == (False, 8000)
    assert "振听: a furiten hand wins only by self-draw" in score.notes
    assert score_hand(E1 + " furiten", rules="riichi").legal


def test_red_five_needs_the_option() -> None:
    with pytest.raises(HandError, match=r"'0m' at column 3 is a red five.*aka_dora=1"):
        score_hand(E7, rules="riichi")


def test_red_five_is_printed_as_zero_before_the_plain_fives() -> None:
    hand = parse("55p 34056m [0555s] 678p +0p seat:S dora:E riichi", rules="riichi")
    assert to_text(hand) == "34056m 55678p [0555s] +0p seat:S dora:E riichi"
    assert parse(to_text(hand), rules="riichi") == hand
    indicator = parse("123m 456m 789p 234s 5s +5s dora:E,0m", rules="riichi")
    assert to_text(indicator).endswith("+5s dora:E,0m") and indicator.values["red"] == {("dora", 0)}


def test_one_red_five_per_suit() -> None:
    with pytest.raises(HandError, match="second red five '0m'"):
        parse("0m 0m", rules="riichi")


def test_canonical_order_of_the_riichi_conditions() -> None:
    hand = parse(
        "123m 456m 789m 123p 5p +5p sticks:1 honba:2 furiten riichi self ura:1m dora:2m round:S seat:W", rules="riichi"
    )
    assert to_text(hand).split(" +5p ")[1] == "seat:W round:S dora:2m ura:1m self riichi furiten honba:2 sticks:1"


BASE = "123m 456m 789p 234s 5s +5s"
CONTRADICTIONS = [
    pytest.param("[123m] 456m 789p 234s 5s +5s riichi", "'riichi' needs a closed hand", id="riichi-open"),
    pytest.param("[123m] 456m 789p 234s 5s +5s double-riichi", "'double-riichi' needs a closed", id="double-open"),
    pytest.param(f"{BASE} riichi double-riichi", "double-riichi includes riichi", id="riichi-and-double"),
    pytest.param(f"{BASE} ippatsu", "'ippatsu' needs 'riichi' or 'double-riichi'", id="ippatsu-alone"),
    pytest.param(
        "123m 456m 789p 5s (2222s) +5s self riichi ippatsu kong-draw", "any kong ends ippatsu", id="ippatsu-kong"
    ),
    pytest.param(f"{BASE} self kong-draw", "'kong-draw' needs a kong", id="kong-draw-no-kong"),
    pytest.param("123m 456m 789p 5s (2222s) +5s kong-draw rob-kong", "contradict", id="kong-draw-rob-kong"),
    pytest.param("123m 456m 789p 5s (2222s) +5s kong-draw last-tile", "last wall tile", id="kong-draw-last-tile"),
    pytest.param("123m 456m 789p 234s 6s +6s self rob-kong", "not self-drawn", id="rob-kong-self"),
    pytest.param("123m 456m 789p 234s 5s +5s rob-kong", "holds another 5s", id="rob-kong-holds-the-kind"),
    pytest.param("123m 456m 789p 55s 24s +3s rob-kong dora:3s", "an indicator shows 3s", id="rob-kong-indicator"),
    pytest.param("123m 456m 789p 55s 24s +3s rob-kong last-tile", "not the last discard", id="rob-kong-last-tile"),
    pytest.param(f"{BASE} seat:S heaven", "'heaven' needs seat:E", id="heaven-not-dealer"),
    pytest.param(f"{BASE} seat:E earth", "'earth' needs a non-dealer", id="earth-dealer"),
    pytest.param(f"{BASE} human", "'human' needs a non-dealer", id="human-dealer"),
    pytest.param(f"{BASE} seat:S human self", "human \\(人和, renhou\\) is a win on a discard", id="human-self"),
    pytest.param("123m 456m 789p 5s (2222s) +5s heaven", "no meld at all", id="heaven-kong"),
    pytest.param(f"{BASE} heaven riichi", "'heaven' and 'riichi' contradict", id="heaven-riichi"),
    pytest.param(f"{BASE} seat:S earth last-tile", "'earth' and 'last-tile' contradict", id="earth-last-tile"),
    pytest.param(f"{BASE} dora:1m ura:2m", "ura: needs 'riichi'", id="ura-without-riichi"),
    pytest.param(f"{BASE} riichi dora:1m ura:2m,3m", "one ura indicator under each", id="ura-more-than-dora"),
    pytest.param(f"{BASE} dora:1m,2m,3m,4m,6m,7m", "at most 5", id="six-indicators"),
    pytest.param(f"{BASE} dora:5s,5s,5s", "5s appears 5 times, counting indicators", id="indicators-count"),
    pytest.param(f"{BASE} honba:-1", "whole number", id="honba-negative"),
    pytest.param(f"{BASE} sticks:x", "whole number", id="sticks-not-a-number"),
    pytest.param(f"{BASE} wild:5m", "no wildcards", id="wild"),
    pytest.param(f"{BASE} flip:5m", "no wildcards", id="flip"),
    pytest.param(f"{BASE} declare:sha-zhu", "no declared wins", id="declare"),
    pytest.param(f"{BASE} da-jin", "no wildcards", id="da-jin"),
    pytest.param(f"{BASE} f1", "no flowers", id="flower"),
    pytest.param("123m 456m 789p [22s1s] 5s +5s", "not a meld", id="stand-in-pung"),
    pytest.param(f"{BASE} self", None, id="ok-self"),
]


@pytest.mark.parametrize(("hand", "match"), CONTRADICTIONS)
def test_contradictions_are_errors_with_their_reason(hand: str, match: str | None) -> None:
    if match is None:
        assert score_hand(hand, rules="riichi").winner
        return
    with pytest.raises(HandError, match=match):
        score_hand(hand, rules="riichi")


@pytest.mark.parametrize("rules", sorted(set(RULESETS) - {"riichi"}))
@pytest.mark.parametrize(
    "word", ["round:S", "dora:1m", "ura:1m", "honba:1", "sticks:1", "riichi", "double-riichi", "ippatsu", "furiten"]
)
def test_other_rule_sets_refuse_the_riichi_words_naming_riichi(rules: str, word: str) -> None:
    if word.partition(":")[0] in RULESETS[rules].conditions:  # MCR reads round: too, the prevalent wind
        assert score_hand(f"123m 456m 789p 234s 5s +5s {word}", rules=rules).hand
        return
    with pytest.raises(HandError, match="riichi"):
        score_hand(f"123m 456m 789p 234s 5s +5s {word}", rules=rules)


@pytest.mark.parametrize("rules", sorted(set(RULESETS) - {"riichi"}))
def test_other_rule_sets_keep_the_red_five_error(rules: str) -> None:
    with pytest.raises(HandError, match="no red fives"):
        score_hand("123m 406m 789p 234s 5s +5s", rules=rules)


TIE_BREAK = [
    # 111222333m: three pungs (sanankou) or three chows (iipeikou…): the reading worth more is kept
    pytest.param("111222333m 456p 7s +7s seat:S riichi", "sanankou", id="pungs-over-chows"),
    # 1112345678999m + 5m: nine gates
    pytest.param("1112345678999m +5m seat:S", "junsei_chuuren_poutou", id="nine-gates-9-sided"),
    pytest.param("1112345567899m +9m seat:S", "chuuren_poutou", id="nine-gates"),
    # 22334455667788p as seven pairs (2+6 han) or ryanpeikou (3+6+…): ryanpeikou
    pytest.param("2233445566778p +8p seat:S riichi", "ryanpeikou", id="ryanpeikou-not-seven-pairs"),
]


@pytest.mark.parametrize(("hand", "key"), TIE_BREAK)
def test_best_interpretation(hand: str, key: str) -> None:
    keys = [item.key for item in score_hand(hand, rules="riichi").items]
    assert key in keys, keys


def test_non_winning_line_is_accepted() -> None:
    score = score_hand("123m 456m 789p 234s 5s riichi", rules="riichi")
    assert (score.winner, score.total, score.extra["fu"], score.extra["payments"]) == (False, 0, None, None)


def test_other_rule_sets_have_no_riichi_fields() -> None:
    score = score_hand("111m 222p 333s 444m 5s +5s", rules="guannan").to_dict()
    assert (score["fu"], score["fu_details"], score["limit"], score["payments"]) == (None, None, None, None)


def test_rules_riichi_lists_every_yaku_and_option() -> None:
    shown = CliRunner().invoke(cli_app, ["rules", "riichi"])
    assert shown.exit_code == 0, shown.output
    for word in ("kokushi_musou_13", "ura_dora", "kuitan", "yakuman_stacking"):
        assert word in shown.stdout


KAZOE_HAND = "234567m 234m 88m 67m +8m seat:S round:E riichi self dora:7m,1m"  # 16 han, no yakuman


@pytest.mark.parametrize(
    ("kazoe", "limit", "total"),
    [
        pytest.param(0, "kazoe yakuman", 32000, id="counted-yakuman"),
        pytest.param(1, "sanbaiman", 24000, id="capped-at-sanbaiman"),
        pytest.param(2, "kazoe yakuman", 32000, id="per-13-han"),
    ],
)
def test_kazoe_limit_of_13_han_without_yakuman(kazoe: int, limit: str, total: int) -> None:
    score = score_hand(KAZOE_HAND, rules="riichi", options={"kazoe": kazoe})
    assert (score.subtotal, score.extra["limit"], score.total) == (16, limit, total)


def test_yakuman_stacking_off_keeps_the_largest() -> None:
    """天和 + 国士无双十三面 = ×3; with yakuman_stacking=0 only the ×2."""
    hand = "19m 19p 19s ESWNPFC +C seat:E round:E heaven"
    assert score_hand(hand, rules="riichi").extra["limit"] == "yakuman x3"
    single = score_hand(hand, rules="riichi", options={"yakuman_stacking": 0})
    assert (single.extra["limit"], [i.key for i in single.items]) == ("yakuman x2", ["kokushi_musou_13"])


def test_double_wind_fu_option() -> None:
    """Worked example 5 as the dealer: 20 + 10 + 8 + the E pair 4 = 42 → 50 fu; with double_wind_fu=2, 40 → 40."""
    assert score_hand(E5, rules="riichi", options={"double_wind_fu": 2}).extra["fu"] == 40


def test_option_values_are_checked() -> None:
    with pytest.raises(HandError, match="option 'kazoe' for riichi takes 0, 1, 2, got 3"):
        score_hand(E1, rules="riichi", options={"kazoe": 3})


def test_conditions_that_passed_once_are_not_a_way_around_the_checks() -> None:
    """The checks remember what passed (for speed): a contradiction is refused every time, after a good line too."""
    assert score_hand(f"{BASE} riichi", rules="riichi").legal
    for _ in range(2):
        with pytest.raises(HandError, match="needs a closed hand"):
            score_hand("[123m] 456m 789p 234s 5s +5s riichi", rules="riichi")
        with pytest.raises(HandError, match="ura: needs"):
            score_hand(f"{BASE} dora:1m ura:2m", rules="riichi")
