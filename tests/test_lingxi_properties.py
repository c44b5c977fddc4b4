"""Property tests (hypothesis) for the notation and the Lingxi scorer.

(a) notation round-trip; (b) the order of a hand's tiles never changes its
score; (c) adding a flower never lowers a total (except that it takes away
平胡, which needs no flower); (d) any string gives a score or a HandError,
never another exception.

All runs are bounded and derandomized (fixed examples each run) so the suite
stays fast and reproducible; no example database is written.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from taihu.scorer import HandError, parse, score_hand, to_text
from taihu.scorer import tiles as T
from taihu.scorer.notation import DECLARED_WINS, FLAG_CONDITIONS, Meld, ParsedHand

SETTINGS = settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)

ALL_KINDS = st.integers(0, T.KIND_COUNT - 1)  # tiles, honors, 白, flowers
SET_KINDS = st.integers(0, T.WHITE - 1)  # what can stand in a Lingxi set: no 白, no flowers
FLOWERS = tuple(range(T.FIRST_FLOWER, T.KIND_COUNT))
CHINESE_OF = {}
for _char, _kind in T.CHINESE.items():
    CHINESE_OF.setdefault(_kind, []).append(_char)
Z_DIGIT = {kind: digit for digit, kind in T.HONOR_DIGITS.items()}


# -- (a) round-trip ----------------------------------------------------------------------


@st.composite
def melds(draw) -> Meld:
    shape = draw(st.sampled_from(["chow", "pung", "kong", "flowers"]))
    if shape == "chow":
        start = draw(st.integers(0, 2)) * 9 + draw(st.integers(0, 6))
        return Meld((start, start + 1, start + 2), False)
    if shape == "pung":
        return Meld((draw(st.integers(0, T.WHITE)),) * 3, False)
    if shape == "kong":
        return Meld((draw(st.integers(0, T.WHITE)),) * 4, draw(st.booleans()))
    group = draw(st.integers(0, 1))
    return Meld(tuple(T.FIRST_FLOWER + 4 * group + i for i in range(4)), True)


@st.composite
def structured_hands(draw) -> ParsedHand:
    return ParsedHand(
        tiles=tuple(sorted(draw(st.lists(ALL_KINDS, min_size=1, max_size=20)))),
        melds=tuple(sorted(draw(st.lists(melds(), max_size=4)), key=lambda m: (m.concealed, m.tiles))),
        win=draw(st.none() | ALL_KINDS),
        seat=draw(st.none() | st.sampled_from(T.SEATS)),
        wild=draw(st.none() | st.lists(ALL_KINDS, min_size=1, max_size=2).map(tuple)),
        flip=draw(st.none() | ALL_KINDS),
        flags=frozenset(draw(st.sets(st.sampled_from(FLAG_CONDITIONS)))),
        declare=draw(st.none() | st.sampled_from(DECLARED_WINS)),
    )


@SETTINGS
@given(structured_hands())
def test_round_trip_structured(hand: ParsedHand) -> None:
    text = to_text(hand)
    assert parse(text) == hand
    assert to_text(parse(text)) == text  # the printed form is canonical


@st.composite
def spelled_tile(draw, kind: int) -> str:
    """One tile written in any accepted spelling."""
    options = [T.name(kind)]
    options += CHINESE_OF.get(kind, [])
    if kind in Z_DIGIT:
        options.append(f"{Z_DIGIT[kind]}z")
    return draw(st.sampled_from(options))


@st.composite
def tile_token(draw) -> str:
    """A run of suited digits (`352m`) or one honor/flower in any spelling."""
    if draw(st.booleans()):
        suit = draw(st.sampled_from("mps"))
        digits = draw(st.lists(st.integers(1, 9), min_size=1, max_size=4))
        return "".join(map(str, digits)) + suit
    return draw(spelled_tile(draw(st.integers(T.EAST, T.KIND_COUNT - 1))))


@st.composite
def meld_token(draw) -> str:
    meld = draw(melds())
    inner_sep = draw(st.sampled_from(["", " "]))
    body = inner_sep.join(draw(spelled_tile(k)) for k in meld.tiles)
    return f"({body})" if meld.concealed else f"[{body}]"


@st.composite
def condition_tokens(draw) -> list[str]:
    out = []
    if draw(st.booleans()):
        out.append("seat:" + draw(st.sampled_from(["E", "S", "W", "N", "东", "南", "西", "北"])))
    if draw(st.booleans()):
        wild = draw(st.lists(st.integers(0, T.KIND_COUNT - 1), min_size=1, max_size=2))
        out.append("wild:" + ",".join(draw(spelled_tile(k)) for k in wild))
    if draw(st.booleans()):
        out.append("flip:" + draw(spelled_tile(draw(ALL_KINDS))))
    out += sorted(draw(st.sets(st.sampled_from(FLAG_CONDITIONS))))
    if draw(st.booleans()):
        out.append("declare:" + draw(st.sampled_from(DECLARED_WINS)))
    return draw(st.permutations(out))


@st.composite
def hand_strings(draw) -> str:
    parts = draw(st.lists(tile_token(), min_size=1, max_size=8)) + draw(st.lists(meld_token(), max_size=3))
    parts = draw(st.permutations(parts))
    text = ""
    for part in parts:
        text += draw(st.sampled_from(["", " ", "  ", "\t"])) + part
    if draw(st.booleans()):
        text += " +" + draw(spelled_tile(draw(ALL_KINDS)))
    for cond in draw(condition_tokens()):
        text += " " + cond
    return text.strip()


@SETTINGS
@given(hand_strings())
def test_round_trip_strings(text: str) -> None:
    first = parse(text)
    assert parse(to_text(first)) == first


@pytest.mark.parametrize(
    "text",
    [
        "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S",
        "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W",
        "3p3p 123m 456m 78m 11s 45s 99p f5f6f7f8 P wild:3p,W seat:N",
        "[EEE] [SSS] [WWW] 234m 567p N +N wild:3s,C seat:S",
        "东东东 南南南 1z 2z 3z 5z6z7z 春夏秋冬 梅 蘭 +發 seat:西 wild:東,5m self last-tile",
        "(5555p) [1m 2m 3m] (f1f2f3f4) 9m9m +9m declare:sha-zhu kong-draw",
    ],
)
def test_round_trip_examples(text: str) -> None:
    first = parse(text)
    assert parse(to_text(first)) == first
    assert to_text(parse(to_text(first))) == to_text(first)


# -- winning Lingxi hands --------------------------------------------------------------------


def _limit(kind: int, wild: tuple[int, ...]) -> int:
    return (1 if T.is_flower(kind) else 4) - wild.count(kind)


@st.composite
def lingxi_hands(draw, winner: bool = True) -> dict:
    """A valid Lingxi hand as parts: concealed tiles, melds, flowers, win tile, conditions.

    Winner: 5 sets + pair of natural tiles, some sets exposed or made kongs,
    then up to four concealed tiles replaced by wildcards (a wildcard can
    stand for the tile it replaced, so the hand still wins). Non-winner:
    16 random tiles. Copies are kept within the 4-per-kind (3 or 2 for a
    revealed wildcard kind) limits.
    """
    wild = (draw(SET_KINDS), draw(SET_KINDS))
    wild_kinds = set(wild)
    concealed: list[int] = []
    meld_texts: list[str] = []
    in_sight: list[int] = []
    if winner:
        for _ in range(5):
            if draw(st.booleans()):
                start = draw(st.integers(0, 2)) * 9 + draw(st.integers(0, 6))
                group = [start, start + 1, start + 2]
            else:
                group = [draw(SET_KINDS)] * 3
            how = draw(st.sampled_from(["hand", "hand", "exposed", "kong"]))
            if how != "hand" and not (set(group) & wild_kinds):
                if how == "kong" and len(set(group)) == 1:
                    concealed_kong = draw(st.booleans())
                    text = T.group_text(group + group[:1])
                    meld_texts.append(f"({text})" if concealed_kong else f"[{text}]")
                    in_sight += group + group[:1]
                    continue
                meld_texts.append(f"[{T.group_text(group)}]")
                in_sight += group
                continue
            concealed += group
        concealed += [draw(SET_KINDS)] * 2
        for _ in range(draw(st.integers(0, 4))):
            at = draw(st.integers(0, len(concealed) - 1))
            concealed[at] = draw(st.sampled_from(wild))
    else:
        concealed = draw(st.lists(SET_KINDS, min_size=16, max_size=16))
    flowers = sorted(draw(st.sets(st.sampled_from(FLOWERS))))
    whites = [T.WHITE] * draw(st.integers(0, 2))
    counts = Counter(concealed + in_sight + flowers + whites)
    assume(all(n <= _limit(k, wild) for k, n in counts.items()))
    win = None
    if winner:
        win = concealed.pop(draw(st.integers(0, len(concealed) - 1)))
    conditions = [f"wild:{T.name(wild[0])},{T.name(wild[1])}", f"seat:{draw(st.sampled_from(T.SEATS))}"]
    if winner and (win in wild or draw(st.booleans())):  # a wildcard is won self-drawn only (never discarded)
        conditions.append("self")
    return {
        "tiles": [T.name(k) for k in concealed],
        "melds": meld_texts,
        "flowers": [T.name(k) for k in flowers + whites],
        "win": win,
        "conditions": conditions,
        "wild": wild,
    }


def assemble(hand: dict, order: list[str] | None = None, extra_flower: str | None = None) -> str:
    tokens = hand["tiles"] + hand["melds"] + hand["flowers"]
    if hand["win"] is not None:
        tokens.append("+" + T.name(hand["win"]))
    if extra_flower:
        tokens.append(extra_flower)
    if order is not None:
        tokens = order
    return " ".join(tokens + hand["conditions"])


def summary(result) -> tuple:
    return result.total, result.subtotal, sorted((i.key, i.value) for i in result.items)


@SETTINGS
@given(st.data())
def test_tile_order_never_changes_the_score(data) -> None:
    hand = data.draw(lingxi_hands(winner=True))
    tokens = hand["tiles"] + hand["melds"] + hand["flowers"] + ["+" + T.name(hand["win"])]
    shuffled = data.draw(st.permutations(tokens))
    conditions = data.draw(st.permutations(hand["conditions"]))
    plain = score_hand(assemble(hand))
    mixed = score_hand(" ".join(list(shuffled) + list(conditions)))
    assert summary(mixed) == summary(plain)
    assert mixed.hand == plain.hand
    assert plain.winner and plain.total >= plain.subtotal


# -- (c) adding a flower ----------------------------------------------------------------------


def _flower_to_add(data, hand: dict) -> str:
    present = set(hand["flowers"])
    candidates = [T.name(k) for k in FLOWERS if T.name(k) not in present]
    if hand["flowers"].count("P") < 4 and T.WHITE not in hand["wild"]:
        candidates.append("P")
    assume(candidates)
    return data.draw(st.sampled_from(candidates))


@SETTINGS
@given(st.data(), st.booleans())
def test_adding_a_flower_never_lowers_the_total(data, winner: bool) -> None:
    hand = data.draw(lingxi_hands(winner=winner))
    flower = _flower_to_add(data, hand)
    before = score_hand(assemble(hand))
    after = score_hand(assemble(hand, extra_flower=flower))
    keys = {i.key for i in before.items}
    if "ping_hu" in keys:
        # 平胡 needs no flower (rules/lingxi.md): the flower takes the fixed 13 away
        assert "ping_hu" not in {i.key for i in after.items}
        return
    assert after.total >= before.total
    assert after.subtotal > before.subtotal  # a flower always adds hua (or 花胡)


def test_a_flower_takes_ping_hu_away() -> None:
    """The documented exception to (c): 平胡 13 -> 26, with a flower hua 1 + 硬打硬 7 = 8."""
    assert score_hand("123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W").total == 26
    assert score_hand("123m 456m 789p 234s 678s 5p f1 +5p wild:9s,N seat:W").total == 8


# -- (d) any string: a score or a HandError ----------------------------------------------------

NOTATION_ALPHABET = (
    "0123456789mpszf ESWNCFP[]()+:,-\tselfkongdrawrobtiheavnrthumwdcpz东南西北中发白春夏秋冬梅兰菊竹東發蘭"
)


def only_hand_errors(text: str) -> None:
    try:
        parse(text)
    except HandError:
        pass
    try:
        score_hand(text)
    except HandError:
        pass


@SETTINGS
@given(st.text(alphabet=NOTATION_ALPHABET, max_size=60))
def test_notation_like_strings_raise_only_hand_error(text: str) -> None:
    only_hand_errors(text)


@SETTINGS
@given(st.text(max_size=40))
def test_any_text_raises_only_hand_error(text: str) -> None:
    only_hand_errors(text)


@SETTINGS
@given(
    st.lists(
        st.sampled_from(
            [
                "123m",
                "5p",
                "E",
                "C",
                "P",
                "f1",
                "[555p]",
                "(EEEE)",
                "[123s]",
                "+9m",
                "+P",
                "wild:5m,E",
                "wild:f1,f1",
                "seat:S",
                "self",
                "rob-kong",
                "kong-draw",
                "last-tile",
                "heaven",
                "earth",
                "declare:sha-zhu",
                "declare:hua-hu",
                "99s",
                "44p",
                "777s",
                "5m5m5m",
            ]
        ),
        max_size=14,
    ).map(" ".join)
)
def test_token_soup_raises_only_hand_error(text: str) -> None:
    only_hand_errors(text)


@SETTINGS
@given(st.text(alphabet="²①1m p+[", min_size=1, max_size=6))
def test_strings_with_non_ascii_digits_raise_only_hand_error(text: str) -> None:
    only_hand_errors(text)
