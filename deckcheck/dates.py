"""The one date parser: ``YYYY-MM-DD`` text (as ``datetime.date.fromisoformat`` reads it)."""

from __future__ import annotations

import datetime as dt

__all__ = ["parse_date", "to_iso"]


def parse_date(text: str | dt.date | None) -> dt.date | None:
    """The date ``text`` names; None for None or an empty string; a date stays itself.

    Raises ValueError ``'<text>' is not a date (YYYY-MM-DD)``; callers that report it to the
    user turn it into their own InputError/DataError/BadParameter with their ``where``.
    """
    if text is None or text == "":
        return None
    if isinstance(text, dt.date):
        return text
    try:
        return dt.date.fromisoformat(str(text))
    except ValueError:
        raise ValueError(f"{text!r} is not a date (YYYY-MM-DD)") from None


def to_iso(value: str | dt.date | None) -> str | None:
    """``value`` checked and written as ``YYYY-MM-DD`` (None for None or empty)."""
    got = parse_date(value)
    return got.isoformat() if got is not None else None
