"""One EDOPro/YGOPro ``cards.cdb`` or locale name file as an import reads it: what it is
(``inspect``: cards or names, dialect hints), its values checked (passcodes, integers, names),
and its rows read within bounds (rows, name length, seconds of SQLite work)."""

from __future__ import annotations

import os
import re
import sqlite3
import time
from pathlib import Path
from typing import Any

from deckcheck.carddb import _common as common
from deckcheck.errors import InputError
from deckcheck.records import Record, field, record
from deckcheck.sqlite import connect_ro, is_sqlite

_DATAS_COLUMNS = {"id", "ot", "alias", "type", "atk", "def", "level", "race", "attribute"}
_TEXTS_COLUMNS = {"id", "name"}
_LOCALE_DIR = re.compile(r"(?:^|/)locales/([^/]+)/[^/]+$")
# 9-digit passcode ranges only EDOPro uses (Rush 160…, skills 300…, unofficial 5…); YGOPro
# has prerelease ids 100…/101… too, so those do not decide.
_EDOPRO_ONLY_ID = 110_000_000
#: Bounds on what one input file may make the importer do (a hostile cards.cdb): rows per
#: table (the real BabelCDB holds ~14,000), characters per name (the longest real name is
#: under 150), and seconds of SQLite work per file (the real file takes well under one).
MAX_ROWS = 1_000_000
MAX_NAME_CHARS = 1000
MAX_SECONDS = float(os.environ.get("DECKCHECK_IMPORT_SECONDS", "60"))
_PROGRESS_STEPS = 10_000  # SQLite VM steps between two looks at the clock


@record(frozen=False, slots=True)
class Plan(Record):
    path: Path
    kind: str  # cards | names
    lang: str | None
    detected: str | None  # edopro | ambiguous | None (both dialects agree)
    high_bits: bool
    sha256: str = ""
    size: int = 0
    dialect: str | None = None
    #: optional columns the file has and the import reads in the same pass: "setcode"
    #: (datas: archetype codes) and "desc" (texts: card text)
    extra: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)  # said once the file is imported


_MAX_PASSCODE = 0xFFFFFFFF  # passcodes are 32-bit in every client


def as_int(value: Any, column: str, path: Path, card: Any = None) -> int:
    """A cdb column value as an int (NULL is 0). SQLite columns take any type: text, REAL or
    BLOB where an integer belongs is a broken file, said in one line, never an internal
    error or a silently rounded passcode."""
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    of = f" of card {card!r}" if card is not None and not isinstance(card, bytes) else ""
    shown = value[:20] if isinstance(value, (str, bytes)) else value
    kind = {str: "text", float: "a real number", bytes: "a blob"}.get(type(value), "not a number")
    raise InputError(
        f"not a usable cards.cdb: {column}{of} is {kind} ({shown!r}), not an integer",
        where=str(path),
    )


def passcode(value: Any, column: str, path: Path) -> int:
    cid = as_int(value, column, path)
    if not 0 <= cid <= _MAX_PASSCODE:
        raise InputError(
            f"not a usable cards.cdb: {column} {cid} is not a passcode (0 to 4294967295)",
            where=str(path),
        )
    return cid


def name_text(value: Any, card: int, path: Path) -> str | None:
    """A texts.name value as text (a UTF-8 BLOB is read as text; other types are refused)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            pass
    raise InputError(
        f"not a usable cards.cdb: texts.name of card {card} is "
        f"{type(value).__name__} ({value!r:.40}), not UTF-8 text",
        where=str(path),
    )


def columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {r[1].lower() for r in conn.execute(f"PRAGMA table_info({table})")}


def inspect(path: Path, lang: str | None) -> Plan:
    where = str(path)
    if not path.is_file():
        raise InputError("file not found" if not path.exists() else "not a file", where=where)
    try:
        sqlite_file = is_sqlite(path)
    except OSError as exc:  # /proc/self/mem, a file that vanished, EIO
        raise InputError(f"cannot read: {exc.strerror or exc}", where=where) from None
    if not sqlite_file:
        raise InputError(
            "not an SQLite database (expected a cards.cdb file, a yaml-yugi JSON array or a "
            "YGOJSON folder or zip)",
            where=where,
        )
    m = _LOCALE_DIR.search(path.absolute().as_posix())
    file_lang: str | None = None
    if lang is not None:
        file_lang = common.lang_code(lang)
        if file_lang is None:
            raise InputError(f"unknown language {lang!r} (use one of {', '.join(common.LANGS)})")
    elif m:
        file_lang = common.lang_code(m.group(1))
        if file_lang is None:
            raise InputError(
                f"unknown language folder {m.group(1)!r}; pass --lang ({', '.join(common.LANGS)})",
                where=where,
            )
    try:
        conn = bounded(connect_ro(path))
    except sqlite3.Error as exc:
        raise InputError(f"cannot open: {exc}", where=where) from None
    try:
        # Real tables only: a view named datas/texts can be recursive or endless.
        tables = {
            r[0].lower()
            for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        needed = ["texts"] if file_lang else ["datas", "texts"]
        missing = [t for t in needed if t not in tables]
        if missing:
            raise InputError(
                f"not a cards.cdb: missing table {', '.join(missing)} "
                "(expected tables datas and texts)",
                where=where,
            )
        if "texts" in needed and not columns(conn, "texts") >= _TEXTS_COLUMNS:
            raise InputError(
                "not a cards.cdb: table texts lacks column(s) "
                f"{', '.join(sorted(_TEXTS_COLUMNS - columns(conn, 'texts')))}",
                where=where,
            )
        extra = ("desc",) if "desc" in columns(conn, "texts") else ()
        if file_lang:
            return Plan(path, "names", file_lang, None, False, extra=extra)
        have = columns(conn, "datas")
        if "setcode" in have:
            extra = ("setcode", *extra)
        if not have >= _DATAS_COLUMNS:
            raise InputError(
                "not a cards.cdb: table datas lacks column(s) "
                f"{', '.join(sorted(_DATAS_COLUMNS - have))}",
                where=where,
            )
        bits = 0
        for (ot,) in conn.execute("SELECT DISTINCT ot FROM datas"):
            bits |= as_int(ot, "datas.ot", path)
        max_id = as_int(conn.execute("SELECT max(id) FROM datas").fetchone()[0], "datas.id", path)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # (text that is not UTF-8)
        raise InputError(db_error(exc, "unreadable SQLite database"), where=where) from None
    finally:
        conn.close()
    high = bool(bits & ~0xF)
    if high or max_id >= _EDOPRO_ONLY_ID:
        detected: str | None = "edopro"
    elif bits & 0xC:
        detected = "ambiguous"
    else:
        detected = None
    return Plan(path, "cards", "en", detected, high, extra=extra)


def choose_dialects(plans: list[Plan], dialect: str | None) -> None:
    cards = [p for p in plans if p.kind == "cards"]
    if dialect is not None:
        if dialect not in common.DIALECTS:
            raise InputError(f"unknown dialect {dialect!r} (use edopro or ygopro)")
        if dialect == "ygopro":
            bad = [str(p.path) for p in cards if p.high_bits]
            if bad:
                raise InputError(
                    "scope bits above 0xF exist only in EDOPro databases, "
                    f"not YGOPro: {', '.join(bad)}"
                )
        for p in cards:
            p.dialect = dialect
        return
    ambiguous = [p for p in cards if p.detected == "ambiguous"]
    if ambiguous:
        edo = [str(p.path) for p in cards if p.detected == "edopro"]
        also = f" (EDOPro detected in {', '.join(edo)})" if edo else ""
        raise InputError(
            "ot bits 0x4/0x8 mean anime/illegal in EDOPro but custom/Simplified Chinese in "
            f"YGOPro; pass --dialect edopro or --dialect ygopro{also}",
            where=", ".join(str(p.path) for p in ambiguous),
        )
    for p in cards:
        p.dialect = "edopro"  # EDOPro-only bits, or bits 0x1/0x2 on which both dialects agree


def bounded(conn: sqlite3.Connection) -> sqlite3.Connection:
    """``conn`` with SQLite work capped at ``MAX_SECONDS`` (then "interrupted")."""
    deadline = time.monotonic() + MAX_SECONDS
    conn.set_progress_handler(lambda: int(time.monotonic() > deadline), _PROGRESS_STEPS)
    return conn


def db_error(exc: sqlite3.DatabaseError | UnicodeDecodeError, what: str) -> str:
    if "interrupted" in str(exc):
        return f"reading it took over {MAX_SECONDS:g} s; not a cards.cdb deckcheck can import"
    return f"{what}: {exc}"


def read_rows(path: Path, sql: str) -> list[tuple[Any, ...]]:
    """Rows of ``sql`` (its last column a name, cut at MAX_NAME_CHARS + 1 in SQL), at most
    MAX_ROWS of them, within MAX_SECONDS; InputError past any bound."""
    try:
        src = bounded(connect_ro(path))
        try:
            rows = src.execute(f"{sql} LIMIT {MAX_ROWS + 1}").fetchall()
        finally:
            src.close()
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        raise InputError(db_error(exc, "cannot read"), where=str(path)) from None
    if len(rows) > MAX_ROWS:
        raise InputError(f"more than {MAX_ROWS} rows: not a cards.cdb", where=str(path))
    for r in rows:
        if isinstance(r[-1], str) and len(r[-1]) > MAX_NAME_CHARS:
            raise InputError(
                f"card {r[0]}: a name over {MAX_NAME_CHARS} characters: not a cards.cdb",
                where=str(path),
            )
    return rows
