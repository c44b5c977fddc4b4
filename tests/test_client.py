"""A client generated from /v1's OpenAPI document (openapi-python-client, its own CLI) calls every operation
of a live uvicorn server with typed requests and reads typed answers."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from api_app import app
from fastapi.testclient import TestClient
from live_server import live_server

from taihu.scorer import score_hand, settle_table, waits

ROOT = Path(__file__).resolve().parent.parent
NORMAL_WIN: dict[str, Any] = json.loads((ROOT / "examples/tables/normal-win.json").read_text(encoding="utf-8"))
HAND = "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S"
GENERATOR = Path(sys.executable).parent / "openapi-python-client"
PACKAGE = "taihu_client"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The client package, generated into a temporary directory and imported from there."""
    where = tmp_path_factory.mktemp("client")
    document = where / "openapi.json"
    document.write_text(json.dumps(TestClient(app).get("/openapi.json").json()), encoding="utf-8")
    config = where / "config.json"  # JSON is YAML: no post-hooks (they would run ruff on the generated code)
    config.write_text(json.dumps({"post_hooks": [], "package_name_override": PACKAGE}), encoding="utf-8")
    command = [str(GENERATOR), "generate", "--path", str(document), "--config", str(config), "--meta", "none"]
    command += ["--output-path", str(where / PACKAGE)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=where)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning" not in done.stdout + done.stderr, done.stdout + done.stderr  # every schema understood
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def part(name: str) -> ModuleType:
    return importlib.import_module(f"{PACKAGE}.{name}")


def test_every_operation_through_the_generated_client(generated: ModuleType) -> None:
    models = part("models")
    scoring = {n: part(f"api.scoring.{n}") for n in ("score_hand", "settle_table", "score_batch", "settle_batch")}
    ledgers = {n: part(f"api.ledgers.{n}") for n in ("new_ledger", "show_ledger", "add_deal", "undo_deal")}
    with live_server() as (host, port):
        client = generated.Client(base_url=f"http://{host}:{port}", raise_on_unexpected_status=True)
        assert part("api.health.health").sync(client=client).status == "ok"

        request = models.ScoreRequest(hand=HAND, rules=models.ScoreRequestRules.LINGXI)
        scored = scoring["score_hand"].sync(client=client, body=request, arithmetic=True)
        assert isinstance(scored, models.HandScore) and scored.total == 56 and scored.arithmetic
        assert scored.to_dict()["items"] == score_hand(HAND).to_dict()["items"]
        bad = scoring["score_hand"].sync(client=client, body=models.ScoreRequest(hand="123m x"))
        assert isinstance(bad, models.ErrorAnswer) and (bad.code, bad.column) == ("unknown_tile", 6)

        table = models.Table.from_dict(NORMAL_WIN)
        settled = scoring["settle_table"].sync(client=client, body=table)
        assert isinstance(settled, models.Settlement)
        assert settled.to_dict()["net"] == settle_table(NORMAL_WIN).net

        batch = models.ScoreBatch(hands=[request, models.ScoreRequest(hand="123m x")])
        answered = scoring["score_batch"].sync(client=client, body=batch)
        assert isinstance(answered, models.ScoreBatchAnswer)
        first, second = answered.results
        assert isinstance(first, models.HandScore) and isinstance(second, models.ItemError)
        assert second.error.code == "unknown_tile"
        tables = scoring["settle_batch"].sync(client=client, body=models.SettleBatch(tables=[table]))
        assert isinstance(tables, models.SettleBatchAnswer) and isinstance(tables.results[0], models.Settlement)

        rules = part("api.rules.list_rules").sync(client=client)
        assert isinstance(rules, list) and [r.name for r in rules][0] == "lingxi"

        find = part("api.waits.find_waits")
        luoshan = models.WaitsRequestRules.LUOSHAN
        ready = find.sync(client=client, body=models.WaitsRequest(hand="123m 456m 789p 23s 55p flip:9p", rules=luoshan))
        assert isinstance(ready, models.WaitsOut)
        assert ready.to_dict()["waits"] == waits("123m 456m 789p 23s 55p flip:9p", rules="luoshan").to_dict()["waits"]
        choice = find.sync(
            client=client,
            body=models.WaitsRequest(hand="123m 456m 789p 23s 55p 9s", rules=luoshan),
        )
        assert isinstance(choice, models.DiscardsOut) and choice.discards

        keys = ledgers["new_ledger"].sync(client=client, body=models.NewLedger(players=["甲", "乙", "丙", "丁"]))
        assert isinstance(keys, models.Keys)
        keeper = generated.AuthenticatedClient(
            base_url=f"http://{host}:{port}", token=keys.token, raise_on_unexpected_status=True
        )
        deal = models.LedgerTable.from_dict(NORMAL_WIN | {"deal": 1})
        added = ledgers["add_deal"].sync(keys.id, client=keeper, body=deal, idempotency_key="a-key")
        assert isinstance(added, models.LedgerChange) and added.deal.number == 1
        assert isinstance(added.deal.settlement, models.Settlement) and isinstance(added.deal.table, models.Table)
        shown = ledgers["show_ledger"].sync(keys.id, client=client)
        assert isinstance(shown, models.LedgerAnswer) and shown.deal_count == 1
        csv = part("api.ledgers.ledger_csv").sync_detailed(keys.id, client=client)
        assert csv.status_code == 200 and csv.content.decode("utf-8-sig").startswith("deal")
        wrong = generated.AuthenticatedClient(base_url=f"http://{host}:{port}", token="nope")
        refused = ledgers["undo_deal"].sync(keys.id, client=wrong)
        assert isinstance(refused, models.ErrorAnswer) and refused.code == "token_wrong"
        unnamed = ledgers["undo_deal"].sync(keys.id, client=keeper)  # an undo must name its deal
        assert isinstance(unnamed, models.ErrorAnswer) and unnamed.code == "precondition_required"
        undone = ledgers["undo_deal"].sync(keys.id, client=keeper, deal=1, idempotency_key="an-undo")
        assert isinstance(undone, models.LedgerChange) and undone.standings.deal_count == 0

        # PATCH: a field the client leaves out stays as it is, so the generated model sends no default for it
        edit = part("api.ledgers.edit_ledger")
        edit.sync(keys.id, client=keeper, body=models.LedgerEdit(expires_in_hours=48, private=True))
        assert models.LedgerEdit(title="周五").to_dict() == {"title": "周五"}
        titled = edit.sync(keys.id, client=keeper, body=models.LedgerEdit(title="周五"))
        assert isinstance(titled, models.LedgerAnswer) and titled.title == "周五" and titled.expires
        assert ledgers["show_ledger"].sync(keys.id, client=client).code == "ledger_private"  # still private

        # one type of `lang`, the same for every operation
        assert [n for n in dir(models) if n.lower().endswith("lang") and isinstance(getattr(models, n), type)] == [
            "Lang"
        ]
        chinese = scoring["score_hand"].sync(
            client=client, body=models.ScoreRequest(hand="123m x"), lang=models.Lang.ZH
        )
        assert isinstance(chinese, models.ErrorAnswer) and chinese.code == bad.code and chinese.message != bad.message
