"""Read-only SQLite access: the ``mode=ro`` URI and connections opened with it."""

from __future__ import annotations

import os
import sqlite3
from typing import TYPE_CHECKING

from deckcheck.paths import str_path

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["SQLITE_MAGIC", "connect_ro", "is_sqlite", "quote_path", "ro_uri"]

SQLITE_MAGIC = b"SQLite format 3\x00"

#: the bytes ``urllib.parse.quote(s)`` (``safe="/"``) leaves as they are
_SAFE = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~/"
_SAFE_SET = frozenset(_SAFE)


def quote_path(s: str) -> str:
    """``urllib.parse.quote(s)``: UTF-8, every byte but ASCII letters, digits, ``_.-~/``
    as ``%XX`` (a name with surrogates raises UnicodeEncodeError, as quote does). Here so
    that opening the database does not import ``urllib.parse``."""
    b = s.encode("utf-8")
    if not b.rstrip(_SAFE):
        return s
    return "".join(chr(c) if c in _SAFE_SET else f"%{c:02X}" for c in b)


def _absolute(path: str | os.PathLike[str]) -> str:
    # str(Path(path).absolute()): the working folder before a relative path, no resolving
    if os.name != "posix":  # another flavour (drives): pathlib's own rules
        from pathlib import Path

        return str(Path(path).absolute())
    s = str_path(path)
    return s if os.path.isabs(s) else str_path(os.path.join(os.getcwd(), s))


def ro_uri(path: str | Path, *, immutable: bool = False) -> str:
    """``file:`` URI opening ``path`` read-only (``immutable``: no locking either, for files
    nothing else writes, e.g. a download being checked)."""
    uri = f"file:{quote_path(_absolute(path))}?mode=ro"
    return uri + "&immutable=1" if immutable else uri


def connect_ro(
    path: str | Path, *, immutable: bool = False, check_same_thread: bool = True
) -> sqlite3.Connection:
    """A read-only connection to ``path`` (raises sqlite3.Error as ``sqlite3.connect`` does)."""
    return sqlite3.connect(
        ro_uri(path, immutable=immutable), uri=True, check_same_thread=check_same_thread
    )


def is_sqlite(path: str | Path) -> bool:
    """True when ``path`` starts with the SQLite file header (raises OSError when unreadable)."""
    with open(path, "rb") as f:
        return f.read(16) == SQLITE_MAGIC
