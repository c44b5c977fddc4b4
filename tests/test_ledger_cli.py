"""`taihu ledger …` on a local file: the evening end to end, and bad input as exit 2 with one line."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from taihu.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
NORMAL_WIN = ROOT / "examples/tables/normal-win.json"
DRAWN = ROOT / "examples/tables/drawn.json"
runner = CliRunner()


def taihu(*args: str, stdin: str | None = None) -> Any:
    return runner.invoke(app, list(args), input=stdin)


def test_an_evening_on_a_chosen_file(tmp_path: Path) -> None:
    db = str(tmp_path / "evening.db")
    assert taihu("ledger", "new", "friday", "--players", "甲,乙,丙,丁", "-o", "double_at=10", "--db", db).exit_code == 0
    added = taihu("ledger", "add", "friday", str(NORMAL_WIN), "--db", db)
    assert added.exit_code == 0, added.output
    assert "deal 1: 乙 won on 丙's discard; seats E 甲  S 乙  W 丙  N 丁" in added.output
    assert "next dealer: 乙  (seats E 乙  S 丙  W 丁  N 甲)" in added.output
    assert taihu("ledger", "add", "friday", "-", "--db", db, stdin=DRAWN.read_text(encoding="utf-8")).exit_code == 0
    shown = json.loads(taihu("ledger", "show", "friday", "--json", "--db", db).output)
    assert list(shown) == [
        "name",
        "title",
        "expires",
        "rules",
        "players",
        "deals",
        "totals",
        "next_dealer",
        "deal_count",
    ]
    assert [d["dealer"] for d in shown["deals"]] == ["甲", "乙"]  # 乙 won deal 1 and deals deal 2
    assert shown["deals"][1]["seats"] == {"E": "乙", "S": "丙", "W": "丁", "N": "甲"}
    assert shown["deals"][0]["table"]["options"] == {"double_at": 10}
    assert shown["next_dealer"] == "乙"  # a drawn deal keeps the dealer
    table = taihu("ledger", "show", "friday", "--db", db).output
    assert "next dealer: 乙" in table and "drawn" in table
    exported = taihu("ledger", "export", "friday", "--csv", "--db", db)
    assert exported.output.startswith("\ufeff")  # the byte order mark: a spreadsheet reads UTF-8
    rows = list(csv.DictReader(io.StringIO(exported.output.removeprefix("\ufeff"))))
    assert len(rows) == 8 and {r["player"]: int(r["total"]) for r in rows} == shown["totals"]
    assert "friday" in taihu("ledger", "list", "--db", db).output
    undone = taihu("ledger", "undo", "friday", "--db", db)
    assert undone.exit_code == 0 and "removed deal 2: drawn" in undone.output
    assert len(json.loads(taihu("ledger", "show", "friday", "--json", "--db", db).output)["deals"]) == 1


def test_without_db_the_ledger_is_at_taihu_db(ledger_db: Path) -> None:
    assert taihu("ledger", "new", "here", "--players", "a,b,c,d").exit_code == 0
    assert ledger_db.exists()
    assert "here" in taihu("ledger", "list", "--db", str(ledger_db)).output


@pytest.mark.parametrize(
    "args, message",
    [
        (("ledger", "show", "nobody"), "error: no ledger named 'nobody'"),
        (("ledger", "new", "x", "--players", "a,b,c"), "error: players: a ledger needs 4 players"),
        (("ledger", "new", "x", "--players", "a,b,c,d", "-o", "double_at"), "error: option 'double_at' must be"),
        (("ledger", "new", "x", "--players", "a,b,c,d", "--rules", "mars"), "error: unknown rule set 'mars'"),
        (("ledger", "add", "x", "missing.json"), "error: cannot read missing.json"),
        (("ledger", "undo", "x"), "error: no ledger named 'x'"),
    ],
)
def test_bad_input_exits_2_with_one_line(args: tuple[str, ...], message: str) -> None:
    assert taihu("ledger", "new", "other", "--players", "p,q,r,s").exit_code == 0  # the file exists
    result = taihu(*args)
    assert result.exit_code == 2
    assert result.output.startswith(message) and result.output.count("\n") == 1, result.output


def test_a_refused_deal_exits_2_and_changes_nothing(ledger_db: Path) -> None:
    taihu("ledger", "new", "x", "--players", "a,b,c,d")
    bad = json.loads(NORMAL_WIN.read_text(encoding="utf-8")) | {"winner": "W"}
    result = taihu("ledger", "add", "x", "-", stdin=json.dumps(bad))
    assert result.exit_code == 2 and result.output.startswith("error: players.S: the hand has a winning tile +9m")
    assert json.loads(taihu("ledger", "show", "x", "--json").output)["deals"] == []


def test_a_db_that_is_not_a_database_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("shopping list " * 200, encoding="utf-8")
    result = taihu("ledger", "list", "--db", str(path))
    assert result.exit_code == 2 and "not a taihu ledger database" in result.output


def test_only_new_makes_the_file(tmp_path: Path) -> None:
    path = tmp_path / "typo.db"
    listed = taihu("ledger", "list", "--db", str(path))
    assert listed.exit_code == 0 and " ".join(listed.output.split()).startswith(f"no ledgers in {path}")
    shown = taihu("ledger", "show", "friday", "--db", str(path))
    assert shown.exit_code == 2 and "no ledger database there" in shown.output
    assert not path.exists()


def cells(line: str) -> int:
    """Terminal cells of a line, counted apart from rich's own count: a wide (CJK) character takes two."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


@pytest.mark.parametrize("columns", [40, 120])
def test_ledger_show_and_list_are_readable_at_any_width(tmp_path: Path, columns: int) -> None:
    """At 40 columns (a phone) `show` is a list per deal: every word whole, nothing cut, nothing wider."""
    db = str(tmp_path / "evening.db")
    players = "Alexandra,Bartholomew,丙丙丙,丁"
    assert taihu("ledger", "new", "friday", "--players", players, "--db", db).exit_code == 0
    for table in (NORMAL_WIN, DRAWN):
        assert taihu("ledger", "add", "friday", str(table), "--db", db).exit_code == 0
    env = {"COLUMNS": str(columns), "NO_COLOR": "1"}
    for command in ("show", "list"):
        args = ["ledger", command, *(["friday"] if command == "show" else []), "--db", db]
        result = runner.invoke(app, args, env=env)
        assert result.exit_code == 0, result.output
        # the lines the table draws fit (the title with the file's path, `totals` and `next dealer` are left
        # whole for the terminal to break, so that they copy back)
        lines = result.output.splitlines()[1:]
        drawn = [line for line in lines if not line.startswith(("totals:", "next dealer:"))]
        assert max(cells(line) for line in drawn) <= columns, result.output
        assert "…" not in result.output
        words = set(result.output.replace(",", " ").split())
        assert {"Alexandra", "Bartholomew", "丙丙丙", "丁"} <= words, result.output
        if command == "show":
            assert {"Bartholomew", "won", "on", "丙丙丙's", "discard", "drawn", "+224", "-120"} <= words, result.output
