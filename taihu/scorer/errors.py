"""The one exception type for bad input."""

from __future__ import annotations

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
