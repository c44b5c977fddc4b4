"""`taihu ledger …` on a phone's 40 columns: every subcommand, in each language, prints no line wider than the
terminal, and breaks its lines rather than cutting what they say."""

from __future__ import annotations

import json
import os
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from taihu.cli import main
from taihu.cli.draw import together, wrapped
from taihu.cli.main import app
from taihu.store import dispose_engines

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "examples" / "tables"
PHONE = {"COLUMNS": "40", "LINES": "50", "TERM": "xterm", "NO_COLOR": "1", "FORCE_COLOR": None}
DESK = {**PHONE, "COLUMNS": "120"}
RUNNER = CliRunner()
LANGS = ("en", "zh")
SUBCOMMANDS = ("new", "add", "show", "undo", "export", "list", "rename", "delete")
DRAWN_DEALS = 45  # more deals than a trend line has room for at 40 columns


def cell_len(line: str) -> int:
    """Terminal cells, measured apart from the renderer's own count: a wide (CJK) character takes two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


def said(output: str) -> str:
    """What the output says, whatever its line breaks: no spaces, nor the brackets and semicolons that join
    the seats to a line they share (`next dealer: 甲  (seats E 甲 …)`; at 40 columns they have one of their own)."""
    return "".join(output.split()).translate(str.maketrans("", "", "()（）;；"))


def widest(output: str) -> int:
    return max((cell_len(line.rstrip()) for line in output.splitlines()), default=0)


# (evening, rules, players, the tables added one by one)
EVENINGS = [
    ("lingxi", "lingxi", "甲,乙,丙,丁", ("normal-win.json", "false-win.json", "drawn.json")),
    ("jinhua", "jinhua", "张三丰,李四光,王五,赵六", ("jinhua-win.json", "jinhua-self-drawn.json", "jinhua-drawn.json")),
    ("riichi", "riichi", "Alice,Bob,Carol,Dave", ("riichi-win.json", "riichi-drawn.json")),
]


def a_table(name: str, into: Path) -> str:
    """The example table as a deal of a running ledger: its honba, pot and house options are the ledger's."""
    data = json.loads((TABLES / name).read_text(encoding="utf-8"))
    for carried in ("honba", "pot", "options"):
        data.pop(carried, None)
    path = into / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path.name


def an_evening(env: dict[str, str | None], lang: str, rules: str, players: str, tables: tuple[str, ...]) -> dict:
    """What each `ledger` subcommand prints in one evening, run in the working directory (`--db e.db`)."""
    printed: dict[str, str] = dict.fromkeys(SUBCOMMANDS, "")

    def run(subcommand: str, *args: str) -> None:
        result = RUNNER.invoke(app, ["ledger", subcommand, *args, "--db", "e.db", "--lang", lang], env=env)
        assert result.exit_code == 0, result.output
        printed[subcommand] += result.output

    run("new", "friday", "--players", players, "--rules", rules)
    for name in tables:
        run("add", "friday", a_table(name, Path.cwd()))
    run("add", "friday", tables[-1], "--idempotency-key", "k1")
    run("add", "friday", tables[-1], "--idempotency-key", "k1")  # replayed: said so, nothing stored
    run("show", "friday")
    run("list")
    run("undo", "friday")
    run("export", "friday")
    run("export", "friday", "--csv")
    run("rename", "friday", "saturday")
    run("delete", "saturday")
    run("list")  # no ledgers left: how to start one
    return printed


@pytest.fixture(scope="module")
def evenings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """Each evening's output by (evening, language, width), run once for every test of this file, each in a
    directory of its own (so every one prints the same `e.db`)."""
    here, printed = os.getcwd(), {}
    try:
        for evening, rules, players, tables in EVENINGS:
            for lang in LANGS:
                for width, env in (("phone", PHONE), ("desk", DESK)):
                    os.chdir(tmp_path_factory.mktemp(f"{evening}-{lang}-{width}"))
                    printed[evening, lang, width] = an_evening(env, lang, rules, players, tables)
                    dispose_engines()  # the next evening's `e.db` is another file
        yield printed
    finally:
        os.chdir(here)


# (subcommand, what its output keeps at 40 columns): `words` — what it says at a desk, only its lines
# broken elsewhere; `layout` — a layout of its own (a list per deal, not a grid); `data` — JSON or CSV to keep
# in a file, the same whatever the terminal's width
KEPT = {
    "new": "words",
    "add": "words",
    "show": "layout",
    "undo": "words",
    "export": "data",
    "list": "layout",
    "rename": "words",
    "delete": "words",
}
CASES = [(subcommand, lang, evening) for subcommand in SUBCOMMANDS for lang in LANGS for evening, *_ in EVENINGS]


@pytest.mark.parametrize("subcommand, lang, evening", CASES, ids=["-".join(case) for case in CASES])
def test_every_ledger_subcommand_fits_40_columns(evenings: dict, subcommand: str, lang: str, evening: str) -> None:
    phone, desk = evenings[evening, lang, "phone"][subcommand], evenings[evening, lang, "desk"][subcommand]
    assert phone.strip()
    if KEPT[subcommand] == "data":
        assert phone == desk  # a file's content: no line is broken for the terminal
        return
    assert widest(phone) <= 40, phone
    if KEPT[subcommand] == "words":
        assert said(phone) == said(desk), phone


def test_a_long_evening_draws_its_trend_in_40_columns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for lang in LANGS:
        (tmp_path / lang).mkdir()
        monkeypatch.chdir(tmp_path / lang)  # `e.db` is another file for each language
        dispose_engines()
        common = ["--db", "e.db", "--lang", lang]
        assert RUNNER.invoke(app, ["ledger", "new", "long", "--players", "甲,乙,丙,丁", *common]).exit_code == 0
        for _ in range(DRAWN_DEALS):
            added = RUNNER.invoke(app, ["ledger", "add", "long", str(TABLES / "normal-win.json"), *common])
            assert added.exit_code == 0, added.output
        shown = RUNNER.invoke(app, ["ledger", "show", "long", *common], env=PHONE).output
        assert widest(shown) <= 40, shown


# (why, text, width, hang, the lines)
WRAPS = [
    ("fits: one line", "totals: 甲 0  乙 0", 40, 8, ["totals: 甲 0  乙 0"]),
    (
        "broken between entries, kept under the first",
        f"net:    {together('甲 -120')}  {together('乙 +224')}  {together('丙 -52')}",
        22,
        8,
        ["net:    甲 -120", "        乙 +224", "        丙 -52"],
    ),
    ("a wide character takes two cells", "第 1 局：乙 和牌，丙 点炮", 16, 2, ["第 1 局：乙", "  和牌，丙 点炮"]),
    (
        "a word wider than the line stands alone, whole",
        "in /a/very/long/path/e.db now",
        10,
        2,
        ["in", "  /a/very/long/path/e.db", "  now"],
    ),
    (
        "a quoted command is kept whole",
        "start one with `taihu ledger new`",
        20,
        2,
        ["start one with", "  `taihu ledger new`"],
    ),
]


@pytest.mark.parametrize("why, text, width, hang, lines", WRAPS, ids=[w[0] for w in WRAPS])
def test_wrapped(why: str, text: str, width: int, hang: int, lines: list[str]) -> None:
    assert wrapped(text, width, hang) == lines


# -- an error's lines at 40 columns ----------------------------------------------------------------------------

ERRORS = [
    ("ledger", "show", "nosuch", "--db", "e.db"),  # no ledger of that name: the one to list them
    ("ledger", "new", "sunday", "--players", "甲,乙,丙", "--db", "e.db"),  # three players
    ("ledger", "add", "friday", "bad.json", "--db", "e.db"),  # a seat's hand that does not read
    ("score", "123m 456p 789s 11z 5Q", "--rules", "lingxi"),  # a tile without its suit
    ("score", "123m 456p 789s EE 55s", "--rules", "nosuch"),  # a rule set there is not
]


@pytest.mark.parametrize("lang", LANGS)
def test_an_error_s_lines_fit_40_columns_and_say_what_a_pipe_s_one_line_says(
    lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    bad = {"rules": "lingxi", "winner": None, "players": {"E": "123m 5Q", "S": "1m", "W": "1m", "N": "1m"}}
    (tmp_path / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
    made = RUNNER.invoke(app, ["ledger", "new", "friday", "--players", "甲,乙,丙,丁", "--db", "e.db"], env=PHONE)
    assert made.exit_code == 0, made.output
    for args in ERRORS:
        piped = RUNNER.invoke(app, [*args, "--lang", lang], env=PHONE)  # stderr a pipe: each line whole
        with monkeypatch.context() as terminal:
            terminal.setattr(main, "stderr_is_terminal", lambda: True)
            phone = RUNNER.invoke(app, [*args, "--lang", lang], env=PHONE)
        assert phone.exit_code == piped.exit_code == 2, (args, phone.output)
        assert widest(phone.stderr) <= 40, (args, phone.stderr)
        assert said(phone.stderr) == said(piped.stderr), (args, phone.stderr, piped.stderr)
        assert len(piped.stderr.splitlines()) < len(phone.stderr.splitlines()), (args, piped.stderr)
        as_json = RUNNER.invoke(app, [*args, "--lang", lang, "--json"], env=PHONE)
        assert as_json.stdout == RUNNER.invoke(app, [*args, "--lang", lang, "--json"], env=DESK).stdout
    dispose_engines()
