"""The distribution is one import package, `taihu`, with the public API at its top."""

from __future__ import annotations

import tomllib
from pathlib import Path

import taihu
from taihu.cli.main import app
from taihu.cli.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent


def test_public_api_is_importable_from_taihu() -> None:
    from taihu import HandError, score_hand, settle_table

    assert score_hand("555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S").total == 56
    assert callable(settle_table)
    assert issubclass(HandError, ValueError) or issubclass(HandError, Exception)


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
