"""A reader that goes away (`taihu score - < hands | head -1`) ends `taihu` as it ends a Unix tool (`yes | head -1`):
quietly, by SIGPIPE — no message, no traceback, and not the exit status 1 of an error.

Run as the console script in a process of its own: the ending is the process's."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from taihu.cli.main import PIPE_CLOSED, app

ROOT = Path(__file__).resolve().parent.parent
TAIHU = Path(sys.executable).parent / "taihu"
HAND = "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W"
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}


def read_one_line_and_go(args: list[str], stdin: Path) -> tuple[int, str, str]:
    """The command's first line, the reader closed after it, then the command's status and its stderr."""
    with (
        stdin.open("rb") as given,
        subprocess.Popen(
            [str(TAIHU), *args], stdin=given, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV
        ) as process,
    ):
        assert process.stdout is not None and process.stderr is not None
        first = process.stdout.readline().decode()
        process.stdout.close()  # the reader goes away, as `head -1` does
        errors = process.stderr.read().decode()
        return process.wait(timeout=120), first, errors


@pytest.mark.skipif(not hasattr(signal, "SIGPIPE"), reason="a system with SIGPIPE")
@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (["score", "-", "--lang", "en"], f"{HAND}\n" * 20000),  # batch mode, each line flushed as it is scored
        (["score", "-", "--json"], f"{HAND}\n" * 20000),
        (["rules", "lingxi"], ""),  # one table through rich, whose own ending of a broken pipe is exit 1
    ],
    ids=["batch", "batch json", "one table"],
)
def test_a_closed_pipe_ends_the_command_quietly_as_sigpipe_does(args: list[str], stdin: str, tmp_path: Path) -> None:
    lines = tmp_path / "hands.txt"
    lines.write_text(stdin, encoding="utf-8")
    status, first, errors = read_one_line_and_go(args, lines)
    assert first  # it did answer
    assert errors == ""
    assert status in (0, -signal.SIGPIPE), status  # 0: all was written before the reader went


def test_the_statuses_of_a_closed_pipe_and_of_an_error_differ() -> None:
    """Inside the command group (where no process is ended), a closed pipe is the status a shell shows for a
    command ended by SIGPIPE, never 1 (a bug) or 2 (bad input)."""
    assert PIPE_CLOSED == 128 + signal.SIGPIPE if hasattr(signal, "SIGPIPE") else PIPE_CLOSED == 141
    assert PIPE_CLOSED not in (0, 1, 2)


def test_a_broken_pipe_inside_a_command_is_its_status(monkeypatch: pytest.MonkeyPatch) -> None:
    """The group turns a BrokenPipeError into that status, with no message and no traceback."""
    import taihu.cli.main as cli

    def broken(*args: object, **kwargs: object) -> None:
        raise BrokenPipeError

    monkeypatch.setattr(cli, "print_json", broken)
    result = CliRunner().invoke(app, ["rules", "lingxi", "--json"])
    assert result.exit_code == PIPE_CLOSED
    assert result.output == ""
