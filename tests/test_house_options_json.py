"""A house option's value is a whole number: a JSON `true` (pydantic's lax `int` read it as 1) is refused with the
one error shape wherever options are taken — /score, /waits, /settle, /ledgers — and by the
core, which the command line's tables go through."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from api_app import app
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from taihu.cli.main import app as cli
from taihu.scorer import HandError, settle_table

ROOT = Path(__file__).resolve().parent.parent
HAND = "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W"
TABLE: dict[str, Any] = json.loads((ROOT / "examples/tables/normal-win.json").read_text(encoding="utf-8"))
SHAPE = {"code", "message", "detail", "column", "seat", "player", "field", "hint"}

REQUESTS = [
    ("/v1/score", {"rules": "lingxi", "hand": HAND}),
    ("/score", {"rules": "lingxi", "hand": HAND}),
    ("/v1/waits", {"rules": "lingxi", "hand": "123m 456m 789p 234s 678s 5p wild:9s,N seat:W"}),
    ("/v1/settle", TABLE),
    ("/ledgers", {"rules": "lingxi", "players": ["甲", "乙", "丙", "丁"]}),
]


@pytest.mark.parametrize("value", [True, False])
@pytest.mark.parametrize(("path", "body"), REQUESTS, ids=[path for path, _ in REQUESTS])
def test_a_boolean_option_is_refused_over_http(path: str, body: dict[str, Any], value: bool) -> None:
    client = TestClient(app, base_url="http://localhost")
    for lang, words in (("en", "valid integer"), ("zh", "整数")):
        reply = client.post(f"{path}?lang={lang}", json={**body, "options": {"double_at": value}})
        assert reply.status_code == 422, reply.text
        answer = reply.json()
        assert set(answer) == SHAPE
        assert answer["code"] == "wrong_type"
        assert answer["field"] == "options.double_at"
        assert words in answer["message"]


@pytest.mark.parametrize(("path", "body"), REQUESTS, ids=[path for path, _ in REQUESTS])
def test_a_whole_number_option_is_taken(path: str, body: dict[str, Any]) -> None:
    """The refusal is of the bool only: the same option as a number is answered (10.0 as before)."""
    client = TestClient(app, base_url="http://localhost")
    for value in (10, 10.0):
        reply = client.post(path, json={**body, "options": {"double_at": value}})
        assert reply.status_code in (200, 201), reply.text


def test_the_core_and_the_command_line_refuse_a_boolean_option(tmp_path: Path) -> None:
    table = {**TABLE, "options": {"double_at": True}}
    with pytest.raises(HandError) as raised:
        settle_table(table)
    assert raised.value.code == "bad_table"  # the one code of a table field of the wrong type
    assert "a bool is not a number" in str(raised.value)
    path = tmp_path / "table.json"
    path.write_text(json.dumps(table), encoding="utf-8")
    result = CliRunner().invoke(cli, ["settle", str(path), "--json", "--lang", "en"])
    assert result.exit_code == 2
    assert "a bool is not a number" in json.loads(result.stdout)["message"]
