"""Waits (听牌) and 何切る: `waits` against scoring every tile with `score_hand`.

The property: take a random winning hand of a rule set, remove one tile —
the hand is then ready and that tile is among its waits; and the waits are
exactly the tiles a brute force finds by scoring every kind as `+tile` (on a
discard and self-drawn, catching HandError), with the same totals, legality
and arrangements. The fast path (`quick_waits`) equals the plain one.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from registry_examples import example_hands, example_lines

import taihu
from taihu import HandError, score_hand
from taihu.scorer import tiles as T
from taihu.scorer.rulesets import REGISTRY, RULESETS
from taihu.scorer.rulesets.base import RuleSet
from taihu.scorer.waiting import (
    Discards,
    Wait,
    Waits,
    plain_waits,
    waits,
)

SETTINGS = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)

# the rule sets the shared search finds the waits of (riichi finds its own: tests/test_riichi_waits.py)
WAITS_RULES = [name for name in REGISTRY if type(RULESETS[name]).own_waits is RuleSet.own_waits]


@cache
def shape(rules: str) -> tuple[int, list[int], list[str]]:
    """What a random winning hand of the rule set is made of, from the rule set and its examples: the sets at
    the win (a non-winning hand of 13 or 16 tiles is 4 or 5 sets and a pair less a tile), the kinds of which
    it holds enough copies to make a set, and the wildcard conditions its example hands name (or none)."""
    rule_set = RULESETS[rules]
    sets = REGISTRY[rules].hand_size // 3
    kinds = [k for k in range(T.PLAYABLE) if rule_set.copies_in_play(k, taihu.parse(T.name(k))) >= 3]
    named = {word for hand in example_lines(rules) for word in hand.split() if word.startswith(("wild:", "flip:"))}
    return sets, kinds, ["", *sorted(named)]


def winning_hand(rules: str, rng: random.Random) -> tuple[list[int], str] | None:
    """Bare tiles of a winning hand (sets + pair, some tiles swapped for wildcards) and its conditions."""
    sets, kinds, wilds = shape(rules)
    condition = rng.choice(wilds)
    tiles: list[int] = []
    for _ in range(sets):
        kind = rng.choice(kinds)
        if kind < 27 and kind % 9 <= 6 and rng.random() < 0.5:
            tiles += [kind, kind + 1, kind + 2]
        else:
            tiles += [kind] * 3
    tiles += [rng.choice(kinds)] * 2
    wild_names = condition.partition(":")[2].split(",") if condition.startswith("wild") else []
    for name in wild_names[:1]:
        kind = T.NAMES.index(name)
        for _ in range(rng.randrange(3)):
            tiles[rng.randrange(len(tiles))] = kind  # a wildcard can stand for any tile it replaces
    condition += rng.choice(["", " seat:S", " seat:W"])
    line = " ".join(T.name(k) for k in tiles[:-1]) + f" +{T.name(tiles[-1])} {condition}"
    try:
        score_hand(line, rules=rules)
    except HandError:
        return None
    return tiles, condition


def wildcard_names(hand: str) -> set[str]:
    """The wildcard kinds a `wild:` condition names (Lingxi: a revealed 春 makes 夏秋冬 wild)."""
    named = hand.partition("wild:")[2].split()[0].split(",") if "wild:" in hand else []
    return {"f2", "f3", "f4"} if "f1" in named else set(named)


def line_of(tiles: list[int], condition: str) -> str:
    return " ".join(T.name(k) for k in sorted(tiles)) + " " + condition


def brute_force(rules: str, hand: str) -> dict[str, tuple[object, object]]:
    """Every kind scored as the winning tile with score_hand: tile -> (on a discard, self-drawn)."""
    found = {}
    for kind in range(T.KIND_COUNT):
        results = []
        for how in ("", " self"):
            try:
                score = score_hand(f"{hand} +{T.name(kind)}{how}", rules=rules)
                results.append((score.total, score.legal, tuple(score.arrangement)))
            except HandError:
                results.append(None)
        if results != [None, None]:
            found[T.name(kind)] = (results[0], results[1])
    return found


def as_found(wait: Wait) -> tuple[object, object]:
    return tuple(None if w is None else (w.total, w.legal, w.arrangement) for w in (wait.discard, wait.self_drawn))  # type: ignore[return-value]


def ready_hand(rules: str, seed: int) -> tuple[str, int]:
    rng = random.Random(seed)
    for _ in range(200):
        made = winning_hand(rules, rng)
        if made is not None:
            tiles, condition = made
            removed = tiles.pop(rng.randrange(len(tiles)))
            return line_of(tiles, condition), removed
    raise AssertionError("no winning hand made")


@pytest.mark.parametrize("rules", WAITS_RULES)
@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_waits_agree_with_scoring_every_tile(rules: str, seed: int) -> None:
    hand, removed = ready_hand(rules, seed)
    result = waits(hand, rules=rules)
    assert isinstance(result, Waits)
    assert result.ready and T.name(removed) in [w.tile for w in result.waits], (hand, removed)
    brute = brute_force(rules, result.hand)
    assert [w.tile for w in result.waits] == list(brute), hand
    unclaimed = set() if RULESETS[rules].claims_wildcards else wildcard_names(hand)
    for wait in result.waits:
        discard, drawn = brute[wait.tile]
        expected_discard = None if wait.tile in unclaimed else discard  # nobody discards or claims one
        assert as_found(wait) == (expected_discard, drawn), (hand, wait)


@pytest.mark.parametrize("rules", WAITS_RULES)
@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_fast_path_equals_plain(rules: str, seed: int) -> None:
    hand, _ = ready_hand(rules, seed)
    assert waits(hand, rules=rules) == waits(hand, rules=rules, finder=plain_waits)


@pytest.mark.parametrize("rules", WAITS_RULES)
@settings(SETTINGS, max_examples=6)
@given(seed=st.integers(0, 2**32))
def test_discards_each_leave_the_waits_of_the_hand_without_that_tile(rules: str, seed: int) -> None:
    """何切る: a winning hand's tiles without its `+` are one too many; each discard's waits are those of the rest."""
    rng = random.Random(seed)
    made = None
    while made is None:
        made = winning_hand(rules, rng)
    tiles, condition = made
    result = waits(line_of(tiles, condition), rules=rules)
    assert isinstance(result, Discards)
    assert result.discards, "a complete hand has a discard that keeps it ready"
    for choice in result.discards:
        rest = list(tiles)
        rest.remove(T.NAMES.index(choice.tile))
        alone = waits(line_of(rest, condition), rules=rules)
        assert isinstance(alone, Waits) and alone.waits == choice.waits
    keys = [(-d.unseen_wins, -d.best_total) for d in result.discards]
    assert keys == sorted(keys), "best first: most unseen winning tiles, then the best total"
    assert result.discards[0].waits


# -- table-driven from the rules pages --------------------------------------------------------


def wait_of(result: Waits | Discards, tile: str) -> Wait:
    assert isinstance(result, Waits)
    return next(w for w in result.waits if w.tile == tile)


@pytest.mark.parametrize(
    "rules, hand, tile, unseen",
    [
        # Lingxi: a revealed wildcard tile is out of play (3 left), 2 when both are that kind
        ("lingxi", "123m 456m 789p 234s 678s 5p wild:9s,N seat:W", "9s", 3),
        ("lingxi", "123m 456m 789p 234s 678s 5p wild:9s,9s seat:W", "9s", 2),
        ("lingxi", "123m 456m 789p 234s 678s 5p wild:9s,N seat:W", "5p", 3),
        # Lingxi: a revealed flower makes the rest of its group wild; one of each flower
        ("lingxi", "123m 456m 789p 234s 678s 5p wild:f1,N seat:W", "f2", 1),
        # Luoshan: the flipped indicator stays in play, four of the wildcard kind remain
        ("luoshan", "123m 456m 789p 23s 55p flip:9p seat:W", "1p", 4),
        ("luoshan", "123m 456m 789p 23s 55p flip:9p seat:W", "1s", 4),
        # Putian: the flipped 金 is out of play, three 金 remain
        ("putian", "123m 456m 789p 234s 678s 5p wild:9s", "9s", 3),
        # Jinhua: the flipped 财神 is out of play
        ("jinhua", "123m 456m 789p 23s 55p wild:9s", "9s", 3),
        ("jinhua", "123m 456m 789p 23s 55p wild:9s", "4s", 4),
    ],
)
def test_unseen_counts_as_the_rule_set_counts_tiles(rules: str, hand: str, tile: str, unseen: int) -> None:
    assert wait_of(waits(hand, rules=rules), tile).unseen == unseen


def test_guannan_holds_one_of_each_wind() -> None:
    """A lone wind never pairs (one of each): the hand is not ready, and one copy counts."""
    assert RULESETS["guannan"].copies_in_play(T.EAST, taihu.parse("E")) == 1
    result = waits("123m 456m 789p 234s E", rules="guannan")
    assert isinstance(result, Waits) and not result.ready


def test_unseen_subtracts_the_tiles_in_the_line() -> None:
    """4 minus those in hand and in melds: 3p held once and once in the chow, so 2 remain."""
    assert wait_of(waits("[123m] 456m 789p 234s 678s 5p wild:9s,N seat:W"), "5p").unseen == 3
    assert wait_of(waits("[123p] 456m 789m 234s 678s 3p wild:9s,N seat:W"), "3p").unseen == 2


def test_luoshan_minimum_lists_the_wait_as_not_legal() -> None:
    """Luoshan example 2: 40 self-drawn is under the 100 minimum — listed, legal false."""
    wait = wait_of(waits("[CCC] 55m 789s 345m 99s flip:1p seat:S", rules="luoshan"), "5m")
    assert wait.self_drawn is not None and (wait.self_drawn.total, wait.self_drawn.legal) == (40, False)
    assert not wait.legal


def test_ping_he_wait() -> None:
    """Luoshan example 3: 23s waits on 1s/4s as 平和 30, and on the wildcard 1p."""
    result = waits("123m 456m 789p 23s 55p flip:9p seat:W", rules="luoshan")
    assert [w.tile for w in result.waits] == ["1p", "1s", "4s"]  # type: ignore[union-attr]
    assert all(w.discard is not None and w.discard.total == 30 and w.discard.legal for w in result.waits)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "rules, hand, wildcard",
    [
        ("lingxi", "123m 456m 789p 234s 678s 5p wild:9s,N seat:W", "9s"),
        ("putian", "123m 456m 789p 234s 678s 5p wild:9s", "9s"),
        ("jinhua", "123m 456m 789p 23s 55p wild:9s", "9s"),
    ],
)
def test_no_win_on_a_discarded_wildcard(rules: str, hand: str, wildcard: str) -> None:
    """Lingxi and Putian never discard a wildcard; a Jinhua 财神 is never claimed: self-drawn only."""
    wait = wait_of(waits(hand, rules=rules), wildcard)
    assert wait.discard is None and wait.self_drawn is not None


def test_luoshan_wildcard_can_be_won_on_a_discard() -> None:
    wait = wait_of(waits("123m 456m 789p 23s 55p flip:9p seat:W", rules="luoshan"), "1p")
    assert wait.discard is not None


def test_lingxi_wild_flower_is_a_wait_and_a_plain_flower_is_not() -> None:
    result = waits("123m 456m 789p 234s 678s 5p wild:f1,N seat:W")
    tiles = [w.tile for w in result.waits]  # type: ignore[union-attr]
    assert {"f2", "f3", "f4"} <= set(tiles) and "f1" not in tiles and "f5" not in tiles and "P" not in tiles


def test_covered_by_a_held_wildcard() -> None:
    """A lone held wildcard waits on every tile: each wait is covered, but those that win with the
    wildcard as its own face: 9s pairs it, 6s makes 66s 789s."""
    lone = waits("123m 456m 789p 234s 678s 9s wild:9s,N seat:W")
    assert isinstance(lone, Waits) and len(lone.waits) > 30
    assert [w.tile for w in lone.waits if not w.covered_by_wildcard] == ["6s", "9s"]
    # three wildcards as their own pung, and a natural two-sided wait: not covered
    assert not wait_of(waits("123m 456m 789p 23s 9s9s9s 55p wild:9s,N"), "1s").covered_by_wildcard
    # no wildcard held: never covered
    assert not any(w.covered_by_wildcard for w in waits("123m 456m 789p 234s 678s 5p wild:9s,N").waits)  # type: ignore[union-attr]


def test_a_hand_that_is_not_ready() -> None:
    result = waits("19m 19p 19s ESWN CF 5m 7p 3s 8s", rules="lingxi")
    assert isinstance(result, Waits)
    assert result.to_dict()["ready"] is False and result.to_dict()["waits"] == []


def test_json_shape() -> None:
    data = waits("123m 456m 789p 23s 55p flip:9p seat:W", rules="luoshan").to_dict()
    assert list(data) == ["rules", "hand", "ready", "waits", "kind"] and data["kind"] == "waits"
    first = data["waits"][0]
    assert list(first) == ["tile", "unseen", "discard", "self", "covered_by_wildcard"]
    assert list(first["discard"]) == ["total", "legal", "arrangement"]
    choices = waits("123m 456m 789p 23s 55p 9s flip:9p seat:W", rules="luoshan").to_dict()
    assert list(choices) == ["rules", "hand", "discards", "kind"] and choices["discards"][0]["tile"] == "9s"
    assert choices["kind"] == "discards"


def test_exported_from_the_package() -> None:
    assert taihu.waits is waits
    from taihu.scorer import waits as from_core

    assert from_core is waits


@pytest.mark.parametrize(
    "rules, hand, message",
    [
        ("lingxi", "123m 456m 789p 234s 678s 5p +5p wild:9s,N", "remove '+5p' at column 29"),
        ("luoshan", "123m 456m 789p 23s 55p self", "condition 'self' at column 24"),
        ("lingxi", "123m 456m 789p 234s 678s 5p declare:sha-zhu", "declare:sha-zhu at column 29"),
        ("nope", "123m", "unknown rule set 'nope'"),
    ],
)
def test_a_hand_that_is_no_waiting_hand_is_an_error(rules: str, hand: str, message: str) -> None:
    with pytest.raises(HandError) as raised:
        waits(hand, rules=rules)
    assert message in str(raised.value)


@pytest.mark.parametrize(
    "rules, hand",
    [
        ("lingxi", "123m 456m 789p 234s 678s 5p Q"),
        ("lingxi", "123m 456m 789p 234s 5p"),  # 13 tiles: neither waiting (16) nor one too many
        ("luoshan", "123m 456m 789p 23s 55p 99s"),  # 15
        ("putian", "123m 456m 789p 234s 678s 5p wild:9s,1m"),
        ("lingxi", "[55m5m] 456m 789p 234s 678s 5p wild:5m,N"),
    ],
)
def test_bad_hands_give_the_error_score_hand_gives(rules: str, hand: str) -> None:
    with pytest.raises(HandError) as expected:
        score_hand(hand, rules=rules)
    with pytest.raises(HandError) as raised:
        waits(hand, rules=rules)
    assert str(raised.value) == str(expected.value)


def test_unknown_option_is_the_error() -> None:
    with pytest.raises(HandError, match="unknown option 'nope'"):
        waits("123m 456m 789p 23s 55p 9s flip:9p", rules="luoshan", options={"nope": 1})


def test_options_reach_the_scores() -> None:
    """杀猪胡 at the house value 20: each wait's totals are score_hand's with that option."""
    hand = "5m5m5m E 123p 456p 789s 11s 2m wild:5m,E seat:S"
    options = {"sha_zhu_hu": 20}
    result = waits(hand, options=options)
    assert isinstance(result, Waits) and result.ready
    changed = 0
    for wait in result.waits:
        drawn = score_hand(f"{result.hand} +{wait.tile} self", options=options)
        assert wait.self_drawn is not None and wait.self_drawn.total == drawn.total
        changed += drawn.total != score_hand(f"{result.hand} +{wait.tile} self").total
    assert changed


# -- the shells: HTTP and the command ---------------------------------------------------------


def test_http_answers_the_library_json() -> None:
    from api_app import app
    from fastapi.testclient import TestClient

    client = TestClient(app, raise_server_exceptions=False)
    for hand in ("123m 456m 789p 23s 55p flip:9p seat:W", "123m 456m 789p 23s 55p 9s flip:9p seat:W"):
        reply = client.post("/waits", json={"rules": "luoshan", "hand": hand, "options": {}})
        assert reply.status_code == 200, reply.text
        assert reply.json() == waits(hand, rules="luoshan").to_dict()


@pytest.mark.parametrize(
    "body",
    [
        {"rules": "luoshan", "hand": "123m 456m 789p 23s 55p +1s"},
        {"rules": "luoshan", "hand": "123m 456m"},
        {"rules": "nope", "hand": "123m 456m 789p 23s 55p"},
        {"rules": "luoshan", "hand": "123m 456m 789p 23s 55p", "options": {"nope": 1}},
    ],
)
def test_http_bad_input_is_422_with_the_library_message(body: dict[str, object]) -> None:
    from api_app import app
    from fastapi.testclient import TestClient

    reply = TestClient(app, raise_server_exceptions=False).post("/waits", json=body)
    assert reply.status_code == 422
    with pytest.raises(HandError) as raised:
        waits(str(body["hand"]), rules=str(body["rules"]), options=body.get("options"))  # type: ignore[arg-type]
    assert reply.json()["detail"] == str(raised.value)


def test_command_prints_the_json_and_exits_2_on_bad_input() -> None:
    import json

    from typer.testing import CliRunner

    from taihu.cli.main import app
    from taihu.messages.error_shape import error_shape

    runner = CliRunner()
    hand = "123m 456m 789p 23s 55p flip:9p seat:W"
    shown = runner.invoke(app, ["waits", hand, "-r", "luoshan", "--json"])
    assert shown.exit_code == 0 and json.loads(shown.stdout) == waits(hand, rules="luoshan").to_dict()
    table = runner.invoke(app, ["waits", hand, "-r", "luoshan"])
    assert table.exit_code == 0 and "1s" in table.stdout and "4s" in table.stdout
    choices = runner.invoke(app, ["waits", "123m 456m 789p 23s 55p 9s flip:9p", "-r", "luoshan"])
    assert choices.exit_code == 0 and "discards, best first" in choices.stdout
    bad = runner.invoke(app, ["waits", hand + " +1s", "-r", "luoshan"])
    assert bad.exit_code == 2 and "remove '+1s'" in bad.stderr
    bad_json = runner.invoke(app, ["waits", "123m x", "--json"])
    assert bad_json.exit_code == 2
    answer = json.loads(bad_json.stdout)
    assert {**answer, "detail": "", "message": ""} == error_shape("unknown_tile", "", column=6)
    assert answer["detail"].startswith("unknown tile 'x' at column 6")
    option = runner.invoke(app, ["waits", hand, "-r", "luoshan", "-o", "nope"])
    assert option.exit_code == 2


# -- never a crash ----------------------------------------------------------------------------

# every rule set's example hands without their winning tile: most of them waiting hands
NEAR_HANDS = [(rules, " ".join(w for w in hand.split() if not w.startswith("+"))) for rules, hand in example_hands()]
TOKENS = sorted({t for _, hand in NEAR_HANDS for t in hand.split()} | {"+5p", "self", "declare:sha-zhu", "x"})


@settings(SETTINGS, max_examples=60)
@given(
    st.sampled_from(NEAR_HANDS),
    st.sampled_from(list(REGISTRY)),
    st.lists(st.sampled_from(TOKENS), max_size=2),
    st.integers(0, 20),
)
def test_near_misses_answer_or_raise_hand_error(base: tuple[str, str], rules: str, extra: list[str], drop: int) -> None:
    """Hands one or two edits away from ready ones, under any rule set: an answer or a HandError, no other."""
    tokens = base[1].split()
    if drop < len(tokens):
        del tokens[drop]
    try:
        result = waits(" ".join(tokens + extra), rules=rules)
    except HandError:
        return
    assert result.to_dict()["rules"] == rules


def test_http_refuses_unknown_fields() -> None:
    from api_app import app
    from fastapi.testclient import TestClient

    body = {"rules": "luoshan", "hand": "123m 456m 789p 23s 55p", "extra": 1}
    reply = TestClient(app, raise_server_exceptions=False).post("/waits", json=body)
    assert reply.status_code == 422 and "extra" in reply.json()["detail"]
