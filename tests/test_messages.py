"""The one catalog of messages (taihu/messages/) is whole, compiled and used.

Every code has a Chinese and an English text with the same parameters; the `.mo` files the program
reads are what the `.po` files compile to (Babel, as `make messages` runs it); every code the code
names is in the catalog, and every code in the catalog is named somewhere; a unit any rule set
counts in has its name. Loading is lazy: `taihu score --json` reads no catalog.
"""

from __future__ import annotations

import ast
import io
import json
import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from registry_examples import catalog_files
from typer.testing import CliRunner

from taihu.cli.main import app
from taihu.cli.usage import HELP_COMMAND, HELP_PARAM, METAVAR
from taihu.messages import LANGUAGES, Messages, catalog, known, plural, text
from taihu.scorer import clear_caches
from taihu.scorer.errors import TYPE_PREFIX, WORD_PREFIX
from taihu.scorer.rulesets import RULESETS, declared_values

ROOT = Path(__file__).resolve().parent.parent
# a message's code as the code names it (the notation's error texts: `error.notation.tile_hint.G`, `….either.2`)
CODE = re.compile(
    r"(?:api|cli|unit|error|note|detail|reason|arith|limit|option|scope|value|result)(?:\.[a-z_]+)+"
    r"|error\.notation(?:\.[A-Za-z0-9_]+)+"
)
# codes the code builds at run time (`f"unit.{unit}"`, `error.word.self`, `error.type.list`): checked below
DYNAMIC = ("unit.", WORD_PREFIX, TYPE_PREFIX, HELP_COMMAND, HELP_PARAM, METAVAR)  # help: tests/test_cli_chinese.py
HAND = "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S"


def catalogs(lang: str) -> list[tuple[Path, Catalog]]:
    """Each catalog file (taihu's and every rule set's own) and what it holds."""
    found = []
    for path in catalog_files(lang):
        with path.open("rb") as file:
            found.append((path, read_po(file, locale=lang)))
    return found


def po(lang: str) -> list[Message]:
    """The messages of every catalog, taihu's first."""
    return [message for _, held in catalogs(lang) for message in held]


def code_of(message_id: str | tuple[str, ...]) -> str:
    return message_id[0] if isinstance(message_id, tuple) else message_id


def texts(lang: str) -> dict[str, tuple[str, ...]]:
    """Each code and its text(s) (a plural has one per form)."""
    found = {}
    for message in po(lang):
        if message.id:
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            found[code_of(message.id)] = tuple(strings)
    return found


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def codes_in_source() -> dict[str, str]:
    """Every string constant of taihu/ that has a code's form, and where it is."""
    found = {}
    for path in sorted((ROOT / "taihu").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.fullmatch(node.value):
                found.setdefault(node.value, f"{path.relative_to(ROOT)}:{node.lineno}")
    for value in declared_values().values():  # the texts a rule set's words.toml names
        for key in value.catalog_keys:
            found.setdefault(key, f"words.toml: values.{value.name}")
    return found


def test_both_languages_have_the_same_codes() -> None:
    zh, en = texts("zh"), texts("en")
    assert sorted(set(en) - set(zh)) == [], "codes with no Chinese text"
    assert sorted(set(zh) - set(en)) == [], "codes with no English text"
    assert len(en) > 100


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_is_written_and_none_is_fuzzy(lang: str) -> None:
    messages = [m for m in po(lang) if m.id]
    written = texts(lang)  # once: parsing the .po again for each of its messages takes the better part of a minute
    assert [code_of(m.id) for m in messages if not all(written[code_of(m.id)])] == [], "empty texts"
    assert [code_of(m.id) for m in messages if m.fuzzy] == [], "fuzzy texts are left out of the .mo"


def test_both_texts_of_a_code_take_the_same_parameters() -> None:
    zh, en = texts("zh"), texts("en")
    differ = {code: en[code] + zh[code] for code in en if len({frozenset(fields(t)) for t in en[code] + zh[code]}) != 1}
    assert differ == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_mo_files_are_compiled_from_the_po_files(lang: str) -> None:
    for path, held in catalogs(lang):
        compiled = io.BytesIO()
        write_mo(compiled, held)
        assert path.with_suffix(".mo").read_bytes() == compiled.getvalue(), f"stale {path.name}: run `make messages`"


def test_every_code_the_code_names_is_in_the_catalog_and_every_code_is_used() -> None:
    used, catalogued = codes_in_source(), set(texts("en"))
    assert {code: where for code, where in used.items() if code not in catalogued} == {}
    unused = {code for code in catalogued - set(used) if not code.startswith(DYNAMIC)}
    assert unused == set(), "codes no code uses: remove them from both .po files"


def test_every_condition_word_an_error_names_is_a_condition_of_a_rule_set() -> None:
    conditions = {condition for rule_set in RULESETS.values() for condition in rule_set.conditions}
    words = {code.removeprefix(WORD_PREFIX) for code in texts("en") if code.startswith(WORD_PREFIX)}
    assert words - conditions == set()
    assert {word for word in words if texts("en")[WORD_PREFIX + word] != (word,)} == set(), "English is the word"


def test_every_unit_a_rule_set_counts_in_has_its_name_in_both_languages() -> None:
    units = {rule_set.unit for rule_set in RULESETS.values()}
    units |= {unit for rule_set in RULESETS.values() for unit in rule_set.item_units().values()} - {"multiplier"}
    assert {unit for unit in units if not all(known(f"unit.{unit}", lang) for lang in LANGUAGES)} == set()
    assert {code for code in texts("en") if code.startswith("unit.")} == {f"unit.{unit}" for unit in units}


@pytest.mark.parametrize(
    ("code", "lang", "params", "expected"),
    [
        ("cli.score.winning", "en", {"rules": "lingxi"}, "lingxi: winning hand"),
        ("cli.score.winning", "zh", {"rules": "灵溪"}, "灵溪：和牌"),
        ("cli.score.subtotal", "zh", {}, "小计"),
        ("cli.no.such.code", "zh", {}, "cli.no.such.code"),  # shown as itself, never a crash
    ],
)
def test_a_text_has_its_parameters_filled_in(code: str, lang: str, params: dict[str, str], expected: str) -> None:
    assert text(code, lang, **params) == expected  # type: ignore[arg-type]
    assert Messages(lang)(code, **params) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("count", "lang", "expected"),
    [(0, "en", "0 riichi sticks"), (1, "en", "1 riichi stick"), (2, "en", "2 riichi sticks"), (1, "zh", "1 根立直棒")],
)
def test_a_plural_takes_the_form_of_its_count(count: int, lang: str, expected: str) -> None:
    assert plural("cli.ledger.sticks", count, lang) == expected  # type: ignore[arg-type]


def test_score_json_reads_no_catalog() -> None:
    """Start-up: a catalog is read on the first message shown, and `--json` shows none of the command line's; the
    core's texts (notes, details) are read from the English catalog, and only where a hand has one."""
    catalog.cache_clear()
    result = CliRunner().invoke(app, ["score", HAND, "--json"])
    assert result.exit_code == 0, result.output
    assert catalog.cache_info().currsize == 0  # this hand's details are tiles only
    CliRunner().invoke(app, ["score", HAND])
    assert catalog.cache_info().currsize == 1  # the table: English only
    catalog.cache_clear()
    clear_caches()  # the texts made before (the same notes recur) hold their English already
    noted = CliRunner().invoke(app, ["score", "123m 456m 789m 11p 22p", "-r", "luoshan", "--json"])
    assert json.loads(noted.output)["notes"][0].startswith("no + tile")
    assert catalog.cache_info().currsize == 1  # its notes: English
