"""The one exception type for bad input."""


class HandError(ValueError):
    """Bad input: the message names the place and the problem.

    Every error the library raises for a hand, a table or an option is this
    type, so the CLI and the API can turn it into an answer (exit 2, HTTP 422)
    instead of a crash.
    """
