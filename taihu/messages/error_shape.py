"""The one error shape, in a language: what the API answers for every error and `taihu … --json` prints.

`{"code", "message", "detail", "column", "seat", "player", "field", "hint"}` (docs/api.md "Errors"):
`code` is stable snake_case for a program to branch on; `message` is for a person, in the language
asked for; `detail` is the same text, kept for the clients written before `message`; the place is
`column` (in the hand string), `seat` / `player` (as the client wrote them) and `field` (the request
field, `players.E`); `hint` is how to fix it. A field that does not apply is null, never absent, so
every error of every status reads alike.

Here, not in the API, because the command line prints the same shape (without importing FastAPI);
`CatalogError` is a HandError whose message is a catalog entry, for the shells' own errors.
"""

from __future__ import annotations

from typing import Any

from taihu.messages import Language
from taihu.scorer.errors import HandError, Text

ERROR_FIELDS = ("code", "message", "detail", "column", "seat", "player", "field", "hint")


def error_shape(
    code: str,
    message: str,
    *,
    column: int | None = None,
    seat: str | None = None,
    player: str | None = None,
    field: str | None = None,
    hint: str | None = None,
    **more: Any,
) -> dict[str, Any]:
    """The shape's JSON: every field present (null where it does not apply), `detail` the same as `message`;
    `more` adds a status's own (`error_id` of a 500, `deal` of a 409)."""
    shape = {"code": code, "message": message, "detail": message, "column": column, "seat": seat}
    return shape | {"player": player, "field": field, "hint": hint, **more}


def hand_error_shape(error: HandError, lang: Language = "en", **more: Any) -> dict[str, Any]:
    """A HandError in the shape, its message and hint in `lang`.

    `player`, `field`, `hint` and `hint_in` are read where the error has them (the core's errors gain
    them one by one), so an error without them still answers the whole shape.
    """
    hint_in = getattr(error, "hint_in", None)
    return error_shape(
        error.code,
        error.message_in(lang),
        column=error.column,
        seat=error.seat,
        player=getattr(error, "player", None),
        field=getattr(error, "field", None),
        hint=hint_in(lang) if callable(hint_in) else getattr(error, "hint", None),
        **more,
    )


class CatalogError(HandError):
    """Bad input that a shell finds itself (the API's body checks, the command line's options): a catalog entry.

    `key` is the entry (`api.error.bad_deal_number`), `params` its parameters; `code` is the key's last
    part unless given. Its `str` is the English text (what the logs read), `message_in` the text in a
    language. `field` names the request field, `place` is its `column`, where there is one (a parameter
    named `column` stays a parameter of the text).
    """

    def __init__(
        self,
        key: str,
        /,
        *,
        code: str | None = None,
        field: str | None = None,
        place: int | None = None,
        **params: object,
    ) -> None:
        super().__init__(code=code or key.rsplit(".", 1)[-1], text=Text(key, **params), field=field, column=place)
