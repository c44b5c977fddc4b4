"""Readable anywhere: `--lang`, the compact layout under 60 columns, batch mode, completion.

A phone's terminal is 40 columns (`COLUMNS=40`): there `taihu score` must print
every name whole — no `…`, no word split across lines — for the hands of every
rule set, in each language.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest
from registry_examples import example_hands, example_lines, examples_file
from typer.testing import CliRunner

from taihu.cli.main import app
from taihu.messages import LANGUAGES, text
from taihu.messages.error_shape import ERROR_FIELDS
from taihu.scorer import HandError, HandScore, score_hand
from taihu.scorer.rulesets import REGISTRY

ROOT = Path(__file__).resolve().parent.parent
PHONE = {"COLUMNS": "40", "LINES": "50", "TERM": "xterm", "NO_COLOR": "1", "FORCE_COLOR": None}
DESK = {**PHONE, "COLUMNS": "120"}
RUNNER = CliRunner()
LUOSHAN = "123m 456m 789p 23s 55p +4s flip:9p seat:W"


def taihu(args: list[str], env: dict[str, str | None] = PHONE, stdin: str | None = None) -> tuple[int, str]:
    result = RUNNER.invoke(app, args, env=env, input=stdin)
    return result.exit_code, result.output


def scored(rules: str, hand: str) -> HandScore | None:
    try:
        return score_hand(hand, rules=rules)
    except HandError:
        return None


def words(output: str) -> set[str]:
    return set(output.split())


def cell_len(line: str) -> int:
    """Terminal cells, measured here apart from the renderer's own count: a wide (CJK) character takes two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


def widest(output: str) -> int:
    """The widest line in terminal cells (a Chinese character takes two), but the `hand:` line.

    The hand is printed soft-wrapped (the terminal breaks it at its edge) so that it copies back whole.
    """
    hand_line = tuple(text("cli.hand", lang, hand="") for lang in LANGUAGES)  # `hand: `, `手牌：`
    return max(cell_len(line.rstrip()) for line in output.splitlines() if not line.startswith(hand_line))


# the lines after the table, in either language: `arrangement: …`, `note: …`, `non-winning hand: …`
AFTER_TABLE = [
    re.escape(text(code, lang, arrangement="", note="").partition("{")[0])
    for code in ("cli.score.arrangement", "cli.note", "cli.score.base_only")
    for lang in LANGUAGES
]


def table_part(output: str) -> str:
    """The table's rows: not the lines after it (arrangement, notes), which may name keys."""
    table = re.split(f"^(?:{'|'.join(AFTER_TABLE)})", output, maxsplit=1, flags=re.MULTILINE)[0]
    return table.split("\n", 2)[2]  # and below the `hand:` line and the title, which name the rule set


def assert_whole(name: str, output: str) -> None:
    """A name is shown whole: a Chinese name on one line, each English word unbroken."""
    if re.search(r"[\u3400-\u9fff]", name) and " " not in name:
        assert name in output, f"{name!r} cut in:\n{output}"
    else:
        for word in name.split():
            assert word in words(output), f"{word!r} of {name!r} cut in:\n{output}"


@pytest.mark.parametrize("lang", ["zh", "en", "both"])
def test_at_40_columns_no_name_is_cut_for_any_rule_set(lang: str) -> None:
    seen_rules = set()
    for rules, hand in example_hands():
        result = scored(rules, hand)
        if result is None:
            continue
        seen_rules.add(rules)
        code, output = taihu(["score", hand, "-r", rules, "--lang", lang])
        assert code == 0, output
        assert "…" not in output, output
        assert widest(output) <= 40, output
        for item in result.items:
            if lang != "en":
                assert_whole(item.name, output)
            if lang != "zh":
                assert_whole(item.name_en, output)
            if "_" in item.key:  # a snake_case key: the key column, not a word of a name
                assert item.key not in words(table_part(output)), f"key column shown at 40:\n{output}"
    assert seen_rules == set(REGISTRY)  # every rule set, from a hand of its own that scores


def test_the_compact_layout_puts_the_detail_below_the_name() -> None:
    result = score_hand(LUOSHAN, rules="luoshan")
    _, output = taihu(["score", LUOSHAN, "-r", "luoshan"])
    lines = output.splitlines()
    name_line = next(i for i, line in enumerate(lines) if "平和" in line)
    assert lines[name_line].rstrip().endswith(f"{result.items[0].value} {result.items[0].unit}")
    below = lines[name_line + 1 : name_line + 3]  # the name may wrap once at a word boundary
    assert any(line.startswith("   four chows") for line in below), output
    assert "┃" not in output and "key" not in words(output)


def test_at_a_desk_the_table_keeps_the_key_column() -> None:
    _, output = taihu(["score", LUOSHAN, "-r", "luoshan"], env=DESK)
    assert "ping_he" in output and "┃ key" in output


@pytest.mark.parametrize(
    ("lang", "shown", "hidden"),
    [("zh", ["中文"], ["English"]), ("en", ["English"], ["中文"]), ("both", ["中文", "English"], [])],
)
def test_lang_picks_the_name_columns_of_score_and_rules(lang: str, shown: list[str], hidden: list[str]) -> None:
    for args in (["score", LUOSHAN, "-r", "luoshan"], ["rules", "lingxi"]):
        code, output = taihu([*args, "--lang", lang], env=DESK)
        assert code == 0, output
        for column in shown:
            assert f" {column} " in output, output
        for column in hidden:
            assert f" {column} " not in output, output


def test_lang_en_hides_the_chinese_names_at_40_columns() -> None:
    _, output = taihu(["score", LUOSHAN, "-r", "luoshan", "--lang", "en"])
    assert "平和" not in output and "Four chows" in output
    _, output = taihu(["score", LUOSHAN, "-r", "luoshan", "--lang", "zh"])
    assert "平和" in output and "Four chows" not in output


def test_an_unknown_lang_is_a_usage_error() -> None:
    code, _ = taihu(["score", LUOSHAN, "--lang", "fr"])
    assert code == 2


@pytest.mark.parametrize("table", sorted((ROOT / "examples" / "tables").glob("*.json")), ids=lambda p: p.stem)
def test_settle_at_40_columns_fits_and_cuts_nothing(table: Path) -> None:
    code, output = taihu(["settle", str(table)])
    if code == 2:  # a table documented as bad input
        return
    assert code == 0, output
    assert "…" not in output
    assert widest(output) <= 40, output
    assert "→" in output or "no payments" in output


@pytest.mark.parametrize("width", ["80", "100", "120"])
@pytest.mark.parametrize("table", sorted((ROOT / "examples" / "tables").glob("*.json")), ids=lambda p: p.stem)
def test_settle_at_a_desk_cuts_nothing(table: Path, width: str) -> None:
    """At 100 columns a wide word at a cell's end (底分) was once cut to "底 …"."""
    code, output = taihu(["settle", str(table)], env={"COLUMNS": width})
    assert code in (0, 2), output
    assert "…" not in output


def test_settle_and_waits_headings_follow_lang() -> None:
    table = str(ROOT / "examples" / "tables" / "normal-win.json")
    _, zh = taihu(["settle", table, "--lang", "zh"], env=DESK)
    _, en = taihu(["settle", table, "--lang", "en"], env=DESK)
    assert "┃ 座位" in zh and "┃ seat" not in zh
    assert "┃ seat" in en and "座位" not in en
    _, waits = taihu(["waits", "123m 456m 789p 234s 5s", "-r", "guannan", "--lang", "zh"], env=DESK)
    assert "未见" in waits and "unseen" not in waits


BATCH = """# a comment, then a blank line

123m 456m 789p 23s 55p +4s flip:9p seat:W
GG
123m 456m 789p 23s 55p +4s flip:9p seat:W   # a trailing comment
"""


def test_batch_mode_prints_one_summary_per_hand_and_the_bad_lines_error() -> None:
    code, output = taihu(["score", "-", "-r", "luoshan"], stdin=BATCH)
    assert code == 2
    good = score_hand(LUOSHAN, rules="luoshan")
    assert output.splitlines() == [
        f"{good.hand} → {good.total} hu (legal)",
        f"error: line 4: {scored_error('GG', 'luoshan')}",
        f"{good.hand} → {good.total} hu (legal)",
    ]


def scored_error(hand: str, rules: str) -> str:
    with pytest.raises(HandError) as caught:
        score_hand(hand, rules=rules)
    return str(caught.value)


def test_batch_mode_with_an_unknown_rule_set_is_one_error() -> None:
    result = RUNNER.invoke(app, ["score", "-", "-r", "nowhere"], input=BATCH, env=PHONE)
    assert result.exit_code == 2
    assert result.stdout == "" and result.stderr.count("error:") == 1


def test_batch_mode_json_lines() -> None:
    code, output = taihu(["score", "-", "-r", "luoshan", "--json"], stdin=BATCH)
    assert code == 2
    lines = [json.loads(line) for line in output.splitlines()]
    assert lines[0] == lines[2] == score_hand(LUOSHAN, rules="luoshan").to_dict()
    assert list(lines[1]) == list(ERROR_FIELDS)  # the API's one error shape


@pytest.mark.parametrize("rules", list(REGISTRY))
def test_batch_mode_scores_every_example_hand_as_one_hand_at_a_time(rules: str) -> None:
    """A rule set's example hands piped in as they are written in examples/hands/ (its comments too), and its
    API examples after them: one answer a hand."""
    written = examples_file(rules)
    expected = example_lines(rules)
    in_file = [line.partition("#")[0].strip() for line in written.splitlines()]
    text = written + "".join(f"{hand}\n" for hand in expected if hand not in in_file)
    code, output = taihu(["score", "-", "-r", rules, "--json"], stdin=text)
    got = [json.loads(line) for line in output.splitlines()]
    assert len(got) == len(expected)
    for hand, answer in zip(expected, got, strict=True):
        result = scored(rules, hand)
        assert answer == (result.to_dict() if result else answer) and ("detail" in answer) == (result is None)
    assert code == (2 if any(scored(rules, h) is None for h in expected) else 0)


def test_shell_completion_is_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    # `bash` as the option's value, not the shell shellingham finds above pytest: there may be none (a detached run)
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")
    _, help_text = taihu(["--help"], env=DESK)
    assert "--install-completion" in help_text and "--show-completion" in help_text
    code, script = taihu(["--show-completion", "bash"], env=DESK)
    assert code == 0 and "_TAIHU_COMPLETE=complete_bash" in script and "complete -o default -F" in script


@pytest.mark.parametrize("rules", list(REGISTRY))
def test_rules_at_40_columns_shows_every_item_name_whole(rules: str) -> None:
    from taihu.scorer.rulesets import get

    code, output = taihu(["rules", rules])
    assert code == 0 and "…" not in output
    items = output.split("house options")[0]
    for item in get(rules).info().items:
        assert_whole(item.name, items)
        assert_whole(item.name_en, items)


@pytest.mark.parametrize(
    "hand",
    ["123m 456m 789p 23s 55p flip:9p seat:W", "123m 456m 789p 23s 55p 9s flip:9p seat:W"],
    ids=["waits", "discards"],
)
def test_waits_at_40_columns_fits_and_cuts_nothing(hand: str) -> None:
    code, output = taihu(["waits", hand, "-r", "luoshan"])
    assert code == 0 and "…" not in output and widest(output) <= 40, output
    assert "1p" in words(output) or "1p:" in words(output)
    assert "unseen" in words(output), output  # each wait's unseen copies, spelled out (no folded heading)


# each rule set by each of its Chinese names, in capitals and capitalised
SPELLINGS = [
    (given, name) for name, line in REGISTRY.items() for given in (*line.chinese, name.upper(), name.capitalize())
]


@pytest.mark.parametrize(("given", "rules"), SPELLINGS)
def test_rules_option_takes_any_case_and_the_chinese_name(given: str, rules: str) -> None:
    code, output = taihu(["rules", given, "--json"])
    assert code == 0, output
    assert json.loads(output)["name"] == rules
