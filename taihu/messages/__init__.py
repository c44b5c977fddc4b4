"""The one catalog of what taihu says to a person: each message a stable code, its parameters, zh and en texts.

The catalog is GNU gettext's: `locale/zh/LC_MESSAGES/taihu.po` (simplified Chinese) and
`locale/en/LC_MESSAGES/taihu.po` (English), and a rule set's own messages (codes that name it) in the same
two files of its folder, `locale/LANG/LC_MESSAGES/ruleset.po`, read with taihu's once the rule set is
loaded, so a new rule set brings its texts and edits no shared file. Each is compiled to the `.mo` file
beside it, read at run time by the standard library's `gettext` (already loaded by the command line's
click, so it costs no start-up) — each language's files once, on the first message asked for in it, never
at import.
Babel extracts, compiles and checks the catalog at build and test time only (`make messages`,
tests/test_messages.py); the running program does not need it.

**The msgid is the stable code** (`cli.score.subtotal`), not the English text. The code is what the CLI,
the API and the page share and what a program branches on; rewording the English must not change it,
as it would if the English were the key. So English is a translation like Chinese, in its own `.po`,
and the test checks both languages alike: every code has both texts, with the same parameters.

A text's parameters are `str.format` fields (`{rules}`, `{count}`); a message whose English has a
singular and a plural (`1 stick`, `2 sticks`) is a gettext plural entry, read with
`Messages.plural`. docs/languages.md says how to add a message.
"""

from __future__ import annotations

import gettext
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

Language = Literal["zh", "en"]
LANGUAGES: tuple[Language, ...] = ("zh", "en")
DOMAIN = "taihu"
LOCALE = Path(__file__).parent / "locale"


def catalog_path(lang: Language, suffix: str = ".mo") -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


RULE_SET_DOMAIN = "ruleset"  # a rule set's own catalog: `locale/LANG/LC_MESSAGES/ruleset.po` in its folder
_rule_set_locales: list[Path] = []  # the `locale` folders of the rule sets loaded so far (`add_rule_set`)


@cache
def catalog(lang: Language) -> gettext.GNUTranslations:
    """One language's compiled catalog, read on first use (a few KB: well under a millisecond), with the
    catalogs of the rule sets loaded so far behind it: a code not in taihu's is looked up in theirs."""
    with catalog_path(lang).open("rb") as file:
        found = gettext.GNUTranslations(file)
    for locale in _rule_set_locales:
        _add_fallback(found, locale, lang)
    return found


def add_rule_set(folder: Path) -> None:
    """A loaded rule set's own messages (its folder's `locale/`, where it has one), for every language."""
    locale = folder / "locale"
    if not locale.is_dir() or locale in _rule_set_locales:
        return
    _rule_set_locales.append(locale)
    if catalog.cache_info().currsize:  # a language already read: each gets the new catalog behind it
        for lang in LANGUAGES:
            _add_fallback(catalog(lang), locale, lang)


def catalog_paths(lang: Language, suffix: str = ".mo") -> list[Path]:
    """taihu's catalog file and those of the rule sets loaded so far, in the order a code is looked up."""
    folders = [locale / lang / "LC_MESSAGES" for locale in _rule_set_locales]
    return [catalog_path(lang, suffix), *(folder / f"{RULE_SET_DOMAIN}{suffix}" for folder in folders)]


def _add_fallback(found: gettext.GNUTranslations, locale: Path, lang: Language) -> None:
    with (locale / lang / "LC_MESSAGES" / f"{RULE_SET_DOMAIN}.mo").open("rb") as file:
        found.add_fallback(gettext.GNUTranslations(file))


def known(code: str, lang: Language = "en") -> bool:
    """Whether the catalog has a text for `code` (a code built at run time, such as a unit's, may have none)."""
    return catalog(lang).gettext(code) != code


def text(code: str, lang: Language, /, **params: object) -> str:
    """The message `code` in `lang`, its parameters filled in. A code with no text is shown as itself, so a
    missing text is visible, never a crash (tests/test_messages.py keeps every code in both languages)."""
    return catalog(lang).gettext(code).format_map(params)


def plural(code: str, count: int, lang: Language, /, **params: object) -> str:
    """A plural message: the form for `count` in `lang` (Chinese has one), `{count}` among its parameters."""
    return catalog(lang).ngettext(code, code, count).format_map({"count": count, **params})


@dataclass(frozen=True)
class Messages:
    """The catalog in one language, as a shell uses it: `say = Messages("zh")`, then `say("cli.score.subtotal")`."""

    lang: Language

    def __call__(self, code: str, /, **params: object) -> str:
        return text(code, self.lang, **params)

    def plural(self, code: str, count: int, /, **params: object) -> str:
        return plural(code, count, self.lang, **params)
