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
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckcheck import fsio, staging
from deckcheck import notes as dc_notes
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
    kind: str  # cards | names | yaml-yugi-cards | yaml-yugi-rush | yaml-yugi-skill | ygojson
    rows: int
    lang: str | None = None
    dialect: str | None = None
    mapped: int | None = None  # official files: records attached to a card of the database
    unmapped: dict[str, int] | None = None  # official files: reason -> count (see notes)


@dataclass(frozen=True, slots=True)
class ImportSummary:
    """Result of ``import_files``: the database written and what is in it now."""

    db_path: Path
    files: tuple[FileResult, ...]
    cards: int
    names_by_lang: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    fingerprint: str = ""
    notes: tuple[str, ...] = ()  # what did not map, with counts and examples


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


_MAX_PASSCODE = 0xFFFFFFFF  # passcodes are 32-bit in every client


def _int(value: Any, column: str, path: Path, card: Any = None) -> int:
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


def _passcode(value: Any, column: str, path: Path) -> int:
    cid = _int(value, column, path)
    if not 0 <= cid <= _MAX_PASSCODE:
        raise InputError(
            f"not a usable cards.cdb: {column} {cid} is not a passcode (0 to 4294967295)",
            where=str(path),
        )
    return cid


def _name(value: Any, card: int, path: Path) -> str | None:
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


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {r[1].lower() for r in conn.execute(f"PRAGMA table_info({table})")}


def _inspect(path: Path, lang: str | None) -> _Plan:
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
            bits |= _int(ot, "datas.ot", path)
        max_id = _int(conn.execute("SELECT max(id) FROM datas").fetchone()[0], "datas.id", path)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # (text that is not UTF-8)
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
            f"the installed database cannot be extended ({exc}); {CORRUPT_ADVICE}",
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
        (
            str(plan.path.absolute()),
            plan.sha256,
            plan.size,
            now,
            plan.dialect,
            plan.lang,
            rows,
            plan.kind,
        ),
    )
    sid = conn.execute("SELECT id FROM sources WHERE path = ?", (str(plan.path.absolute()),))
    return int(sid.fetchone()[0])


def _bounded(conn: sqlite3.Connection) -> sqlite3.Connection:
    """``conn`` with SQLite work capped at ``MAX_SECONDS`` (then "interrupted")."""
    deadline = time.monotonic() + MAX_SECONDS
    conn.set_progress_handler(lambda: int(time.monotonic() > deadline), _PROGRESS_STEPS)
    return conn


def _db_error(exc: sqlite3.DatabaseError | UnicodeDecodeError, what: str) -> str:
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
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
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
    p = plan.path
    for cid_, ot, alias_, typ_, atk, df, level, race, attr, name_ in rows:
        cid = _passcode(cid_, "datas.id", p)
        alias = _passcode(alias_, f"datas.alias of card {cid}", p)
        typ = _int(typ_, "datas.type", p, cid)
        name = _name(name_, cid, p)
        card_rows.append(
            (
                cid,
                alias or cid,
                alias,
                common.alias_kind(cid, alias, dialect),
                typ,
                common.card_kind(typ),
                common.scopes_from_ot(_int(ot, "datas.ot", p, cid), dialect),
                _int(level, "datas.level", p, cid),
                _int(atk, "datas.atk", p, cid),
                _int(df, "datas.def", p, cid),
                _int(race, "datas.race", p, cid),
                _int(attr, "datas.attribute", p, cid),
                dialect,
                sid,
            )
        )
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
    name_rows = []
    for cid_, name_ in rows:
        cid = _passcode(cid_, "texts.id", plan.path)
        name = _name(name_, cid, plan.path)
        if name and name.strip():
            name_rows.append((cid, lang, name, "name"))
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
    from deckcheck.carddb import official

    fp = common.fingerprint_of(parts + official.fingerprint_parts(conn))
    conn.executemany(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
        [
            ("schema_version", str(common.SCHEMA_VERSION)),
            ("built_at", now),
            ("fingerprint", fp),
            ("sample", "0"),
        ],
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
    note: Callable[[str], None] | None = None,
    replace: bool = False,
) -> ImportSummary:
    """Import ``cards.cdb`` files (cards), ``locales/<lang>/cards.cdb`` files (names) and
    official data (yaml-yugi arrays, YGOJSON folder or zip), each told apart by content.

    Files merge in order (later files win; official files after the cdb files); an existing
    database is extended. The result replaces the database only when complete. What does
    not map goes to ``note`` (and ``ImportSummary.notes``). ``replace``: build from these
    files alone, replacing the installed database (the way out when it is corrupt). Raises
    InputError/DataError on bad input.
    """
    from deckcheck.carddb import official

    started = time.perf_counter()
    files = [Path(p) for p in paths]
    if not files:
        raise InputError("no files to import")
    db_path = Path(db_path) if db_path is not None else dc_paths.database_path()
    plans: list[_Plan] = []
    extra: list[official.Plan] = []
    for f in files:
        sniffed = official.sniff(f)
        if sniffed is None:
            plans.append(_inspect(f, lang))
        else:
            extra.append(official.plan(f, sniffed))
    if extra and not any(p.kind == "cards" for p in plans) and not db_path.is_file():
        raise InputError(
            "import a cards.cdb first: official data is attached to the cards of an "
            "installed database",
            where=str(extra[0].path),
        )
    if plans and all(p.kind == "names" for p in plans) and not extra and not db_path.exists():
        # A names file adds names to cards; alone it would build a database of 0 cards
        # that hides the built-in sample.
        raise InputError(
            "names need cards: there is no card database yet; import a cards.cdb with it "
            f"(deckcheck db import cards.cdb {files[0]})",
            where=str(files[0]),
        )
    notes: list[str] = []

    def _note(text: str) -> None:
        notes.append(text)
        if note is not None:
            note(text)

    _choose_dialects(plans, dialect)
    for p in plans:
        p.sha256 = sha256_file(p.path)
        p.size = p.path.stat().st_size
    db_path.parent.mkdir(parents=True, exist_ok=True)
    installed = db_path.absolute() == dc_paths.database_path().absolute()
    if lock and installed:
        # the installed database: a new state (home lock; serialises with updates; the
        # database and lists switch together in one step, staging.new_state)
        with staging.new_state(keep_db=False) as st:
            base = st.old_db
            if not replace and base is not None:
                _check_installed(base)
            results = _build(
                st.db, plans, progress, official.order(extra), _note, extend=not replace, base=base
            )
        db_path = dc_paths.data_home() / dc_paths.DB_NAME  # its stable name (a link)
    else:
        lock_cm: contextlib.AbstractContextManager[None] = contextlib.nullcontext()
        if lock:
            lock_cm = exclusive_lock(db_path.parent / ".lock")  # a database elsewhere
        with lock_cm:
            if not replace:
                _check_installed(db_path)
            results = _build(
                db_path, plans, progress, official.order(extra), _note, extend=not replace
            )
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
        db_path,
        tuple(results),
        int(cards),
        by_lang,
        time.perf_counter() - started,
        str(fp),
        tuple(notes),
    )


def _lang_order(lang: str) -> tuple[int, str]:
    return (common.LANGS.index(lang) if lang in common.LANGS else len(common.LANGS), lang)


CORRUPT_ADVICE = (
    "rebuild it from cdb files with 'deckcheck db import --replace FILE…', "
    "or remove it with 'deckcheck db reset' (then 'deckcheck update' or "
    "'deckcheck db import FILE…')"
)


def _check_installed(db_path: Path) -> None:
    """DataError with the way out when the installed database cannot be extended: it is not
    SQLite or not readable as one (an import that extends it would fail on the same file)."""
    if not db_path.exists():
        return
    try:
        ok = is_sqlite(db_path)
        if ok:
            conn = connect_ro(db_path)
            try:
                conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            finally:
                conn.close()
    except sqlite3.DatabaseError as exc:
        raise DataError(
            f"the installed card database is corrupt ({exc}); {CORRUPT_ADVICE}", where=str(db_path)
        ) from None
    if not ok:
        raise DataError(
            f"the installed card database is not SQLite; {CORRUPT_ADVICE}", where=str(db_path)
        )


def reset(db_path: Path | None = None) -> Path | None:
    """Remove the installed card database (under the import lock); the path removed, or None
    when none was installed. Lookups fall back to the built-in sample until the next import."""
    db_path = Path(db_path) if db_path is not None else dc_paths.database_path()
    if not db_path.exists() and not db_path.is_symlink():
        return None
    if db_path.absolute() == dc_paths.database_path().absolute():
        # the installed one: the next state has no database (one step, home lock)
        with staging.new_state(keep_db=False):
            pass
        return db_path
    with exclusive_lock(db_path.parent / ".lock"):
        try:
            db_path.unlink()
        except FileNotFoundError:
            return None
    return db_path


def _build(
    db_path: Path,
    plans: list[_Plan],
    progress: bool,
    extra: Sequence[Any] = (),
    note: Callable[[str], None] = lambda _text: None,
    *,
    extend: bool = True,
    base: Path | None = None,
) -> list[FileResult]:
    src = base if base is not None else db_path
    # An import killed mid-way (SIGKILL, power loss) leaves its temp copy behind, a whole
    # database each time. Only the lock holder writes one, so any found now is stale.
    for stale in db_path.parent.glob(".cards-*.sqlite3.tmp"):
        with contextlib.suppress(OSError):
            stale.unlink()
    results: list[FileResult] = []
    conn: sqlite3.Connection | None = None
    try:
        with fsio.replacing(db_path, prefix=".cards-", suffix=".sqlite3.tmp") as tmp:
            if extend and src.exists():
                shutil.copyfile(src, tmp)
            conn = sqlite3.connect(tmp, isolation_level=None)
            conn.execute("PRAGMA journal_mode = OFF")
            conn.execute("PRAGMA synchronous = OFF")
            if extend and src.exists():
                _check_existing(conn, src)
            common.create_tables(conn)
            now = dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()
            conn.execute("BEGIN")
            total = len(plans) + len(extra)
            for i, plan in enumerate(plans, 1):
                if progress:  # rendered by the CLI's progress sink (deckcheck.notes)
                    dc_notes.progress(f"\rimporting {i}/{total} {plan.path.name[-40:]:40}")
                if plan.kind == "cards":
                    n = _add_cards(conn, plan, now)
                else:
                    n = _add_names(conn, plan, now)
                results.append(FileResult(str(plan.path), plan.kind, n, plan.lang, plan.dialect))
            if extra:
                from deckcheck.carddb import official

                for i, oplan in enumerate(extra, len(plans) + 1):
                    if progress:
                        dc_notes.progress(f"\rimporting {i}/{total} {oplan.path.name[-40:]:40}")
                    got = official.apply(conn, oplan, now, note)
                    results.append(
                        FileResult(
                            got.path, got.kind, got.rows, mapped=got.mapped, unmapped=got.unmapped
                        )
                    )
            if progress:
                dc_notes.progress("\rbuilding indexes" + " " * 50 + "\n")
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
