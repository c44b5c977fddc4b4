"""The language a command speaks: `--lang zh|en|both`, else the locale's (docs/languages.md).

Kept apart from main.py so that `taihu ledger`'s commands (taihu/cli/ledger.py, which main.py imports)
declare the same option.
"""

import os
from collections.abc import Mapping
from enum import StrEnum
from typing import Annotated

import typer

from taihu.messages import Language, Messages
from taihu.messages.language import locale_language


class Lang(StrEnum):
    """Which name columns a table shows: 中文, English or both; and the language of the rest (`both`: English)."""

    zh = "zh"
    en = "en"
    both = "both"

    @property
    def language(self) -> Language:
        """The language of everything but the name columns: Chinese for `zh`, English for `en` and `both`."""
        return "zh" if self is Lang.zh else "en"

    @property
    def say(self) -> Messages:
        """The catalog in this choice's language: Chinese for `zh`, English for `en` and `both`."""
        return Messages(self.language)

    @property
    def separator(self) -> str:
        """What parts of one cell are joined with: Chinese's full-width semicolon under `zh`, else `; `.

        A space after the `；` too: rich breaks a line at spaces only, and a part that ends or begins in a
        key or a tile (`sticks:2；所用的本桌选项：kuitan`) would otherwise be one word, folded mid-key."""
        return "； " if self is Lang.zh else "; "

    def said(self, text: str) -> str:
        """A text of the core (a note, a detail, a reason: a `Said`) in this choice's language; English as it is."""
        from taihu.scorer.said import in_lang

        return in_lang(text, self.language)


LANG_KEY = "taihu.lang"  # where a command's language is kept in click's context, for the error path


def locale_lang(environ: "os._Environ[str] | dict[str, str]" = os.environ) -> Lang:
    """What a command shows without `--lang`: `zh` under a Chinese locale, else `both` (either reader reads it)."""
    return Lang.zh if locale_language(environ) == "zh" else Lang.both


def option_lang(value: Lang | None) -> Lang:
    """What `--lang` stands for: the option, else the locale's.

    A command's `lang: LangOption` is already this (the option's callback returned it), but a type checker
    reads the parameter's annotation, `Lang | None`, only; so a command starts with `lang = option_lang(lang)`,
    which hands a `Lang` back as it is."""
    return value if value is not None else locale_lang()


def chosen_lang(ctx: typer.Context, value: Lang | None) -> Lang:
    """`--lang`'s callback: the option, else the locale's; kept in the context, where an error's exit finds it."""
    lang = option_lang(value)
    ctx.meta[LANG_KEY] = lang
    return lang


def command_lang(meta: Mapping[str, object]) -> Lang:
    """The language of the command whose context's `meta` this is (click shares it between a group's context and
    its commands'): its `--lang`, else the locale's (a command without one)."""
    lang = meta.get(LANG_KEY)
    return lang if isinstance(lang, Lang) else locale_lang()


LangOption = Annotated[
    Lang | None,
    typer.Option(
        "--lang",
        help="names shown: zh (中文), en (English) or both, and the language of the rest (both: English); "
        "default: zh under a zh_* locale (LC_ALL, LC_MESSAGES, LANG), else both",
        callback=chosen_lang,
    ),
]
