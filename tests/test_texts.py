"""The core's texts: every note, item detail, payment reason, arithmetic line, limit, option description
and rules value that has words is a `Said` (taihu/scorer/said.py): a `str` that is its English text, byte for byte
what the answers always said, with a catalog code and parameters that render it in Chinese.

What is checked: each text's parameters are the ones its code's texts name, and its English is its code's English
text filled in (so the catalog, not the code, holds the words); the records' JSON in English is the JSON of
before, and in Chinese has the same keys and numbers and no English word but tile codes, keys, option names and
the notation's words; with `codes` each text field X gains `X_code`, the same in both languages; the three
worked examples of the Lingxi page, in Chinese.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import re
from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

import pytest
from abuse_cases import sets_and_pair
from english_words import ENGLISH  # a word as it counts one
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_cli_chinese import HANDS, TABLES  # the examples
from test_messages import texts as catalog_texts
from typer.testing import CliRunner

from taihu.cli.main import app
from taihu.messages import Language, known
from taihu.scorer import HandError, HandScore, score_hand
from taihu.scorer import tiles as T
from taihu.scorer.arithmetic_lines import arithmetic
from taihu.scorer.rulesets import RULESETS, get
from taihu.scorer.rulesets.riichi.yaku import YAKU
from taihu.scorer.said import Said, code_in_lang, in_lang, parameters, said
from taihu.scorer.settlement import settle_table
from taihu.scorer.waiting import waits


def texts_in(value: Any) -> Iterator[str]:
    """Every string a record holds, records, lists and dicts walked through."""
    if isinstance(value, str):
        yield value
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            yield from texts_in(getattr(value, f.name))
    elif isinstance(value, list | tuple):
        for v in value:
            yield from texts_in(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from texts_in(v)


def answers() -> Iterator[tuple[str, Any]]:
    """The examples' answers: each hand's score and arithmetic, each table's settlement, each rule set's rules."""
    for rules, hand in HANDS:
        try:
            score = score_hand(hand, rules=rules)
        except HandError:
            continue
        yield f"{rules}: {hand}", [score, arithmetic(score)]
    for path in TABLES:
        result = settle_table(json.loads(path.read_text(encoding="utf-8")))
        yield path.name, [result, [arithmetic(s) for s in result.scores.values() if isinstance(s, HandScore)]]
    for name, rule_set in RULESETS.items():
        yield f"rules {name}", rule_set.info()


ANSWERS = list(answers())
SAID = {text.code: text for _, answer in ANSWERS for text in texts_in(answer) if isinstance(text, Said)}


def test_the_examples_say_many_texts() -> None:
    assert len(SAID) > 100  # the check below looks at texts that are there


@pytest.mark.parametrize("code", sorted(SAID))
def test_a_text_is_its_code_s_english_and_renders_in_chinese(code: str) -> None:
    text = SAID[code]
    assert known(code, "en") and known(code, "zh")
    assert set(text.params) == set(parameters(code)), "a text's parameters are its code's"
    assert Said(code, text.params) == text  # the English is the catalog's text, filled in
    assert in_lang(text, "en") is text
    chinese = text.in_lang("zh")
    assert chinese and "{" not in chinese  # every parameter filled in (some texts read alike: `[C C 2m=C] 花碰`)


def keys_of(rules: str) -> set[str]:
    """What a Chinese text may quote as it is: item keys (riichi's yaku too), option names, the notation's words."""
    rule_set = get(rules)
    return {
        *(item.key for item in rule_set.items),
        *(item.key for item in rule_set.info().items),  # every item the rules answer lists (riichi's dora too)
        *(yaku.key for yaku in YAKU),
        *(option.name for option in rule_set.options),
        *rule_set.conditions,
    }


# JSON keys whose strings are names, not texts: the notation, item keys and English names, units, rule sets
NAMES = frozenset({"hand", "arrangement", "rules", "unit", "key", "name", "name_en", "chinese"})


def english_words(data: Any, allowed: set[str]) -> set[str]:
    """The English words of the texts of JSON `data` (its names aside)."""
    if isinstance(data, dict):
        return {w for k, v in data.items() if k not in NAMES for w in english_words(v, allowed)}
    if isinstance(data, list):
        return {w for v in data for w in english_words(v, allowed)}
    if not isinstance(data, str):
        return set()
    return {word for word in ENGLISH.findall(data) if word not in allowed and not HONOURS.fullmatch(word)}


HONOURS = re.compile(r"[ESWNCFP]+")  # honour tiles written together, as a group is (`NNN`, `CC`): tile codes


def without_codes(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: without_codes(v) for k, v in data.items() if not k.endswith("_code")}
    if isinstance(data, list):
        return [without_codes(v) for v in data]
    return data


def shape(data: Any) -> Any:
    """The JSON with every string blanked: the keys, the numbers and the structure."""
    if isinstance(data, dict):
        return {k: shape(v) for k, v in data.items()}
    if isinstance(data, list):
        return [shape(v) for v in data]
    return "" if isinstance(data, str) else data


def check_languages(record: Any, rules: str, notation: str) -> None:
    """English: the JSON of before, also through the slow path; Chinese: the same shape, no English word."""
    english = record.to_dict()
    assert record.to_dict("en") == english
    assert without_codes(record.to_dict("en", codes=True)) == english
    chinese = record.to_dict("zh")
    assert shape(chinese) == shape(english)
    assert record.to_dict("zh", codes=True).keys() == record.to_dict("en", codes=True).keys()
    assert json.loads(json.dumps(english)) == english
    assert english_words(chinese, keys_of(rules) | set(ENGLISH.findall(notation))) == set()


@pytest.mark.parametrize(("rules", "hand"), HANDS, ids=[f"{r}:{h}" for r, h in HANDS])
def test_each_example_hand_in_both_languages(rules: str, hand: str) -> None:
    try:
        score = score_hand(hand, rules=rules)
    except HandError:
        return
    check_languages(score, rules, score.hand)
    allowed = keys_of(rules) | set(ENGLISH.findall(score.hand + " ".join(score.arrangement)))
    assert english_words([in_lang(line, "zh") for line in arithmetic(score)], allowed) == set()


@pytest.mark.parametrize("path", TABLES, ids=[p.stem for p in TABLES])
def test_each_example_table_in_both_languages(path: Path) -> None:
    result = settle_table(json.loads(path.read_text(encoding="utf-8")))
    hands = " ".join(s.hand + " " + " ".join(s.arrangement) for s in result.scores.values() if isinstance(s, HandScore))
    check_languages(result, result.rules, hands)


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_each_rules_answer_in_both_languages(rules: str) -> None:
    check_languages(get(rules).info(), rules, "")


# -- random hands of each rule set ----------------------------------------------------------------------------

WILD_COUNT = {"lingxi": 2, "luoshan": 1, "putian": 1, "jinhua": 1}  # the wildcards `wild:` reveals


def random_line(rules: str, seed: int) -> str:
    """A hand of sets and a pair of the rule set's size (a winner's, or less its `+` tile), conditions drawn."""
    rng = random.Random(seed)
    tiles = sets_and_pair(rng, get(rules).hand_size + 1)
    win = tiles.pop(rng.randrange(len(tiles)))
    words = [" ".join(T.name(k) for k in sorted(tiles))]
    if rng.random() < 0.8:
        words.append(f"+{T.name(win)}")
        words += ["self"] if rng.random() < 0.5 else []
    words += [f"seat:{rng.choice('ESWN')}"] if rng.random() < 0.7 else []
    if rules in WILD_COUNT and rng.random() < 0.7:
        words.append("wild:" + ",".join(T.name(rng.randrange(34)) for _ in range(WILD_COUNT[rules])))
    if rules == "riichi":
        words += ["riichi"] if rng.random() < 0.5 else []
        words += [f"dora:{T.name(rng.randrange(34))}"] if rng.random() < 0.7 else []
    return " ".join(words)


@settings(max_examples=60, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(sorted(RULESETS)), seed=st.integers(0, 2**32))
def test_random_hands_say_the_english_of_before_and_chinese(rules: str, seed: int) -> None:
    line = random_line(rules, seed)
    try:
        score = score_hand(line, rules=rules)
    except HandError:
        return
    check_languages(score, rules, score.hand)


# -- the codes -------------------------------------------------------------------------------------------------


def test_with_codes_each_text_field_has_its_code_beside_it_in_every_language() -> None:
    score = score_hand("123m 456m 789m 11p 22p", rules="luoshan")  # no `+`, no wild:, no seat:
    english, chinese = score.to_dict("en", codes=True), score.to_dict("zh", codes=True)
    assert english["notes_code"] == chinese["notes_code"]
    assert english["notes_code"][0] == {"code": "note.no_winning_tile", "params": {"tile": "2p"}}  # a tile of the hand
    assert [n["code"] for n in english["notes_code"]] == [n.code for n in score.notes]
    assert all("detail_code" in item for item in english["items"])
    assert english["limit_code"] is None and "limit_code" not in score.to_dict()


def test_a_word_parameter_is_given_by_its_own_code_and_renders_in_the_language() -> None:
    reason = said("reason.dealer_doubled", reason=said("reason.difference", difference=16))
    assert reason == "difference 16; dealer x2"
    assert reason.in_lang("zh") == "差额 16；庄家翻倍"
    assert reason.as_code() == {
        "code": "reason.dealer_doubled",
        "params": {"reason": {"code": "reason.difference", "params": {"difference": 16}}},
    }


def codes_without_parameters() -> list[str]:
    """The catalog's codes whose text names no parameter (a plural's is read by count: not a text by code)."""
    return sorted(code for code, forms in catalog_texts("en").items() if len(forms) == 1 and not parameters(code))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_text_by_code_says_what_its_said_says_for_every_code_without_parameters(lang: Language) -> None:
    codes = codes_without_parameters()
    assert len(codes) > 300
    shown = {code: code_in_lang(json.loads(json.dumps(Said(code, {}).as_code())), lang) for code in codes}
    assert shown == {code: Said(code, {}).in_lang(lang) for code in codes}


WITH_PARAMETERS = [
    said("reason.difference", difference=16),
    said("reason.dealer_doubled", reason=said("reason.winner")),  # a word parameter
    said("reason.dealer_doubled", reason=said("reason.difference", difference=16)),  # a word with its own
    said("note.no_winning_tile", tile="2p"),  # a tile, shown as it is
    said("value.each", value=8),
]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("text", WITH_PARAMETERS, ids=str)
def test_a_text_by_code_says_what_its_said_says_with_parameters(text: Said, lang: Language) -> None:
    shown = code_in_lang(json.loads(json.dumps(text.as_code())), lang)
    assert shown == text.in_lang(lang) and type(shown) is str


@pytest.mark.parametrize(
    "value",
    [
        {"code": "reason.no_such_code", "params": {}},  # a code the catalog does not know
        {"code": "reason.difference", "params": {}},  # a parameter its text names, missing
        {"code": "reason.dealer_doubled", "params": {"reason": {"code": "reason.no_such_code", "params": {}}}},
    ],
    ids=["unknown code", "missing parameter", "unknown word's code"],
)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_text_by_code_that_does_not_render_is_a_key_error(value: dict[str, Any], lang: Language) -> None:
    with pytest.raises(KeyError):
        code_in_lang(value, lang)


def test_a_text_is_an_immutable_string_that_survives_copies_and_pickles() -> None:
    text = said("note.riichi.house_options", options="kuitan 0")
    with pytest.raises(AttributeError):
        text.code = "note.other"  # type: ignore[misc]
    for copied in (copy.copy(text), copy.deepcopy(text), pickle.loads(pickle.dumps(text))):
        assert copied == text and copied.code == text.code and copied.params == text.params
    assert json.dumps([text]) == json.dumps(["house options used: kuitan 0"])


def test_riichi_s_waits_say_why_a_win_is_not_legal_in_chinese() -> None:
    found = waits("234567m 234p 88p 67s furiten", rules="riichi")
    wins = [w.discard for w in found.waits if w.discard is not None]
    english, chinese = found.to_dict(), found.to_dict("zh", codes=True)
    assert english == found.to_dict("en")
    reasons = [w["discard"]["reason"] for w in chinese["waits"] if w["discard"]]
    assert reasons and all(r.startswith("振听：") for r in reasons), reasons
    assert [w["discard"]["reason_code"]["code"] for w in chinese["waits"] if w["discard"]] == [
        "note.riichi.furiten"
    ] * len(wins)


# -- the worked examples of the Lingxi page, in Chinese --------------------------------------------------------

LINGXI_EXAMPLES = [
    pytest.param(
        "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S",
        56,
        ["灵溪：和牌", "3 + 3 + 8 + 7 + 7 = 28 台", "翻倍（达到翻倍的台数）：28 × 2 = 56 台"],
        "doubled (≥ double_at): 28 × 2 = 56 tai",
        id="example-1-56",
    ),
    pytest.param(
        "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W",
        26,
        ["灵溪：和牌", "13 台", "翻倍（达到翻倍的台数）：13 × 2 = 26 台"],
        "doubled (≥ double_at): 13 × 2 = 26 tai",
        id="example-2-26",
    ),
    pytest.param(
        "3p3p 123m 456m 78m 11s 45s 99p f5f6f7f8 P wild:3p,W seat:N",
        16,
        ["灵溪：未和牌", "f5 f6 f7 f8 打牌中集齐", "10 + 1 + 5 = 16 台", "不翻倍（未和）：16 台", "注：没有 + 牌"],
        "not doubled (a non-winner): 16 tai",
        id="example-3-16",
    ),
]


@pytest.mark.parametrize(("hand", "total", "lines", "english"), LINGXI_EXAMPLES)
def test_the_lingxi_pages_worked_examples_in_chinese(hand: str, total: int, lines: list[str], english: str) -> None:
    score = score_hand(hand, rules="lingxi")
    assert score.total == total
    assert arithmetic(score)[-1] == english
    env = {"COLUMNS": "200", "NO_COLOR": "1"}
    chinese = CliRunner().invoke(app, ["score", hand, "--lang", "zh"], env=env)
    assert chinese.exit_code == 0, chinese.output
    shown = " ".join(chinese.output.split())  # the arithmetic under the table wraps at the table's width
    for line in lines:
        assert line in shown
    assert english not in shown
    assert english in " ".join(CliRunner().invoke(app, ["score", hand, "--lang", "en"], env=env).output.split())


@pytest.mark.parametrize("ask", [{"params": {"lang": "zh"}}, {"headers": {"Accept-Language": "zh-CN"}}])
def test_the_api_answers_waits_in_the_request_s_language(ask: dict[str, Any]) -> None:
    """A riichi wait with no yaku says why in Chinese when the request asks for Chinese, as score does."""
    from api_app import app as api
    from fastapi.testclient import TestClient

    body = {"rules": "riichi", "hand": "[123m] [456p] 789s 23s 99m"}
    with TestClient(api) as client:
        english = client.post("/v1/waits", json=body).json()
        chinese = client.post("/v1/waits", json=body, **ask).json()
    reasons = [w["discard"]["reason"] for w in chinese["waits"]]
    assert reasons and all(r and not ENGLISH.search(r.replace("役なし", "")) for r in reasons), reasons
    assert [w["discard"]["reason"] for w in english["waits"]] != reasons  # the English answer stays English
