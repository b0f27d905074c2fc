"""Which Forbidden/Limited list a check uses: the one named, else the format's list in force."""

from __future__ import annotations

import datetime as dt
from typing import Any

from deckcheck.errors import DataError
from deckcheck.model import Banlist, Format


def list_for(
    fmt: Format, date: dt.date, banlist_ref: str | None = None, store: Any = None
) -> Banlist | None:
    """The list to check ``fmt`` against on ``date``: ``banlist_ref`` when given (a
    "<family>@<date>", a list name or a path), else the format's list in force; None for a
    format without lists. No list of the family in force is a ``DataError`` (exit 2).
    ``store`` (a ``ListStore``) lets a caller that reads more lists index the folders once."""
    if banlist_ref is None and fmt.list_family is None:
        return None
    if store is None:
        from deckcheck.formats.catalog import ListStore

        store = ListStore.default()
    if banlist_ref is not None or fmt.list_family is None:
        return store.resolve(banlist_ref or "", date)
    got = store.in_force(fmt.list_family, date)
    if got is None:
        raise DataError(
            f"no {fmt.list_family!r} list is in force on {date.isoformat()} for format "
            f"{fmt.id!r}; install lists with `deckcheck update` or "
            "`deckcheck banlist import FILE`, or name one with --banlist"
        )
    return got
