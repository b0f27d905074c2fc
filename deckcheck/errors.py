"""Exit codes and the one exception type that reaches the user as a single line."""

from __future__ import annotations

EXIT_OK = 0  # every deck legal / command succeeded
EXIT_ILLEGAL = 1  # at least one deck illegal (or a warning under --strict), unresolved input
EXIT_ERROR = 2  # usage or data error


class DeckcheckError(Exception):
    """An error the user can fix; printed as one line on stderr, never as a traceback.

    ``where`` names the file (and line) the problem is in, when there is one.
    """

    exit_code = EXIT_ERROR

    def __init__(self, message: str, *, where: str | None = None, exit_code: int | None = None):
        super().__init__(message)
        self.message = message
        self.where = where
        if exit_code is not None:
            self.exit_code = exit_code

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class InputError(DeckcheckError):
    """A deck, list or format file cannot be read (too big, binary, malformed)."""


class DataError(DeckcheckError):
    """Card database or list store missing, corrupt or inconsistent."""


def require_text(value: str, what: str) -> str:
    """``value`` when it is real text; InputError when it holds bytes that are not UTF-8
    (an argument Python decoded with ``surrogateescape``), which no card name can match and
    no JSON output can hold."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        bad = value[exc.start:exc.end].encode("utf-8", "surrogateescape")
        raise InputError(f"not UTF-8 text (bytes {bad!r}); give it as UTF-8",
                         where=what) from None
    return value
