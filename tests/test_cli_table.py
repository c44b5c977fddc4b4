"""Issue 11 part 5: the CLI's own table renderer (taihu/cli/table.py), which replaced rich.

Widths are terminal cells (a Chinese character takes two); text wraps at
spaces and keeps every word, only a word wider than its column is folded;
a boxed table keeps rich's look (the layout tests of test_cli_layout.py read it).
"""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from taihu.cli.table import SIMPLE, Indent, Table, cell_len, wrap

WORDS = st.lists(
    st.sampled_from(["5m", "花", "Flowers", "(per", "group)", "财神汇", "x", "seat:S", "对对胡"]), max_size=12
)


def cells(line: str) -> int:
    """Counted apart from the renderer: 2 for a wide character, 1 for any other here."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


def test_a_chinese_character_takes_two_cells() -> None:
    assert cell_len("财神 Wildcards") == cells("财神 Wildcards") == 14
    assert cell_len("ａ") == 2 and cell_len("e\u0301") == 1  # full width; a combining accent takes none


@settings(max_examples=200, deadline=None)
@given(WORDS, st.integers(min_value=2, max_value=30))
def test_wrap_fits_the_width_and_keeps_every_word(words: list[str], width: int) -> None:
    lines = wrap(" ".join(words), width)
    assert all(cells(line) <= width for line in lines)
    fits = [w for w in words if cells(w) <= width]
    if fits == words:  # nothing had to be folded: the words come back whole and in order
        assert " ".join(lines).split() == words


def test_a_word_wider_than_the_column_is_folded() -> None:
    assert wrap("5m5m5m5m", 4) == ["5m5m", "5m5m"]


def boxed() -> Table:
    table = Table(title="lingxi: winning hand", title_justify="left")
    table.add_column("key")
    table.add_column("中文")
    table.add_column("tai", justify="right")
    table.add_row("hua", "花", "3")
    table.add_section()
    table.add_row("total", "", "56")
    return table


def test_a_boxed_table_in_the_look_rich_gave_it() -> None:
    assert boxed().render(80) == [
        "lingxi: winning hand  ",
        "┏━━━━━━━┳━━━━━━┳━━━━━┓",
        "┃ key   ┃ 中文 ┃ tai ┃",
        "┡━━━━━━━╇━━━━━━╇━━━━━┩",
        "│ hua   │ 花   │   3 │",
        "├───────┼──────┼─────┤",
        "│ total │      │  56 │",
        "└───────┴──────┴─────┘",
    ]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(WORDS, WORDS), min_size=1, max_size=5), st.integers(min_value=12, max_value=70))
def test_a_table_narrows_to_the_terminal_and_keeps_every_word(rows: list[tuple[list[str], ...]], width: int) -> None:
    """It always fits; from 30 columns on, where each column keeps room for the longest word, no word is cut."""
    table = Table(title="title")
    table.add_column("name")
    table.add_column("detail")
    for name, detail in rows:
        table.add_row(" ".join(name), " ".join(detail))
    lines = table.render(width)
    assert all(cells(line) <= width for line in lines)
    if width >= 30:
        shown = " ".join(lines)
        for name, detail in rows:
            for word in name + detail:
                assert word in shown


def test_a_caption_goes_under_the_table_wrapped_to_its_width() -> None:
    table, plain = boxed(), boxed().render(80)
    table.caption, table.caption_justify = "28 tai × 2 = 56\nthe second line, wrapped at the table's edge", "left"
    lines = table.render(80)
    assert lines[: len(plain)] == plain
    under = lines[len(plain) :]
    assert [line.rstrip() for line in under] == [
        "28 tai × 2 = 56",
        "the second line,",
        "wrapped at the table's",
        "edge",
    ]
    assert {cells(line) for line in under} == {cells(plain[-1])}


def test_the_compact_layout_fills_the_width_and_indents_the_detail() -> None:
    table = Table(title="t", title_justify="left", box=SIMPLE, show_header=False, pad_edge=False, expand=True)
    table.add_column("name", ratio=1)
    table.add_column("value", justify="right", no_wrap=True)
    table.add_row("花 Flowers (per group)", "3")
    table.add_row(Indent("f1 f2", 2), "")
    lines = table.render(40)
    assert lines[1:] == [" " * 40, " 花 Flowers (per group)" + " " * 15 + "3 ", "   f1 f2" + " " * 32, " " * 40]
