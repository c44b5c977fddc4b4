"""pydantic's validation errors as the library's one-sentence messages (the HTTP boundary only)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from taihu.scorer.errors import printable, quote

MAX_PROBLEMS = 5  # problems a message names; a hostile body has tens of thousands (each `1` in a list of 32,000)


def describe_validation(errors: Iterable[Mapping[str, Any]], what: str = "table") -> str:
    """pydantic's error list as one sentence, so the library, CLI and API say the same thing.

    `loc` becomes a path (`players.E`, `events[0].seat`); the leading `body`
    that FastAPI adds is dropped so the HTTP message matches the library's.
    At most MAX_PROBLEMS are named, and the rest counted, so neither the
    message nor the time to write it grows with a hostile body.
    """
    lines: list[str] = []
    seen: set[str] = set()
    more = 0
    for err in errors:
        if len(lines) == MAX_PROBLEMS:
            more += 1
            continue
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
                part = part if isinstance(part, int) else quote(part)
                path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else part)
            msg = printable(str(err.get("msg", "is invalid")).removeprefix("Value error, "))
            line = f"{path or what}: {msg}"
        if line not in seen:
            seen.add(line)
            lines.append(line)
    if more:
        lines.append(f"and {more} more problem{'s' if more > 1 else ''}")
    return "; ".join(lines) or f"{what}: invalid input"
