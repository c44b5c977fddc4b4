"""Every example in README.md and docs/ gives the documented output, and no generated part is stale.

A page's examples are the checkable lines of its ```sh blocks, each run
here through the library:

    taihu score "HAND" [-r RULES] [-o NAME=N]   # total N; not legal; hand: CANONICAL; note: TEXT
    taihu score "HAND" -r RULES                 # error: part of the message
    taihu settle examples/tables/NAME.json      # net E -120 S +224 W -52 N -52; next dealer S
    taihu waits "HAND" [-r RULES]               # waits 3p 6p; not legal 3p; not ready; best discard 9s

(`;` separates the checks of one line); `pycon` blocks are run as doctests;
and the parts between `begin generated` markers (the item tables, full
command outputs, HTTP answers) must be what `python -m taihu.docs` makes.
"""

from __future__ import annotations

import doctest
import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
from rule_set_examples import documented, package_rule_sets_only

from taihu import HandError, score_hand, settle_table, waits
from taihu.docs import ROOT, generated_specs, pages, regenerate
from taihu.scorer.waiting import Discards, Waits

PAGES = pages()
FENCE = re.compile(r"^```sh\n(?P<body>.*?)^```", re.MULTILINE | re.DOTALL)
PYCON = re.compile(r"^```pycon\n(?P<body>.*?)^```", re.MULTILINE | re.DOTALL)
COMMAND = re.compile(r"^taihu (?:score|settle|waits) ")


@dataclass(frozen=True)
class Example:
    where: str  # page:line, the test's id
    args: list[str]  # the command's arguments after `taihu`
    checks: list[str]


def examples() -> list[Example]:
    """Every `taihu score`/`taihu settle` line in a ```sh block of a page (usage lines are in untagged blocks)."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for fence in FENCE.finditer(text):
            first_line = text.count("\n", 0, fence.start("body")) + 1
            for offset, line in enumerate(fence["body"].splitlines()):
                if COMMAND.match(line):
                    command, _, comment = line.partition("#")
                    checks = [c.strip() for c in comment.split(";") if c.strip()]
                    where = f"{page.relative_to(ROOT)}:{first_line + offset}"
                    found.append(Example(where, shlex.split(command)[1:], checks))
    return found


EXAMPLES = examples()


def parse_score_args(args: list[str]) -> tuple[str, str, dict[str, int]]:
    """The hand, the rule set and the options of `score HAND [-r RULES] [-o NAME=N]…`."""
    hand, rules, options = args[1], "lingxi", {}
    rest = iter(args[2:])
    for flag in rest:
        if flag == "--json":
            continue  # the same answer, printed as JSON
        value = next(rest, "")
        if flag in ("-r", "--rules"):
            rules = value
        elif flag in ("-o", "--option"):
            name, _, number = value.partition("=")
            options[name] = int(number)
        else:
            raise AssertionError(f"a documented example uses an option the checker does not know: {flag}")
    return hand, rules, options


def check_score(example: Example) -> None:
    hand, rules, options = parse_score_args(example.args)
    errors = [c.removeprefix("error:").strip() for c in example.checks if c.startswith("error:")]
    if errors:
        with pytest.raises(HandError) as raised:
            score_hand(hand, rules=rules, options=options)
        assert errors[0] in str(raised.value)
        return
    result = score_hand(hand, rules=rules, options=options)
    for check in example.checks:
        if check.startswith("total "):
            assert result.total == int(check.removeprefix("total ")), result
        elif check == "not legal":
            assert not result.legal, result
        elif check == "legal":
            assert result.legal, result
        elif check.startswith("hand:"):
            assert result.hand == check.removeprefix("hand:").strip()
        elif check == "non-winner":
            assert not result.winner
        elif check.startswith("note:"):
            assert any(check.removeprefix("note:").strip() in note for note in result.notes), result.notes
        else:
            raise AssertionError(f"unknown check '{check}'")


def check_settle(example: Example) -> None:
    table = json.loads((ROOT / example.args[1]).read_text(encoding="utf-8"))
    result = settle_table(table)
    for check in example.checks:
        if check.startswith("net "):
            words = check.removeprefix("net ").split()
            assert result.net == {seat: int(amount) for seat, amount in zip(words[::2], words[1::2], strict=True)}
        elif check.startswith("next dealer "):
            assert result.next_dealer == check.removeprefix("next dealer ")
        else:
            raise AssertionError(f"unknown check '{check}'")


def check_waits(example: Example) -> None:
    """`# waits T…` lists the waiting tiles (after the best discard, with one tile too many)."""
    hand, rules, options = parse_score_args(example.args)
    errors = [c.removeprefix("error:").strip() for c in example.checks if c.startswith("error:")]
    if errors:
        with pytest.raises(HandError) as raised:
            waits(hand, rules=rules, options=options)
        assert errors[0] in str(raised.value)
        return
    result = waits(hand, rules=rules, options=options)
    found = result.discards[0].waits if isinstance(result, Discards) else result.waits
    for check in example.checks:
        if check.startswith("waits "):
            assert [w.tile for w in found] == check.removeprefix("waits ").split(), result
        elif check.startswith("not legal "):
            assert not next(w for w in found if w.tile == check.removeprefix("not legal ")).legal
        elif check == "not ready":
            assert isinstance(result, Waits) and not result.ready
        elif check.startswith("best discard "):
            assert isinstance(result, Discards) and result.discards[0].tile == check.removeprefix("best discard ")
        else:
            raise AssertionError(f"unknown check '{check}'")


def test_docs_have_examples() -> None:
    """The checker finds the pages' examples at all (a broken pattern would pass every page)."""
    pages = {
        "README.md",
        "docs/notation.md",
        "docs/api.md",
        "docs/waits.md",
        *(f"docs/rules/{n}.md" for n in documented()),
    }
    assert {e.where.split(":")[0] for e in EXAMPLES} >= pages


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.where for e in EXAMPLES])
def test_documented_example_gives_documented_output(example: Example) -> None:
    assert example.checks, f"{example.where}: an example says what it gives (# total N, # error: …, # net …)"
    if example.args[0] == "score":
        check_score(example)
    elif example.args[0] == "waits":
        check_waits(example)
    else:
        check_settle(example)


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_generated_parts_are_current(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    with package_rule_sets_only():  # a test's rule set, registered for the run, is in no document
        assert regenerate(text) == text, f"{page.name} is stale: run `make docs`"


@pytest.mark.parametrize("name", documented())
def test_every_rule_set_page_shows_its_items(name: str) -> None:
    page = ROOT / "docs" / "rules" / f"{name}.md"
    assert f"items {name}" in list(generated_specs(page.read_text(encoding="utf-8")))


def python_pages() -> list[Path]:
    return [p for p in PAGES if PYCON.search(p.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("page", python_pages(), ids=[str(p.relative_to(ROOT)) for p in python_pages()])
def test_python_examples_run_as_shown(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the examples open examples/… as a reader in a clone would
    text = page.read_text(encoding="utf-8")
    source = "\n".join(m["body"] for m in PYCON.finditer(text))
    test = doctest.DocTestParser().get_doctest(source, {}, page.name, str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.summarize(verbose=False).failed == 0, "".join(report)


def test_nothing_points_outside_the_repo() -> None:
    """A clone has no specs folder beside it: the repo's own docs are the reference."""
    outside = ("../" + "shared", "/work/" + "shared")
    files = [ROOT / "Makefile", *PAGES]
    for folder in ("examples", "taihu", "tests", "bench"):
        files += [p for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".md", ".txt", ".json")]
    pointing = [str(p.relative_to(ROOT)) for p in files if any(o in p.read_text(encoding="utf-8") for o in outside)]
    assert pointing == []
