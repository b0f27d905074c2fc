"""Card text (effects) for the ``o:`` search term and ``card show`` (issue 30): read from a
cdb's ``texts.desc`` (cards.cdb in English, ``locales/<lang>/cards.cdb`` in its language),
yaml-yugi's ``text``/``pendulum_effect`` (Rush: ``requirement``/``effect``…, skills:
``activation``/``effect``) and YGOJSON's ``text.<lang>.effect``/``pendulumEffect``.

Indexed at import: every text is stored with its search form (``normalize``: NFKC, case
folded, whitespace collapsed), so a query is one substring scan in SQLite over the prepared
texts and never folds a text again (docs/SEARCH.md).
"""

from __future__ import annotations

import sqlite3
import unicodedata
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

#: Longest text kept (the longest real card text is under 2,000 characters).
MAX_CHARS = 20_000
_EXAMPLES = 5

Note = Callable[[str], None]


def normalize(text: str) -> str:
    """The search form of a text: NFKC (full-width letters and digits become ASCII,
    half-width kana full-width), case folded, runs of whitespace one space."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def clean(value: Any) -> str | None:
    """A text value as stored, or None when it is not usable text."""
    if isinstance(value, bytes):
        try:
            value = value.decode("utf-8")
        except UnicodeDecodeError:
            return None
    if not isinstance(value, str):
        return None
    value = value.strip()
    return value or None


def store(
    conn: sqlite3.Connection, rows: Iterable[tuple[int, str, str, str]], *, replace: bool = True
) -> int:
    """Write (card, lang, source, text) rows with their search form; the count written."""
    verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"
    data = [(c, lang, src, t, normalize(t)) for c, lang, src, t in rows]
    conn.executemany(
        f"{verb} INTO card_text (card_id, lang, source, text, norm) VALUES (?, ?, ?, ?, ?)", data
    )
    return len(data)


def add_cdb(conn: sqlite3.Connection, path: Path, lang: str, note: Note) -> int:
    """The ``texts.desc`` of a cdb (EDOPro writes effect text there), as source ``cdb``.

    A cdb without the column, or with empty texts (the staged reference data), adds none; a
    text that is not text, or too long, is skipped and counted in a note."""
    from deckcheck.carddb import cdbfile
    from deckcheck.errors import InputError

    try:
        conn_src = cdbfile.bounded(cdbfile.connect_ro(path))
        try:
            if "desc" not in cdbfile.columns(conn_src, "texts"):
                return 0
            got = conn_src.execute(
                f"SELECT id, substr(desc, 1, {MAX_CHARS + 1}) FROM texts "
                f"WHERE desc IS NOT NULL AND desc != '' LIMIT {cdbfile.MAX_ROWS + 1}"
            ).fetchall()
        finally:
            conn_src.close()
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        raise InputError(cdbfile.db_error(exc, "cannot read texts.desc"), where=str(path)) from None
    rows: list[tuple[int, str, str, str]] = []
    bad: list[str] = []
    for cid, desc in got:
        if not isinstance(cid, int) or not 0 <= cid <= 0xFFFFFFFF:
            bad.append(f"id {str(cid)[:20]!r}")
            continue
        text = clean(desc)
        if text is None or len(text) > MAX_CHARS:
            bad.append(f"card {cid}")
            continue
        rows.append((cid, lang, "cdb", text))
    if bad:
        eg = "; ".join(bad[:_EXAMPLES]) + ("; …" if len(bad) > _EXAMPLES else "")
        note(f"{path}: {len(bad)} texts.desc value(s) not usable text, skipped (e.g. {eg})")
    return store(conn, rows)


def texts_of(conn: sqlite3.Connection) -> set[tuple[int, str]]:
    """(card, lang) pairs that have a text already."""
    return {(int(c), str(lg)) for c, lg in conn.execute("SELECT card_id, lang FROM card_text")}
