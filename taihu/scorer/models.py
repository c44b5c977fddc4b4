"""Pydantic models at the core's boundary: the JSON shapes of API.md."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .tiles import SEATS

Unit = Literal["tai", "hu", "fen", "bei", "points"]
Seat = Literal["E", "S", "W", "N"]
MAX_HAND_LENGTH = 256  # a hand line is ~60 characters; far longer is not a hand but abuse


class ScoreItem(BaseModel):
    """Frozen: one instance is shared by every hand that scores the same line."""

    model_config = ConfigDict(frozen=True)
    key: str = Field(description="stable item key from rules/<rule set>.md")
    name: str = Field(description="Chinese name")
    name_en: str = Field(description="English name")
    value: int = Field(description="value in the hand's unit")
    detail: str = ""


class FuItem(BaseModel):
    """One line of a riichi hand's fu (符): a key of the Fu table, its fu and why."""

    model_config = ConfigDict(frozen=True)
    key: str
    value: int
    detail: str = ""


class HandScore(BaseModel):
    rules: str
    hand: str = Field(description="the hand in canonical notation")
    winner: bool
    legal: bool = True
    items: list[ScoreItem]
    subtotal: int
    doubled: bool
    total: int
    unit: Unit
    arrangement: list[str] = Field(
        default_factory=list,
        description="the grouping scored; a wildcard is shown as what it stood for (2m=C)",
    )
    notes: list[str] = Field(default_factory=list)
    # riichi only (null for the other rule sets)
    fu: int | None = Field(default=None, description="riichi: the hand's fu (0 for a yakuman)")
    fu_details: list[FuItem] | None = Field(default=None, description="riichi: the fu, line by line")
    limit: str | None = Field(default=None, description='riichi: "", mangan, haneman, … yakuman')
    payments: dict[str, int] | None = Field(
        default=None,
        description='riichi: {"discarder": n} | {"dealer": n, "non_dealer": n} | {"each": n}, honba included',
    )

    @classmethod
    def from_core(cls, fields: HandScoreFields) -> HandScore:
        """The score the core made, without validating its values again; mypy checks them as `HandScoreFields`.

        What `model_construct` does, in a third of the time validation takes
        (`model_construct` itself takes longer than validating): the dict
        becomes the model's own. tests/test_contracts.py checks that
        `HandScoreFields` names every field, in order, and that the result
        equals the validated model.
        """
        if "fu" not in fields:
            fields.update(_NO_RIICHI_FIELDS)  # type: ignore[typeddict-item]
        made = object.__new__(cls)
        object.__setattr__(made, "__dict__", fields)
        object.__setattr__(made, "__pydantic_fields_set__", set(fields))
        object.__setattr__(made, "__pydantic_extra__", None)
        object.__setattr__(made, "__pydantic_private__", None)
        return made


class HandScoreFields(TypedDict):
    """Every field of HandScore, for `HandScore.from_core`."""

    rules: str
    hand: str
    winner: bool
    legal: bool
    items: list[ScoreItem]
    subtotal: int
    doubled: bool
    total: int
    unit: Unit
    arrangement: list[str]
    notes: list[str]
    fu: NotRequired[int | None]
    fu_details: NotRequired[list[FuItem] | None]
    limit: NotRequired[str | None]
    payments: NotRequired[dict[str, int] | None]


_NO_RIICHI_FIELDS: dict[str, None] = {"fu": None, "fu_details": None, "limit": None, "payments": None}


class ScoreRequest(BaseModel):
    rules: str = "lingxi"
    hand: str = Field(max_length=MAX_HAND_LENGTH)
    options: dict[str, int] = Field(default_factory=dict)


class ItemInfo(BaseModel):
    key: str
    name: str
    name_en: str
    value: str
    scope: str


class OptionInfo(BaseModel):
    name: str
    default: int
    alternatives: list[int]
    description: str


class RuleSetInfo(BaseModel):
    name: str
    chinese: str
    unit: Unit
    items: list[ItemInfo]
    options: list[OptionInfo]
    exclusions: list[str]


# -- settlement (API.md "Table" and "Settlement") ------------------------------


class PlayerTotal(BaseModel):
    """A player known only by the count (Lingxi: tai), not by the hand."""

    model_config = ConfigDict(extra="forbid")
    total: int = Field(ge=0, description="the player's count in the rule set's unit")


class Event(BaseModel):
    """A side event of the deal: false-win, foul, liable (or a rule set's own)."""

    model_config = ConfigDict(extra="forbid")
    type: str = Field(description="false-win, foul, liable, or a rule set's own event")
    seat: Seat


class PlayerTenpai(BaseModel):
    """Riichi, a drawn deal: a seat known only by whether it was ready (听牌)."""

    model_config = ConfigDict(extra="forbid")
    tenpai: bool = Field(description="riichi: the seat was ready (听牌) when the deal was drawn")


Player = str | PlayerTotal | PlayerTenpai


class Table(BaseModel):
    """One finished deal at a four-player table: the input of settle_table."""

    model_config = ConfigDict(extra="forbid")
    rules: str = "lingxi"
    wild: list[str] | None = Field(default=None, description="revealed wildcard tiles, for every hand")
    flip: str | None = Field(default=None, description="flipped indicator, for every hand")
    winner: Seat | None = Field(default=None, description="null: a drawn hand")
    discarder: Seat | None = Field(default=None, description="null: self-drawn (or drawn hand)")
    players: dict[Seat, Player] = Field(description='E S W N: a hand string, or {"total": N}')
    events: list[Event] = Field(default_factory=list)
    options: dict[str, int] = Field(default_factory=dict, description="house options of the rule set")
    # riichi only (null for the other rule sets)
    honba: int | None = Field(default=None, ge=0, description="riichi: 本场 counters at the start of the deal")
    pot: int | None = Field(default=None, ge=0, description="riichi: riichi sticks carried in from earlier deals")
    round: Seat | None = Field(default=None, description="riichi: the round (prevailing) wind, default E")

    @field_validator("players", mode="before")
    @classmethod
    def _four_seats(cls, value: Any) -> Any:
        """Checked by hand so a bad player reads as one sentence, not a union's error list."""
        if not isinstance(value, dict):
            raise ValueError("must be an object with the seats E, S, W, N")
        keys = list(value)
        if set(keys) != set(SEATS):
            extra = [k for k in keys if k not in SEATS]
            missing = [s for s in SEATS if s not in keys]
            parts = []
            if missing:
                parts.append("missing " + ", ".join(missing))
            if extra:
                parts.append("unknown seat " + ", ".join(map(repr, extra)))
            raise ValueError(f"must be exactly the seats E, S, W, N ({'; '.join(parts)})")
        for seat, player in value.items():
            if isinstance(player, str):
                if len(player) > MAX_HAND_LENGTH:
                    raise ValueError(f"{seat} is a hand string of {len(player)} characters; at most {MAX_HAND_LENGTH}")
            elif isinstance(player, PlayerTotal | PlayerTenpai):
                continue
            elif isinstance(player, dict) and set(player) == {"tenpai"}:
                if not isinstance(player["tenpai"], bool):
                    raise ValueError(f'{seat} must be {{"tenpai": true}} or {{"tenpai": false}}')
            elif isinstance(player, dict):
                total = player.get("total")
                if set(player) != {"total"} or isinstance(total, bool) or not isinstance(total, int) or total < 0:
                    raise ValueError(f'{seat} must be a hand string or {{"total": N}} with N a whole number ≥ 0')
            else:
                raise ValueError(f'{seat} must be a hand string or {{"total": N}}, got {type(player).__name__}')
        return value


class Payment(BaseModel):
    """One transfer of the settlement; `from` in JSON (a Python keyword, hence the alias)."""

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
    # riichi only (null for the other rule sets): sum(net) == 1000 × (pot_before − pot_after)
    pot_before: int | None = Field(default=None, description="riichi: sticks on the table before the deal")
    pot_after: int | None = Field(default=None, description="riichi: sticks left on the table after it")
    next_honba: int | None = Field(default=None, description="riichi: 本场 counters of the next deal")
