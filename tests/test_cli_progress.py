"""A progress bar on stderr for long work (`taihu score -` over many lines, a waits search), only where
stderr is a terminal: never in a pipe, never with --json. Run through the console script, stderr on a pty."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import threading
from pathlib import Path

import pytest

TAIHU = Path(sys.executable).parent / "taihu"
HANDS = "123m 456m 789p 23s 55p +4s flip:9p seat:W\n" * 400
pytestmark = pytest.mark.skipif(not TAIHU.exists(), reason="needs the installed console script")


def run(args: list[str], stdin: str = "", stderr_on_a_terminal: bool = True) -> tuple[int, str, str]:
    """The exit status, stdout (a pipe) and what reached stderr (a pty, or a pipe)."""
    env = {**os.environ, "COLUMNS": "80", "TERM": "xterm"}
    env.pop("NO_COLOR", None)
    if not stderr_on_a_terminal:
        done = subprocess.run([str(TAIHU), *args], input=stdin, capture_output=True, text=True, env=env, timeout=60)
        return done.returncode, done.stdout, done.stderr
    leader, follower = pty.openpty()
    seen: list[bytes] = []

    def read_the_terminal() -> None:  # read as it comes: a full pty would stop the writer
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the last writer closed its end
                return
            if not chunk:
                return
            seen.append(chunk)

    reader = threading.Thread(target=read_the_terminal, daemon=True)
    reader.start()
    with subprocess.Popen(
        [str(TAIHU), *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=follower, env=env, text=True
    ) as process:
        os.close(follower)
        stdout, _ = process.communicate(stdin, timeout=60)
    reader.join(timeout=10)
    os.close(leader)
    return process.returncode, stdout, b"".join(seen).decode("utf-8", "replace")


def test_score_dash_shows_a_bar_on_a_terminal_and_answers_alone_on_stdout() -> None:
    code, stdout, stderr = run(["score", "-", "-r", "luoshan"], HANDS)
    assert code == 0 and len(stdout.splitlines()) == 400
    assert "scoring hands" in stderr and "━" in stderr, stderr
    assert "scoring hands" not in stdout and "\x1b" not in stdout


@pytest.mark.parametrize(
    ("args", "stdin", "terminal"),
    [
        pytest.param(["score", "-", "-r", "luoshan", "--json"], HANDS, True, id="json"),
        pytest.param(["score", "-", "-r", "luoshan"], HANDS, False, id="pipe"),
        pytest.param(
            ["waits", "123m 456m 789p 23s 55p flip:9p seat:W", "-r", "luoshan", "--json"], "", True, id="waits-json"
        ),
    ],
)
def test_no_bar_with_json_or_in_a_pipe(args: list[str], stdin: str, terminal: bool) -> None:
    code, stdout, stderr = run(args, stdin, stderr_on_a_terminal=terminal)
    assert code == 0 and stdout
    assert stderr == "", stderr


def test_waits_shows_a_bar_on_a_terminal() -> None:
    code, stdout, stderr = run(["waits", "123m 456m 789p 23s 55p flip:9p seat:W", "-r", "luoshan"])
    assert code == 0 and "waits" in stdout
    assert "searching the waits" in stderr, stderr
