"""`POST /score/batch` and `POST /settle/batch`: many hands or tables in one request (docs/api.md "Batch").

Each item is its own: its answer, or `{"error": ErrorAnswer}` for that item
alone, in the order sent (`taihu.scorer.batch`). The body is read here, not
by FastAPI, so that one bad item is that item's error, not a 422 for the
whole request; the OpenAPI document still shows the typed body
(`ScoreBatch`, `SettleBatch`: `taihu.api.contract` adds them).

The batch runs in a worker thread within the CPU budget of `/waits`
(`CPU_BUDGET`): the items after the budget is spent answer `over_budget`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from taihu.api.errors import json_place, json_reason
from taihu.api.language import request_language
from taihu.api.offload import CPU_BUDGET, cpu_budget, in_worker
from taihu.api.responses import WITH_BODY, ErrorAnswer, errors, json_bytes
from taihu.api.schemas import SCORE_EXAMPLES, TABLE_EXAMPLES, HandScore, ScoreRequest, Settlement, Table
from taihu.messages import Language
from taihu.messages.error_shape import CatalogError, hand_error_shape
from taihu.scorer.batch import MAX_BATCH_HANDS, MAX_BATCH_TABLES, score_batch, settle_batch
from taihu.scorer.errors import HandError

router = APIRouter(tags=["scoring"])


class ScoreBatch(BaseModel):
    """Hands to score at once, each with its own rule set and options."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"hands": SCORE_EXAMPLES}]})
    hands: list[ScoreRequest] = Field(max_length=MAX_BATCH_HANDS, description=f"at most {MAX_BATCH_HANDS} hands")


class SettleBatch(BaseModel):
    """Tables to settle at once, each with its own rule set."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"tables": TABLE_EXAMPLES}]})
    tables: list[Table] = Field(max_length=MAX_BATCH_TABLES, description=f"at most {MAX_BATCH_TABLES} tables")


class ItemError(BaseModel):
    """The answer for one item of a batch that could not be scored or settled."""

    error: ErrorAnswer


class ScoreBatchAnswer(BaseModel):
    results: list[HandScore | ItemError] = Field(description="one per hand, in the order sent")


class SettleBatchAnswer(BaseModel):
    results: list[Settlement | ItemError] = Field(description="one per table, in the order sent")


def items_of(body: bytes, key: str) -> Sequence[Any]:
    """The list under `key` of a body `{key: [...]}`; anything else is one HandError for the request."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        at = json_place(exc.pos)  # orjson's reason as the catalog's kind, its place the error's column
        reason = json_reason(exc.msg)
        raise CatalogError(
            "api.validation.json_invalid_at", code="invalid_json", place=at, position=at, reason=reason
        ) from None
    if not isinstance(data, dict) or set(data) != {key} or not isinstance(data[key], list):
        raise CatalogError("api.error.batch_body", code="bad_batch", field=key, key=key)
    items: list[Any] = data[key]
    return items


def answers(results: Sequence[Any], lang: Language) -> bytes:
    return json_bytes(
        {
            "results": [
                {"error": hand_error_shape(r, lang)} if isinstance(r, HandError) else r.to_dict(lang) for r in results
            ]
        }
    )


def batched(body: bytes, key: str, run: Callable[..., Sequence[Any]], lang: Language) -> Response:
    """In the worker thread: read, answer each item within the budget, render."""
    results = run(items_of(body, key), check=cpu_budget(CPU_BUDGET))
    return Response(answers(results, lang), media_type="application/json")


@router.post(
    "/score/batch",
    operation_id="score_batch",
    response_model=ScoreBatchAnswer,
    responses=errors(*WITH_BODY),
    summary="Score many hands",
    description=f"Score up to {MAX_BATCH_HANDS} hands in one request: `results[i]` answers `hands[i]`. "
    'Each result is a HandScore or `{"error": ErrorAnswer}` for that hand alone; one bad hand does not fail '
    f'the rest. A body that is not `{{"hands": [...]}}`, or has over {MAX_BATCH_HANDS} hands, is one 422. '
    f"Hands past the request's CPU budget ({CPU_BUDGET:g} s) answer the error `over_budget`: send those again.",
)
async def score_many(request: Request) -> Response:
    return await in_worker(batched, await request.body(), "hands", score_batch, request_language(request))


@router.post(
    "/settle/batch",
    operation_id="settle_batch",
    response_model=SettleBatchAnswer,
    responses=errors(*WITH_BODY),
    summary="Settle many tables",
    description=f"Settle up to {MAX_BATCH_TABLES} tables in one request: `results[i]` answers `tables[i]`. "
    'Each result is a Settlement or `{"error": ErrorAnswer}` for that table alone. A body that is not '
    f'`{{"tables": [...]}}`, or has over {MAX_BATCH_TABLES} tables, is one 422; tables past the CPU budget '
    "answer `over_budget`.",
)
async def settle_many(request: Request) -> Response:
    return await in_worker(batched, await request.body(), "tables", settle_batch, request_language(request))


EXTRA_MODELS = (ScoreBatch, SettleBatch)  # in the document's components though no route reads them as its body
