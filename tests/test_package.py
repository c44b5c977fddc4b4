"""The distribution is one import package, `taihu`, with the public API at its top."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

import taihu
import taihu.scorer
from taihu.cli.main import app
from taihu.scorer import LATER

ROOT = Path(__file__).resolve().parent.parent


def test_public_api_is_importable_from_taihu() -> None:
    from taihu import HandError, score_hand, settle_table

    assert score_hand("555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S").total == 56
    assert callable(settle_table)
    assert issubclass(HandError, ValueError) or issubclass(HandError, Exception)


@pytest.mark.parametrize("name, module", sorted(LATER.items()))
def test_a_name_loaded_on_first_use_stays_the_name_once_its_module_is_imported(name: str, module: str) -> None:
    """Importing a submodule binds it on its package: a module named as the name it holds would replace it."""
    loaded = importlib.import_module(f"taihu.scorer.{module}")
    assert getattr(taihu.scorer, name) is getattr(loaded, name)
    assert getattr(taihu, name, getattr(loaded, name)) is getattr(loaded, name)
    assert not isinstance(getattr(taihu.scorer, name), ModuleType)


def test_version_flag_prints_the_distribution_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"taihu {taihu.__version__}"
    assert taihu.__version__[0].isdigit()


def test_only_taihu_is_a_top_level_package() -> None:
    """pyproject's package list must not bring back generic top-level names (scorer, cli, api)."""
    find = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    assert find["include"] == ["taihu*"]
    top_level = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert top_level == {"taihu"}
    assert all((ROOT / "taihu" / part / "__init__.py").exists() for part in ("scorer", "cli", "api"))


def console_script(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The installed `taihu` in a process of its own, its output buffered as in a pipe."""
    script = shutil.which("taihu", path=str(Path(sys.executable).parent))
    command = [script] if script else [sys.executable, "-m", "taihu.cli.main"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    return subprocess.run(command + args, input=stdin, capture_output=True, text=True, env=env, timeout=60)


def test_the_console_script_ends_with_all_its_output_and_its_status() -> None:
    """`main` ends the process without the interpreter's teardown: what was buffered must still come out."""
    hands = "123m 456m 789p 23s 55p +4s flip:9p seat:W\n" * 300 + "GG\n"
    done = console_script(["score", "-", "-r", "luoshan", "--json"], stdin=hands)
    lines = done.stdout.splitlines()
    assert done.returncode == 2 and len(lines) == 301 and json.loads(lines[-1])["code"] == "unknown_tile"
    done = console_script(["score", "123m x", "--json"])
    assert done.returncode == 2 and json.loads(done.stdout)["code"] == "unknown_tile"
    assert done.stderr.startswith("error: unknown tile 'x' at column 6")
    done = console_script(["rules", "lingxi"])
    assert done.returncode == 0 and done.stdout.rstrip().endswith("exclusion: ping_hu excludes ying_da_ying")
