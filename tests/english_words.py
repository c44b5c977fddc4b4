"""The one check of English words in what taihu shows a Chinese reader, shared by the tests of the command line
(tests/test_cli_chinese.py), the core's texts (tests/test_texts.py) and the API's answers
(tests/test_ledger_languages.py).

A word counts as English when it has two ASCII letters or more: no tile code (`5m`, `f1`), seat (`E`) or
honour (`C`) has. What a text may quote as it is — the notation, item keys, option names, JSON keys — is
taken out by the caller: `keys(rules)` for a rule set's names, `keys_in_json` for an answer's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from taihu.scorer.rulesets import get

ENGLISH = re.compile(r"[A-Za-z][A-Za-z_'-]*[A-Za-z]")
ALLOWED = {"taihu"}  # the program's name
# the keys of a JSON answer whose strings are names, not texts: item keys and English names, the notation, units,
# rule sets, kinds; an event's type and a group of the arrangement (`[EEE]`) are the notation's words too, and an
# error's `code` and `field` (`players.E`, `deal`) its code and the request's key
NAMES = ("key", "name", "name_en", "hand", "unit", "rules", "kind", "type", "arrangement", "code", "field")


def words(texts: Iterable[str]) -> set[str]:
    return {word for text in texts for word in ENGLISH.findall(text)}


def keys(rules: str) -> list[str]:
    """The names a text may quote as they are, by design: the rule set's item keys, house options' names and
    the words of its notation (`seat:`, `wild:`, `da-jin`), which a player writes as they are."""
    rule_set = get(rules)
    return [
        *(item.key for item in rule_set.items),
        *(option.name for option in rule_set.options),
        *rule_set.conditions,
    ]


def texts_in_json(value: Any) -> Iterable[str]:
    """Every string of a JSON value."""
    if isinstance(value, dict):
        for item in value.values():
            yield from texts_in_json(item)
    elif isinstance(value, list):
        for item in value:
            yield from texts_in_json(item)
    elif isinstance(value, str):
        yield value


def keys_in_json(value: Any) -> Iterable[str]:
    """The words a JSON answer holds that are no text a person reads: keys, item keys, option names, the hand."""
    if isinstance(value, dict):
        yield from value
        for name in NAMES:
            found = value.get(name)
            if isinstance(found, str):
                yield found
            elif isinstance(found, list):
                yield from (v for v in found if isinstance(v, str))
        for item in value.values():
            yield from keys_in_json(item)
    elif isinstance(value, list):
        for item in value:
            yield from keys_in_json(item)


def english_in_json(answer: Any, *allowed: Iterable[str]) -> set[str]:
    """The English words of a JSON answer's texts: its keys and names aside (`keys_in_json`), and `allowed`."""
    kept = words(keys_in_json(answer)) | ALLOWED
    for more in allowed:
        kept |= words(more)
    return words(texts_in_json(answer)) - kept
