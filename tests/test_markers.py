"""The markers `make check` leaves out (tests/markers.py): a test is marked by what it starts, and one that starts
a server unmarked fails, so the fast loop never quietly starts one."""

from __future__ import annotations

import re
import socket
import subprocess
from pathlib import Path

import pytest
from live_server import live_server
from markers import CALLS, MARKERS, _needs_of

ROOT = Path(__file__).resolve().parent.parent


def serves() -> None:
    with live_server():
        pass


def serves_through_a_helper() -> None:
    serves()


def scores() -> None:
    socket.gethostname()


# in a dict: named in a test, the helpers would mark that test server
HELPERS = {"serves": serves, "serves_through_a_helper": serves_through_a_helper, "scores": scores}


def test_a_server_started_through_a_helper_of_tests_marks_the_test() -> None:
    assert _needs_of(HELPERS["serves"]) == {"server"}
    assert _needs_of(HELPERS["serves_through_a_helper"]) == {"server"}
    assert _needs_of(HELPERS["scores"]) == set()
    assert set(CALLS.values()) <= set(MARKERS)


def test_an_unmarked_test_that_binds_or_starts_taihu_serve_fails(unmarked_servers: list[str]) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
    subprocess.run(["true", "serve", "--port", "0"], check=True)
    assert [done.split()[0] for done in unmarked_servers] == ["bound", "started"]
    unmarked_servers.clear()  # what this test did on purpose; left in, it would fail the test at teardown


def test_make_check_leaves_out_every_marker(pytestconfig: pytest.Config) -> None:
    registered = [line.partition(":")[0] for line in pytestconfig.getini("markers")]
    assert set(MARKERS) <= set(registered)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    [left_out] = re.findall(r"^CHECK_TESTS := (.*)$", makefile, re.MULTILINE)
    assert left_out.split(" and ") == [f"not {name}" for name in MARKERS]
    assert '-m "$(CHECK_TESTS)"' in makefile
