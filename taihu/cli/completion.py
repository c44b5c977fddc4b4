"""Shell completion for bash, zsh and fish: `taihu --show-completion` / `--install-completion`.

The script a shell loads calls `taihu` back at each Tab with `_TAIHU_COMPLETE=complete_SHELL`,
the words typed so far in `COMP_WORDS` (one a line) and the index of the word under the cursor in
`COMP_CWORD`; `taihu` then prints the words that fit, one a line, read from the record the
parser is built from (`taihu.cli.arguments.TAIHU`): the commands, their options, the rule sets'
names after `-r`, the choices of `--lang`. Where nothing fits (a hand, a file) it prints nothing
and the shell completes file names.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from taihu.cli.arguments import Command
from taihu.scorer.rulesets import REGISTRY

VARIABLE = "_TAIHU_COMPLETE"

SCRIPTS = {
    "bash": """\
_taihu_completion() {
    local IFS=$'\\n'
    COMPREPLY=( $( env COMP_WORDS="${COMP_WORDS[*]}" \\
                   COMP_CWORD=$COMP_CWORD \\
                   _TAIHU_COMPLETE=complete_bash $1 ) )
    return 0
}

complete -o default -F _taihu_completion taihu
""",
    "zsh": """\
#compdef taihu

_taihu_completion() {
  local -a completions
  completions=(${(f)"$(env COMP_WORDS="${(F)words[1,CURRENT]}" COMP_CWORD=$((CURRENT-1)) \\
                       _TAIHU_COMPLETE=complete_zsh taihu)"})
  if (( ${#completions} )); then
    compadd -a completions
  else
    _files
  fi
}

compdef _taihu_completion taihu
""",
    "fish": """\
function _taihu_completion
    set -l words (commandline -opc) (commandline -ct)
    env COMP_WORDS=(string join \\n -- $words) COMP_CWORD=(math (count $words) - 1) \\
        _TAIHU_COMPLETE=complete_fish taihu
end

complete -c taihu -a "(_taihu_completion)"
""",
}


def shell_named(given: str) -> str | None:
    """The shell asked for, or the user's ($SHELL) when none was given; None if it is not one we know."""
    shell = given or Path(os.environ.get("SHELL", "")).name
    return shell if shell in SCRIPTS else None


def offer(show: str | None, install: str | None) -> int:
    """`--show-completion [SHELL]` prints the script; `--install-completion [SHELL]` installs it."""
    given = show if show is not None else install or ""
    shell = shell_named(given)
    if shell is None:
        sys.stderr.write(
            f"error: no completion for the shell '{given or os.environ.get('SHELL', '')}'; "
            "name one of bash, zsh, fish, e.g. taihu --show-completion bash\n"
        )
        return 2
    if show is not None:
        sys.stdout.write(SCRIPTS[shell])
        return 0
    path = install_script(shell)
    sys.stdout.write(
        f"{shell} completion installed in {path}\nCompletion will take effect once you restart the terminal\n"
    )
    return 0


def add_line(path: Path, line: str) -> None:
    """Appends `line` to a shell's start-up file, unless it is there already."""
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    if line not in text.splitlines():
        path.write_text(f"{text.rstrip()}\n{line}\n".lstrip("\n"), encoding="utf-8")


def install_script(shell: str) -> Path:
    """Writes the script where the shell finds it (and, for bash and zsh, a line to load it); its path."""
    home = Path.home()
    path = {
        "bash": home / ".bash_completions" / "taihu.sh",
        "zsh": home / ".zfunc" / "_taihu",
        "fish": home / ".config" / "fish" / "completions" / "taihu.fish",
    }[shell]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SCRIPTS[shell], encoding="utf-8")
    if shell == "bash":
        add_line(home / ".bashrc", f"source {path}")
    elif shell == "zsh":
        add_line(home / ".zshrc", "fpath+=~/.zfunc; autoload -Uz compinit; compinit")
    return path


def complete(top: Command) -> int:
    """Called by a completion script: prints the words that can stand at COMP_CWORD of COMP_WORDS."""
    words = os.environ.get("COMP_WORDS", "").split("\n")
    try:
        index = int(os.environ.get("COMP_CWORD", ""))
    except ValueError:
        index = len(words) - 1
    current = words[index] if 0 <= index < len(words) else ""
    found = candidates(top, words[1 : max(index, 1)], current)
    sys.stdout.write("".join(f"{word}\n" for word in found))
    return 0


def candidates(top: Command, before: list[str], current: str) -> list[str]:
    """The words that may follow `before` (the words after `taihu`) and begin with `current`."""
    command, expecting = top, None
    for word in before:
        options = command.options()
        if expecting is not None:
            expecting = None
        elif word in options and options[word].takes_value:
            expecting = options[word]
        else:
            command = command.command(word) or command
    if expecting is not None:
        found = expecting.values(list(REGISTRY))
    elif current.startswith("-"):
        found = [name for name in command.options() if name.startswith("--")]
    else:
        positional = [argument for argument in command.arguments if not argument.is_option]
        found = [sub.name for sub in command.commands] or [
            word for argument in positional for word in argument.values(list(REGISTRY))
        ]
    return [word for word in found if word.startswith(current)]
