"""Which language a person reads: from the POSIX locale (the command line) or an HTTP `Accept-Language` header.

Written here rather than taken from Babel (`babel.negotiate_locale`) because Babel is a build/test-time
dependency only (taihu/messages/__init__.py), and what is needed is small: two languages, any `zh`
(`zh_CN`, `zh-TW`, `zh-Hant`) reading the simplified Chinese catalog, anything else English.
"""

from __future__ import annotations

from collections.abc import Mapping

from taihu.messages import Language

LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")  # POSIX's order: the first one set decides


def language_of_tag(tag: str) -> Language | None:
    """`zh` or `en` for a locale name or a language tag (`zh_CN.UTF-8`, `zh-Hant-TW`, `en-GB`), else None."""
    primary = tag.strip().replace("-", "_").split("_", 1)[0].split(".", 1)[0].split("@", 1)[0].lower()
    if primary == "zh":
        return "zh"
    if primary == "en":
        return "en"
    return None


def locale_language(environ: Mapping[str, str]) -> Language | None:
    """The language of the locale `environ` sets (`LC_ALL`, else `LC_MESSAGES`, else `LANG`), as gettext reads
    it; None when that locale is neither Chinese nor English (`C`, `POSIX`, `fr_FR`) or none is set."""
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "")
        if value:
            return language_of_tag(value)
    return None


def accept_language(header: str | None, default: Language = "en") -> Language:
    """The language an `Accept-Language` header prefers (RFC 9110 §12.5.4): the highest q-value among those
    taihu has, the first listed among equals; `*` takes `default`; q=0 refuses. `default` when none fits."""
    if not header:
        return default  # no header (most requests): nothing to weigh
    best: tuple[float, int, Language] | None = None
    for position, part in enumerate(header.split(",")[:32]):  # a header is bounded; 32 ranges is plenty
        tag, _, parameters = part.partition(";")
        quality = 1.0
        for parameter in parameters.split(";"):
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value.strip())
                except ValueError:
                    quality = 0.0  # a malformed weight is not a preference
        if not 0.0 < quality <= 1.0:
            continue
        lang = default if tag.strip() == "*" else language_of_tag(tag)
        if lang is not None and (best is None or quality > best[0]):
            best = (quality, position, lang)
    return best[2] if best is not None else default
