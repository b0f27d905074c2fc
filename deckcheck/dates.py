"""The one date parser: ``YYYY-MM-DD`` text, read as ``datetime.date.fromisoformat`` reads it."""

from __future__ import annotations

import datetime as dt

__all__ = ["optional_date", "parse_date", "to_iso"]


def parse_date(text: str | dt.date) -> dt.date:
    """The date ``text`` names (a date stays itself).

    Raises ValueError (``date.fromisoformat``'s); callers that report it to the user turn it
    into their own InputError/DataError/BadParameter naming where the text came from.
    """
    if isinstance(text, dt.date):
        return text
    return dt.date.fromisoformat(str(text))


def optional_date(text: str | dt.date | None) -> dt.date | None:
    """``parse_date``, with None for None or an empty string (an unset date column or key)."""
    if text is None or text == "":
        return None
    return parse_date(text)


def to_iso(value: str | dt.date | None) -> str | None:
    """``value`` checked and written as ``YYYY-MM-DD`` (None for None or empty)."""
    got = optional_date(value)
    return got.isoformat() if got is not None else None
