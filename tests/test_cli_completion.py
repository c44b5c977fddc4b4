"""Shell completion from typer: the words offered, through typer's own protocol, and the scripts it writes.

A shell's script calls `taihu` back at each Tab with `_TAIHU_COMPLETE=complete_SHELL` and the words
typed so far (bash: `COMP_WORDS` and `COMP_CWORD`; zsh, fish and PowerShell: `_TYPER_COMPLETE_ARGS`):
that is how these tests ask, through typer's CliRunner or the installed command under a real bash.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from taihu.cli.main import app
from taihu.scorer.rulesets import REGISTRY

BIN = Path(sys.executable).parent
RUNNER = CliRunner()


def completions(*words: str, env: dict[str, str] | None = None) -> list[str]:
    """What `taihu` offers bash for the last of `words` (the word under the cursor)."""
    asked = {"_TAIHU_COMPLETE": "complete_bash", "COMP_WORDS": " ".join(("taihu", *words))}
    result = RUNNER.invoke(app, [], env={**asked, "COMP_CWORD": str(len(words)), **(env or {})}, prog_name="taihu")
    assert result.exit_code == 0, result.output
    return result.stdout.split()


@pytest.mark.parametrize(
    ("words", "offered"),
    [
        pytest.param([""], ["score", "waits", "rules", "settle", "serve", "ledger"], id="commands"),
        pytest.param(["se"], ["settle", "serve"], id="commands-by-prefix"),
        pytest.param(
            ["ledger", ""], ["new", "add", "show", "undo", "export", "list", "rename", "delete"], id="ledger-commands"
        ),
        pytest.param(["score", "123m", "-r", ""], list(REGISTRY), id="rule-sets-after-r"),
        pytest.param(["rules", ""], list(REGISTRY), id="rules-takes-a-rule-set"),
        pytest.param(["waits", "123m", "--lang", ""], ["zh", "en", "both"], id="lang-choices"),
        pytest.param(["score", "--l"], ["--lang"], id="an-option"),
        pytest.param(["ledger", "new", "friday", "--p"], ["--players"], id="a-ledger-option"),
        pytest.param(["settle", ""], [], id="a-file-is-the-shells-to-complete"),
    ],
)
def test_completion_offers_the_words_that_fit(words: list[str], offered: list[str]) -> None:
    assert completions(*words) == offered


def starting_with(prefix: str) -> list[str]:
    return [name for name in REGISTRY if name.startswith(prefix)]


# each rule set by the first letters of its name, after each option that takes one
PREFIXES = [name[:n] for name in REGISTRY for n in (1, 2)]
RULES_OPTIONS = [["score", "123m", "--rules"], ["waits", "123m", "-r"], ["ledger", "new", "friday", "-r"]]


@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize("words", RULES_OPTIONS, ids=lambda words: " ".join(words))
def test_the_rules_options_offer_the_rule_sets_by_prefix(words: list[str], prefix: str) -> None:
    assert completions(*words, prefix) == starting_with(prefix)


@pytest.fixture
def two_ledgers(tmp_path: Path) -> Path:
    db = tmp_path / "ledgers.db"
    for name in ("friday", "fortnight"):
        made = RUNNER.invoke(app, ["ledger", "new", name, "--players", "A,B,C,D", "--db", str(db)])
        assert made.exit_code == 0, made.output
    return db


@pytest.mark.parametrize("command", ["add", "show", "undo", "export"])
def test_ledger_commands_complete_the_ledgers_names(two_ledgers: Path, command: str) -> None:
    env = {"TAIHU_DB": str(two_ledgers)}
    assert sorted(completions("ledger", command, "f", env=env)) == ["fortnight", "friday"]
    assert completions("ledger", command, "fr", env=env) == ["friday"]
    assert completions("ledger", command, "--db", str(two_ledgers), "fo") == ["fortnight"]


def test_ledger_names_without_a_database_are_none_and_make_no_file(tmp_path: Path) -> None:
    missing = tmp_path / "none.db"
    assert completions("ledger", "show", "", env={"TAIHU_DB": str(missing)}) == []
    assert not missing.exists()
    not_a_db = tmp_path / "text.db"
    not_a_db.write_text("not sqlite", encoding="utf-8")
    assert completions("ledger", "show", "", env={"TAIHU_DB": str(not_a_db)}) == []


# how each shell's answer shows a word offered
SHELLS = {"zsh": '"{}"', "fish": "{}", "powershell": "{}:::"}


@pytest.mark.parametrize("name", list(REGISTRY))
@pytest.mark.parametrize("shell", list(SHELLS))
def test_every_shell_gets_the_rule_sets(shell: str, name: str) -> None:
    prefix = name[:3]
    env = {"_TYPER_COMPLETE_ARGS": f"taihu score 123m -r {prefix}"}
    env |= {
        "fish": {"_TYPER_COMPLETE_FISH_ACTION": "get-args"},
        "powershell": {"_TYPER_COMPLETE_WORD_TO_COMPLETE": prefix},
    }.get(shell, {})
    result = RUNNER.invoke(app, [], env={"_TAIHU_COMPLETE": f"complete_{shell}", **env}, prog_name="taihu")
    assert result.exit_code == 0 and SHELLS[shell].format(name) in result.stdout, result.output
    assert not [other for other in REGISTRY if other not in starting_with(prefix) and other in result.stdout]


@pytest.fixture
def named_shells(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--show-completion SHELL` takes the shell's name (typer's own switch; else it asks shellingham)."""
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish", "powershell"])
def test_show_completion_prints_the_script_of_each_shell(named_shells: None, shell: str) -> None:
    result = RUNNER.invoke(app, ["--show-completion", shell], prog_name="taihu")
    assert result.exit_code == 0 and "_TAIHU_COMPLETE" in result.stdout and f"complete_{shell}" in result.stdout
    assert "taihu" in result.stdout


def test_install_completion_writes_the_script_and_loads_it(
    named_shells: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".bashrc").write_text("alias ll='ls -l'\n", encoding="utf-8")
    result = RUNNER.invoke(app, ["--install-completion", "bash"], prog_name="taihu")
    assert result.exit_code == 0 and "bash completion installed in" in result.stdout
    script = tmp_path / ".bash_completions" / "taihu.sh"
    assert "_TAIHU_COMPLETE=complete_bash" in script.read_text(encoding="utf-8")
    bashrc = (tmp_path / ".bashrc").read_text(encoding="utf-8")
    assert bashrc.startswith("alias ll='ls -l'\n") and str(script) in bashrc


FIRST = next(iter(REGISTRY))[:2]  # the first rule set's first letters


@pytest.mark.skipif(shutil.which("bash") is None or not (BIN / "taihu").exists(), reason="needs bash and taihu")
@pytest.mark.parametrize(
    ("words", "offered"), [(f"score '123m' -r {FIRST}", starting_with(FIRST)), ("led", ["ledger"])]
)
def test_bash_completes_through_the_script_typer_gives(words: str, offered: list[str]) -> None:
    """The script as bash runs it: the installed `taihu` is called back and COMPREPLY filled."""
    count = len(words.split())
    line = f"source <(taihu --show-completion bash); COMP_WORDS=(taihu {words}); COMP_CWORD={count}; "
    line += '_taihu_completion taihu; printf "%s\\n" "${COMPREPLY[@]}"'
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "",
    }
    done = subprocess.run(["bash", "-c", line], capture_output=True, text=True, env=env, timeout=60, check=True)
    assert done.stdout.split() == offered


def every_command(command: Any, words: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """Each command of the tree typer builds (`typer.main.get_command`), with the words that reach it."""
    found = [(words, command)]
    for name, sub in getattr(command, "commands", {}).items():
        found += every_command(sub, (*words, name))
    return found


COMMANDS = every_command(typer.main.get_command(app))


def test_every_command_of_today_is_there() -> None:
    assert {" ".join(words) for words, _ in COMMANDS} == {
        "",
        *("score", "waits", "rules", "settle", "serve", "ledger"),
        *(f"ledger {c}" for c in ("new", "add", "show", "undo", "export", "list", "rename", "delete")),
    }


@pytest.mark.parametrize(
    ("words", "command"), [pytest.param(*pair, id=" ".join(pair[0]) or "taihu") for pair in COMMANDS]
)
def test_every_option_is_in_the_help_and_offered(words: tuple[str, ...], command: Any) -> None:
    """One declaration: each option typer knows of a command is in its `--help` and offered after `--`."""
    shown = RUNNER.invoke(app, [*words, "--help"], env={"COLUMNS": "200"}, prog_name="taihu").stdout
    offered = completions(*words, "--")
    for param in command.params:
        for name in param.opts:
            if name.startswith("-"):
                assert name in shown, (words, name)
                assert name in offered or not name.startswith("--"), (words, name)
