"""Tables for the terminal, in the look the CLI always had, without importing a terminal library.

rich cost the table commands 30 ms of start-up (a third of `taihu score`). This draws the two
layouts the CLI uses: the boxed table (heavy header, sections) and the compact one (no lines,
`expand` to the terminal's width). Widths are in terminal cells: a Chinese character takes two.
A table wider than the terminal narrows its widest wrappable columns first, and cells wrap at
spaces; only a word wider than its whole column is folded. No colour: the output is the same on a
terminal and in a pipe.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from typing import NamedTuple
from unicodedata import combining, east_asian_width

from taihu.cli.arguments import terminal_width

WORD = re.compile(r"\S+\s*")


def cell_len(text: str) -> int:
    """Terminal cells `text` takes: 2 for a wide (CJK) character, 0 for a combining mark, else 1."""
    if text.isascii():
        return len(text)
    return sum(0 if combining(ch) else 2 if east_asian_width(ch) in "WF" else 1 for ch in text)


def fold(word: str, width: int) -> Iterator[str]:
    """A word wider than `width` cut into pieces that fit (each at least one character)."""
    piece = ""
    for ch in word:
        if piece and cell_len(piece + ch) > width:
            yield piece
            piece = ""
        piece += ch
    yield piece


def wrap(text: str, width: int) -> list[str]:
    """Lines of at most `width` cells, broken at spaces; each `\\n` starts a line."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in WORD.findall(paragraph):
            if cell_len(line + word.rstrip()) <= width:
                line += word
                continue
            if line:
                lines.append(line.rstrip())
            *whole, line = fold(word, width) if cell_len(word.rstrip()) > width else [word]
            lines += whole
        lines.append(line.rstrip())
    return lines


def justify(text: str, width: int, how: str) -> str:
    room = max(0, width - cell_len(text))
    if how == "right":
        return " " * room + text
    if how == "center":
        return " " * (room // 2) + text + " " * (room - room // 2)
    return text + " " * room


def reduce(excess: int, ratios: list[int], most: list[int], values: list[int]) -> list[int]:
    """`values` less `excess` in all, shared by `ratios` and at most `most[i]` from each (rich's sharing,
    rounding included, so a table narrowed to the terminal wraps where it always did)."""
    ratios = [ratio if limit else 0 for ratio, limit in zip(ratios, most, strict=True)]
    total = sum(ratios)
    result = []
    for ratio, limit, value in zip(ratios, most, values, strict=True):
        taken = min(limit, round(ratio * excess / total)) if ratio else 0
        result.append(value - taken)
        excess, total = excess - taken, total - ratio
    return result


class Indent(NamedTuple):
    """A cell's text shown `by` cells in from its column's left (the compact layout's detail lines)."""

    text: str
    by: int


Cell = str | Indent


class Column(NamedTuple):
    header: str
    justify: str
    no_wrap: bool
    ratio: int


class Box(NamedTuple):
    """The characters of a table's lines: each a (left, fill, divider, right) quadruple."""

    top: str
    header: str
    head_row: str
    row: str
    section: str
    bottom: str


HEAVY_HEAD = Box("┏━┳┓", "┃ ┃┃", "┡━╇┩", "│ ││", "├─┼┤", "└─┴┘")
SIMPLE = Box("    ", "    ", " ── ", "    ", "    ", "    ")


class Table:
    """A table drawn to a width: the API is the few calls of rich's Table that the CLI made."""

    def __init__(
        self,
        title: str = "",
        title_justify: str = "center",
        box: Box = HEAVY_HEAD,
        show_header: bool = True,
        pad_edge: bool = True,
        expand: bool = False,
        caption: str = "",
        caption_justify: str = "center",
    ) -> None:
        self.title, self.title_justify, self.box = title, title_justify, box
        self.caption, self.caption_justify = caption, caption_justify  # lines under the table
        self.show_header, self.pad_edge, self.expand = show_header, pad_edge, expand
        self.columns: list[Column] = []
        self.rows: list[tuple[Cell, ...]] = []
        self.sections_after: set[int] = set()  # the indices of the rows a section line follows

    def add_column(self, header: str, justify: str = "left", no_wrap: bool = False, ratio: int = 0) -> None:
        self.columns.append(Column(header, justify, no_wrap, ratio))

    def add_row(self, *cells: Cell, end_section: bool = False) -> None:
        self.rows.append(cells + ("",) * (len(self.columns) - len(cells)))
        if end_section:
            self.add_section()

    def add_section(self) -> None:
        if self.rows:
            self.sections_after.add(len(self.rows) - 1)

    def padding(self, column: int) -> tuple[int, int]:
        """The blank cells left and right of a column's text (none at the table's edges without pad_edge)."""
        left = 1 if self.pad_edge or column > 0 else 0
        right = 1 if self.pad_edge or column < len(self.columns) - 1 else 0
        return left, right

    def natural_widths(self) -> list[int]:
        """Each column's width with its padding, so that no cell wraps."""
        widths = []
        for index, column in enumerate(self.columns):
            texts = [column.header] if self.show_header else []
            widest = max((cell_len(line) for text in texts for line in text.split("\n")), default=0)
            for row in self.rows:
                cell = row[index]
                text, by = (cell.text, cell.by) if isinstance(cell, Indent) else (cell, 0)
                widest = max(widest, by + max(cell_len(line) for line in text.split("\n")))
            widths.append(widest + sum(self.padding(index)))
        return widths

    def widths(self, room: int) -> list[int]:
        """The columns' widths (padding included) in `room` cells less the table's vertical lines."""
        widths = self.natural_widths()
        if self.expand:
            spare = room - sum(widths)
            ratios = [c.ratio for c in self.columns]
            total = sum(ratios)
            if total and spare > 0:
                shares = [spare * r // total for r in ratios]
                shares[ratios.index(max(ratios))] += spare - sum(shares)
                widths = [w + s for w, s in zip(widths, shares, strict=True)]
        wrappable = [1 if not c.no_wrap else 0 for c in self.columns]
        excess = sum(widths) - room
        while excess > 0 and any(wrappable):  # narrow the widest wrappable columns, down to the next widest
            widest = max(w for w, can in zip(widths, wrappable, strict=True) if can)
            second = max(w if can and w != widest else 0 for w, can in zip(widths, wrappable, strict=True))
            at_widest = [1 if w == widest and can else 0 for w, can in zip(widths, wrappable, strict=True)]
            widths = reduce(excess, at_widest, [min(excess, widest - second)] * len(widths), widths)
            excess = sum(widths) - room
        if excess > 0:  # still too wide: every column gives alike
            widths = reduce(excess, [1] * len(widths), widths, widths)
            widths = [max(w, sum(self.padding(i)) + 1) for i, w in enumerate(widths)]
        return widths

    def render(self, width: int) -> list[str]:
        """The table's lines, at most `width` cells wide where its columns can wrap."""
        box = self.box
        room = width - len(self.columns) - 1
        widths = self.widths(room)
        table_width = sum(widths) + len(self.columns) + 1
        lines = []
        if self.title:
            lines += [justify(line, table_width, self.title_justify) for line in wrap(self.title, table_width)]

        def rule(chars: str) -> str:
            edge, fill, divider, end = tuple(chars)
            return edge + divider.join(fill * w for w in widths) + end

        def cells(row: Iterable[Cell], chars: str) -> list[str]:
            wrapped = []
            for index, cell in enumerate(row):
                left, right = self.padding(index)
                text, by = (cell.text, cell.by) if isinstance(cell, Indent) else (cell, 0)
                inner = widths[index] - left - right
                how = self.columns[index].justify
                shown = [" " * by + line for line in wrap(text, max(1, inner - by))]
                wrapped.append([" " * left + justify(line, inner, how) + " " * right for line in shown])
            height = max(len(c) for c in wrapped)
            blank = [" " * w for w in widths]
            edge, _, divider, end = tuple(chars)
            return [
                edge + divider.join(c[n] if n < len(c) else blank[i] for i, c in enumerate(wrapped)) + end
                for n in range(height)
            ]

        lines.append(rule(box.top))
        if self.show_header:
            lines += cells((c.header for c in self.columns), box.header)
            lines.append(rule(box.head_row))
        for index, row in enumerate(self.rows):
            lines += cells(row, box.row)
            if index in self.sections_after and index < len(self.rows) - 1:
                lines.append(rule(box.section))
        lines.append(rule(box.bottom))
        if self.caption:
            lines += [justify(line, table_width, self.caption_justify) for line in wrap(self.caption, table_width)]
        return lines


class Console:
    """Where the tables and lines go: stdout, lines wrapped at the terminal's width unless `soft_wrap`."""

    def __init__(self, width: int | None = None, soft_wrap: bool = False) -> None:
        self.width = width or terminal_width()
        self.soft_wrap = soft_wrap

    def print(self, shown: Table | str, soft_wrap: bool | None = None) -> None:
        """A table, or a line wrapped at spaces (`soft_wrap`: left whole, for the terminal to break)."""
        if isinstance(shown, Table):
            lines = shown.render(self.width)
        else:
            whole = self.soft_wrap if soft_wrap is None else soft_wrap
            lines = [shown] if whole else wrap(shown, self.width)
        sys.stdout.write("".join(line + "\n" for line in lines))
