"""Issue 11 part 5: shell completion without typer — `--show-completion`, `--install-completion`, the words offered.

The words come from the record the parser is built from (`TAIHU`): its
commands, their options, the rule sets after `-r` and for `taihu rules`, the
choices of `--lang`. Nothing reads argparse's private attributes.
"""

from __future__ import annotations

import argparse
import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from taihu.cli.arguments import TAIHU, Command, parser
from taihu.cli.main import COMMANDS, app
from taihu.cli.testing import CliRunner
from taihu.scorer.rulesets import RULESETS

SHELLS = ["bash", "zsh", "fish"]
BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parent.parent


def completions(*words: str) -> list[str]:
    """What `taihu` offers for the last of `words` (the word under the cursor), as a completion script asks."""
    env = {"_TAIHU_COMPLETE": "complete_bash", "COMP_WORDS": "\n".join(("taihu", *words))}
    result = CliRunner().invoke(app, [], env={**env, "COMP_CWORD": str(len(words))})
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
        pytest.param(["score", "123m", "-r", ""], list(RULESETS), id="rule-sets-after-r"),
        pytest.param(["score", "123m", "--rules", "lu"], ["luoshan"], id="rule-sets-by-prefix"),
        pytest.param(["rules", ""], list(RULESETS), id="rules-takes-a-rule-set"),
        pytest.param(["waits", "123m", "--lang", ""], ["zh", "en", "both"], id="lang-choices"),
        pytest.param(["score", "--l"], ["--lang"], id="an-option"),
        pytest.param(["ledger", "new", "friday", "--p"], ["--players"], id="a-ledger-option"),
        pytest.param(["settle", ""], [], id="a-file-is-the-shells-to-complete"),
        pytest.param(["score", "-r", "lingxi", ""], [], id="a-hand-is-typed"),
    ],
)
def test_completion_offers_the_words_of_the_parser(words: list[str], offered: list[str]) -> None:
    assert completions(*words) == offered


def test_completion_offers_every_option_of_a_command() -> None:
    assert set(completions("serve", "--")) >= {"--host", "--port", "--db", "--workers", "--cache-mb", "--cors-origin"}
    assert set(completions("score", "x", "--")) >= {"--rules", "--option", "--json", "--lang", "--help"}


@pytest.mark.parametrize("shell", SHELLS)
def test_show_completion_prints_the_script_of_each_shell(shell: str) -> None:
    result = CliRunner().invoke(app, ["--show-completion", shell])
    assert result.exit_code == 0 and f"_TAIHU_COMPLETE=complete_{shell}" in result.stdout
    assert "taihu" in result.stdout


def test_show_completion_without_a_shell_uses_the_users_shell() -> None:
    result = CliRunner().invoke(app, ["--show-completion"], env={"SHELL": "/usr/bin/zsh"})
    assert result.exit_code == 0 and result.stdout.startswith("#compdef taihu")


def test_an_unknown_shell_is_bad_input() -> None:
    result = CliRunner().invoke(app, ["--show-completion", "tcsh"])
    assert result.exit_code == 2 and result.stderr.startswith("error: no completion for the shell 'tcsh'")
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("shell", "script", "start_up_line"),
    [
        ("bash", ".bash_completions/taihu.sh", (".bashrc", "source {home}/.bash_completions/taihu.sh")),
        ("zsh", ".zfunc/_taihu", (".zshrc", "fpath+=~/.zfunc; autoload -Uz compinit; compinit")),
        ("fish", ".config/fish/completions/taihu.fish", None),
    ],
)
def test_install_completion_writes_the_script_and_loads_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shell: str, script: str, start_up_line: tuple[str, str] | None
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".bashrc").write_text("alias ll='ls -l'\n", encoding="utf-8")
    for _ in range(2):  # installing again changes nothing
        result = CliRunner().invoke(app, ["--install-completion", shell])
        assert result.exit_code == 0 and f"{shell} completion installed in {tmp_path / script}" in result.stdout
    shown = CliRunner().invoke(app, ["--show-completion", shell]).stdout
    assert (tmp_path / script).read_text(encoding="utf-8") == shown
    if start_up_line is not None:
        name, line = start_up_line
        lines = (tmp_path / name).read_text(encoding="utf-8").splitlines()
        assert lines.count(line.format(home=tmp_path)) == 1
    assert (tmp_path / ".bashrc").read_text(encoding="utf-8").startswith("alias ll='ls -l'\n")


@pytest.mark.skipif(shutil.which("bash") is None or not (BIN / "taihu").exists(), reason="needs bash and taihu")
def test_bash_completes_through_the_script_it_is_given() -> None:
    """The script as bash runs it: the installed `taihu` is called back and COMPREPLY filled."""
    line = 'source <(taihu --show-completion bash); COMP_WORDS=(taihu score "123m" -r lu); COMP_CWORD=4; '
    line += '_taihu_completion taihu; printf "%s\\n" "${COMPREPLY[@]}"'
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "-c", line], capture_output=True, text=True, env=env, timeout=60, check=True)
    assert done.stdout.split() == ["luoshan"]


def argparse_private_names() -> set[str]:
    """The underscored names of argparse: its module's, its classes', and a built parser's."""
    found = {name for name in vars(argparse) if name.startswith("_") and not name.startswith("__")}
    for value in vars(argparse).values():
        if isinstance(value, type) and value.__module__ == "argparse":
            found |= {name for name in vars(value) if name.startswith("_") and not name.startswith("__")}
    built = parser(COMMANDS)
    found |= {name for name in vars(built) if name.startswith("_")}
    return found - {"_"}


def test_no_code_reads_argparse_s_private_attributes() -> None:
    """Completion and the tests read the command line's own record, not argparse's `_actions` and kin."""
    private = argparse_private_names()
    assert {"_actions", "_SubParsersAction", "_option_string_actions"} <= private
    reads = [
        f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}"
        for folder in ("taihu", "tests")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute)
        and node.attr in private
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
    ]
    assert reads == []


def every_command(command: Command = TAIHU, words: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Command]]:
    found = [(words, command)]
    for sub in command.commands:
        found += every_command(sub, (*words, sub.name))
    return found


@pytest.mark.parametrize(
    ("words", "command"), [pytest.param(*pair, id=" ".join(pair[0]) or "taihu") for pair in every_command()]
)
def test_the_record_builds_the_parser_and_feeds_completion(words: tuple[str, ...], command: Command) -> None:
    """One source: every option of a command's record is in its `--help` and offered after `--`."""
    shown = CliRunner().invoke(app, [*words, "--help"], env={"COLUMNS": "200"}).stdout
    offered = completions(*words, "--")
    for name in command.options():
        assert name in shown, (words, name)
        assert name in offered or not name.startswith("--"), (words, name)
