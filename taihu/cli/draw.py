"""What the `taihu` command draws, through rich: the terminal, tables, the progress bar on stderr.

Imported only by a command that draws (`--json` never does). What is taihu's own here is the escaping:
rich reads no markup or emoji codes in our text (`markup=False`, `emoji=False`), and every character a
terminal would take as a control (ESC, BEL, NUL, a newline inside a name, U+202E) is shown escaped
(`\\x1b`, `\\u202e`), so a player's or a ledger's name, or a hand echoed back, reaches the terminal as text.
Rich gives the rest: the box characters, CJK widths, wrapping, colour on a terminal and none in a
pipe or with NO_COLOR.
"""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.console import Console
from rich.table import Table

from taihu.scorer.errors import printable

if TYPE_CHECKING:  # the bar's module, 9 ms to import, only where a bar is shown
    from rich.progress import Progress


def safe(text: str) -> str:
    """`text` with every control or invisible direction character escaped; its line breaks kept."""
    return "\n".join(printable(line) for line in text.split("\n"))


def shown(value: Any) -> Any:
    return safe(value) if isinstance(value, str) else value


class Terminal(Console):
    """rich's Console with taihu's text taken as text: no markup, no emoji codes, controls escaped."""

    def __init__(self, **settings: Any) -> None:
        super().__init__(markup=False, emoji=False, **settings)

    def print(self, *objects: Any, **settings: Any) -> None:
        super().print(*map(shown, objects), **settings)

    def on_broken_pipe(self) -> None:
        """The reader went away: the error goes on to the command group, which ends the command as a closed pipe
        ends a Unix tool (taihu/cli/main.py); rich's own ending is an exit 1, the status of a bug."""
        self.quiet = True
        raise BrokenPipeError


class SafeTable(Table):
    """rich's Table whose headings and cells are escaped as `safe` says."""

    def add_column(self, header: Any = "", *args: Any, **settings: Any) -> None:
        # a word wider than its column is folded onto the next line, never cut to "…": rich measured a wide
        # (CJK) word at a line's end one cell short and cut 底分 to 底 …, losing what the cell said
        settings.setdefault("overflow", "fold")
        super().add_column(shown(header), *args, **settings)

    def add_row(self, *cells: Any, **settings: Any) -> None:
        super().add_row(*map(shown, cells), **settings)


KEEP = "\x00"  # joins the words of one entry for `wrapped`; never in an escaped text (`printable` shows NUL as \x00)
_GAPS = re.compile("( +)")
_QUOTED = re.compile("`[^`]*`")  # a command quoted in a message: kept whole, to be copied


def together(entry: str) -> str:
    """An entry whose words `wrapped` keeps on one line: a seat and its player, a player and a number."""
    return entry.replace(" ", KEEP)


def wrapped(text: str, width: int, hang: int = 2) -> list[str]:
    """`text` as lines of at most `width` terminal cells, broken at its spaces, each line after the first
    indented `hang` cells. A word (an entry made `together`, a command in backquotes) is never split nor
    cut: one wider than a line stands alone on its line, whole, so that a path or a name copies back."""
    parts = _GAPS.split(_QUOTED.sub(lambda quoted: together(quoted[0]), text))  # words, and the spaces between
    lines, line = [], parts[0]
    for gap, word in zip(parts[1::2], parts[2::2], strict=True):
        if not line.strip() or cell_len((line + gap + word).replace(KEEP, " ")) <= width:
            line += gap + word
        else:
            lines.append(line)
            line = " " * hang + word
    lines.append(line)
    return [line.replace(KEEP, " ") for line in lines]


def fitted(text: str, width: int, hang: int = 2) -> list[str]:
    """`text` as `wrapped` lines of at most `width` cells; a line still too wide that holds wide (CJK) characters,
    a Chinese sentence without spaces, is broken next to one of them too, never inside a word of ASCII (a
    path, a command), which stands whole as `wrapped` leaves it."""
    lines: list[str] = []
    for line in wrapped(text, width, hang):
        while cell_len(line) > width and any(_wide(ch) for ch in line):
            cut = _wide_break(line, width)
            if cut is None:
                break
            lines.append(line[:cut].rstrip())
            line = " " * hang + line[cut:].lstrip()
        lines.append(line)
    return lines


def _wide(ch: str) -> bool:
    return cell_len(ch) == 2


def _wide_break(line: str, width: int) -> int | None:
    """The last place within `width` cells where `line` may break: beside a wide character or at a space; after
    a Chinese punctuation mark (、，；) where one is in the line's second half, so a word is kept whole."""
    best, punctuated, cells = None, None, 0
    for at, ch in enumerate(line):
        cells += cell_len(ch)
        if cells > width:
            break
        after = line[at + 1] if at + 1 < len(line) else ""
        if at + 1 > len(line) - len(line.lstrip()) and (_wide(ch) or _wide(after) or after == " "):
            best = at + 1
            if ch in _PAUSES and cells > width // 2:
                punctuated = at + 1
    return punctuated or best


_PAUSES = frozenset("、，；：。）」")


def console() -> Terminal:
    """The terminal (stdout): its width, `COLUMNS` if set, else 80 in a pipe. Made anew each time, so a test
    (or the docs) running several widths in one process gets each its own."""
    return Terminal()


def table(title: str, title_justify: str = "left", **settings: Any) -> SafeTable:
    """A table in the look of every table of taihu: the title over it at the left, rich's heavy-headed box."""
    return SafeTable(title=safe(title), title_justify=title_justify, **settings)  # type: ignore[arg-type]


def progress() -> Progress:
    """A progress bar on stderr that goes away when the work is done (the caller checks stderr is a terminal)."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}"),
        TimeElapsedColumn(),
        console=Terminal(stderr=True),
        transient=True,
        # what goes to stdout stays there (a file, a pipe); on the same terminal it is printed above the bar
        redirect_stdout=sys.stdout.isatty(),
        redirect_stderr=False,
    )
