"""Errors: every HandError the core raises has a fine code and its text in the catalog.

A HandError made with `HandError.of(msgid, code=..., **params)` keeps its msgid and parameters; its English
(`str(err)`) and its Chinese (`message_in("zh")`) are the catalog's texts (taihu/messages/), so the English is
written once. This file holds that to the code: a scan of every place taihu/ makes one (notation.py, the API
and the CLI have their own owners and are left to them), a table of bad inputs of each rule set with the code
they get and a Chinese message with no English word in it, the Chinese texts of every error message, and
that rendering never fails, whatever the parameters.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st
from registry_examples import catalog_files

from taihu.ledger import check_new
from taihu.messages import LANGUAGES, known
from taihu.scorer import HandError, score_hand
from taihu.scorer.errors import Joined, Term, Text, Word
from taihu.scorer.rulesets import RULESETS
from taihu.scorer.settlement import settle_table
from taihu.scorer.waiting import waits

ROOT = Path(__file__).resolve().parent.parent
# made elsewhere, by their owners: the notation's errors, the API's and the command line's own
NOT_HERE = ("taihu/scorer/notation.py", "taihu/api/", "taihu/cli/")
ENGLISH = re.compile(r"[A-Za-z][A-Za-z_'-]*[A-Za-z]")  # two ASCII letters or more: no tile code or seat has
SNAKE = re.compile(r"[a-z]+(?:_[a-z]+)*")


def error_classes(trees: dict[Path, ast.Module]) -> set[str]:
    """HandError and every class of taihu/ that derives from it (ArgumentError, LedgerFull, DealConflict …)."""
    names = {"HandError"}
    while True:
        more = {
            node.name
            for tree in trees.values()
            for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef) and any(isinstance(b, ast.Name) and b.id in names for b in node.bases)
        }
        if more <= names:
            return names
        names |= more


def trees() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted((ROOT / "taihu").rglob("*.py"))}


def parameters(function: ast.FunctionDef | ast.AsyncFunctionDef | None) -> set[str]:
    if function is None:
        return set()
    return {a.arg for a in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs)}


def constant_keys(node: ast.expr) -> list[str] | None:
    """The msgid(s) a key expression can be: a string, or either string of `a if … else b`; None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        body, orelse = constant_keys(node.body), constant_keys(node.orelse)
        return body + orelse if body is not None and orelse is not None else None
    return None


def construction_sites() -> Iterator[tuple[str, ast.Call, ast.FunctionDef | ast.AsyncFunctionDef | None]]:
    """Every call that makes a HandError (or one of its classes) outside notation.py, the API and the CLI."""
    found = trees()
    classes = error_classes(found)
    for path, tree in found.items():
        where = str(path.relative_to(ROOT))
        if where.startswith(NOT_HERE) or where == "taihu/scorer/errors.py":
            continue
        functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            direct = isinstance(func, ast.Name) and func.id in classes
            made_of = (
                isinstance(func, ast.Attribute)
                and func.attr in ("of", "at_seat")  # HandError.of, and its form for one seat of a table
                and isinstance(func.value, ast.Name)
                and func.value.id in classes
            )
            if direct or made_of:
                holding = [f for f in functions if f.lineno <= node.lineno <= (f.end_lineno or f.lineno)]
                inside = max(holding, key=lambda f: f.lineno, default=None)  # the innermost: a helper's own
                yield f"{where}:{node.lineno}", node, inside


def problems_of(call: ast.Call, inside: ast.FunctionDef | ast.AsyncFunctionDef | None) -> list[str]:
    """What is missing at one site: a catalog key, a fine code."""
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    problems = []
    made_of = isinstance(call.func, ast.Attribute)
    key = call.args[0] if made_of and call.args else keywords.get("text")
    if key is None and call.args and isinstance(call.args[0], ast.Call):  # DealConflict(Text(...), …)
        key = call.args[0]
    if isinstance(key, ast.Call) and isinstance(key.func, ast.Name) and key.func.id == "Text":
        key = key.args[0] if key.args else None
    keys = constant_keys(key) if key is not None else None
    if key is None:
        problems.append("no catalog key (HandError(message) with English only)")
    elif keys is None and not (isinstance(key, ast.Name) and key.id in parameters(inside)):
        problems.append(f"a key that is neither a string nor the helper's parameter: {ast.unparse(key)}")
    for msgid in keys or []:
        if not all(known(msgid, lang) for lang in LANGUAGES):
            problems.append(f"{msgid}: not in both catalogs")
    code = keywords.get("code")
    inherited = isinstance(code, ast.Attribute) and code.attr == "code"  # a wrapper keeps the inner error's code
    own_code = isinstance(call.func, ast.Name) and call.func.id == "DealConflict"  # its class sets it
    if code is None and not own_code:
        problems.append("no code")
    elif isinstance(code, ast.Constant) and (code.value == "bad_input" or not SNAKE.fullmatch(str(code.value))):
        problems.append(f"code {code.value!r}: finer than bad_input, snake_case")
    elif code is not None and not isinstance(code, ast.Constant) and not inherited:
        if not (isinstance(code, ast.Name) and code.id in parameters(inside)):
            problems.append(f"code {ast.unparse(code)}: a string, or the inner error's .code")
    return problems


def test_every_error_the_core_makes_has_a_catalog_key_and_a_fine_code() -> None:
    sites = list(construction_sites())
    assert len(sites) > 150, "the scan finds the core's errors"
    missing = {where: problems for where, call, inside in sites if (problems := problems_of(call, inside))}
    assert missing == {}


@pytest.mark.parametrize(
    ("source", "problem"),
    [
        ('raise HandError("the tiles are wrong")', "no catalog key"),
        ('raise HandError.of("error.no.such.key", code="tile_count")', "not in both catalogs"),
        ('raise HandError.of("error.shape.lingxi", code="bad_input")', "finer than bad_input"),
        ('raise HandError.of("error.shape.lingxi")', "no code"),
    ],
)
def test_the_scan_finds_a_site_without_key_or_code(source: str, problem: str) -> None:
    call = next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call))
    assert any(problem in found for found in problems_of(call, None))


def po_texts(lang: str) -> dict[str, str]:
    found = {}
    for path in catalog_files(lang):
        with path.open("rb") as file:
            found |= {m.id: m.string for m in read_po(file, locale=lang) if isinstance(m.id, str) and m.id}
    return found


def error_keys() -> list[str]:
    return sorted(key for key in po_texts("en") if key.startswith("error."))


# Words a Chinese message keeps as they are typed or read by a program: the notation's condition words and
# values, option names, rule set and field names, JSON, the command names.
def kept_words() -> set[str]:
    words = {"taihu", "score", "waits", "ledger", "list", "new", "undo", "rules", "db", "players", "events"}
    words |= {"winner", "discarder", "wild", "flip", "options", "total", "tenpai", "type", "seat", "null", "true"}
    words |= {"false", "None", "JSON", "UTF", "URL", "SQLite", "postgresql", "user", "host", "ETag", "GET"}
    words |= {"If-Match", "Idempotency-Key", "TAIHU_DB", "aka_dora", "tile", "declare", "Table", "table", "KB"}
    for rule_set in RULESETS.values():
        words |= {rule_set.name, *rule_set.conditions, *rule_set.declared_wins}
        words |= {option.name for option in rule_set.options}
        words |= {item.key for item in rule_set.items}
    words |= {"NAME"}  # the notation's placeholder, `declare:NAME`
    words |= {"false-win", "foul", "liable", "da-jin", "gen-da", "xiao-xiang-gong", "riichi", "chombo"}
    return words | {part for word in list(words) for part in re.split(r"[-_]", word)}


KEPT = kept_words()


def english_in(chinese: str) -> set[str]:
    """The English words of a Chinese message: quoted input, `commands`, "JSON strings" and kept words aside."""
    shown = re.sub(r"'[^']*'|`[^`]*`|\"[^\"]*\"", " ", chinese)
    shown = re.sub(r"(?<![A-Za-z])[ESWNCFP]+(?![A-Za-z])", " ", shown)  # honour tiles written together: PPPP
    return {word for word in ENGLISH.findall(shown) if word not in KEPT and word.lower() not in KEPT}


def test_every_chinese_error_text_is_chinese() -> None:
    zh = po_texts("zh")
    english = {}
    for key in error_keys():
        bare = re.sub(r"\{[^{}]*\}", " ", zh[key])
        if found := english_in(bare):
            english[key] = found
    assert english == {}


def test_the_chinese_check_sees_english() -> None:
    assert english_in("手牌有 13 张，a winning hand needs 14") == {"winning", "hand", "needs"}
    assert english_in("条件 'self（自摸）' 要 seat:E；--rules lingxi") == set()


def test_every_error_text_has_the_same_parameters_in_both_languages() -> None:
    zh, en = po_texts("zh"), po_texts("en")

    def fields(template: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}

    assert {key: (en[key], zh[key]) for key in error_keys() if fields(en[key]) != fields(zh[key])} == {}


def raised(call: Callable[[], object]) -> HandError:
    try:
        call()
    except HandError as exc:
        return exc
    raise AssertionError("no HandError")


HAND = "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S"
NORMAL_WIN = {
    "rules": "lingxi",
    "wild": ["5m", "E"],
    "winner": "S",
    "discarder": "E",
    "players": {
        "E": "12334456p 11789s f3 [CCC]",
        "S": "5559m 222777p 333888s PP f1f2 +9m",
        "W": {"total": 4},
        "N": "123789m 336699p 125s E f4",
    },
}

# (rules, a bad hand, the code, a piece of its Chinese message, a piece of its Chinese fix or None)
BAD_HANDS = [
    ("lingxi", "123m 456m 789m 123p 456p 78p 9s +9s wild:5m", "bad_wild", "灵溪翻两张财神", None),
    ("lingxi", HAND + " flip:1m", "unknown_condition", "灵溪不用第 60 列的条件 'flip（翻牌）'", None),
    ("lingxi", "123m 456m 789m 123p 456p 789p 1s +1s wild:5m,E", "tile_count", "灵溪和牌要 17 张", None),
    ("lingxi", "[PPP] 456m 789m 123p 456p 789p 1s +1s wild:5m,E", "bad_meld", "白板是花", "单独写"),
    ("lingxi", "1111m 456m 789m 123p 456p 1s +1s wild:5m,E", "unmarked_kong", "没写成杠", "[1111m]"),
    ("lingxi", "5559m 222777p 333888s 9m PP f1f2 +9m wild:5m,E", "winning_tile_twice", "又写了一遍", "+ 后面"),
    ("lingxi", "123m 456m 789m 123p 456p 9s +9s wild:C,5s heaven seat:S", "condition_not_met", "庄家", None),
    ("luoshan", "123m 456m 789m 1122p +3p", "no_winning_shape", "螺山不算七对", None),
    ("luoshan", "123m 456m 789m 123p 5s +5s f1", "tile_not_played", "不是螺山的牌", None),
    ("luoshan", "123m 456m 789m 123p 5s +5s wild:2m flip:1m", "bad_wild", "螺山只有一种财神", None),
    ("luoshan", "123m 456m 789m 123p 456p 1s +1s", "tile_count", "灵溪 / 莆田的手牌", "--rules lingxi"),
    # a tile of the hand, the one whose win is best: +1p (+一筒) makes 平和 (a legal win), +5s a pair wait under 200
    ("luoshan", "123m 456m 789m 123p 5s 5s", "no_winning_tile", "没有标出和的那张", "+一筒"),
    ("guannan", "123m 456m 789m 123p 5s +5s C", "tile_not_played", "不是灌南的牌", None),
    ("guannan", "123m 456m 789m 123p EE +E", "tile_copies", "灌南每种风牌只有一张", None),
    ("guannan", "123m 456m 789m 123p 5s +5s wild:1m", "unknown_condition", "灌南没有财神", None),
    ("putian", "123m 456m 789m 123p 456p 11s 5s +5s declare:you-jin", "declare_not_met", "单独一张金", None),
    ("putian", "123m 456m 789m 123p 456p E 1s +1s", "tile_not_played", "不是莆田的牌", None),
    ("putian", "123m 456m 789m 123p 456p 11s 5s +5s declare:sha-zhu", "unknown_declare", "莆田能报的和", None),
    ("jinhua", "123m 456m 789m 123p 5s +5s wild:3m,4m", "bad_wild", "金华翻一张财神", None),
    ("jinhua", "123m 456m 789m 123p 5s +5s earth seat:E", "condition_not_met", "'earth（地胡）' 是闲家的", None),
    ("guannan", "123m 456m 789m 123p 5s +5s rob-kong self", "conditions_contradict", "抢杠和的是别人的牌", None),
    ("riichi", "123m 456m 789m 123p 5s +5s ura:1m", "bad_indicator", "里宝牌", None),
    ("riichi", "123m 456m 789m 123p 5s +5s wild:1m", "unknown_condition", "立直麻将没有财神", None),
    ("riichi", "[123m] 456m 789m 123p 5s +5s riichi", "condition_not_met", "要门清", None),
    ("riichi", "123m 456m 789m 123p 0s +5s", "red_five", "红五", "写成 5s"),
    ("riichi", "123m 456m 789m 123p 5s +5s kong-draw", "condition_not_met", "要求手里有杠", "[5555p]"),
    ("nowhere", "123m", "unknown_rules", "这套规则", None),
]


@pytest.mark.parametrize(("rules", "hand", "code", "message", "hint"), BAD_HANDS)
def test_a_bad_hand_gets_its_code_and_a_chinese_message(
    rules: str, hand: str, code: str, message: str, hint: str | None
) -> None:
    error = raised(lambda: score_hand(hand, rules=rules))
    chinese = error.message_in("zh")
    assert (error.code, message in chinese) == (code, True), chinese
    assert english_in(chinese) == set(), chinese
    assert str(error) == error.message_in("en") and error.message_in("en") != chinese
    assert (hint in (error.hint_in("zh") or "")) if hint else True, error.hint_in("zh")
    if error.hint is not None:
        assert error.hint in str(error) or error.hint_in("zh") is not None


def with_players(**players: object) -> dict[str, Any]:
    return {**NORMAL_WIN, "players": {**NORMAL_WIN["players"], **players}}


# (a table, the code, the seat and field it names, a piece of its Chinese message)
BAD_TABLES = [
    (with_players(E="12334456p 11789s f3 [CCC] seat:W"), "bad_seat", "E", "players.E", "人却坐在 E"),
    (with_players(N="123789m 336699p 125s E f4 ff"), "unknown_condition", "N", "players.N", "北家："),
    ({**NORMAL_WIN, "discarder": "S"}, "bad_discarder", None, "discarder", "和牌的人不会打出"),
    ({**NORMAL_WIN, "wild": ["5m"]}, "bad_wild", None, "wild", "灵溪翻两张财神"),
    ({**NORMAL_WIN, "options": {"nope": 1}}, "unknown_option", None, "options", "灵溪没有选项 'nope'"),
    ({**NORMAL_WIN, "events": [{"type": "riichi", "seat": "E"}]}, "unknown_event", None, "events[0]", "灵溪不用"),
    ({**NORMAL_WIN, "honba": 1}, "field_not_used", None, "honba", "立直牌桌的字段"),
    ({**NORMAL_WIN, "players": {"E": "123m"}}, "bad_table", None, None, "座位应正好是 E、S、W、N"),
    (with_players(W={"total": 4}, N="5559m 222777p 333888s PP f1f2 +9m"), "tile_copies", None, "players", "全桌"),
]


@pytest.mark.parametrize(("table", "code", "seat", "field", "message"), BAD_TABLES)
def test_a_bad_table_gets_its_code_place_and_a_chinese_message(
    table: dict[str, Any], code: str, seat: str | None, field: str | None, message: str
) -> None:
    error = raised(lambda: settle_table(table))
    chinese = error.message_in("zh")
    assert (error.code, error.seat, message in chinese) == (code, seat, True), chinese
    assert field is None or error.field == field
    inner = getattr(error.params.get("problem"), "message", None)  # a seat's error, as it reads at a table
    if not (isinstance(inner, HandError) and inner.key is None):  # the notation's are English until its turn
        assert english_in(chinese) == set(), chinese


def test_a_seat_s_count_hint_names_the_table_s_field_in_both_languages() -> None:
    error = raised(lambda: settle_table({**NORMAL_WIN, "rules": "luoshan", "wild": None, "players": LUOSHAN_SIZED}))
    assert 'the table\'s "rules": "lingxi" / "putian"' in str(error)
    assert '牌桌的 "rules": "lingxi" / "putian"' in error.message_in("zh")
    assert '牌桌的 "rules"' in (error.hint_in("zh") or "") and "--rules" not in error.message_in("zh")


LUOSHAN_SIZED = {
    "E": "123m 456m 789m 123p 456p 1s 2s",
    "S": "123m 456m 789m 123p 5s +5s",
    "W": {"total": 0},
    "N": {"total": 0},
}


def test_waits_words_another_rule_set_s_size_in_both_languages() -> None:
    error = raised(lambda: waits("123m 456m 789m 123p 456p 1s 2s", rules="luoshan"))
    assert "waits takes 13 tiles" in str(error) and "听牌要 13 张" in error.message_in("zh")
    assert "+" not in (error.hint_in("zh") or "") and "marked" not in str(error)


@pytest.mark.parametrize(
    ("name", "code", "message"),
    [
        ("", "bad_name", "名字是空的"),
        (" 周五", "bad_name", "前后有空格"),
        ("a\x1b", "bad_name", "控制字符"),
        ("x" * 200, "bad_name", "个字符"),
    ],
)
def test_a_bad_ledger_name_gets_its_code_a_chinese_message_and_the_rule_as_its_fix(
    name: str, code: str, message: str
) -> None:
    error = raised(lambda: check_new(name, "lingxi", ["甲", "乙", "丙", "丁"], {}))
    assert (error.code, message in error.message_in("zh")) == (code, True)
    assert "可显示的字符" in (error.hint_in("zh") or "") and "printable characters" in (error.hint or "")


def test_a_ledger_s_players_and_options_are_checked_with_codes() -> None:
    assert raised(lambda: check_new("n", "lingxi", ["甲", "乙"], {})).code == "bad_players"
    assert raised(lambda: check_new("n", "lingxi", ["甲", "乙", "丙", "E"], {})).code == "bad_players"
    error = raised(lambda: check_new("n", "lingxi", ["甲", "乙", "丙", "丁"], {"nope": 1}))
    assert (error.code, error.field, str(error).startswith("options: unknown option 'nope'")) == (
        "unknown_option",
        "options",
        True,
    )


def test_an_error_s_parameters_are_words_in_each_language() -> None:
    error = HandError.of("error.condition.heaven_seat", code="condition_not_met", cond=Word("heaven"))
    assert str(error) == "condition 'heaven' needs seat:E (the dealer)"
    assert error.message_in("zh") == "条件 'heaven（天胡）' 要 seat:E（庄家）"
    assert error.params == {"cond": Word("heaven")} and error.key == "error.condition.heaven_seat"
    assert Term("Lingxi", "灵溪").in_lang("zh") == "灵溪" and Word("no-such-word").in_lang("zh") == "no-such-word"
    assert Joined([Text("error.option.none"), "x"]).in_lang("zh") == "无；x"


def test_an_error_made_with_a_message_only_reads_the_same_in_every_language() -> None:
    error = HandError("players.E: something", seat="E")
    assert [error.message_in(lang) for lang in LANGUAGES] == ["players.E: something"] * 2
    assert (error.key, error.params, error.hint, error.hint_in("zh")) == (None, {}, None, None)


def test_a_hand_error_needs_a_message_or_a_text() -> None:
    with pytest.raises(TypeError):
        HandError()
    with pytest.raises(TypeError):
        HandError("both", text=Text("error.option.none"))


PARAMS = st.dictionaries(
    st.sampled_from(["size", "rules", "tile", "count", "at", "problem", "hint", "seat_word", "what", "x", "0"]),
    st.one_of(
        st.text(max_size=20),
        st.integers(),
        st.none(),
        st.builds(Text, st.sampled_from(["error.option.none", "error.no.such.key"])),
        st.builds(Term, st.text(max_size=5), st.text(max_size=5)),
        st.builds(Word, st.text(max_size=8)),
    ),
    max_size=6,
)


@given(key=st.sampled_from(error_keys()), params=PARAMS, hint=st.booleans(), code=st.text(max_size=10))
def test_message_in_never_raises_whatever_the_parameters(
    key: str, params: dict[str, Any], hint: bool, code: str
) -> None:
    error = HandError(
        code=code or "x", text=Text(key, **params), hint=Text("error.hint.mark_the_win") if hint else None
    )
    for lang in LANGUAGES:
        assert isinstance(error.message_in(lang), str)
        assert error.hint_in(lang) is None or isinstance(error.hint_in(lang), str)
    assert str(error) == error.message_in("en")


def test_an_error_with_a_parameter_replaced_reads_anew_and_keeps_the_rest() -> None:
    """How a column counted in the folded line is given back in the line as typed (the notation's players' forms)."""
    error = HandError.of("error.waits.condition", code="not_for_waits", column=20, cond=Word("self"), at=20)
    moved = error.replaced(at=23)
    assert str(moved) == str(error).replace("column 20", "column 23") != str(error)
    assert (moved.code, moved.column, moved.params["at"], error.params["at"]) == ("not_for_waits", 20, 23, 20)
    assert "第 23 列" in moved.message_in("zh")


@pytest.mark.parametrize(
    ("rules", "hand", "place"),
    [
        ("lingxi", "123m 456m 789m 123p 456p 9s +9s wild:C,5s heaven seat:S", "heaven"),  # the condition
        ("jinhua", "123m 456m 789m 123p 5s +5s earth seat:E", "earth"),
        ("lingxi", "123m [5m5m5m] 789m 123p 456p 9s +9s wild:5m,E", "[5m5m5m]"),  # the meld
        ("jinhua", "123m 567m [4m4m4m] 123p 5s +5s wild:4m", "[4m4m4m]"),
        ("putian", "123m 456m 789m [5m5m5m] 456p 11s 5s +5s wild:5m", "[5m5m5m]"),
    ],
)
def test_an_error_about_a_condition_or_a_meld_has_its_column(rules: str, hand: str, place: str) -> None:
    error = raised(lambda: score_hand(hand, rules=rules))
    assert error.column == hand.index(place) + 1, (error.column, str(error))


def test_a_json_refusal_names_the_body_stdin_or_file_in_the_language() -> None:
    """The JSON checks name what they read ("the request body", stdin, a path) in the message's language."""
    from api_app import app as api
    from fastapi.testclient import TestClient
    from typer.testing import CliRunner

    from taihu.cli.main import app as cli

    body = '{"rules": "lingxi", "hand": "5m", "options": {"double_at": ' + "9" * 40 + "}}"
    with TestClient(api) as client:
        english = client.post("/v1/score", content=body, headers={"content-type": "application/json"}).json()
        chinese = client.post("/v1/score?lang=zh", content=body, headers={"content-type": "application/json"}).json()
    assert english["code"] == chinese["code"] == "number_too_long"
    assert english["message"].startswith("the request body has a number")
    assert chinese["message"].startswith("请求体在第")
    table = '{"rules": "lingxi", "players": {"E": {"total": ' + "9" * 40 + "}}}"
    piped = CliRunner().invoke(cli, ["settle", "-", "--lang", "zh"], input=table)
    assert piped.exit_code == 2 and "标准输入在第" in piped.output, piped.output


@pytest.mark.parametrize("players", [{"E": {"total": -1}}, {"E": None}, [], {"E ": "x"}])
def test_the_api_says_a_table_s_players_problem_in_the_request_s_language(players: object) -> None:
    """The HTTP schema's check of a table's players is the core's, in its Chinese too (it was English only)."""
    from api_app import app as api
    from fastapi.testclient import TestClient

    seats = {"E": {"total": 0}, "S": {"total": 0}, "W": {"total": 0}, "N": {"total": 0}}
    given = {**seats, **players} if isinstance(players, dict) else players
    if isinstance(players, dict) and "E " in players:
        given = {"E ": "x", "S": {"total": 0}, "W": {"total": 0}, "N": {"total": 0}}
    with TestClient(api) as client:
        answer = client.post("/v1/settle?lang=zh", json={"rules": "lingxi", "players": given}).json()
    assert answer["code"] == "bad_table" and answer["field"] == "players", answer
    assert not english_in(answer["message"]), answer["message"]


def test_a_bad_ledger_name_is_named_in_the_message_s_language(tmp_path: Path) -> None:
    """`ledger name: …` read so under zh too; now 账本名：…, and the English as it was."""
    from typer.testing import CliRunner

    from taihu.cli.main import app as cli

    args = ["ledger", "new", "a\x1bb", "--players", "甲,乙,丙,丁", "--db", str(tmp_path / "l.db")]
    chinese = CliRunner().invoke(cli, [*args, "--lang", "zh"])
    english = CliRunner().invoke(cli, [*args, "--lang", "en"])
    assert chinese.exit_code == english.exit_code == 2
    assert chinese.output.startswith("错误：账本名：") and not english_in(chinese.output.split("\n")[0])
    assert english.output.startswith("error: ledger name: ")
