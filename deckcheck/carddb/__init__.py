"""Read access to the card database: cards by passcode, card identity, names per language.

``open_db()`` opens the installed database read-only, or the built-in sample when none is
installed. Card identity is decided at import time (``_common.compute_keys``) and only read
here, as three keys: the copy key (``copy_key``/``canonical``: what counts toward 3 copies and
list limits), the list key (``list_key``: what a list entry names) and the name key
(``name_key``: what lookup shows). ``goes_to_extra`` says where a card is played.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from deckcheck import notes, paths
from deckcheck import sqlite as dc_sqlite
from deckcheck.carddb.db import CardDB, connect_ro, extra_deck_bits, goes_to_extra, region_code
from deckcheck.errors import DataError

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "CardDB",
    "connect_ro",
    "extra_deck_bits",
    "goes_to_extra",
    "mark_sample_noted",
    "open_db",
    "region_code",
]

_sample_noted = False


def mark_sample_noted(noted: bool = True) -> None:
    """Say (or forget) that the "built-in sample in use" note was given in this process.

    A worker process whose parent already gave the note marks it so as not to repeat it.
    """
    global _sample_noted
    _sample_noted = noted


def open_db(path: Path | str | None = None) -> CardDB:
    """The card database at ``path``, the installed one, or the built-in sample.

    Raises DataError when ``path`` is given but missing, or the file is not a deckcheck
    database.
    """
    if path is not None:
        p = paths.str_path(path)
        if not paths.is_file(p):
            raise DataError("no card database here", where=p)
        return _open_file(p)
    # a plain string (``str(database_path())``): the one-deck path makes no Path
    installed = paths.database_file()
    if paths.is_file(installed):
        return _open_file(installed)
    from deckcheck.carddb import sample

    db = sample.open_sample()
    _note_sample(len(db))
    return db


def _open_file(p: str) -> CardDB:
    if not dc_sqlite.is_sqlite(p):
        raise DataError(
            "not a deckcheck card database (not SQLite); "
            "remove it with 'deckcheck db reset' or rebuild it with "
            "'deckcheck db import --replace FILE…'",
            where=str(p),
        )
    try:
        conn = connect_ro(p)
    except sqlite3.Error as exc:
        raise DataError(f"cannot open the card database: {exc}", where=str(p)) from None
    return CardDB(conn, p)


def _note_sample(n: int) -> None:
    global _sample_noted
    if _sample_noted:
        return
    _sample_noted = True
    notes.note(
        f"deckcheck: note: no card database installed; using the built-in sample of {n} cards "
        "(install the full data with 'deckcheck db import' or 'deckcheck update')"
    )
