"""Builds deckcheck's card database from EDOPro/YGOPro ``cards.cdb`` and locale name files.

The database is rebuilt atomically: a new file is written beside the old one and moved into
place only when complete, so a failed import leaves the installed database untouched.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import re
import shutil
import sqlite3
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckcheck import fsio, staging
from deckcheck import paths as dc_paths
from deckcheck.carddb import _common as common
from deckcheck.errors import DataError, InputError
from deckcheck.fsio import sha256_file
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
_INSERT_NAME = "INSERT OR IGNORE INTO names (card_id, lang, name, kind) VALUES (?, ?, ?, ?)"


@dataclass(frozen=True, slots=True)
class FileResult:
    """What one input file contributed."""

    path: str
    kind: str  # cards | names
    rows: int
    lang: str | None = None
    dialect: str | None = None


@dataclass(frozen=True, slots=True)
class ImportSummary:
    """Result of ``import_files``: the database written and what is in it now."""

    db_path: Path
    files: tuple[FileResult, ...]
    cards: int
    names_by_lang: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    fingerprint: str = ""


@dataclass(slots=True)
class _Plan:
    path: Path
    kind: str  # cards | names
    lang: str | None
    detected: str | None  # edopro | ambiguous | None (both dialects agree)
    high_bits: bool
    sha256: str = ""
    size: int = 0
    dialect: str | None = None


# --------------------------------------------------------------------------- locking

# The one lock of the data home lives in deckcheck.staging (imports and updates share it).
exclusive_lock = staging.exclusive_lock


# --------------------------------------------------------------------------- inspection


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {r[1].lower() for r in conn.execute(f"PRAGMA table_info({table})")}


def _inspect(path: Path, lang: str | None) -> _Plan:
    where = str(path)
    if not path.is_file():
        raise InputError("file not found" if not path.exists() else "not a file", where=where)
    if not is_sqlite(path):
        raise InputError("not an SQLite database (expected a cards.cdb file)", where=where)
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
                f"unknown language folder {m.group(1)!r}; pass --lang "
                f"({', '.join(common.LANGS)})",
                where=where,
            )
    try:
        conn = _bounded(connect_ro(path))
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
        if "texts" in needed and not _TEXTS_COLUMNS <= _columns(conn, "texts"):
            raise InputError(
                "not a cards.cdb: table texts lacks column(s) "
                f"{', '.join(sorted(_TEXTS_COLUMNS - _columns(conn, 'texts')))}",
                where=where,
            )
        if file_lang:
            return _Plan(path, "names", file_lang, None, False)
        have = _columns(conn, "datas")
        if not _DATAS_COLUMNS <= have:
            raise InputError(
                "not a cards.cdb: table datas lacks column(s) "
                f"{', '.join(sorted(_DATAS_COLUMNS - have))}",
                where=where,
            )
        bits = 0
        for (ot,) in conn.execute("SELECT DISTINCT ot FROM datas"):
            bits |= int(ot or 0)
        max_id = conn.execute("SELECT max(id) FROM datas").fetchone()[0] or 0
    except sqlite3.DatabaseError as exc:
        raise InputError(_db_error(exc, "unreadable SQLite database"), where=where) from None
    finally:
        conn.close()
    high = bool(bits & ~0xF)
    if high or max_id >= _EDOPRO_ONLY_ID:
        detected: str | None = "edopro"
    elif bits & 0xC:
        detected = "ambiguous"
    else:
        detected = None
    return _Plan(path, "cards", "en", detected, high)


def _choose_dialects(plans: list[_Plan], dialect: str | None) -> None:
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


# --------------------------------------------------------------------------- writing


def _check_existing(conn: sqlite3.Connection, db_path: Path) -> None:
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except sqlite3.DatabaseError as exc:
        raise DataError(
            f"the installed database cannot be extended ({exc}); move it away and import again",
            where=str(db_path),
        ) from None
    if row is None or not common.migrate(conn, int(row[0])):
        raise DataError(
            f"the installed database has schema {row[0] if row else 'unknown'}, "
            f"this deckcheck writes {common.SCHEMA_VERSION}; move it away and import again",
            where=str(db_path),
        )


def _source_id(conn: sqlite3.Connection, plan: _Plan, rows: int, now: str) -> int:
    conn.execute(
        "INSERT INTO sources (path, sha256, size, imported_at, dialect, lang, rows, kind) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET sha256 = excluded.sha256, "
        "size = excluded.size, imported_at = excluded.imported_at, dialect = excluded.dialect, "
        "lang = excluded.lang, rows = excluded.rows, kind = excluded.kind",
        (str(plan.path.absolute()), plan.sha256, plan.size, now, plan.dialect, plan.lang, rows,
         plan.kind),
    )
    sid = conn.execute("SELECT id FROM sources WHERE path = ?", (str(plan.path.absolute()),))
    return int(sid.fetchone()[0])


def _bounded(conn: sqlite3.Connection) -> sqlite3.Connection:
    """``conn`` with SQLite work capped at ``MAX_SECONDS`` (then "interrupted")."""
    deadline = time.monotonic() + MAX_SECONDS
    conn.set_progress_handler(lambda: int(time.monotonic() > deadline), _PROGRESS_STEPS)
    return conn


def _db_error(exc: sqlite3.DatabaseError, what: str) -> str:
    if "interrupted" in str(exc):
        return f"reading it took over {MAX_SECONDS:g} s; not a cards.cdb deckcheck can import"
    return f"{what}: {exc}"


def _read(path: Path, sql: str) -> list[tuple[Any, ...]]:
    """Rows of ``sql`` (its last column a name, cut at MAX_NAME_CHARS + 1 in SQL), at most
    MAX_ROWS of them, within MAX_SECONDS; InputError past any bound."""
    try:
        src = _bounded(connect_ro(path))
        try:
            rows = src.execute(f"{sql} LIMIT {MAX_ROWS + 1}").fetchall()
        finally:
            src.close()
    except sqlite3.DatabaseError as exc:
        raise InputError(_db_error(exc, "cannot read"), where=str(path)) from None
    if len(rows) > MAX_ROWS:
        raise InputError(f"more than {MAX_ROWS} rows: not a cards.cdb", where=str(path))
    for r in rows:
        if isinstance(r[-1], str) and len(r[-1]) > MAX_NAME_CHARS:
            raise InputError(
                f"card {r[0]}: a name over {MAX_NAME_CHARS} characters: not a cards.cdb",
                where=str(path),
            )
    return rows


def _add_cards(conn: sqlite3.Connection, plan: _Plan, now: str) -> int:
    dialect = plan.dialect or "edopro"
    rows = _read(
        plan.path,
        "SELECT d.id, d.ot, d.alias, d.type, d.atk, d.def, d.level, d.race, d.attribute, "
        f"substr(t.name, 1, {MAX_NAME_CHARS + 1}) "
        "FROM datas d LEFT JOIN texts t ON t.id = d.id",
    )
    sid = _source_id(conn, plan, len(rows), now)
    card_rows = []
    name_rows = []
    for cid_, ot, alias_, typ_, atk, df, level, race, attr, name in rows:
        cid = int(cid_)
        alias = int(alias_ or 0)
        typ = int(typ_ or 0)
        card_rows.append((
            cid, alias or cid, alias, common.alias_kind(cid, alias, dialect), typ,
            common.card_kind(typ), common.scopes_from_ot(int(ot or 0), dialect),
            int(level or 0), int(atk or 0), int(df or 0), int(race or 0), int(attr or 0),
            dialect, sid,
        ))
        if name and name.strip():
            name_rows.append((cid, "en", name, "name"))
    # Later files win: a card's row and its English name are replaced as a whole.
    conn.executemany(
        "INSERT OR REPLACE INTO cards (id, canonical, alias, alias_kind, type_bits, kind, scopes, "
        "level, atk, def, race, attribute, dialect, source_id) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        card_rows,
    )
    conn.executemany(
        "DELETE FROM names WHERE card_id = ? AND lang = 'en' AND kind = 'name'",
        [(r[0],) for r in name_rows],
    )
    conn.executemany(_INSERT_NAME, name_rows)
    return len(card_rows)


def _add_names(conn: sqlite3.Connection, plan: _Plan, now: str) -> int:
    lang = plan.lang or "en"
    rows = _read(plan.path, f"SELECT id, substr(name, 1, {MAX_NAME_CHARS + 1}) FROM texts")
    name_rows = [
        (int(cid), lang, name, "name")
        for cid, name in rows
        if name and name.strip()
    ]
    _source_id(conn, plan, len(name_rows), now)
    conn.executemany(
        "DELETE FROM names WHERE card_id = ? AND lang = ? AND kind = 'name'",
        [(r[0], lang) for r in name_rows],
    )
    conn.executemany(_INSERT_NAME, name_rows)
    return len(name_rows)


def _finish(conn: sqlite3.Connection, now: str) -> str:
    aliases = {int(i): int(a) for i, a in conn.execute("SELECT id, alias FROM cards")}
    canon = common.canonical_ids(aliases)
    stored = dict(conn.execute("SELECT id, canonical FROM cards").fetchall())
    changed = [(c, i) for i, c in canon.items() if stored.get(i) != c]
    conn.executemany("UPDATE cards SET canonical = ? WHERE id = ?", changed)
    common.store_keys(conn)
    parts = [
        f"{k}:{lang or ''}:{d or ''}:{sha}"
        for k, lang, d, sha in conn.execute(
            "SELECT kind, lang, dialect, sha256 FROM sources ORDER BY id"
        )
    ]
    fp = common.fingerprint_of(parts)
    conn.executemany(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
        [("schema_version", str(common.SCHEMA_VERSION)), ("built_at", now), ("fingerprint", fp),
         ("sample", "0")],
    )
    common.create_indexes(conn)
    return fp


def import_files(
    paths: Sequence[Path | str],
    *,
    db_path: Path | None = None,
    dialect: str | None = None,
    lang: str | None = None,
    progress: bool = False,
    lock: bool = True,
) -> ImportSummary:
    """Import ``cards.cdb`` files (cards) and ``locales/<lang>/cards.cdb`` files (names).

    Files merge in order (later files win); an existing database is extended. The result
    replaces the database only when complete. Raises InputError/DataError on bad input.
    """
    started = time.perf_counter()
    files = [Path(p) for p in paths]
    if not files:
        raise InputError("no files to import")
    db_path = Path(db_path) if db_path is not None else dc_paths.database_path()
    plans = [_inspect(p, lang) for p in files]
    if all(p.kind == "names" for p in plans) and not db_path.exists():
        # A names file adds names to cards; alone it would build a database of 0 cards
        # that hides the built-in sample.
        raise InputError(
            "names need cards: there is no card database yet; import a cards.cdb with it "
            f"(deckcheck db import cards.cdb {files[0]})",
            where=str(files[0]),
        )
    _choose_dialects(plans, dialect)
    for p in plans:
        p.sha256 = sha256_file(p.path)
        p.size = p.path.stat().st_size
    db_path.parent.mkdir(parents=True, exist_ok=True)
    lock_cm: contextlib.AbstractContextManager[None] = contextlib.nullcontext()
    if lock:
        installed = db_path.absolute() == dc_paths.database_path().absolute()
        # the installed database: the home lock (serialises with updates, finishes a
        # killed one first); a database elsewhere: a lock beside it
        lock_cm = staging.home_lock() if installed else exclusive_lock(db_path.parent / ".lock")
    with lock_cm:
        results = _build(db_path, plans, progress)
    conn = connect_ro(db_path)
    try:
        cards = conn.execute("SELECT count(*) FROM cards").fetchone()[0]
        by_lang = dict(
            conn.execute("SELECT lang, count(*) FROM names WHERE kind = 'name' GROUP BY lang")
        )
        fp = conn.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()[0]
    finally:
        conn.close()
    by_lang = {k: by_lang[k] for k in sorted(by_lang, key=_lang_order)}
    return ImportSummary(
        db_path, tuple(results), int(cards), by_lang, time.perf_counter() - started, str(fp)
    )


def _lang_order(lang: str) -> tuple[int, str]:
    return (common.LANGS.index(lang) if lang in common.LANGS else len(common.LANGS), lang)


def _build(db_path: Path, plans: list[_Plan], progress: bool) -> list[FileResult]:
    # An import killed mid-way (SIGKILL, power loss) leaves its temp copy behind, a whole
    # database each time. Only the lock holder writes one, so any found now is stale.
    for stale in db_path.parent.glob(".cards-*.sqlite3.tmp"):
        with contextlib.suppress(OSError):
            stale.unlink()
    results: list[FileResult] = []
    conn: sqlite3.Connection | None = None
    try:
        with fsio.replacing(db_path, prefix=".cards-", suffix=".sqlite3.tmp") as tmp:
            if db_path.exists():
                shutil.copyfile(db_path, tmp)
            conn = sqlite3.connect(tmp, isolation_level=None)
            conn.execute("PRAGMA journal_mode = OFF")
            conn.execute("PRAGMA synchronous = OFF")
            if db_path.exists():
                _check_existing(conn, db_path)
            common.create_tables(conn)
            now = dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()
            conn.execute("BEGIN")
            show = progress and sys.stderr.isatty()
            if show:
                import click

                bar_cm: contextlib.AbstractContextManager[Iterator[_Plan]] = click.progressbar(
                    plans, label="importing", file=sys.stderr,
                    item_show_func=lambda p: p.path.name if p else None,
                )
            else:
                bar_cm = contextlib.nullcontext(iter(plans))
            with bar_cm as items:
                for plan in items:
                    if plan.kind == "cards":
                        n = _add_cards(conn, plan, now)
                    else:
                        n = _add_names(conn, plan, now)
                    results.append(
                        FileResult(str(plan.path), plan.kind, n, plan.lang, plan.dialect)
                    )
            _finish(conn, now)
            conn.execute("COMMIT")
            conn.close()
            conn = None
    except sqlite3.DatabaseError as exc:
        raise DataError(f"import failed: {exc}", where=str(db_path)) from None
    finally:
        if conn is not None:
            conn.close()
    return results
