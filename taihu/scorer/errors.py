"""The one exception type for bad input."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


class HandError(ValueError):
    """Bad input: the message names the place and the problem.

    Every error the library raises for a hand, a table or an option is this
    type, so the CLI and the API can turn it into an answer (exit 2, HTTP 422)
    instead of a crash.

    `code` is a stable snake_case id a program can branch on (the message may
    be reworded; the code is not), and `column` the 1-based place in the hand
    string where one is known. Both are keyword-only, so `HandError(message)`
    keeps working everywhere.
    """

    def __init__(self, message: str, *, code: str = "bad_input", column: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.column = column

    def as_dict(self) -> dict[str, Any]:
        """The answer the API's 422 and `taihu score --json` give: `{"detail", "code", "column"}`."""
        return {"detail": str(self), "code": self.code, "column": self.column}


def describe_validation(errors: Iterable[Mapping[str, Any]], what: str = "table") -> str:
    """pydantic's error list as one sentence, so the library, CLI and API say the same thing.

    `loc` becomes a path (`players.E`, `events[0].seat`); the leading `body`
    that FastAPI adds is dropped so the HTTP message matches the library's.
    """
    lines: list[str] = []
    for err in errors:
        loc = list(err.get("loc", ()))
        if loc and loc[0] == "body":
            loc = loc[1:]
        if err.get("type") == "json_invalid":
            problem = (err.get("ctx") or {}).get("error", "")
            at = f" at character {loc[0]}" if loc and isinstance(loc[0], int) else ""
            line = f"the request body is not valid JSON{at}" + (f": {problem}" if problem else "")
        else:
            path = ""
            for part in loc:
                path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
            msg = str(err.get("msg", "is invalid")).removeprefix("Value error, ")
            line = f"{path or what}: {msg}"
        if line not in lines:
            lines.append(line)
    return "; ".join(lines) or f"{what}: invalid input"
