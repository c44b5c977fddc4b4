"""`POST /waits`: what wins for a waiting hand (docs/api.md, Waits).

The body has the fields `/score` takes (`{"rules", "hand", "options"}`), in
a model of its own name, so /docs keeps one `ScoreRequest`; bad input raises
the library's HandError, which the app answers as it does for `/score` (422,
the library's message). The answer models only describe the reply for
/docs: the core's `to_dict()` is the contract.

The search runs on a worker thread, one costly request at a time (`run_costly`),
within a time budget (docs/limits.md "Costly requests"): `WAITS_BUDGET` seconds of that thread's
CPU time, checked by the search before each tile it scores, so a hand over
it stops there with a 422 `over_budget`. CPU time, not the clock: the
waits for the GIL and for a worker do not count, so the same hand is over
the budget or not whatever the load, and a retry would not help (a 503
would invite one).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from taihu.api.budget import CPU_BUDGET, cpu_budget, run_costly
from taihu.api.language import request_language
from taihu.api.responses import JSON, WITH_BODY, errors
from taihu.api.schemas import HouseOptions, rules_field
from taihu.scorer.models import MAX_HAND_LENGTH
from taihu.scorer.notation import FLAG_CONDITIONS
from taihu.scorer.rulesets import RULESETS
from taihu.scorer.waiting import waits

WAITS_BUDGET = CPU_BUDGET  # seconds of CPU a /waits search may take (docs/soak.md)

router = APIRouter(tags=["waits"])


def waits_examples(schema: dict[str, Any]) -> None:
    """The rule sets' example score requests without their winning tile and how it was won: waiting hands."""
    schema["examples"] = [
        {"rules": name, **example, "hand": " ".join(w for w in example["hand"].split() if not winning_word(w))}
        for name, rule_set in RULESETS.items()
        for example in rule_set.examples[:1]
    ]


def winning_word(word: str) -> bool:
    """The `+` tile, or a flag (self, kong-draw …): what a waiting hand is written without."""
    return word.startswith("+") or word in FLAG_CONDITIONS


class WaitsRequest(BaseModel):
    """POST /waits: unknown fields are refused."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=waits_examples)
    rules: str = rules_field()
    hand: str = Field(max_length=MAX_HAND_LENGTH, description="a hand without +; one tile more: which to discard")
    options: HouseOptions = Field(default_factory=dict, description="house options of the rule set")


class WinOut(BaseModel):
    total: int
    legal: bool
    arrangement: list[str] = Field(description="the reading that was scored, wildcards as what they stood for")
    # rule sets that count han and fu only (absent for the others)
    han: int | None = Field(None, description="the han (the HandScore's subtotal)")
    fu: int | None = Field(None, description="the fu")
    limit: str | None = Field(None, description="the limit reached (mangan, …), or empty")
    payments: dict[str, int] | None = Field(None, description="who pays what, as the HandScore's payments")
    reason: str | None = Field(None, description="why the win is not legal (役なし, 振听)")


class WaitOut(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    tile: str
    unseen: int = Field(description="copies not in the hand's own line, as the rule set counts tiles in play")
    discard: WinOut | None = Field(description="won on a discard; null where that is impossible")
    self_drawn: WinOut | None = Field(alias="self", description="self-drawn")
    covered_by_wildcard: bool = Field(description="wins only through a held wildcard standing for another tile")
    red_unseen: int | None = Field(
        None, description="a five, red fives counting (aka_dora=1): 1 if its red five is unseen"
    )


class WaitsOut(BaseModel):
    """The waits of a hand without `+`: each tile that completes it, in tile order."""

    kind: Literal["waits"] = Field(description="`waits`: this answer (the other is `discards`)")
    rules: str
    hand: str
    ready: bool
    waits: list[WaitOut]
    furiten: bool | None = Field(None, description="the line says furiten (振听: no win on a discard is legal)")


class DiscardOut(BaseModel):
    tile: str
    ready: bool
    waits: list[WaitOut]
    furiten: bool | None = Field(None, description="the discard leaves a wait on itself (振听)")


class DiscardsOut(BaseModel):
    """A hand with one tile too many: each discard and the waits it leaves, best first."""

    kind: Literal["discards"] = Field(description="`discards`: this answer (the other is `waits`)")
    rules: str
    hand: str
    discards: list[DiscardOut] = Field(description="best first: most unseen winning tiles, then the best total")


@router.post(
    "/waits",
    operation_id="find_waits",
    response_model=Annotated[WaitsOut | DiscardsOut, Field(discriminator="kind")],
    response_model_by_alias=True,
    response_model_exclude_unset=True,  # a rule set's extra fields only where the library's JSON has them
    responses=errors(*WITH_BODY),
)
async def post_waits(body: WaitsRequest, request: Request) -> JSON:
    """The waits of a hand without `+`; with one tile too many, each discard and the waits it leaves.

    `kind` tells the two answers apart. A hand whose search takes over the time budget (1 s of CPU) is a
    422 with the code `over_budget`."""
    lang = request_language(request)

    def search() -> JSON:  # on the worker thread, whose CPU time the budget counts from here
        found = waits(body.hand, rules=body.rules, options=body.options, check=budget(WAITS_BUDGET))
        return JSON(found.to_dict(lang))

    return await run_costly(search)


def budget(seconds: float) -> Callable[[], None]:
    """A `check` for the search: raises `over_budget` once this thread has used `seconds` of CPU since now."""
    return cpu_budget(seconds, "api.error.waits_over_budget")
