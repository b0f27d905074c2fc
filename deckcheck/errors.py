"""Exit codes and the one exception type that reaches the user as a single line."""

from __future__ import annotations

import os
from collections.abc import Iterable

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
        return one_line(f"{self.where}: {self.message}" if self.where else self.message)


def error_line(text: str) -> str:
    """The one line a failure prints on stderr: ``deckcheck: error: <text>``, escaped."""
    return f"deckcheck: error: {one_line(text)}"


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'a' or 'b'?)`` for the choices near ``word``, or ""."""
    from difflib import get_close_matches

    close = get_close_matches(word, list(choices), n=3, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""


def debugging() -> bool:
    """``DECKCHECK_DEBUG`` is set (and not ``0``): errors show their traceback too."""
    return os.environ.get("DECKCHECK_DEBUG", "") not in ("", "0")


def one_line(text: str) -> str:
    """``text`` with what ends a line or drives a terminal shown escaped (``_ESCAPED``): an
    error line stays one line whatever file name or library message it quotes."""
    return text.translate(_ESCAPED)


#: Characters an error line shows escaped (``\r``, ``\x1b``, ``\u2028``): the ones that end
#: a line or drive a terminal. A message quotes file names, YAML values and library errors
#: (SQLite quotes a damaged schema), and the error must still be one line on stderr.
_ESCAPED = {
    c: ascii(chr(c))[1:-1]
    for c in (*range(0x20), 0x7F, *range(0x80, 0xA0), 0x2028, 0x2029)
    if c != 0x09  # a tab ends no line
}


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
        bad = value[exc.start : exc.end].encode("utf-8", "surrogateescape")
        raise InputError(f"not UTF-8 text (bytes {bad!r}); give it as UTF-8", where=what) from None
    return value
