"""The evening as a picture in the terminal: each player's running total as a sparkline.

`taihu.ledger.trend_lines` is a pure function, tested here on tables of cases and on random evenings; `taihu
ledger show` prints one line a player.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from taihu.cli.main import app
from taihu.ledger import BARS, TREND_WIDTH, Deal, sparkline, trend_lines

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["甲", "乙", "丙", "丁"]
SEATS = dict(zip("ESWN", PLAYERS, strict=True))


def deal(number: int, *net: int) -> Deal:
    settlement = {"net": dict(zip("ESWN", net, strict=True)), "next_dealer": "E"}
    return Deal(number, SEATS, {}, settlement)


@pytest.mark.parametrize(
    "values, low, high, shown",
    [
        ([0, 7], 0, 7, "▁█"),
        ([0, -7], -7, 0, "█▁"),
        ([0, 1, 2, 3, 4, 5, 6, 7], 0, 7, BARS),
        ([0, 0, 0], 0, 0, "▄▄▄"),  # nothing moved: the middle
        ([0, 11], -10, 11, "▄█"),  # one scale for all: 0 is about half way
        (list(range(100)), 0, 99, None),  # sampled down to TREND_WIDTH
    ],
)
def test_a_sparkline(values: list[int], low: int, high: int, shown: str | None) -> None:
    line = sparkline(values, low, high)
    if shown is not None:
        assert line == shown
    else:
        assert len(line) == TREND_WIDTH and line[0] == "▁" and line[-1] == "█"


def test_the_trend_of_an_evening_shares_one_scale() -> None:
    lines = trend_lines(PLAYERS, [deal(1, -120, 224, -52, -52), deal(2, 0, 0, 0, 0)])
    # -120 … +224 on one scale: 0 is the third bar of eight, -52 the second
    assert lines == {"甲": "▃▁▁", "乙": "▃██", "丙": "▃▂▂", "丁": "▃▂▂"}


@given(st.lists(st.lists(st.integers(-500, 500), min_size=3, max_size=3), max_size=300))
def test_a_trend_line_per_player_from_deal_0_within_the_width(nets: list[list[int]]) -> None:
    deals = [deal(n, a, b, c, -a - b - c) for n, (a, b, c) in enumerate(nets, start=1)]
    lines = trend_lines(PLAYERS, deals)
    assert list(lines) == PLAYERS
    assert {len(line) for line in lines.values()} == {min(len(deals) + 1, TREND_WIDTH)}
    assert all(set(line) <= set(BARS) for line in lines.values())
    if any(any(row) for row in nets) and len(deals) < TREND_WIDTH:  # unsampled: the highest total a full bar, …
        assert "█" in "".join(lines.values()) and "▁" in "".join(lines.values())
    assert len({line[0] for line in lines.values()}) == 1  # everyone starts at 0


def test_ledger_show_prints_the_trend(tmp_path: Path) -> None:
    db, runner = str(tmp_path / "t.db"), CliRunner()
    assert runner.invoke(app, ["ledger", "new", "f", "--players", ",".join(PLAYERS), "--db", db]).exit_code == 0
    empty = runner.invoke(app, ["ledger", "show", "f", "--db", db])
    assert "running totals" not in empty.output  # no deals, no picture
    table = ROOT / "examples/tables/normal-win.json"
    assert json.loads(table.read_text(encoding="utf-8"))["winner"] == "S"
    assert runner.invoke(app, ["ledger", "add", "f", str(table), "--db", db]).exit_code == 0
    shown = runner.invoke(app, ["ledger", "show", "f", "--db", db]).output
    assert "running totals, deal 0 → 1:\n  甲 ▃▁ -120\n  乙 ▃█ +224\n  丙 ▃▂ -52\n  丁 ▃▂ -52\n" in shown
