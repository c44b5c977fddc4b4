"""The OpenAPI document as a generated client reads it (docs/api.md "HTTP").

FastAPI writes it from the routes; this adds what the routes cannot say:
the bodies read by the route itself (a batch, a ledger's deal: one bad item
or one bad name is an answer, not FastAPI's 422), the `lang` parameter that
every operation takes (read by `taihu.api.language`, not by the route), and
one example answer per operation, made by the core on the first request for
the document (not at start-up, and always the answer the server gives).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic.json_schema import models_json_schema

VERSION = "/v1"  # the prefix of every path in the document; the same paths without it answer too
TAGS = [
    {"name": "scoring", "description": "Score hands and settle deals, one at a time or in batches"},
    {"name": "waits", "description": "What a waiting hand wins on; which tile to discard"},
    {"name": "rules", "description": "The rule sets, their items and house options"},
    {"name": "ledgers", "description": "An evening's ledger: deals, standings, CSV (docs/ledger.md)"},
    {"name": "health", "description": "For load balancers and health checks"},
]
# operation → the component its route reads itself (`taihu.api.batch`, `taihu.api.ledger`, and in a worker
# thread `taihu.api.bodies`)
BODIES = {"score_batch": "ScoreBatch", "settle_batch": "SettleBatch", "add_deal": "LedgerTable"}
BODIES |= {"new_ledger": "NewLedger", "edit_ledger": "LedgerEdit"}
BODIES |= {"score_hand": "ScoreRequest", "settle_table": "Table", "find_waits": "WaitsRequest"}


def examples() -> dict[str, Any]:
    """One answer per operation, as the core gives it."""
    from taihu.api.schemas import SCORE_EXAMPLES, TABLE_EXAMPLES
    from taihu.messages.error_shape import hand_error_shape
    from taihu.scorer import HandError, rule_sets, score_hand, settle_table, waits
    from taihu.scorer.rulesets import RULESETS

    hand = score_hand(SCORE_EXAMPLES[0]["hand"], rules=SCORE_EXAMPLES[0]["rules"]).to_dict()
    settlement = settle_table(TABLE_EXAMPLES[0]).to_dict()
    try:
        score_hand("123m x")
    except HandError as exc:
        bad = hand_error_shape(exc)
    seats = {"E": "甲", "S": "乙", "W": "丙", "N": "丁"}
    deal = {"number": 1, "dealer": "甲", "seats": seats, "table": TABLE_EXAMPLES[0], "settlement": settlement}
    totals = {seats[wind]: net for wind, net in settlement["net"].items()}
    standings = {"totals": totals, "next_dealer": seats[settlement["next_dealer"]], "deal_count": 1}
    csv = "deal,player,seat,dealer,net,total\n1,甲,E,甲,-120,-120\n"
    waiting = next((name, rule_set.example_waits) for name, rule_set in RULESETS.items() if rule_set.example_waits)
    return {
        "score_hand": hand,
        "settle_table": settlement,
        "score_batch": {"results": [hand, {"error": bad}]},
        "settle_batch": {"results": [settlement]},
        "find_waits": waits(waiting[1], rules=waiting[0]).to_dict(),
        "list_rules": [rule_sets()[0].to_dict()],
        "health": {"status": "ok"},
        "new_ledger": {"id": "Xj3v0Yb2Qk4rN8sT1uW5zA", "token": "kP9mD2fH7qL4tR6wY1cV3nB8xZ5sG0jE"},
        "show_ledger": {
            "name": "",
            "rules": TABLE_EXAMPLES[0]["rules"],
            "players": list(seats.values()),
            "deals": [deal],
        }
        | standings,
        "add_deal": {"deal": deal, "standings": standings},
        "undo_deal": {"deal": deal, "standings": standings | {"totals": dict.fromkeys(totals, 0), "deal_count": 0}},
        "ledger_csv": csv,
    }


def unrouted_errors() -> dict[str, Any]:
    """The errors of no operation, in the one shape too: a path that is none (404 `not_found`) and a method a
    path does not take (405 `method_not_allowed`); OpenAPI lists a response per operation, so they are
    components, which a client reads as any answer of that status."""
    shape = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorAnswer"}}}
    return {
        "NotFound": {"description": "404 `not_found`: no such path (under `/v1` or not)", "content": shape},
        "MethodNotAllowed": {
            "description": "405 `method_not_allowed`: the path does not take this method (`Allow` lists those it does)",
            "content": shape,
        },
    }


def contract(app: FastAPI) -> dict[str, Any]:
    """`app.openapi`: FastAPI's document with the self-read bodies and an example answer per operation."""
    if app.openapi_schema:
        return app.openapi_schema
    from taihu.api.batch import EXTRA_MODELS
    from taihu.api.language import LANG_QUERY
    from taihu.api.ledger import LedgerEdit, LedgerTable, NewLedger
    from taihu.api.waits import WaitsRequest

    document = get_openapi(
        title=app.title,
        version=app.version,
        summary=app.summary,
        description=app.description,
        routes=app.routes,
        tags=app.openapi_tags,
        separate_input_output_schemas=False,
    )
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    _, extra = models_json_schema(
        [(model, "validation") for model in (*EXTRA_MODELS, LedgerTable, NewLedger, LedgerEdit, WaitsRequest)],
        ref_template="#/components/schemas/{model}",
    )
    for name, schema in extra.get("$defs", {}).items():
        schemas.setdefault(name, schema)
    document["components"]["responses"] = unrouted_errors()
    answers = examples()
    for path in document["paths"].values():
        for operation in path.values():
            name = operation.get("operationId")
            operation.setdefault("parameters", []).append(LANG_QUERY)
            if name in BODIES:
                ref = {"$ref": f"#/components/schemas/{BODIES[name]}"}
                operation["requestBody"] = {"required": True, "content": {"application/json": {"schema": ref}}}
            ok = next((operation["responses"][s] for s in ("200", "201") if s in operation["responses"]), None)
            if name in answers and ok is not None:
                for content in ok.get("content", {}).values():
                    content["example"] = answers[name]
    app.openapi_schema = document
    return document
