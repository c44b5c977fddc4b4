"""The core's records are plain dataclasses whose `to_dict()` is the JSON of docs/api.md.

The examples are docs/api.md's own (the Lingxi hand of 56 tai and its table);
a table given as a dict and as a `Table` settles alike; the HTTP schemas
that mirror the records name the same fields; and the CLI starts without
what it does not need (pydantic, fastapi, a table renderer for --json, sqlite3, other rule sets).
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter
from settle_helpers import API_TABLE

from taihu.api import schemas
from taihu.scorer import HandScore, Payment, PlayerTotal, Settlement, Table, rulesets, score_hand, settle_table
from taihu.scorer.errors import HandError
from taihu.scorer.rulesets import REGISTRY, RULESETS, chinese_names, get, settlement_keys, table_fields
from taihu.scorer.rulesets.interface import SUITED_TILES

TABLES = sorted((Path(__file__).parent.parent / "examples" / "tables").glob("*.json"))
HAND_56 = "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S"
HAND_SCORE_KEYS = ["rules", "hand", "winner", "legal", "items", "subtotal", "doubled", "total", "unit"]
HAND_SCORE_KEYS += ["arrangement", "notes", "fu", "fu_details", "limit", "payments"]


def test_hand_score_to_dict_is_the_api_md_hand_score() -> None:
    data = score_hand(HAND_56, rules="lingxi").to_dict()
    assert list(data) == HAND_SCORE_KEYS
    assert {k: data[k] for k in ("rules", "winner", "legal", "subtotal", "doubled", "total", "unit")} == {
        "rules": "lingxi",
        "winner": True,
        "legal": True,
        "subtotal": 28,
        "doubled": True,
        "total": 56,
        "unit": "tai",
    }
    assert data["arrangement"] == ["5m5m5m", "222p", "777p", "333s", "888s", "99m"]
    assert data["notes"] == []
    cai_shen = {"key": "cai_shen", "name": "财神", "name_en": "Wildcards held", "value": 8, "unit": "tai"}
    cai_shen["detail"] = "5m ×3"
    assert cai_shen in data["items"]
    assert all(list(item) == ["key", "name", "name_en", "value", "unit", "detail"] for item in data["items"])
    assert json.loads(json.dumps(data)) == data  # plain JSON data, nothing left to convert


def test_settlement_to_dict_is_the_api_md_settlement() -> None:
    data = settle_table(API_TABLE).to_dict()
    assert list(data) == ["rules", "scores", "payments", "net", "next_dealer", "pot_before", "pot_after", "next_honba"]
    assert data["payments"] == [
        {"from": "E", "to": "S", "amount": 112, "reason": "winner; dealer x2"},
        {"from": "W", "to": "S", "amount": 56, "reason": "winner"},
        {"from": "N", "to": "S", "amount": 56, "reason": "winner"},
        {"from": "E", "to": "W", "amount": 4, "reason": "difference 2; dealer x2"},
        {"from": "E", "to": "N", "amount": 4, "reason": "difference 2; dealer x2"},
    ]
    assert data["net"] == {"E": -120, "S": 224, "W": -52, "N": -52}
    assert data["next_dealer"] == "S"
    assert data["scores"]["W"] == {"total": 4}
    assert [data["scores"][s]["total"] for s in "ESN"] == [2, 56, 4]
    assert list(data["scores"]["S"]) == HAND_SCORE_KEYS  # a nested score is a whole HandScore
    assert json.loads(json.dumps(data)) == data


def test_payment_is_from_in_json_and_from_underscore_in_python() -> None:
    payment = Payment(from_="E", to="S", amount=2, reason="winner")
    assert payment.to_dict() == {"from": "E", "to": "S", "amount": 2, "reason": "winner"}
    assert payment.from_ == "E"


@pytest.mark.parametrize("path", TABLES, ids=[p.stem for p in TABLES])
def test_a_dict_and_a_table_object_settle_the_same(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    table = Table.from_dict(data)
    assert isinstance(table, Table)
    assert settle_table(table).to_dict() == settle_table(data).to_dict()
    assert Table.from_dict(table.to_dict()) == table  # to_dict is the JSON from_dict reads


def test_a_table_built_in_python_settles_as_its_json() -> None:
    players: dict[str, str | PlayerTotal] = {**API_TABLE["players"], "W": PlayerTotal(total=4)}
    table = Table(rules="lingxi", wild=["5m", "E"], winner="S", discarder="W", players=players)
    assert settle_table(table).to_dict() == settle_table(API_TABLE).to_dict()


def core_keys(core: Any, extra: Iterable[str]) -> list[str]:
    """A core record's JSON keys: its fields, `extra` holding the keys the rule sets declare in its place."""
    keys = [{"from_": "from"}.get(f.name, f.name) for f in fields(core)]
    return [key for name in keys for key in (extra if name == "extra" else [name])]


@pytest.mark.parametrize(
    ("mirror", "core"),
    [(schemas.Payment, Payment), (schemas.Settlement, Settlement), (schemas.PlayerTotal, PlayerTotal)],
)
def test_http_schemas_name_the_core_records_fields_in_order(mirror: Any, core: Any) -> None:
    """A field added to a core record, or a settlement key a rule set declares, must be in its HTTP mirror too."""
    shown = list(mirror.model_json_schema(mode="serialization")["properties"])
    assert shown == core_keys(core, settlement_keys())


@pytest.mark.parametrize("name", list(RULESETS))
def test_http_hand_score_schema_names_the_keys_of_every_answer(name: str) -> None:
    """The core's HandScore holds what a rule set adds in `extra`; its answer's keys are the HTTP schema's."""
    shown = list(TypeAdapter(schemas.HandScore).json_schema(mode="serialization")["properties"])
    for example in RULESETS[name].examples:
        answer = score_hand(example["hand"], rules=name, options=example.get("options"))
        assert [*answer.to_dict(), "arithmetic"] == shown


def test_http_table_schema_reads_the_fields_the_core_reads() -> None:
    """The core's table fields, and those the rule sets declare in `extra`'s place, are the HTTP schema's."""
    assert list(schemas.Table.model_fields) == core_keys(Table, table_fields())


def test_hand_score_is_not_a_pydantic_model() -> None:
    assert not hasattr(HandScore, "model_dump") and not hasattr(Settlement, "model_validate")


START_UP = """
import sys
from taihu.cli.main import app
if {args!r} is not None:
    try:
        app({args!r}, prog_name="taihu")
    except SystemExit:
        pass
print("\\n" + " ".join(sorted(sys.modules)))
"""
# what `import taihu.cli.main` never needs, nor any `taihu score` / `taihu settle`: no terminal library
# (rich is imported to draw), no click (typer carries its own), no pydantic, no server, no ledger
NEVER = {
    "click",
    "pydantic",
    "fastapi",
    "starlette",
    "uvicorn",
    "sqlite3",
    "taihu.ledger",
    "taihu.api",
}
NO_TABLE = {"rich", "taihu.cli.draw"}  # what draws tables, imported only to print one
LUOSHAN_HAND = "123m 456m 789p 23s 55p +4s flip:9p seat:W"


def modules_after(args: list[str] | None) -> set[str]:
    """The modules loaded by `import taihu.cli.main` and then `taihu ARGS`, in a fresh interpreter."""
    code = START_UP.format(args=args)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    return set(done.stdout.rstrip().rsplit("\n", 1)[-1].split())


def unwanted(loaded: set[str], never: set[str]) -> set[str]:
    return {m for m in loaded if m in never or m.split(".")[0] in never}


def rule_set_modules(loaded: set[str]) -> set[str]:
    """Which rule sets' modules were imported: a rule set is a folder of `rulesets/` (its package, by its name);
    the modules beside them are what every rule set is made with."""
    prefix = "taihu.scorer.rulesets."
    return {m.split(".")[3] for m in loaded if m.startswith(prefix) and (RULE_SET_FOLDERS / m.split(".")[3]).is_dir()}


RULE_SET_FOLDERS = Path(rulesets.__file__).parent


def test_importing_the_cli_loads_no_rule_set_no_renderer_and_no_settlement() -> None:
    loaded = modules_after(None)
    assert "taihu.cli.main" in loaded
    assert not unwanted(loaded, NEVER | NO_TABLE | {"taihu.scorer.settlement", "taihu.scorer.waiting"})
    assert rule_set_modules(loaded) == set()


@pytest.mark.parametrize(
    ("args", "rules", "also_never"),
    [
        pytest.param(["score", HAND_56, "--json"], {"lingxi"}, NO_TABLE, id="score-json"),
        pytest.param(["score", LUOSHAN_HAND, "-r", "luoshan", "--json"], {"luoshan"}, NO_TABLE, id="luoshan"),
        pytest.param(["score", "123m", "-r", "螺山", "--json"], {"luoshan"}, NO_TABLE, id="bad-hand"),
        pytest.param(["score", HAND_56], {"lingxi"}, set(), id="score"),
    ],
)
def test_a_score_imports_only_its_rule_set(args: list[str], rules: set[str], also_never: set[str]) -> None:
    """No click, rich (but to draw), pydantic, fastapi, sqlite3, settlement or waits search; one rule set's module."""
    loaded = modules_after(args)
    assert "taihu.scorer.rulesets.base" in loaded  # the command ran
    assert not unwanted(loaded, NEVER | also_never | {"taihu.scorer.settlement", "taihu.scorer.waiting"})
    assert rule_set_modules(loaded) == rules


@pytest.mark.parametrize("path", [TABLES[0], *(p for p in TABLES if p.stem == "riichi-win")], ids=lambda p: p.stem)
def test_settle_json_imports_no_renderer_and_only_its_rule_set(path: Path) -> None:
    rules = json.loads(path.read_text(encoding="utf-8")).get("rules", "lingxi")
    loaded = modules_after(["settle", str(path), "--json"])
    assert "taihu.scorer.settlement" in loaded
    assert not unwanted(loaded, NEVER | NO_TABLE)
    assert rule_set_modules(loaded) == {rules}
    assert {m for m in loaded if m.startswith("taihu.scorer.settlement.")} == {"taihu.scorer.settlement.common"}
    assert {m for m in loaded if m.endswith(".settlement") and ".rulesets." in m} == {
        f"taihu.scorer.rulesets.{rules}.settlement"
    }


def test_a_table_printed_imports_the_renderer() -> None:
    """The other side of the tests above: they would pass vacuously if nothing were ever loaded late."""
    assert {"rich", "taihu.cli.draw"} <= modules_after(["score", HAND_56])
    assert "taihu.scorer.settlement" in modules_after(["settle", str(TABLES[0])])
    # the rule sets of the package's own registry (a test's, registered in this process, is not the command's)
    assert rule_set_modules(modules_after(["rules"])) == {name for name, line in REGISTRY.items() if not line.module}


def hand_size_taken(name: str) -> int:
    """The one count of suited tiles, one of a kind, the rule set takes as a non-winning hand (a count error
    for the others): its hand size as its own validation has it."""
    taken = []
    for size in range(10, 19):
        try:
            score_hand(" ".join(SUITED_TILES[:size]), rules=name)
        except HandError as exc:
            assert exc.code in ("tile_count", "no_winning_tile"), (name, size, exc.code)
        else:
            taken.append(size)
    assert len(taken) == 1, (name, taken)
    return taken[0]


def test_the_registry_facts_kept_as_data_agree_with_the_rule_set_modules() -> None:
    """Hand sizes and Chinese names are known without importing a rule set: they must be the modules' own."""
    for name in RULESETS:
        module = importlib.import_module(REGISTRY[name].module or f"taihu.scorer.rulesets.{name}")
        assert get(name) is RULESETS[name] and RULESETS[name].name == name
        assert get(RULESETS[name].chinese) is RULESETS[name]
        assert module.RULE_SET is RULESETS[name]
        assert hand_size_taken(name) == REGISTRY[name].hand_size, name
        assert set(REGISTRY[name].words.conditions) <= RULESETS[name].conditions, name
        assert set(REGISTRY[name].words.declared_wins) == set(RULESETS[name].declared_wins), name
        assert RULESETS[name].chinese == REGISTRY[name].chinese[0], name
    assert set(chinese_names().values()) == set(RULESETS)


# a condition written with its value; any other condition word is written bare
WITH_VALUE = {"round": "round:E", "dora": "dora:1m", "ura": "ura:1m", "honba": "honba:1", "sticks": "sticks:1"}
DECLARED_WORDS = sorted({word for line in REGISTRY.values() for word in line.words.conditions})


@pytest.mark.parametrize("word", DECLARED_WORDS)
def test_a_condition_another_rule_set_reads_is_refused_naming_every_rule_set_that_reads_it(word: str) -> None:
    """`round:` is read by more than one rule set: the error of any other names them all, as their modules say."""
    from taihu.scorer.notation import parse
    from taihu.scorer.rulesets.validation import check_known_conditions

    readers = [name for name in RULESETS if word in RULESETS[name].conditions]
    parsed = parse(f"123m 456m 789p 234s 1p +1p {WITH_VALUE.get(word, word)}")
    others = [name for name in RULESETS if name not in readers]
    assert readers and others
    for name in others:
        with pytest.raises(HandError) as refused:
            check_known_conditions(parsed, name, RULESETS[name].conditions)
        assert f"score the hand with --rules {' / '.join(readers)})" in str(refused.value), (word, name)
