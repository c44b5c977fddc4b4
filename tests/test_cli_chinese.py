"""The command line: under `LANG=zh_CN.UTF-8`, `score`, `settle`, `waits` and `ledger` print
no English word but tile codes, item keys and the texts the core still builds in English.

Those texts are listed in `CORE_TEXTS`, each with where it is built: the next step gives them codes
in the catalog (taihu/messages/), and then its line here goes, so that this test tightens. A word
counts as English when it has two ASCII letters or more: no tile code (`5m`, `f1`), seat (`E`) or
honour (`C`) has.

And the English output is the one the command always printed: under any locale that is not
Chinese it is the output with no locale, byte for byte (tests/test_docs.py holds that one to the
transcripts in docs/, which this change did not regenerate).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from english_words import ALLOWED, ENGLISH, english_in_json, keys, keys_in_json, texts_in_json, words
from typer.testing import CliRunner

from taihu.cli.main import app
from taihu.scorer import HandError, HandScore, score_hand
from taihu.scorer.rulesets import REGISTRY, get
from taihu.scorer.settlement import settle_table
from taihu.scorer.waiting import Discards, Waits, waits

ROOT = Path(__file__).resolve().parent.parent
TABLES = sorted((ROOT / "examples" / "tables").glob("*.json"))
HANDS = [
    (path.stem, hand)
    for path in sorted((ROOT / "examples" / "hands").glob("*.txt"))
    for line in path.read_text(encoding="utf-8").splitlines()
    if (hand := line.partition("#")[0].strip())
]
ZH = {"LANG": "zh_CN.UTF-8", "COLUMNS": "250", "NO_COLOR": "1", "TERM": "xterm"}
RUNNER = CliRunner()


def score_texts(score: HandScore) -> list[str]:
    """What a HandScore shows that stays as written: the notation of the hand and its arrangement, the keys."""
    return [score.hand, *score.arrangement, *(item.key for item in score.items), *keys(score.rules)]


def waits_texts(found: Waits | Discards) -> list[str]:
    """The notation of the hand and of the arrangements."""
    return [found.hand]


def settle_texts(table: dict[str, Any]) -> list[str]:
    """The seats' hands and keys (`zi_mo` in a Putian payment's reason)."""
    result = settle_table(table)
    shown = keys(result.rules)
    for score in result.scores.values():
        shown += score_texts(score) if isinstance(score, HandScore) else []
    return shown


def error_text(call: Callable[[], object]) -> list[str]:
    """What a HandError's Chinese message may hold in English: the pieces of the input it quotes ('…'), and
    the notation's words a player types (`seat:W`, `wild:`) it names; an error is otherwise all Chinese."""
    try:
        call()
    except HandError as exc:
        typed = re.findall(r"'[^']*'|[a-z-]+:[A-Za-z0-9,]*", exc.message_in("zh"))
        return [*REGISTRY, *typed]  # the rule sets' names as `--rules` takes them are typed words too
    return []


# Each kind of text the core still writes in English, as this test lets it through. Remove a line when
# the core gives that text a code: the test then holds its Chinese too.
CORE_TEXTS = {
    "the notation, item keys and option names": "HandScore.hand, .arrangement, ScoreItem.key, Option.name, conditions",
}


def zh(args: list[str], env: dict[str, str] = ZH) -> tuple[int, str]:
    result = RUNNER.invoke(app, args, env=env)
    return result.exit_code, result.output


def assert_chinese(output: str, core: Iterable[str]) -> None:
    english = words([output]) - words(core) - ALLOWED
    assert english == set(), f"English under LANG=zh_CN.UTF-8 (the core's texts aside: {list(CORE_TEXTS)}):\n{output}"


@pytest.mark.parametrize("columns", ["250", "40"])
@pytest.mark.parametrize(("rules", "hand"), HANDS, ids=[f"{r}:{h}" for r, h in HANDS])
def test_score_prints_chinese(rules: str, hand: str, columns: str) -> None:
    code, output = zh(["score", hand, "-r", rules], {**ZH, "COLUMNS": columns})
    core = error_text(lambda: score_hand(hand, rules=rules))
    if not core:
        core = score_texts(score_hand(hand, rules=rules))
    assert code in (0, 2), output
    assert "手牌" in output or "错误" in output
    assert_chinese(output, core)


@pytest.mark.parametrize("columns", ["250", "40"])
@pytest.mark.parametrize("path", TABLES, ids=[p.stem for p in TABLES])
def test_settle_prints_chinese(path: Path, columns: str) -> None:
    code, output = zh(["settle", str(path)], {**ZH, "COLUMNS": columns})
    assert code == 0, output
    assert "下一庄" in output
    assert_chinese(output, settle_texts(json.loads(path.read_text(encoding="utf-8"))))


WAITS = [
    ("guannan", "123m 456m 789p 234s 5s"),  # ready: two waits
    ("guannan", "123m 456m 789p 234s 5s 9s"),  # a tile too many: the discards
    ("guannan", "139m 456m 789p 234s 5s"),  # not ready
    ("lingxi", "123m 456m 789p 234s 678s 9s wild:9s,N seat:W"),  # wins through a held wildcard (`*`)
    ("riichi", "234567m 234p 88p 67s riichi dora:1p"),  # han and fu
    ("riichi", "234567m 234p 88p 6s 7s 9m"),  # a tile too many, riichi
]


@pytest.mark.parametrize("columns", ["250", "40"])
@pytest.mark.parametrize(("rules", "hand"), WAITS, ids=[f"{r}:{h}" for r, h in WAITS])
def test_waits_prints_chinese(rules: str, hand: str, columns: str) -> None:
    code, output = zh(["waits", hand, "-r", rules], {**ZH, "COLUMNS": columns})
    assert code == 0, output
    assert_chinese(output, waits_texts(waits(hand, rules=rules)))


@pytest.mark.parametrize("columns", ["250", "40"])
def test_the_ledger_prints_chinese(tmp_path: Path, columns: str) -> None:
    db = str(tmp_path / "evening.db")
    env = {**ZH, "COLUMNS": columns}
    outputs, answers = [], []
    evening = (("一", "lingxi", ["normal-win", "drawn", "false-win"]), ("二", "riichi", ["riichi-win", "riichi-drawn"]))
    core = [db, *(str(tmp_path / f"{t}.json") for _, _, tables in evening for t in tables)]  # the files' paths
    for number, rules, tables in evening:
        name = f"夜{number}"
        outputs.append(zh(["ledger", "new", name, "--players", "甲,乙,丙,丁", "-r", rules, "--db", db], env))
        for table in tables:  # the honba and pot the ledger carries, not the example's
            deal = json.loads((ROOT / "examples" / "tables" / f"{table}.json").read_text(encoding="utf-8"))
            path = tmp_path / f"{table}.json"
            path.write_text(json.dumps({k: v for k, v in deal.items() if k not in ("honba", "pot")}), "utf-8")
            outputs.append(zh(["ledger", "add", name, str(path), "--db", db], env))
        outputs.append(zh(["ledger", "show", name, "--db", db], env))
        for command in (["show", "--json"], ["export"]):  # the JSON: each deal's settlement, reasons and all
            code, output = zh(["ledger", command[0], name, *command[1:], "--db", db], env)
            assert code == 0, output
            answers.append((rules, json.loads(output)))
        outputs.append(zh(["ledger", "undo", name, "--db", db], env))
    outputs.append(zh(["ledger", "list", "--db", db], env))
    for code, output in outputs:
        assert code == 0, output
        assert_chinese(output, core)
    shown = "\n".join(output for _, output in outputs)
    for word in ("本场", "供托", "根立直棒", "流局", "诈和", "点炮", "下一庄", "累计"):
        assert word in shown
    for rules, answer in answers:  # no English but the keys and names, and the tables the deals were given as
        tables = [json.dumps(deal["table"], ensure_ascii=False) for deal in answer["deals"]]
        assert english_in_json(answer, keys(rules), tables) == set(), answer
        reasons = [p["reason"] for deal in answer["deals"] for p in deal["settlement"]["payments"]]
        assert reasons and all(reasons), "the reasons are there, in Chinese"


@pytest.mark.parametrize(
    ("args", "core"),
    [
        (["score", "123m"], error_text(lambda: score_hand("123m"))),
        (["score", "123m", "-o", "foo"], ["foo", "double_at"]),  # the input quoted back; an option's name
        (["settle", "/no/such/table.json"], ["/no/such/table.json", "No such file or directory"]),  # the OS's reason
        (["waits", "123m", "-r", "nowhere"], error_text(lambda: waits("123m", rules="nowhere"))),
    ],
    ids=["hand", "option", "file", "rules"],
)
def test_errors_are_chinese_around_the_core_message(args: list[str], core: list[str]) -> None:
    code, output = zh(args)
    assert code == 2
    assert output.startswith("错误：")
    assert_chinese(output, core)


def test_the_chinese_test_sees_english() -> None:
    """The check itself: the same commands in English are caught."""
    _, output = zh(["settle", str(TABLES[0]), "--lang", "en"])
    with pytest.raises(AssertionError):
        assert_chinese(output, settle_texts(json.loads(TABLES[0].read_text(encoding="utf-8"))))


ENGLISH_LOCALES = [
    {},
    {"LANG": "C"},
    {"LANG": "C.UTF-8"},
    {"LANG": "en_US.UTF-8"},
    {"LANG": "fr_FR.UTF-8"},
    {"LANG": "zh_CN.UTF-8", "LC_ALL": "C"},  # LC_ALL decides
    {"LANG": "zh_CN.UTF-8", "LC_MESSAGES": "en_GB.UTF-8"},  # and LC_MESSAGES before LANG
]
COMMANDS = [
    ["score", HANDS[0][1], "-r", HANDS[0][0]],
    ["score", "123m"],
    ["settle", str(ROOT / "examples" / "tables" / "normal-win.json")],
    ["waits", "123m 456m 789p 234s 5s 9s", "-r", "guannan"],
    ["rules", "luoshan"],
]


@pytest.mark.parametrize("locale", ENGLISH_LOCALES, ids=lambda e: ",".join(f"{k}={v}" for k, v in e.items()) or "none")
@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_english_output_is_unchanged_under_a_locale_that_is_not_chinese(
    args: list[str], locale: dict[str, str]
) -> None:
    base = {"COLUMNS": "100", "NO_COLOR": "1", "TERM": "xterm"}
    default = RUNNER.invoke(app, args, env=base)
    assert RUNNER.invoke(app, args, env={**base, **locale}).output == default.output
    assert RUNNER.invoke(app, [*args, "--lang", "both"], env={**base, "LANG": "zh_CN.UTF-8"}).output == default.output


@pytest.mark.parametrize(
    ("locale", "chinese"),
    [
        ({"LANG": "zh_CN.UTF-8"}, True),
        ({"LANG": "zh_TW.UTF-8"}, True),  # traditional readers get the simplified catalog rather than English
        ({"LC_ALL": "zh_CN.GB18030", "LANG": "en_US.UTF-8"}, True),
        ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, True),
        ({"LANG": "zh_CN.UTF-8", "LC_ALL": ""}, True),  # an empty variable is not set
        ({"LANG": "en_US.UTF-8"}, False),
    ],
)
def test_the_locale_picks_the_language(locale: dict[str, str], chinese: bool) -> None:
    _, output = zh(["settle", str(TABLES[0])], {"COLUMNS": "100", "NO_COLOR": "1", **locale})
    assert ("下一庄" in output) is chinese and ("next dealer" in output) is not chinese


def test_lang_en_wins_over_a_chinese_locale() -> None:
    _, output = zh(["settle", str(TABLES[0]), "--lang", "en"])
    assert "next dealer" in output and "下一庄" not in output


@pytest.mark.parametrize(
    "command", [["score", "555m 222p 777p 333s 888s 9m f1 f2 P P wild:5m,E seat:S"], ["rules", "lingxi"]]
)
def test_json_follows_lang_as_the_api_does(command: list[str]) -> None:
    """`--json` keeps its keys and codes; its texts (notes, details, values) are in the command's language."""
    english = json.loads(RUNNER.invoke(app, [*command, "--json", "--lang", "en"]).output)
    chinese = json.loads(RUNNER.invoke(app, [*command, "--json", "--lang", "zh"]).output)
    assert set(english) == set(chinese)
    assert english != chinese
    assert not words(list(texts_in_json(chinese))) - words(list(keys_in_json(chinese))) - ALLOWED - {"lingxi"}


# -- typer's own texts: --help of every command and the usage errors (cli-help) --------------------------------

HELP_NAMES = {"JSON", "json", "CSV", "SQLite", "HTTP", "API", "uvicorn", "postgresql", "LC_ALL", "LC_MESSAGES", "LANG"}
TYPED = re.compile(r"(?<![\w.])--?[\w-]+|\S*/\S*|\$\w+|<[^<>]*\|[^<>]*>|'[^']*'")  # options, paths, $VARS, choices


def command_paths() -> list[list[str]]:
    """Every command and subcommand of `taihu`, walked through typer's click group (`[]` is `taihu` itself)."""
    import typer

    def walk(command: Any, path: list[str]) -> Iterable[list[str]]:
        yield path
        for name, sub in sorted((getattr(command, "commands", None) or {}).items()):
            yield from walk(sub, [*path, name])

    return list(walk(typer.main.get_command(app), []))


COMMAND_PATHS = command_paths()


def takes_lang(path: list[str]) -> bool:
    import typer

    command = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]  # type: ignore[attr-defined]
    return any(param.name == "lang" for param in command.params)


def typed_words() -> set[str]:
    """What a help page or a usage error may show as it is typed: the commands' names, the rule sets', the
    values of `--lang`, and the names of formats, programs and variables that have no Chinese name."""
    return {*(word for path in COMMAND_PATHS for word in path), *REGISTRY, "zh", "en", "both", *HELP_NAMES}


def assert_no_english_but_typed(output: str) -> None:
    english = words([TYPED.sub(" ", output)]) - typed_words() - ALLOWED
    assert english == set(), f"English under LANG=zh_CN.UTF-8:\n{output}"


def test_the_walk_finds_every_command() -> None:
    assert len(COMMAND_PATHS) >= 15 and ["ledger", "show"] in COMMAND_PATHS and [] in COMMAND_PATHS


@pytest.mark.parametrize("columns", ["250", "40"])
@pytest.mark.parametrize("path", COMMAND_PATHS, ids=lambda p: " ".join(p) or "taihu")
def test_help_of_every_command_is_chinese(path: list[str], columns: str) -> None:
    for flag in ("--help", "-h"):
        code, output = zh([*path, flag], {**ZH, "COLUMNS": columns})
        assert code == 0, output
        assert output.startswith(f"用法：taihu {' '.join(path)}".rstrip()), output
        assert "选项：" in output
        assert_no_english_but_typed(output)


@pytest.mark.parametrize("path", COMMAND_PATHS, ids=lambda p: " ".join(p) or "taihu")
def test_help_in_english_is_typer_s_own(path: list[str]) -> None:
    """Under any locale that is not Chinese, and with `--lang en` or `both` under a Chinese one, the page is the
    one typer prints with no locale, byte for byte."""
    base = {"COLUMNS": "100", "NO_COLOR": "1", "TERM": "xterm"}
    default = RUNNER.invoke(app, [*path, "--help"], env=base).output
    assert default.startswith("Usage: ")
    for locale in ENGLISH_LOCALES:
        assert RUNNER.invoke(app, [*path, "--help"], env={**base, **locale}).output == default
    for lang in ("en", "both") if takes_lang(path) else ():
        for args in ([*path, "--help", "--lang", lang], [*path, f"--lang={lang}", "--help"]):
            assert RUNNER.invoke(app, args, env={**base, "LANG": "zh_CN.UTF-8"}).output == default


def test_lang_zh_gives_the_chinese_page_under_any_locale() -> None:
    _, output = zh(["score", "--help", "--lang", "zh"], {"COLUMNS": "100", "LANG": "en_US.UTF-8"})
    assert output.startswith("用法：")


@pytest.mark.parametrize("path", COMMAND_PATHS, ids=lambda p: " ".join(p) or "taihu")
def test_every_help_text_has_its_code_in_both_languages_and_its_english_is_typer_s(path: list[str]) -> None:
    """A command's or a parameter's help is in the catalog under its code, in both languages, and the English
    there is the help typer shows: a new option without its text fails here."""
    import typer

    from taihu.cli.usage import HELP_COMMAND, param_code
    from taihu.messages import text

    command = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]  # type: ignore[attr-defined]
    code = HELP_COMMAND + (".".join(path) or "taihu")
    assert text(code, "en") == command.help
    assert text(code, "zh") != code
    ctx = typer.Context(command, info_name=" ".join(["taihu", *path]))
    for param in command.get_params(ctx):
        found = param_code(path, param.name or "")
        assert found is not None, f"no help text for {param.name} of taihu {' '.join(path)}"
        assert text(found, "en") == param.help, found  # type: ignore[attr-defined]
        assert text(found, "zh") != found


USAGE_ERRORS = [
    (["score"], "缺少参数"),  # a missing argument
    (["score", "123m", "--foo"], "没有这个选项"),  # an unknown option, with the one it may be
    (["score", "123m", "--lan", "zh"], "没有这个选项"),
    (["score", "123m", "456m"], "多余的参数"),  # an extra argument
    (["score", "123m", "-r"], "需要一个值"),  # an option without its value
    (["score", "123m", "--json=1"], "不带值"),  # a flag given a value
    (["score", "123m", "--lang", "fr"], "不是"),  # a choice that is none
    (["serve", "--port", "abc"], "不是整数"),  # a number that is none
    (["serve", "--workers", "100"], "范围"),  # a number out of its range
    (["ledger", "add", "x", "t.json", "--deal", "0"], "范围"),
    (["ledger", "new", "x"], "缺少选项"),  # a missing option
    (["ledger", "add"], "缺少参数"),
    (["nosuch"], "没有这个命令"),  # an unknown command
    (["ledger", "nosuch"], "没有这个命令"),
    (["--nosuch"], "没有这个选项"),
]


@pytest.mark.parametrize(("args", "said"), USAGE_ERRORS, ids=[" ".join(a) for a, _ in USAGE_ERRORS])
def test_usage_errors_are_chinese(args: list[str], said: str) -> None:
    code, output = zh(args)
    assert code == 2, output
    assert said in output
    assert "错误：" in output
    assert_no_english_but_typed(output)
    if said not in ("需要一个值", "不带值"):  # click names no command for an option's value (nor does typer)
        assert output.startswith("用法：taihu")
        assert "-h' 看帮助" in output


@pytest.mark.parametrize(("args", "said"), USAGE_ERRORS, ids=[" ".join(a) for a, _ in USAGE_ERRORS])
def test_usage_errors_in_english_are_typer_s_own(args: list[str], said: str) -> None:
    base = {"COLUMNS": "100", "NO_COLOR": "1", "TERM": "xterm"}
    default = RUNNER.invoke(app, args, env=base)
    assert default.exit_code == 2 and "Error: " in default.output
    assert RUNNER.invoke(app, args, env={**base, "LANG": "en_US.UTF-8"}).output == default.output


@pytest.mark.parametrize(
    "args",
    [["score", "123m", "--foo", "--lang", "en"], ["score", "--lang=en"], ["ledger", "new", "x", "--lang", "both"]],
)
def test_a_usage_error_follows_the_lang_the_line_gives(args: list[str]) -> None:
    """`--lang` is read from the line's words: an error comes before the option is processed."""
    base = {"COLUMNS": "100", "NO_COLOR": "1", "TERM": "xterm"}
    english = RUNNER.invoke(app, args, env={**base, "LANG": "zh_CN.UTF-8"})
    assert english.exit_code == 2
    assert english.output == RUNNER.invoke(app, args, env=base).output
    assert "Error: " in english.output and not re.search(r"[\u4e00-\u9fff]", english.output)


def test_no_arguments_show_the_chinese_page() -> None:
    for args in ([], ["ledger"]):
        code, output = zh(args)
        assert code == 2
        assert output.startswith("用法：")
        assert_no_english_but_typed(output)


@pytest.mark.parametrize("path", TABLES, ids=[p.stem for p in TABLES])
def test_parts_of_a_cell_are_joined_with_a_chinese_semicolon(path: Path) -> None:
    """A riichi win's totals and arrangement, a note after a hand, a deal's counters: `；` under zh, never `;`."""
    _, output = zh(["settle", str(path)], {**ZH, "COLUMNS": "40"})
    assert ";" not in output
    _, english = zh(["settle", str(path), "--lang", "en"], {**ZH, "COLUMNS": "40"})
    assert "；" not in english


def test_a_riichi_wait_s_parts_are_joined_with_a_chinese_semicolon() -> None:
    args = ["waits", "123m 789m 123p 999s 4s", "-r", "riichi"]
    _, output = zh(args, {**ZH, "COLUMNS": "40"})
    assert "；" in output and ";" not in output
    _, english = zh([*args, "--lang", "en"], {**ZH, "COLUMNS": "40"})
    assert "; " in english and "；" not in english


@pytest.mark.parametrize("rules", list(REGISTRY))
def test_option_descriptions_in_chinese_name_no_english_word(rules: str) -> None:
    """`/rules?lang=zh` and `taihu rules X --lang zh`: an option's meaning is Chinese, but for the option names
    and item keys as `-o` takes them (`renhou_yakuman=1`); Jinhua's `unit` read `X = unit × 倍数`."""
    from taihu.scorer.said import in_lang

    info = get(rules).info()
    typed = {o.name for o in info.options} | {i.key for i in info.items}
    for option in info.options:
        said = in_lang(option.description, "zh")
        named = {word for word in ENGLISH.findall(said) if f"{word}=" in said or word in {i.key for i in info.items}}
        assert words([said]) - named == set(), (option.name, said)
        assert typed  # the exemption is of the rule set's own names only


@pytest.mark.parametrize("rules", list(REGISTRY))
def test_rules_under_lang_zh_names_no_english_word_but_keys(rules: str) -> None:
    """`taihu rules X --lang zh`: the options by their Chinese names, the items and the arithmetic in Chinese."""
    code, output = zh(["rules", rules, "--lang", "zh"])
    assert code == 0, output
    assert all(option.chinese in output for option in get(rules).options), output
    shown = get(rules).info()
    assert_chinese(output, [*keys(rules), *(item.key for item in shown.items), *shown.exclusion_rules, rules, "NAME"])


@pytest.mark.parametrize(
    "hand",
    ["123m 456m 789p 234s 999s 5p 游金 金:9s 门风:西", "123m 456m 789p 234s 999s 5p 5p 三金倒 金:9s 门风:西"],
)
def test_putian_s_declared_wins_read_chinese_in_the_arrangement(hand: str) -> None:
    code, output = zh(["score", hand, "-r", "putian"])
    assert code == 0 and ("游金：" in output or "三金倒：" in output), output
    assert_chinese(output, score_texts(score_hand(hand, rules="putian")))
