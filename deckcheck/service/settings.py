"""What one ``deckcheck serve`` is started with: address, workers, folders and the limits.

Every worker process gets the same settings: ``to_env``/``from_env`` carry them through the
environment (uvicorn starts extra workers by an import string, not with arguments).
"""

from __future__ import annotations

import datetime as dt
import json
import os
from typing import Any

from deckcheck import dates
from deckcheck.errors import DataError, InputError
from deckcheck.records import Record, record

#: the environment variable that hands the settings to the worker processes
ENV = "DECKCHECK_SERVE_SETTINGS"
KIB = 1024


@record
class Settings(Record):
    """The service's options (``deckcheck serve --help`` documents each)."""

    host: str = "127.0.0.1"
    port: int = 8080
    workers: int = 1
    #: the folder submissions are stored in (None: ``/submit`` is off)
    submissions: str | None = None
    #: the file holding the bearer token of ``/report`` (None: the report is off)
    token_file: str | None = None
    #: the event's format and date: the defaults of a check, the submissions' verdicts and
    #: the report (None: today, as on the day of each request)
    format_id: str = "tcg"
    date: str | None = None
    #: the largest request body accepted (413 beyond it)
    max_body: int = 256 * KIB
    #: the most lines a deck may have (a real decklist has about a hundred)
    max_lines: int = 1000
    #: seconds a check, search or submission may take (503 beyond); the report gets more
    request_timeout: float = 10.0
    report_timeout: float = 120.0
    #: seconds a client has to send a request's head, and then its body (slow clients are
    #: cut off: a connection cannot be held open by trickling bytes)
    head_timeout: float = 10.0
    body_timeout: float = 10.0
    #: seconds an idle keep-alive connection stays open
    keep_alive: int = 5
    #: requests a worker holds at once (waiting for the engine included); 503 beyond
    max_pending: int = 64
    #: JSON access log lines on stderr
    access_log: bool = True

    def event_date(self) -> dt.date | None:
        return dates.parse_date(self.date) if self.date else None

    def to_env(self) -> str:
        return json.dumps({n: getattr(self, n) for n in self._fields})

    @classmethod
    def from_env(cls, environ: Any = os.environ) -> Settings:
        raw = environ.get(ENV)
        if not raw:
            raise DataError(f"{ENV} is not set: start the service with `deckcheck serve`")
        return cls(**json.loads(raw))

    def token(self) -> str | None:
        """The bearer token of ``/report`` (read from ``token_file``), or None when off."""
        if self.token_file is None:
            return None
        return read_token(self.token_file)


_UNITS = {
    "": 1,
    "b": 1,
    "k": KIB,
    "kb": KIB,
    "kib": KIB,
    "m": KIB * KIB,
    "mb": KIB * KIB,
    "mib": KIB * KIB,
}


def parse_size(text: str) -> int:
    """``256K``, ``1M``, ``65536``: a size in bytes (ValueError when it is not one)."""
    t = text.strip().lower()
    digits = t.rstrip("kmib")
    unit = t[len(digits) :]
    if not digits.isdigit() or unit not in _UNITS:
        raise ValueError(f"{text!r} is not a size (e.g. 256K, 1M, 65536)")
    return int(digits) * _UNITS[unit]


#: a token shorter than this is refused (a guessable token guards nothing)
MIN_TOKEN = 16


def read_token(path: str) -> str:
    """The token in ``path`` (surrounding whitespace stripped); InputError naming the file
    when it cannot be read or is too short to guard anything."""
    try:
        with open(path, encoding="utf-8") as fh:
            token = fh.read(4096).strip()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InputError(f"cannot read the token file: {reason}", where=path) from None
    if len(token) < MIN_TOKEN or any(c.isspace() for c in token):
        raise InputError(
            f"the token must be one word of at least {MIN_TOKEN} characters "
            "(e.g. `openssl rand -hex 32 > FILE`)",
            where=path,
        )
    return token


__all__ = ["ENV", "MIN_TOKEN", "Settings", "parse_size", "read_token"]
