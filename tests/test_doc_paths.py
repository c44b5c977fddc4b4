"""Every path of the repository a module's text or a doc cites exists: a docstring, comment or page that
names `taihu/…`, `tests/…`, `docs/…`, `bench/…` or `examples/…` points at a file or folder that is there.

A placeholder (`docs/rules/NAME.md`, `examples/tables/*.json`, `…/{name}.py`) names no one file and is
left out.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# a path as the texts write it: from one of the repository's top folders, up to a character no path holds
CITED = re.compile(r"(?<![\w./-])((?:taihu|tests|docs|bench|examples)/[\w./*{}<>…-]*[\w*}>…])")
PLACEHOLDER = re.compile(r"[*{}<>…]|\bNAME\b")
TEXTS = sorted([*ROOT.glob("taihu/**/*.py"), *ROOT.glob("docs/*.md")])


def cited_paths(text: str) -> list[tuple[int, str]]:
    """(line, path) of each repository path the text cites, placeholders left out."""
    return [
        (number, match.group(1).rstrip("."))
        for number, line in enumerate(text.splitlines(), 1)
        for match in CITED.finditer(line)
        if not PLACEHOLDER.search(match.group(1))
    ]


def test_the_paths_are_found_as_the_texts_write_them() -> None:
    """The check below would pass vacuously if the pattern found nothing: these are what it must find."""
    text = "see taihu/scorer/notation.py, `docs/api.md` and (tests/nothing_here.py).\nnot ataihu/x.py"
    assert cited_paths(text) == [(1, "taihu/scorer/notation.py"), (1, "docs/api.md"), (1, "tests/nothing_here.py")]
    assert cited_paths("docs/rules/NAME.md, examples/tables/*.json, taihu/scorer/rulesets/{name}/") == []
    assert not (ROOT / "tests/nothing_here.py").exists()


@pytest.mark.parametrize("path", TEXTS, ids=[str(p.relative_to(ROOT)) for p in TEXTS])
def test_every_cited_path_exists(path: Path) -> None:
    cited = cited_paths(path.read_text(encoding="utf-8"))
    missing = [f"line {number}: {named}" for number, named in cited if not (ROOT / named).exists()]
    assert not missing, f"{path.relative_to(ROOT)} cites paths that do not exist: {missing}"
