"""The HTTP boundary's pydantic models: request validation and the OpenAPI document.

The core answers with plain dataclasses (`taihu.scorer.models`); HandScore
and RuleSetInfo serve as response models as they are. Payment needs its JSON
name `from` (a Python keyword), so it and Settlement are mirrored here;
tests/test_api.py checks each mirror names the same fields as the core's
`to_dict()`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from taihu.scorer.models import MAX_HAND_LENGTH, HandScore, Seat, players_problem


class ScoreRequest(BaseModel):
    rules: str = "lingxi"
    hand: str = Field(max_length=MAX_HAND_LENGTH)
    options: dict[str, int] = Field(default_factory=dict)


class PlayerTotal(BaseModel):
    """A player known only by the count (Lingxi: tai), not by the hand."""

    model_config = ConfigDict(extra="forbid")
    total: int = Field(ge=0, description="the player's count in the rule set's unit")


class Event(BaseModel):
    """A side event of the deal: false-win, foul, liable (or a rule set's own)."""

    model_config = ConfigDict(extra="forbid")
    type: str = Field(description="false-win, foul, liable, or a rule set's own event")
    seat: Seat


class Table(BaseModel):
    """One finished deal at a four-player table: the body of POST /settle (`Table.from_dict` in the core)."""

    model_config = ConfigDict(extra="forbid")
    rules: str = "lingxi"
    wild: list[str] | None = Field(default=None, description="revealed wildcard tiles, for every hand")
    flip: str | None = Field(default=None, description="flipped indicator, for every hand")
    winner: Seat | None = Field(default=None, description="null: a drawn hand")
    discarder: Seat | None = Field(default=None, description="null: self-drawn (or drawn hand)")
    players: dict[Seat, str | PlayerTotal] = Field(description='E S W N: a hand string, or {"total": N}')
    events: list[Event] = Field(default_factory=list)
    options: dict[str, int] = Field(default_factory=dict, description="house options of the rule set")

    @field_validator("players", mode="before")
    @classmethod
    def _four_seats(cls, value: Any) -> Any:
        """The core's own check, so a bad player reads as one sentence, the library's."""
        problem = players_problem(value)
        if problem:
            raise ValueError(problem)
        return value


class Payment(BaseModel):
    """One transfer of the settlement."""

    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)
    from_: Seat = Field(alias="from")
    to: Seat
    amount: int = Field(gt=0)
    reason: str


class Settlement(BaseModel):
    rules: str
    scores: dict[Seat, HandScore | PlayerTotal] = Field(
        description="each seat's score; `total` is the count settled (0 after a foul, a declared win, a draw)"
    )
    payments: list[Payment]
    net: dict[Seat, int] = Field(description="what each seat wins (+) or pays (−); sums to 0")
    next_dealer: Seat
