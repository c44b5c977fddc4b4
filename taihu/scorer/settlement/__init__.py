"""Settling one finished deal at a four-player table (docs/api.md "Table").

The shared reading and checking of the table is in `common`; each rule set
settles with its own `settlement.settle` (in its folder, reached through
`RuleSet.settle`), because who pays whom is where the regional rules differ most.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..errors import HandError, require
from ..models import PlayerTenpai, Settlement, Table
from ..rulesets import RULESETS, get, rules_word, rules_words
from ..rulesets.base import RuleSet


def settle_table(table: Table | Mapping[str, Any]) -> Settlement:
    """Scores every hand of a deal and says who pays whom; raises HandError on bad input."""
    model = load_table(table)
    if model.rules not in RULESETS:  # any case or the Chinese name, as score_hand takes it; unknown: the usual error
        model = replace(model, rules=get(model.rules).name)
    ruleset = RULESETS[model.rules]
    refuse_others_fields(model, ruleset)
    try:
        return ruleset.settle(model)
    except HandError as exc:
        player = model.players.get(exc.seat or "")
        if isinstance(player, str):  # the hand the error's column counts in, for a shell's caret
            exc.line = player
        raise


def refuse_others_fields(table: Table, ruleset: RuleSet) -> None:
    """The table fields rule sets declare (`Table.extra`) and `{"tenpai": ...}` seats mean something in the rule
    sets that read them only (`RuleSet.table_fields`, `RuleSet.tenpai_seats`): elsewhere say whose they are,
    never ignore them."""
    for name in table.extra:
        if name not in ruleset.table_fields:
            owner = owner_of(lambda other, field=name: field in other.table_fields)
            raise HandError.of(
                "error.table.others_field",
                code="field_not_used",
                field=name,
                name=name,
                owner=owner,
                owner_word=rules_words(owner.split(" / ")),
                rules=rules_word(table.rules),
            )
    for seat, player in table.players.items():
        if isinstance(player, PlayerTenpai) and not ruleset.tenpai_seats:
            owner = owner_of(lambda other: other.tenpai_seats)
            raise HandError.at_seat(
                "error.table.others_tenpai",
                seat,
                code="field_not_used",
                named="seat_word",
                owner_word=rules_words(owner.split(" / ")),
                rules=rules_word(table.rules),
            )


def owner_of(reads: Any) -> str:
    """The rule set(s) that read a table field (an error's hint; each rule set is loaded to ask it)."""
    return " / ".join(name for name, other in RULESETS.items() if reads(other))


def load_table(table: Table | Mapping[str, Any]) -> Table:
    """A Table as given, or read from its JSON dict (`Table.from_dict` names every place that is wrong)."""
    if isinstance(table, Table):
        return table
    require(table, Mapping, "table", "error.argument.json_object")  # a mapping, or a Table (above)
    return Table.from_dict(table)
