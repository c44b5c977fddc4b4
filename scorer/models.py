"""Pydantic models at the core's boundary: the JSON shapes of API.md."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Unit = Literal["tai", "hu", "fen", "bei", "points"]


class ScoreItem(BaseModel):
    key: str = Field(description="stable item key from rules/<rule set>.md")
    name: str = Field(description="Chinese name")
    name_en: str = Field(description="English name")
    value: int = Field(description="value in the hand's unit")
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


class ScoreRequest(BaseModel):
    rules: str = "lingxi"
    hand: str
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
