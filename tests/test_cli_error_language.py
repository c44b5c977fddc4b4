"""The command line's side: its errors in the command's language, `--json` in the one shape.

`--lang zh` or a `zh_*` locale: the message (`message_in`) and the hint (`hint_in`) on stderr in Chinese,
after `错误：` and `提示：`; `--json` prints the API's error shape on stdout, its message in that
language too. The command line's own errors (an option, a table file) are catalog entries; a core
error's text is its own `message_in` (English until the core's messages have their codes).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import taihu.cli.main as cli_module
from taihu.cli.main import app
from taihu.messages import Language
from taihu.messages.error_shape import ERROR_FIELDS
from taihu.scorer import HandError

HAND = "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S"
NO_FILE = "no-such-table.json"

# (the command, the environment, the code, the start of the message in Chinese, in English)
CASES = [
    (["score", HAND, "-o", "double_at"], "bad_option", "选项 'double_at' 要写成", "option 'double_at' must be"),
    (["waits", "123m", "-o", "x=1" + "9" * 5000], "bad_option", "选项 'x' 最大为", "option 'x' must be at most"),
    (["settle", NO_FILE], "cannot_read", f"无法读取 {NO_FILE}", f"cannot read {NO_FILE}"),
    (["settle", "-"], "invalid_json", "stdin 不是有效的 JSON", "stdin is not valid JSON"),
    (
        ["ledger", "new", "evening", "--players", "甲,乙,丙,丁", "-o", "nope"],
        "bad_option",
        "选项 'nope' 要写成",
        "option 'nope'",
    ),
]
IDS = [case[1] + "-" + case[0][0] for case in CASES]


def run(args: list[str], lang: list[str], env: dict[str, str] | None = None, stdin: str = "{") -> Any:
    return CliRunner().invoke(app, [*args, *lang], input=stdin, env=env)


@pytest.mark.parametrize(("args", "code", "chinese", "english"), CASES, ids=IDS)
@pytest.mark.parametrize(
    ("lang", "env", "chinese_expected"),
    [
        (["--lang", "zh"], None, True),
        ([], {"LANG": "zh_CN.UTF-8"}, True),
        (["--lang", "en"], {"LANG": "zh_CN.UTF-8"}, False),
        ([], None, False),
    ],
    ids=["--lang zh", "zh locale", "--lang en", "no locale"],
)
def test_the_command_line_s_own_errors_in_its_language(
    args: list[str],
    code: str,
    chinese: str,
    english: str,
    lang: list[str],
    env: dict[str, str] | None,
    chinese_expected: bool,
    tmp_path: Path,
) -> None:
    result = run([*args, "--db", str(tmp_path / "l.db")] if args[0] == "ledger" else args, lang, env)
    assert result.exit_code == 2, result.output
    said = f"错误：{chinese}" if chinese_expected else f"error: {english}"
    assert result.stderr.startswith(said), result.stderr


@pytest.mark.parametrize(("args", "code", "chinese", "english"), CASES[:4], ids=IDS[:4])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_json_prints_the_one_error_shape_in_the_language(
    args: list[str], code: str, chinese: str, english: str, lang: Language
) -> None:
    result = run([*args, "--json"], ["--lang", lang])
    assert result.exit_code == 2, result.output
    answer = json.loads(result.stdout)
    assert list(answer) == list(ERROR_FIELDS)
    assert answer["code"] == code and answer["detail"] == answer["message"]
    assert answer["message"].startswith(chinese if lang == "zh" else english)


class Taught(HandError):
    """A core error as the errors branch makes them: its message and its hint in a language."""

    def message_in(self, lang: Language) -> str:
        return {"zh": "手牌有 1 张", "en": "hand has 1 tiles"}[lang]

    def hint_in(self, lang: Language) -> str:
        return {"zh": "写 16 张牌", "en": "write 16 tiles"}[lang]


def taught(*args: object, **kwargs: object) -> object:
    raise Taught("hand has 1 tiles", code="tile_count", column=1)


@pytest.mark.parametrize(
    ("lang", "lines"),
    [("zh", ["错误：手牌有 1 张", "提示：写 16 张牌"]), ("en", ["error: hand has 1 tiles", "hint: write 16 tiles"])],
)
def test_a_core_error_s_message_and_hint_in_the_language(
    lang: str, lines: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli_module, "score_hand", taught)
    result = run(["score", "1m"], ["--lang", lang])
    assert result.exit_code == 2
    shown = result.stderr.splitlines()
    assert [shown[0], shown[-1]] == lines and "^" in shown[-2]  # the message, the caret, then the hint
    answer = json.loads(run(["score", "1m", "--json"], ["--lang", lang]).stdout)
    assert (answer["message"], answer["hint"]) == (
        lines[0].split("：" if lang == "zh" else ": ", 1)[1],
        lines[1].split("：" if lang == "zh" else ": ", 1)[1],
    )
    assert (answer["code"], answer["column"]) == ("tile_count", 1)


def test_a_batch_line_s_error_in_the_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_module, "score_hand", taught)
    result = CliRunner().invoke(app, ["score", "-", "--lang", "zh"], input="1m\n")
    assert result.exit_code == 2 and "手牌有 1 张" in result.stdout
    result = CliRunner().invoke(app, ["score", "-", "--json", "--lang", "zh"], input="1m\n")
    assert json.loads(result.stdout)["message"] == "手牌有 1 张"
