"""`POST /score/batch` and `POST /settle/batch`: many hands or tables in one request (docs/api.md "Batch").

Each item is its own: its answer, or `{"error": ErrorAnswer}` for that item
alone, in the order sent (`taihu.scorer.batch`). The body's model takes any
item (so that one bad item is that item's error, not a 422 for the whole
request), while its schema shows the item's model; each item is then read by
that model (`read_item`), so its error has the code, place and message the
single route answers for the same body.

The batch runs on a worker thread, one costly request at a time as `/waits`
(`run_costly`), within its CPU budget (`CPU_BUDGET`): the items after the
budget is spent answer `over_budget`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.config import JsonDict

from taihu.api.budget import CPU_BUDGET, cpu_budget, run_costly
from taihu.api.errors import validation_shape
from taihu.api.language import request_language
from taihu.api.responses import WITH_BODY, ErrorAnswer, errors, json_bytes
from taihu.api.schemas import SCORE_EXAMPLES, TABLE_EXAMPLES, HandScore, ScoreRequest, Settlement, Table
from taihu.messages import Language
from taihu.messages.error_shape import hand_error_shape
from taihu.scorer.batch import MAX_BATCH_HANDS, MAX_BATCH_TABLES, score_batch, settle_batch
from taihu.scorer.errors import HandError

router = APIRouter(tags=["scoring"])


class ScoreBatch(BaseModel):
    """Hands to score at once, each with its own rule set and options."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra=cast(JsonDict, {"examples": [{"hands": SCORE_EXAMPLES}]})
    )
    hands: list[Any] = Field(
        max_length=MAX_BATCH_HANDS,
        description=f"at most {MAX_BATCH_HANDS} hands, each a ScoreRequest",
        json_schema_extra={"items": {"$ref": f"#/components/schemas/{ScoreRequest.__name__}"}},
    )


class SettleBatch(BaseModel):
    """Tables to settle at once, each with its own rule set."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra=cast(JsonDict, {"examples": [{"tables": TABLE_EXAMPLES}]})
    )
    tables: list[Any] = Field(
        max_length=MAX_BATCH_TABLES,
        description=f"at most {MAX_BATCH_TABLES} tables, each a Table",
        json_schema_extra={"items": {"$ref": f"#/components/schemas/{Table.__name__}"}},
    )


class ItemError(BaseModel):
    """The answer for one item of a batch that could not be scored or settled."""

    error: ErrorAnswer


class ScoreBatchAnswer(BaseModel):
    results: list[HandScore | ItemError] = Field(description="one per hand, in the order sent")


class SettleBatchAnswer(BaseModel):
    results: list[Settlement | ItemError] = Field(description="one per table, in the order sent")


def read_item(model: type[BaseModel], item: Any, lang: Language) -> dict[str, Any]:
    """An item as the single route reads its body (`model`): its fields as the core takes them, or its error, the
    same code, place and message as that route answers for the same body."""
    try:
        if item is None:  # FastAPI reads a body of JSON null as no body: `missing`, as the single route answers
            raise ValidationError.from_exception_data(model.__name__, [{"type": "missing", "loc": (), "input": item}])
        return {"item": model.model_validate(item, from_attributes=True).model_dump()}  # as FastAPI validates a body
    except ValidationError as exc:
        return {"error": validation_shape(exc.errors(), lang, what="body", body=item)}


async def batched(
    items: Sequence[Any], model: type[BaseModel], run: Callable[..., Sequence[Any]], lang: Language
) -> Response:
    """Answers each item within the budget, rendered, on a worker thread (`run_costly`): an item its single route
    refuses answers that route's error (`read_item`); the others go to the core in order, each answering its
    result or its HandError."""

    def answer() -> bytes:  # the budget counts the worker thread's CPU from the core's first item
        read = [read_item(model, item, lang) for item in items]
        results = iter(run([r["item"] for r in read if "item" in r], check=cpu_budget(CPU_BUDGET)))
        shown = []
        for r in read:
            if "error" in r:
                shown.append(r)
                continue
            result = next(results)
            shown.append(
                {"error": hand_error_shape(result, lang)} if isinstance(result, HandError) else result.to_dict(lang)
            )
        return json_bytes({"results": shown})

    return Response(await run_costly(answer), media_type="application/json")


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
async def score_many(batch: ScoreBatch, request: Request) -> Response:
    return await batched(batch.hands, ScoreRequest, score_batch, request_language(request))


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
async def settle_many(batch: SettleBatch, request: Request) -> Response:
    return await batched(batch.tables, Table, settle_batch, request_language(request))
