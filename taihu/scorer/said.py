"""A text of the core a person reads (a note, an item's detail, a payment's reason): its code, its parameters,
and its English as the string itself.

`Said` is a `str` whose value is the English rendering of a catalog code (taihu/messages/), so every use of
these fields as strings — joined, compared, written as JSON — reads the English text, and English costs
nothing more to show. `in_lang("zh")` renders the same code and parameters in another
language; a parameter that is itself a `Said` (a word: a suit, "winner") renders in that language too.
`said(code, **params)` makes one; `phrase` makes a rule set's per-hand details, keeping those that recur.

The English template is read from the English catalog on the first text made, never at import.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from taihu.messages import Language, catalog

from . import memo as M


class Said(str):
    """An English text with its catalog code and parameters; immutable, like the str it is."""

    code: str
    params: Mapping[str, object]

    def __new__(cls, code: str, params: Mapping[str, object]) -> Said:
        made = super().__new__(cls, catalog("en").gettext(code).format_map(params))
        object.__setattr__(made, "code", code)
        object.__setattr__(made, "params", MappingProxyType(params))
        return made

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Said is immutable: cannot set {name}")

    def __reduce__(self) -> tuple[Any, ...]:
        return Said, (self.code, dict(self.params))

    def in_lang(self, lang: Language) -> str:
        """The text in `lang`; in English, the text itself."""
        if lang == "en":
            return self
        params = {name: in_lang(value, lang) for name, value in self.params.items()}
        return catalog(lang).gettext(self.code).format_map(params)

    def as_code(self) -> dict[str, Any]:
        """The code and parameters as JSON (`{"code", "params"}`), a word parameter by its own code."""
        return {"code": self.code, "params": {k: as_code(v) for k, v in self.params.items()}}


def in_lang(value: Any, lang: Language) -> Any:
    """`value` in `lang` if it is a `Said`, else as it is (a tile, a number, a plain string)."""
    return value.in_lang(lang) if isinstance(value, Said) else value


def as_code(value: Any) -> Any:
    return value.as_code() if isinstance(value, Said) else value


def is_code(value: Any) -> bool:
    """Whether JSON `value` is a text by code (`{"code", "params"}`, what `as_code` writes)."""
    return isinstance(value, dict) and value.keys() == {"code", "params"} and isinstance(value["code"], str)


def code_in_lang(value: Mapping[str, Any], lang: Language) -> str:
    """A text by code (`{"code", "params"}`, what `as_code` writes) in `lang`: what its `Said` says there (the one
    rendering of a text, word parameters and all), so JSON that kept a text's code (a ledger's stored settlement)
    shows it in any language. KeyError for a code the catalog does not know, or a parameter its text names and
    `value` lacks."""
    return str(_said_of_code(value, lang).in_lang(lang))


def _said_of_code(value: Mapping[str, Any], lang: Language) -> Said:
    """The `Said` that `as_code` wrote as `value`, a word parameter by its own code made a `Said` too; KeyError
    for a code `lang`'s catalog does not know (a `Said` would show it as itself) or a parameter its text lacks."""
    code = value["code"]
    if catalog(lang).gettext(code) == code:
        raise KeyError(code)
    return Said(code, {k: _said_of_code(v, lang) if is_code(v) else v for k, v in value["params"].items()})


def said(code: str, /, **params: object) -> Said:
    """The text `code` with `params` (strings, numbers, `Said`s); a word parameter of a code is a `Said` of
    that code (`reason=said("reason.winner")`), never a plain string of the same English."""
    return Said(code, params)


def parameters(code: str) -> tuple[str, ...]:
    """The parameters the English text of `code` names."""
    template = catalog("en").gettext(code)
    return tuple(dict.fromkeys(name for _, name, _, _ in string.Formatter().parse(template) if name))


def said_from(code: str, values: Mapping[str, object]) -> Said:
    """`said(code, ...)` with the parameters its text names taken from `values` (which may hold more)."""
    return said(code, **{name: values[name] for name in parameters(code)})


MAX_KEPT = 4096  # a few hundred recur in practice


def phrase(code: str, *names: str) -> Callable[..., Said]:
    """A maker of the texts of `code`, its parameters given by position in the order of `names`: what a rule
    set's per-hand details use (`COMPLETES_PAIR(tile, group)`); the texts that recur (the same details, hand after
    hand) are kept, up to `MAX_KEPT` of a code, past which its store starts afresh."""
    kept: dict[tuple[object, ...], Said] = {}
    M.register(f"said.{code}", kept.__len__, kept.clear, bytes_per_entry=400)

    def make(*values: object) -> Said:
        found = kept.get(values)
        if found is None:
            if len(kept) >= MAX_KEPT:
                kept.clear()
            found = kept[values] = Said(code, dict(zip(names, values, strict=True)))
        return found

    return make
