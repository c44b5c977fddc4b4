"""Run the `taihu` command in this process and capture what it prints: for tests, docs and examples.

`CliRunner().invoke(app, args, input=…, env=…)` sets stdin, the environment
(a value of None unsets a variable) and captures stdout and stderr apart and
together, as a terminal shows them; everything is restored afterwards.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass


class Both(io.StringIO):
    """One stream that also copies what it is given to a second (the terminal's view of both streams)."""

    def __init__(self, terminal: io.StringIO) -> None:
        super().__init__()
        self.terminal = terminal

    def write(self, text: str) -> int:
        self.terminal.write(text)
        return super().write(text)


@dataclass(frozen=True)
class Result:
    exit_code: int
    stdout: str
    stderr: str
    output: str  # stdout and stderr as they came, as a terminal shows them
    exception: BaseException | None  # what escaped the command (never, unless `main` itself has a bug)


class CliRunner:
    """Runs `app(args)`, which returns the exit status, with the streams and environment given."""

    def invoke(
        self,
        app: Callable[[list[str]], int],
        args: Sequence[str] = (),
        input: str | None = None,
        env: Mapping[str, str | None] | None = None,
    ) -> Result:
        terminal = io.StringIO()
        out, err = Both(terminal), Both(terminal)
        saved_streams = sys.stdin, sys.stdout, sys.stderr
        saved_env = {name: os.environ.get(name) for name in env or {}}
        sys.stdin, sys.stdout, sys.stderr = io.StringIO(input or ""), out, err
        set_env(env or {})
        exception: BaseException | None = None
        try:
            code = app(list(args))
        except SystemExit as exc:
            code, exception = exc.code if isinstance(exc.code, int) else 1, exc
        except Exception as exc:
            code, exception = 1, exc
        finally:
            sys.stdin, sys.stdout, sys.stderr = saved_streams
            set_env(saved_env)
        return Result(code, out.getvalue(), err.getvalue(), terminal.getvalue(), exception)


def set_env(values: Mapping[str, str | None]) -> None:
    for name, value in values.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
