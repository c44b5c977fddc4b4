"""Many hands or tables in one call, each answered on its own (docs/api.md "Batch").

An app that scores a table's four hands, or a history, sends them at once.
Each item is read as `/score` or `/settle` reads its body (the same checks,
the same messages) and answered in order: its HandScore or Settlement, or
the HandError of that item alone, so one bad hand does not fail the rest.
The list itself is bounded (`MAX_BATCH_HANDS`, `MAX_BATCH_TABLES`); a list
over it, or not a list, is one HandError for the whole call.

`check`, when given, is called before each item (the server's CPU budget,
as for the waits search): once it raises, that item and every one after it
answer its HandError, and the items before keep their answers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from .errors import Field, HandError, Text, problems_error
from .models import (
    MAX_HAND_LENGTH,
    Check,
    HandScore,
    Settlement,
    Table,
    optional,
    options,
    read_fields,
    text,
)
from .rulesets import DEFAULT_RULES

MAX_BATCH_HANDS = 100  # hands in one score_batch (POST /score/batch)
MAX_BATCH_TABLES = 25  # tables in one settle_batch (POST /settle/batch): four hands each, so 100 hands

# a score item's fields as /score reads its body: (check, required)
SCORE_FIELDS: dict[str, tuple[Check, bool]] = {
    "rules": (optional(text), False),
    "hand": (text, True),
    "options": (optional(options), False),
}

R = TypeVar("R")


def score_item(item: object) -> HandScore:
    """One `{"rules", "hand", "options"}` item scored; a HandError names what is wrong with it."""
    from . import score_hand

    if not isinstance(item, Mapping):
        raise HandError.of("error.batch.hand_not_object", code="bad_batch")
    problems: list[Text] = []
    values = read_fields(item, SCORE_FIELDS, "", problems)
    hand = values.get("hand")
    if isinstance(hand, str) and len(hand) > MAX_HAND_LENGTH:
        problems.append(Text("error.field.string_too_long", path=Field("hand"), most=MAX_HAND_LENGTH))
    if problems:
        raise problems_error(problems, "bad_field")
    return score_hand(values["hand"], rules=values.get("rules") or DEFAULT_RULES, options=values.get("options"))


def settle_item(item: object) -> Settlement:
    from .settlement import settle_table

    if not isinstance(item, Mapping | Table):
        raise HandError.of("error.batch.table_not_object", code="bad_batch")
    return settle_table(item)


def answered(
    items: object, most: int, what: str, answer: Callable[[Any], R], check: Callable[[], None] | None
) -> list[R | HandError]:
    """Each item's answer or its HandError, in order; a list that is not one, or too long, is one HandError."""
    if not isinstance(items, Sequence) or isinstance(items, str | bytes):
        raise HandError.of("error.batch.not_a_list", code="bad_batch", field=what, what=what, most=most)
    if len(items) > most:
        raise HandError.of(
            "error.batch.too_long", code="batch_too_long", field=what, what=what, count=len(items), most=most
        )
    # An item's error is kept as a value, without its traceback: the traceback holds the frames the error went
    # through, this one (and its `results`) among them, a cycle only the garbage collector would free.
    results: list[R | HandError] = []
    stopped: HandError | None = None
    for item in items:
        if stopped is None and check is not None:
            try:
                check()
            except HandError as exc:
                stopped = exc.with_traceback(None)
        if stopped is not None:
            results.append(stopped)
            continue
        try:
            results.append(answer(item))
        except HandError as exc:
            results.append(exc.with_traceback(None))
    return results


def score_batch(
    hands: Sequence[Mapping[str, Any]], check: Callable[[], None] | None = None
) -> list[HandScore | HandError]:
    """Scores each `{"rules", "hand", "options"}` (at most MAX_BATCH_HANDS): its HandScore or HandError, in order."""
    return answered(hands, MAX_BATCH_HANDS, "hands", score_item, check)


def settle_batch(
    tables: Sequence[Table | Mapping[str, Any]], check: Callable[[], None] | None = None
) -> list[Settlement | HandError]:
    """Settles each table (at most MAX_BATCH_TABLES): its Settlement or its HandError, in order."""
    return answered(tables, MAX_BATCH_TABLES, "tables", settle_item, check)
