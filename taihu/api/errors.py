"""pydantic's validation errors as the one error shape, in a language (the HTTP boundary only).

Each kind of problem pydantic names (its error `type`) has a code of the one shape (`missing_field`,
`extra_field`, `wrong_type`, `too_long`, `out_of_range` …) and a catalog entry whose English is
pydantic's own wording, so the English answers read as they always have and the Chinese ones have
the same parts. A kind not listed here (none of the models raises one: tests/test_api_errors.py
tries every field with every kind of JSON value) has the code `bad_value`: its English is pydantic's
text, its Chinese the catalog's "invalid input", never English.

A body that is not JSON names the parser's reason as a catalog text too (`JSON_REASONS`: the
standard parser's words and orjson's, each kind one entry whose English is the standard parser's
wording), and its place, 1-based, in the message and as `column`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from taihu.messages import Language, plural, text
from taihu.messages.error_shape import error_shape
from taihu.scorer.errors import Field, HandError, Term, Text, printable, quote
from taihu.scorer.rulesets import get

MAX_PROBLEMS = 5  # problems a message names; a hostile body has tens of thousands (each `1` in a list of 32,000)

# pydantic's error type → (the shape's code, the catalog entry, the entry's parameters from pydantic's ctx)
KINDS: dict[str, tuple[str, str, dict[str, str]]] = {
    "missing": ("missing_field", "api.validation.missing", {}),
    "extra_forbidden": ("extra_field", "api.validation.extra_forbidden", {}),
    "string_type": ("wrong_type", "api.validation.string_type", {}),
    "int_type": ("wrong_type", "api.validation.int_type", {}),
    "int_parsing": ("wrong_type", "api.validation.int_parsing", {}),
    "int_from_float": ("wrong_type", "api.validation.int_from_float", {}),
    "bool_type": ("wrong_type", "api.validation.bool_type", {}),
    "bool_parsing": ("wrong_type", "api.validation.bool_parsing", {}),
    "dict_type": ("wrong_type", "api.validation.dict_type", {}),
    "model_type": ("wrong_type", "api.validation.model_type", {"name": "class_name"}),
    "model_attributes_type": ("wrong_type", "api.validation.model_attributes_type", {}),
    "list_type": ("wrong_type", "api.validation.list_type", {}),
    "string_too_long": ("too_long", "api.validation.string_too_long", {"limit": "max_length"}),
    "too_long": ("too_long", "api.validation.too_long", {"limit": "max_length", "count": "actual_length"}),
    "greater_than_equal": ("out_of_range", "api.validation.greater_than_equal", {"limit": "ge"}),
    "less_than_equal": ("out_of_range", "api.validation.less_than_equal", {"limit": "le"}),
    "greater_than": ("out_of_range", "api.validation.greater_than", {"limit": "gt"}),
    "literal_error": ("not_allowed", "api.validation.literal_error", {"choices": "expected"}),
    "string_pattern_mismatch": ("bad_format", "api.validation.string_pattern_mismatch", {"pattern": "pattern"}),
    "string_unicode": ("bad_value", "api.validation.string_unicode", {}),  # a lone surrogate (`"\\ud800"`)
    "finite_number": ("bad_value", "api.validation.finite_number", {}),  # NaN, Infinity, 1e400 for an integer
}
# a JSON parser's reason (a piece of the standard parser's message, or of orjson's) → the catalog's text of its kind
JSON_REASONS: tuple[tuple[str, str], ...] = (
    ("Expecting value", "api.json.value"),
    ("expected a JSON value", "api.json.value"),
    ("zero-length", "api.json.value"),
    ("invalid literal", "api.json.value"),
    ("no digit after", "api.json.value"),
    ("Expecting property name", "api.json.key"),
    ("expected a string key", "api.json.key"),
    ("Expecting ':'", "api.json.colon"),
    ("expected ':'", "api.json.colon"),
    ("Expecting ','", "api.json.comma"),
    ("expected ','", "api.json.comma"),
    ("trailing comma", "api.json.trailing_comma"),
    ("Unterminated string", "api.json.unterminated"),
    ("unexpected end of data", "api.json.end"),
    ("escape", "api.json.escape"),
    ("surrogate in string", "api.json.escape"),
    ("control character", "api.json.control"),
    ("Extra data", "api.json.extra"),
    ("content after document", "api.json.extra"),
    ("BOM", "api.json.bom"),
    ("UTF-8", "api.json.encoding"),
    ("number", "api.json.number"),
    ("depth", "api.json.depth"),
)
WHAT = {"body": "api.validation.body", "table": "api.validation.table"}  # the name of a problem with no path


def path_of(loc: Iterable[Any]) -> str:
    """pydantic's `loc` as a path (`players.E`, `events[0].seat`), each name quoted."""
    path = ""
    for part in loc:
        part = part if isinstance(part, int) else quote(part)
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else part)
    return path


def located(err: Mapping[str, Any]) -> list[Any]:
    """The error's `loc` without the leading `body` that FastAPI adds, so the HTTP message matches the library's."""
    loc = list(err.get("loc", ()))
    return loc[1:] if loc and loc[0] == "body" else loc


def json_reason(reason: str) -> Text | Term:
    """A JSON parser's reason (`Expecting value`, orjson's `unexpected end of data`) as the catalog's text of its
    kind; a reason of no kind listed is shown as it is in English, as the catalog's "unreadable" in Chinese."""
    key = next((key for piece, key in JSON_REASONS if piece in reason), None)
    return Text(key) if key is not None else Term(printable(reason), text("api.json.other", "zh"))


def json_place(pos: object) -> int | None:
    """A parser's 0-based `pos` in the body as the 1-based column of the error shape (the parser's own `colno`)."""
    return pos + 1 if isinstance(pos, int) and not isinstance(pos, bool) else None


def json_problem(reason: str, pos: object, lang: Language) -> tuple[str, int | None]:
    """The message of a body that is not JSON, in `lang`, and its column (None: no place known)."""
    why = json_reason(reason).in_lang(lang)
    column = json_place(pos)
    if column is None:
        return text("api.validation.json_invalid", lang, reason=why), None
    return text("api.validation.json_invalid_at", lang, position=column, reason=why), column


def wild_word(body: object) -> str:
    """The word for the wildcard of the rule set a body names (Putian's 金), for the place of its `wild` field; ""
    (the place says 财神) for a body that names none, or none known."""
    rules = body.get("rules") if isinstance(body, Mapping) else None
    try:
        return get(rules).wild_name if isinstance(rules, str) else ""
    except HandError:
        return ""


def problem(err: Mapping[str, Any], lang: Language, what: str, wild: str = "") -> tuple[str, str, str | None]:
    """One pydantic error: its code, its text in `lang`, and the field it is in (None: the body as a whole);
    `wild` the body's rule set's word for its wildcard (`wild_word`)."""
    loc = located(err)
    ctx = err.get("ctx") or {}
    if err.get("type") == "json_invalid":
        return "invalid_json", json_problem(str(ctx.get("error", "")), loc[0] if loc else None, lang)[0], None
    path = path_of(loc)
    shown = Field(path, wild=wild).in_lang(lang) if path else text(WHAT.get(what, WHAT["body"]), lang)
    message = printable(str(err.get("msg", "is invalid")).removeprefix("Value error, "))
    kind = KINDS.get(str(err.get("type")))
    if kind is not None and (err.get("type") != "too_long" or ctx.get("field_type") == "List"):
        code, key, names = kind
        params = {name: printable(str(ctx.get(source, ""))) for name, source in names.items()}
        if "choices" in params and lang == "zh":  # pydantic's "'E', 'S', 'W' or 'N'", as a Chinese list
            params["choices"] = params["choices"].replace(" or ", "、").replace(", ", "、")
        return code, text(key, lang, field=shown, **params), path or None
    cause = ctx.get("error")  # a validator's own exception: the core's HandError, with its code and languages
    if err.get("type") == "value_error" and isinstance(cause, HandError):
        message, code = printable(cause.message_in(lang)), cause.code or "bad_value"
    elif lang != "en":  # a kind of pydantic's with no catalog text: its English is no message in another language
        return "bad_value", text("api.validation.invalid", lang, field=shown), path or None
    else:
        code = "bad_value"
    return code, text("api.validation.value_error", lang, field=shown, message=message), path or None


def described(
    errors: Iterable[Mapping[str, Any]], lang: Language, what: str, wild: str = ""
) -> tuple[str, str, str | None]:
    """The code and field of the first problem, and the message naming at most MAX_PROBLEMS, the rest counted,
    so neither the message nor the time to write it grows with a hostile body."""
    lines: list[str] = []
    first: tuple[str, str | None] | None = None
    more = 0
    for err in errors:
        if len(lines) == MAX_PROBLEMS:
            more += 1
            continue
        code, line, field = problem(err, lang, what, wild)
        first = first or (code, field)
        if line not in lines:
            lines.append(line)
    if more:
        lines.append(plural("api.validation.more", more, lang))
    code, field = first or ("bad_input", None)
    separator = "；" if lang == "zh" else "; "
    return code, separator.join(lines) or text("api.validation.invalid", lang, field=text(WHAT[what], lang)), field


def describe_validation(errors: Iterable[Mapping[str, Any]], what: str = "table", lang: Language = "en") -> str:
    """pydantic's error list as one message in `lang`, so the library, CLI and API say the same thing."""
    return described(errors, lang, what)[1]


def validation_shape(
    errors: Iterable[Mapping[str, Any]], lang: Language, what: str = "table", body: object = None
) -> dict[str, Any]:
    """pydantic's error list as the one error shape: the first problem's code and field, every problem's text
    (a `wild` field's place in the words of the `body`'s rule set); a body that is not JSON has its place as
    `column` (the body's 1-based character)."""
    errors = list(errors)
    code, message, field = described(errors, lang, what, wild_word(body))
    first = errors[0] if errors else {}
    place = located(first) if first.get("type") == "json_invalid" else []
    column = json_place(place[0]) if place else None
    return error_shape(code, message, field=field, column=column)
