"""`POST /waits`: what wins for a waiting hand (docs/api.md, Waits).

The body has the fields `/score` takes (`{"rules", "hand", "options"}`), in
a model of its own name, so /docs keeps one `ScoreRequest`; bad input raises
the library's HandError, which the app answers as it does for `/score` (422,
the library's message). The answer models only describe the reply for
/docs: the core's `to_dict()` is the contract.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from taihu.api.responses import ERRORS
from taihu.scorer.models import MAX_HAND_LENGTH
from taihu.scorer.waits import waits

router = APIRouter(tags=["waits"])


class WaitsRequest(BaseModel):
    """POST /waits: unknown fields are refused."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"rules": "luoshan", "hand": "123m 456m 789p 23s 55p flip:9p", "options": {}}]},
    )
    rules: str = Field("lingxi", max_length=40, description="the rule set")
    hand: str = Field(max_length=MAX_HAND_LENGTH, description="a hand without +; one tile more: which to discard")
    options: dict[str, int] = Field(default_factory=dict, description="house options of the rule set")


class WinOut(BaseModel):
    total: int
    legal: bool
    arrangement: list[str] = Field(description="the reading that was scored, wildcards as what they stood for")
    # riichi only (absent for the other rule sets)
    han: int | None = Field(None, description="riichi: the han (the HandScore's subtotal)")
    fu: int | None = Field(None, description="riichi: the fu")
    limit: str | None = Field(None, description="riichi: the limit reached (mangan, …), or empty")
    payments: dict[str, int] | None = Field(None, description="riichi: who pays what, as the HandScore's payments")
    reason: str | None = Field(None, description="riichi: why the win is not legal (役なし, 振听)")


class WaitOut(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    tile: str
    unseen: int = Field(description="copies not in the hand's own line, as the rule set counts tiles in play")
    discard: WinOut | None = Field(description="won on a discard; null where that is impossible")
    self_drawn: WinOut | None = Field(alias="self", description="self-drawn")
    covered_by_wildcard: bool = Field(description="wins only through a held wildcard standing for another tile")
    red_unseen: int | None = Field(None, description="riichi, a five under aka_dora=1: 1 if its red five is unseen")


class WaitsOut(BaseModel):
    rules: str
    hand: str
    ready: bool
    waits: list[WaitOut]
    furiten: bool | None = Field(None, description="riichi: the line says furiten (no win on a discard is legal)")


class DiscardOut(BaseModel):
    tile: str
    ready: bool
    waits: list[WaitOut]
    furiten: bool | None = Field(None, description="riichi: the discard leaves a wait on itself (振听)")


class DiscardsOut(BaseModel):
    rules: str
    hand: str
    discards: list[DiscardOut] = Field(description="best first: most unseen winning tiles, then the best total")


@router.post(
    "/waits",
    response_model=WaitsOut | DiscardsOut,
    response_model_by_alias=True,
    response_model_exclude_unset=True,  # riichi's extra fields only where the library's JSON has them
    responses=ERRORS,
)
def post_waits(request: WaitsRequest) -> dict[str, Any]:
    """The waits of a hand without `+`; with one tile too many, each discard and the waits it leaves."""
    return waits(request.hand, rules=request.rules, options=request.options).to_dict()
