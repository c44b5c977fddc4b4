"""One core, thin shells: the same input gives the same answer everywhere.

The worked examples of every rules page go through the library, `taihu
score --json` and `POST /score`, and the three answers must be the same
JSON. Each rule set must reject the other rule sets' tiles and conditions
with an error that names it.
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pytest
from api_app import app as http_app
from fastapi.testclient import TestClient
from pydantic import TypeAdapter
from typer.testing import CliRunner

from taihu.api import schemas
from taihu.cli.main import app as cli_app
from taihu.scorer import HandError, ScoreItem, score_hand, settle_table

EXAMPLES = Path(__file__).parent.parent / "examples"

# (rules, hand, total, legal): the worked examples of docs/rules/*.md
WORKED = [
    pytest.param("lingxi", "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S", 56, True, id="lingxi-1"),
    pytest.param("lingxi", "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W", 26, True, id="lingxi-2"),
    pytest.param("lingxi", "3p3p 123m 456m 78m 11s 45s 99p f5f6f7f8 P wild:3p,W seat:N", 16, True, id="lingxi-3"),
    pytest.param("luoshan", "[EEE] (CCCC) [999m] 11p FF +1p self flip:5s seat:E", 500, True, id="luoshan-1"),
    pytest.param("luoshan", "[CCC] 55m 789s 345m 99s +5m self flip:1p seat:S", 40, False, id="luoshan-2"),
    pytest.param("luoshan", "123m 456m 789p 23s 55p +4s flip:9p seat:W", 30, True, id="luoshan-3"),
    # jinhua.md: 海捞七对 = 2 × 2 = 4, 海捞清七对 = 4 × 2 = 8
    pytest.param("jinhua", "11223344m 66p 7s 8s 9m +8s last-tile wild:9m", 4, True, id="jinhua-hai-lao-qi-dui"),
    pytest.param("jinhua", "1122m 3344p 5566s 7s +7s last-tile wild:9m", 8, True, id="jinhua-hai-lao-qing-qi-dui"),
    # putian.md: a non-dealer's 底分 = 底 1 + 白 2 + 金 1 = 4
    pytest.param("putian", "123m 456m 789p 234s 567s 9s P P +5p wild:9s seat:S", 4, True, id="putian-di-fen"),
    # guannan.md default house table: 碰碰和 2
    pytest.param("guannan", "111m 222p 333s 444m 5s +5s", 2, True, id="guannan-peng-peng-he"),
]


@pytest.mark.parametrize(("rules", "hand", "total", "legal"), WORKED)
def test_worked_example_same_everywhere(rules: str, hand: str, total: int, legal: bool) -> None:
    library = score_hand(hand, rules=rules).to_dict()
    assert (library["total"], library["legal"]) == (total, legal)
    cli = CliRunner().invoke(cli_app, ["score", hand, "--rules", rules, "--json"])
    assert cli.exit_code == 0, cli.output
    http = TestClient(http_app).post("/score", json={"rules": rules, "hand": hand})
    assert http.status_code == 200, http.text
    assert json.loads(cli.stdout) == library == http.json()


def test_putian_seed_example_same_everywhere() -> None:
    """putian.md: A 3 分, B 3 分, C 1 分, D wins → C pays A and B 2 each."""
    path = EXAMPLES / "tables" / "putian-seed.json"
    table = json.loads(path.read_text(encoding="utf-8"))
    library = settle_table(table).to_dict()
    among_losers = [p for p in library["payments"] if p["to"] != "N"]
    assert [(p["from"], p["to"], p["amount"]) for p in among_losers] == [("W", "E", 2), ("W", "S", 2)]
    cli = CliRunner().invoke(cli_app, ["settle", str(path), "--json"])
    assert cli.exit_code == 0, cli.output
    http = TestClient(http_app).post("/settle", json=table)
    assert http.status_code == 200, http.text
    assert json.loads(cli.stdout) == library == http.json()


BASE = {
    "lingxi": "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W",
    "luoshan": "123m 456m 789p 23s 55p +4s flip:9p seat:W",
    "putian": "123m 456m 789p 234s 567s 9s P P +5p wild:9s seat:S",
    "jinhua": "123m 456p 789s 234m 5s +5s wild:9m",
    "guannan": "123m 456p 789s 234m 5s +5s",
}
NAMES = {"lingxi": "Lingxi", "luoshan": "Luoshan", "putian": "Putian", "jinhua": "Jinhua", "guannan": "Guannan"}
FOREIGN = [
    ("lingxi", "flip:1m"),  # Luoshan's indicator
    ("lingxi", "declare:san-jin-dao"),  # Putian's declared win
    ("lingxi", "human"),  # Jinhua's 人胡
    ("luoshan", "f1"),  # flowers: Lingxi
    ("luoshan", "declare:sha-zhu"),
    ("luoshan", "heaven"),
    ("putian", "E"),  # winds and dragons: not among Putian's 112 tiles
    ("putian", "C"),
    ("putian", "f1"),
    ("putian", "flip:1m"),
    ("putian", "declare:sha-zhu"),
    ("putian", "last-tile"),  # kong-draw is accepted as a self-draw since 2026-11-30
    ("jinhua", "f1"),
    ("jinhua", "flip:1m"),
    ("jinhua", "declare:hua-hu"),
    ("jinhua", "rob-kong"),
    ("guannan", "C"),  # no dragons in Guannan
    ("guannan", "f1"),
    ("guannan", "wild:5m"),
    ("guannan", "declare:you-jin"),
]


@pytest.mark.parametrize(("rules", "extra"), FOREIGN, ids=[f"{r}+{e}" for r, e in FOREIGN])
def test_rule_set_rejects_the_others_tiles_and_conditions(rules: str, extra: str) -> None:
    hand = f"{BASE[rules]} {extra}"
    assert score_hand(BASE[rules], rules=rules).winner  # the hand is fine without the extra
    with pytest.raises(HandError) as caught:
        score_hand(hand, rules=rules)
    message = str(caught.value)
    assert NAMES[rules] in message
    assert extra.split(":")[0] in message


def _example_hands() -> list[tuple[str, str]]:
    out = []
    for path in sorted((EXAMPLES / "hands").glob("*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            hand = line.split("#")[0].strip()
            if hand:
                out.append((path.stem, hand))
    return out


@pytest.mark.parametrize(("rules", "hand"), _example_hands())
def test_a_score_made_by_the_core_is_what_the_http_schema_describes(rules: str, hand: str) -> None:
    """The core's dataclass read back through the HTTP schema of HandScore is the same score: types agree."""
    try:
        made = score_hand(hand, rules=rules)
    except HandError:
        return  # an example of an error
    answer = made.to_dict()
    validated = TypeAdapter(schemas.HandScore).validate_python(answer)
    assert {f.name: getattr(validated, f.name) for f in fields(validated) if f.name in answer} == {
        key: getattr(made, key) if hasattr(made, key) else made.extra.get(key) for key in answer
    }
    assert [*answer, "arithmetic"] == [f.name for f in fields(schemas.HandScore)]
    assert type(made.items) is list and all(type(i) is ScoreItem for i in made.items)
