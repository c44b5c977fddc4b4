"""Docs/api.md's error codes and the catalog agree: every code taihu answers has a row, and each
row names the catalog entries its Chinese and English texts come from.

The code → entries map is read from the source: every call with a constant `code="…"` and a catalog key (the first
argument, or `text=Text(…)`) is one of the code's texts; a call whose key is a variable (a helper's parameter) adds
none, and its key is found at the helper's callers. A row's `text` cell lists entries or prefixes (`error.event.*`);
each must be in both catalogs, and each entry a code is made with must be one of them.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

from taihu.api.errors import KINDS
from taihu.messages import LANGUAGES, known
from taihu.messages.codes import ERROR_CODES
from taihu.scorer.rulesets import declared_values

ROOT = Path(__file__).resolve().parent.parent
KEY = re.compile(r"[a-z_]+(?:\.[a-z_0-9]+)+")
# codes made at run time, with no `code="…"` constant: a batch item's fields (`problems_error(…, "bad_field")`),
# pydantic's kinds (taihu.api.errors.KINDS)
AT_RUN_TIME = {"bad_field", "bad_value", "invalid_json"}
AT_RUN_TIME |= {code for code, _, _ in KINDS.values()}


def keys_of(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and KEY.fullmatch(node.value):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return keys_of(node.body) + keys_of(node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Text" and node.args:
        return keys_of(node.args[0])
    return []


def codes_and_texts() -> dict[str, set[str]]:
    """Each code made with a constant `code=`, and the catalog keys of its texts; an API refusal named by its key
    alone (`error_answer(404, "api.error.not_found", …)`) has the key's last part as its code."""
    found: dict[str, set[str]] = defaultdict(set)
    for path in sorted((ROOT / "taihu").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            keywords = {k.arg: k.value for k in node.keywords if k.arg}
            keys = [key for arg in node.args[:2] for key in keys_of(arg)]
            keys += keys_of(keywords["text"]) if "text" in keywords else []
            code = keywords.get("code")
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                found[code.value] |= set(keys)
            elif code is None:
                for key in keys:
                    if key.startswith("api.error.") and key not in BY_ANOTHER:
                        found[key.rsplit(".", 1)[-1]].add(key)
    for value in declared_values().values():  # the error of a value a rule set's words.toml declares
        if value.error:
            found[value.error].add(value.message)
    return dict(found)


# API texts that are not an error's own (a key read with another code, a part of another text)
BY_ANOTHER = {"api.error.waits_over_budget", "api.error.body_too_large_streamed"}


TABLES = {"| code | when | example | text (catalog) |": 0, "| status | code | when | text (catalog) |": 1}


def documented() -> dict[str, set[str]]:
    """docs/api.md's two code tables (the library's codes, the API's own): each row's codes (the cell TABLES says)
    and the entries of its last cell, `text (catalog)`."""
    rows: dict[str, set[str]] = {}
    at: int | None = None
    for line in (ROOT / "docs" / "api.md").read_text(encoding="utf-8").splitlines():
        if line in TABLES:
            at = TABLES[line]
            continue
        if at is None or not line.startswith("|"):
            at = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        texts = set(re.findall(r"`([a-z_]+(?:\.[a-z_0-9]+)+(?:\.\*)?)`", cells[-1]))
        for code in re.findall(r"`([a-z_]+)`", cells[at]):
            rows[code] = rows.get(code, set()) | texts
    assert len(rows) > 80, "the tables are found"
    return rows


def catalogued(pattern: str) -> bool:
    """Whether an entry (or, for `prefix.*`, some entry under the prefix) is in both catalogs."""
    if not pattern.endswith(".*"):
        return all(known(pattern, lang) for lang in LANGUAGES)
    from babel.messages.pofile import read_po
    from registry_examples import catalog_files

    prefix = pattern.removesuffix("*")
    for lang in LANGUAGES:
        ids = []
        for path in catalog_files(lang):
            with path.open("rb") as file:
                ids += [m.id for m in read_po(file, locale=lang)]
        if not any(isinstance(i, str) and i.startswith(prefix) for i in ids):
            return False
    return True


def covers(patterns: set[str], key: str) -> bool:
    return key in patterns or any(p.endswith(".*") and key.startswith(p.removesuffix("*")) for p in patterns)


def test_every_code_taihu_answers_has_a_row() -> None:
    made, rows = codes_and_texts(), documented()
    assert len(made) > 80, "the scan finds the codes"
    assert set(made) - set(rows) == set(), "codes with no row in docs/api.md's tables"
    assert set(rows) - set(made) - AT_RUN_TIME == set(), "rows of codes nothing makes"


def test_each_row_names_the_catalog_entries_of_its_code() -> None:
    made, rows = codes_and_texts(), documented()
    assert {p for patterns in rows.values() for p in patterns if not catalogued(p)} == set()
    missing = {code: sorted(k for k in keys if not covers(rows.get(code, set()), k)) for code, keys in made.items()}
    assert {code: keys for code, keys in missing.items() if keys} == {}


def test_the_check_sees_a_missing_entry() -> None:
    assert not catalogued("error.no_such_thing") and not catalogued("error.no_such_prefix.*")
    assert catalogued("error.event.*") and covers({"error.event.*"}, "error.event.unknown")
    assert not covers({"error.event.*"}, "error.events")


def test_the_documents_enum_lists_every_code_taihu_answers() -> None:
    """`ERROR_CODES` (the enum of `ErrorAnswer.code` in the OpenAPI document) is the codes the source makes."""
    assert set(ERROR_CODES) == set(codes_and_texts()) | AT_RUN_TIME
    assert len(ERROR_CODES) == len(set(ERROR_CODES))
