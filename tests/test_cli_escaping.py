"""What `taihu` prints holds no raw control: names and hands reach the terminal as text.

A ledger's and its players' names are written straight into the database (as a file from an older taihu,
or made by hand, could hold them: the ledger's own checks would refuse them today), then shown by every
command that prints them, wide and at 40 columns. rich reads no markup in them either. A name with a
control is refused when typed (`ledger show NAME`), so `show` and `undo` open the ledger whose players
hold them, and `list` shows the ledger whose own name does too.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from taihu.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
NORMAL_WIN = ROOT / "examples/tables/normal-win.json"
RAW = ["\x1b", "\x07", "\x00", "\u202e", "\x9b", "\r"]  # ESC, BEL, NUL, RIGHT-TO-LEFT OVERRIDE, CSI, CR
HOSTILE_PLAYER = "A\x1b[31mnn\x07\x00\u202e [bold]x[/bold]\nevil"
HOSTILE_LEDGER = "fri\x1b]0;title\x07day\x9b2J\r"
RUNNER = CliRunner()


def taihu(args: list[str], columns: int = 120, stdin: str | None = None) -> tuple[int, str]:
    env = {"COLUMNS": str(columns), "NO_COLOR": None, "FORCE_COLOR": "1", "TERM": "xterm-256color"}
    result = RUNNER.invoke(app, args, env=env, input=stdin)
    return result.exit_code, result.output


SGR = re.compile("\x1b\\[[0-9;]*m")  # rich's colour (FORCE_COLOR, as on a terminal): the only ESC allowed


def assert_no_raw_controls(output: str) -> None:
    found = [repr(ch) for ch in RAW if ch in SGR.sub("", output)]
    assert not found, (found, output)


@pytest.fixture
def hostile_db(tmp_path: Path) -> Path:
    db = tmp_path / "ledger.db"
    made = RUNNER.invoke(app, ["ledger", "new", "plain", "--players", "Ann,Bob,Cy,Dee", "--db", str(db)])
    assert made.exit_code == 0, made.output
    assert RUNNER.invoke(app, ["ledger", "add", "plain", str(NORMAL_WIN), "--db", str(db)]).exit_code == 0
    named = RUNNER.invoke(app, ["ledger", "new", "named", "--players", "Ann,Bob,Cy,Dee", "--db", str(db)])
    assert named.exit_code == 0, named.output
    in_json = json.dumps(HOSTILE_PLAYER)[1:-1]  # the name as it stands inside the stored JSON
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE ledgers SET players = replace(players, 'Ann', ?)", (in_json,))
        connection.execute("UPDATE ledgers SET name = ? WHERE name = 'named'", (HOSTILE_LEDGER,))
        for column in ("seats", "deal_table", "settlement"):
            connection.execute(f"UPDATE deals SET {column} = replace({column}, '\"Ann\"', ?)", (f'"{in_json}"',))
    connection.close()
    return db


@pytest.mark.parametrize("columns", [120, 40])
@pytest.mark.parametrize("command", [["show"], ["list"], ["undo"]])
def test_a_ledger_with_control_characters_in_its_names_prints_them_escaped(
    hostile_db: Path, command: list[str], columns: int
) -> None:
    args = ["ledger", *command, *(["plain"] if command != ["list"] else []), "--db", str(hostile_db)]
    code, output = taihu(args, columns)
    assert code == 0, output
    assert_no_raw_controls(output)
    output = SGR.sub("", output)
    assert "\\x1b" in output and "[bold]" in output  # shown as text, markup left as typed
    if command == ["list"]:
        assert "\\x1b]0;title\\x07day\\x9b2J" in output.replace("\n", "").replace(" ", ""), output  # the ledger's
    if command != ["list"]:
        assert "\\x07\\x00\\u202e" in output.replace("\n", "").replace(" ", "")
        assert "nevil" not in output.split("\\")[0]  # the name's newline is `\n`, never a line break


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["score", "123m \x1b[2J 456p"], id="hand-with-esc"),
        pytest.param(["score", "123m\u202e456p"], id="hand-with-rlo"),
        pytest.param(["waits", "123m\x07"], id="waits-with-bel"),
        pytest.param(["score", "-"], id="batch"),
        pytest.param(["ledger", "show", "no\x1bbody"], id="ledger-name"),
    ],
)
def test_a_hand_or_name_echoed_in_an_error_is_escaped(args: list[str], hostile_db: Path) -> None:
    stdin = "123m \x1b[31m 456p\n" if args == ["score", "-"] else None
    code, output = taihu([*args, *(["--db", str(hostile_db)] if args[0] == "ledger" else [])], stdin=stdin)
    assert code == 2, output
    assert_no_raw_controls(output)
    assert "\\x1b" in output or "\\u202e" in output or "\\x07" in output, output
