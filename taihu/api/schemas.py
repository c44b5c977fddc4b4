"""The HTTP boundary's pydantic models: request validation and the OpenAPI document, with examples.

The core answers with plain dataclasses (`taihu.scorer.models`); RuleSetInfo
serves as a response model as it is. HandScore's `extra` is its keys in the
JSON, and Payment needs its JSON name `from` (a Python keyword), so those and
Settlement are mirrored here;
tests/test_api.py checks each mirror names the same fields as the core's
`to_dict()`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Generic, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from taihu.scorer import models as core
from taihu.scorer.errors import HandError
from taihu.scorer.limits import MAX_TOTAL
from taihu.scorer.models import MAX_HAND_LENGTH, Seat, players_problem_text
from taihu.scorer.rulesets import DEFAULT_RULES, REGISTRY, RULESETS


def rules_field(what: str = "the rule set") -> Any:
    """`rules`: an enum of the registry's rule sets; checked by the core, so an unknown name reads as its message."""
    other = ", ".join(f"`{c}`" for line in REGISTRY.values() for c in line.chinese)
    return Field(
        DEFAULT_RULES,
        max_length=40,
        description=f"{what}. Also accepted as input, though not in the enum: each name in any case "
        f"(`{DEFAULT_RULES.title()}`, `{DEFAULT_RULES.upper()}`) and the Chinese names ({other}); "
        "answers always name the rule set as in the enum",
        json_schema_extra=rules_enum,
    )


def rules_enum(schema: dict[str, Any]) -> None:
    """The registry's rule sets, as the OpenAPI document is made (not at import: a rule set may be added)."""
    schema["enum"] = list(REGISTRY)


RULES_FIELD: Any = rules_field()


@dataclass(slots=True, kw_only=True)
class HandScore:
    """One scored hand: its items in the rule set's unit, the subtotal, the doubling and the total.

    `items[].key` are the rule set's item keys (GET /rules); `arrangement` is the grouping scored, each
    wildcard shown as what it stood for (`2m=C`), empty for a non-winner; `legal` is false where the shape
    wins but the rule set does not allow it as a win, with the reason in `notes`. `fu`, `fu_details`,
    `limit` and `payments` are those of the rule sets that count fu (null for the others). `arithmetic` is
    there only when asked for (`POST /score?arithmetic=true`)."""

    rules: str
    hand: str
    winner: bool
    legal: bool = True
    items: list[core.ScoreItem]
    subtotal: int
    doubled: bool
    total: int
    unit: str
    arrangement: list[str]
    notes: list[str]
    # the core's `HandScore.extra`, each key of `ANSWER_EXTRAS` a field of the answer
    fu: int | None = None  # the hand's fu (0 for a yakuman)
    fu_details: list[core.FuItem] | None = None  # the fu, line by line
    limit: str | None = None  # "", mangan, haneman, … yakuman
    payments: dict[str, int] | None = None  # {"discarder": n} | {"dealer": n, "non_dealer": n} | {"each": n}
    arithmetic: list[str] | None = None  # `?arithmetic=true`: the steps from the items to the total


# the rule sets' own examples (each RuleSet's `examples` and `example_table`), for the request bodies' schemas
SCORE_EXAMPLES = [{"rules": name, **example} for name in REGISTRY for example in RULESETS[name].examples]
TABLE_EXAMPLES = [{"rules": DEFAULT_RULES, **(RULESETS[DEFAULT_RULES].example_table or {})}]


def score_examples(schema: dict[str, Any]) -> None:
    """The rule sets' own example requests, asked for when the OpenAPI document is made (not at import)."""
    schema["examples"] = [
        {"rules": name, **example} for name, rule_set in RULESETS.items() for example in rule_set.examples
    ]


def table_examples(schema: dict[str, Any]) -> None:
    schema["examples"] = [
        {"rules": name, **rule_set.example_table}
        for name, rule_set in RULESETS.items()
        if rule_set.example_table is not None
    ]


def no_bool(value: Any) -> Any:
    """pydantic's `int` takes a JSON `true` as 1; a bool is no number (the core refuses one the same way), so it is
    refused as any value of the wrong type is (`int_type`: the one error shape's `wrong_type`). Floats such as
    `10.0` stay accepted, as they were."""
    if isinstance(value, bool):
        raise PydanticCustomError("int_type", "Input should be a valid integer")
    return value


HouseOptions = dict[str, Annotated[int, BeforeValidator(no_bool)]]  # house options by name


class ScoreRequest(BaseModel):
    """One hand to score: the rule set, the hand line, house options. Unknown fields are refused."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=score_examples)
    rules: str = RULES_FIELD
    hand: str = Field(
        max_length=MAX_HAND_LENGTH,
        description="the hand line in taihu's notation (docs/notation.md), `+` before the winning tile",
    )
    options: HouseOptions = Field(
        default_factory=dict, description="house options of the rule set by name (GET /rules lists them)"
    )


class PlayerTotal(BaseModel):
    """A player known only by the count (in the rule set's unit), not by the hand."""

    model_config = ConfigDict(extra="forbid")
    total: int = Field(ge=0, le=MAX_TOTAL, description="the player's count in the rule set's unit")


class PlayerTenpai(BaseModel):
    """A drawn deal, in rule sets with tenpai seats: a seat known only by whether it was ready (听牌)."""

    model_config = ConfigDict(extra="forbid")
    tenpai: bool = Field(description="the seat was ready (听牌) when the deal was drawn")


class TenpaiTotal(PlayerTotal):
    """A drawn deal with tenpai seats: in `scores`, a seat given as `{"tenpai": ...}`; it counts 0, keeps its tenpai."""

    tenpai: bool = Field(description="the seat was ready (听牌) when the deal was drawn, as given")


SeatName = TypeVar("SeatName")  # how a table names a seat: a wind (`Seat`), or in a ledger's deal a player too
EventOf = TypeVar("EventOf", bound=BaseModel)  # and its events, whose `seat` is named so


class SeatEvent(BaseModel, Generic[SeatName]):
    """A side event of the deal: false-win, foul, liable (or a rule set's own), and the seat it is of."""

    model_config = ConfigDict(extra="forbid")
    type: str = Field(description="false-win, foul, liable, or a rule set's own event")
    seat: SeatName


class Event(SeatEvent[Seat]):
    """A side event of the deal: false-win, foul, liable (or a rule set's own); `seat` a wind."""


class LedgerEvent(SeatEvent[str]):
    """A side event of a ledger's deal; `seat` is a player's name or a wind, as the deal's other seats are."""


class TableFields(BaseModel, Generic[SeatName, EventOf]):
    """The fields of a table, declared once: a Table names its seats by wind, a ledger's deal by player or wind."""

    model_config = ConfigDict(extra="forbid")
    rules: str = RULES_FIELD  # a ledger's deal: its own (the ledger's, if given)
    wild: list[str] | None = Field(default=None, description="revealed wildcard tiles, for every hand")
    flip: str | None = Field(default=None, description="flipped indicator, for every hand")
    winner: SeatName | None = Field(default=None, description="the winner's seat; null: a drawn hand")
    discarder: SeatName | None = Field(default=None, description="the discarder's seat; null: self-drawn (or drawn)")
    players: dict[SeatName, str | PlayerTotal | PlayerTenpai] = Field(
        description='the four seats: a hand string, or {"total": N}; a drawn deal with tenpai seats: '
        '{"tenpai": bool} too'
    )
    events: list[EventOf] = Field(default_factory=list, description="side events of the deal, each of a seat")
    options: HouseOptions = Field(default_factory=dict, description="house options of the rule set")
    # rule sets with honba only (null for the others, which refuse them)
    honba: int | None = Field(default=None, ge=0, le=MAX_TOTAL, description="本场 counters at the start")
    pot: int | None = Field(default=None, ge=0, le=MAX_TOTAL, description="sticks carried in to the pot")
    round: Seat | None = Field(default=None, description="the round (prevailing) wind, default E")


class Table(TableFields[Seat, Event]):
    """One finished deal at a four-player table: the body of POST /settle (`Table.from_dict` in the core).
    Its seats (the keys of `players`, `winner`, `discarder`, each event's `seat`) are winds: E S W N, E deals."""

    model_config = ConfigDict(json_schema_extra=table_examples)

    @field_validator("players", mode="before")
    @classmethod
    def _four_seats(cls, value: Any) -> Any:
        """The core's own check, so a bad player reads as one sentence, the library's, in the request's language."""
        problem = players_problem_text(value)
        if problem is not None:
            raise HandError(code="bad_table", text=problem)
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
    scores: dict[Seat, HandScore | TenpaiTotal | PlayerTotal] = Field(
        description="each seat's score; `total` is the count settled (0 after a foul, a declared win, a draw); "
        'in rule sets with tenpai seats, a seat given as `{"tenpai": ...}` is `{"total": 0, "tenpai": ...}`'
    )
    payments: list[Payment]
    net: dict[Seat, int] = Field(description="what each seat wins (+) or pays (−); sums to 0")
    next_dealer: Seat
    # rule sets with honba only (null for the others): sum(net) == 1000 × (pot_before − pot_after)
    pot_before: int | None = Field(default=None, description="sticks on the table before the deal")
    pot_after: int | None = Field(default=None, description="sticks left on the table after it")
    next_honba: int | None = Field(default=None, description="本场 counters of the next deal")
