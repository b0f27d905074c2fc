"""Read-only SQLite access: the ``mode=ro`` URI and connections opened with it."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote

__all__ = ["SQLITE_MAGIC", "connect_ro", "is_sqlite", "ro_uri"]

SQLITE_MAGIC = b"SQLite format 3\x00"


def ro_uri(path: Path, *, immutable: bool = False) -> str:
    """``file:`` URI opening ``path`` read-only (``immutable``: no locking either, for files
    nothing else writes, e.g. a download being checked)."""
    uri = f"file:{quote(str(Path(path).absolute()))}?mode=ro"
    return uri + "&immutable=1" if immutable else uri


def connect_ro(
    path: Path, *, immutable: bool = False, check_same_thread: bool = True
) -> sqlite3.Connection:
    """A read-only connection to ``path`` (raises sqlite3.Error as ``sqlite3.connect`` does)."""
    return sqlite3.connect(
        ro_uri(path, immutable=immutable), uri=True, check_same_thread=check_same_thread
    )


def is_sqlite(path: Path) -> bool:
    """True when ``path`` starts with the SQLite file header (raises OSError when unreadable)."""
    with Path(path).open("rb") as f:
        return f.read(16) == SQLITE_MAGIC
