"""The request bodies as the HTTP API documents them: the core's models, stricter and with examples.

Subclasses keep the core's names (`ScoreRequest`, `Table`) so /docs shows the
same schemas. `rules` is listed as an enum of the rule sets, but checked by
the core, so an unknown name still reads as the library's message.
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field

from taihu.scorer import ScoreRequest as CoreScoreRequest
from taihu.scorer import Table as CoreTable
from taihu.scorer.rulesets import RULESETS

RULE_NAMES = list(RULESETS)
RULES_FIELD: Any = Field("lingxi", description="the rule set", json_schema_extra={"enum": RULE_NAMES})

SCORE_EXAMPLES = [
    {"rules": "lingxi", "hand": "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S", "options": {}},
    {"rules": "luoshan", "hand": "[EEE] (CCCC) [999m] 11p FF +1p self flip:5s seat:E"},
    {"rules": "lingxi", "hand": "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W", "options": {"double_at": 10}},
]
TABLE_EXAMPLES = [
    {
        "rules": "lingxi",
        "wild": ["5m", "E"],
        "winner": "S",
        "discarder": "W",
        "players": {
            "E": "[CCC] 123p 456p 78s 11s 34p 9s f3",
            "S": "555m 222p 777p 333s 888s 9m f1 f2 P P +9m",
            "W": {"total": 4},
            "N": "E 123m 789m 12s 33p 66p 99p 5s f4",
        },
        "events": [],
        "options": {},
    }
]


class ScoreRequest(CoreScoreRequest):
    """POST /score: unknown fields are refused, as /settle refuses them."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": SCORE_EXAMPLES})
    rules: str = RULES_FIELD


class Table(CoreTable):
    """POST /settle: one finished deal at a four-player table."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": TABLE_EXAMPLES})
    rules: str = RULES_FIELD
