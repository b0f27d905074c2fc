"""Builds deckcheck's card database from EDOPro/YGOPro ``cards.cdb`` and locale name files.

The database is rebuilt atomically: a new file is written beside the old one and moved into
place only when complete, so a failed import leaves the installed database untouched.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import shutil
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from deckcheck import fsio, staging
from deckcheck import notes as dc_notes
from deckcheck import paths as dc_paths
from deckcheck.carddb import _common as common
from deckcheck.carddb import cardtext, cdbfile
from deckcheck.errors import DataError, InputError
from deckcheck.fsio import sha256_file
from deckcheck.records import Record, field, record
from deckcheck.sqlite import connect_ro, is_sqlite

_INSERT_NAME = "INSERT OR IGNORE INTO names (card_id, lang, name, kind) VALUES (?, ?, ?, ?)"


@record
class FileResult(Record):
    """What one input file contributed."""

    path: str
    kind: str  # cards | names | yaml-yugi-cards | yaml-yugi-rush | yaml-yugi-skill | ygojson
    rows: int
    lang: str | None = None
    dialect: str | None = None
    mapped: int | None = None  # official files: records attached to a card of the database
    unmapped: dict[str, int] | None = None  # official files: reason -> count (see notes)


@record
class ImportSummary(Record):
    """Result of ``import_files``: the database written and what is in it now."""

    db_path: Path
    files: tuple[FileResult, ...]
    cards: int
    names_by_lang: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    fingerprint: str = ""
    notes: tuple[str, ...] = ()  # what did not map, with counts and examples


# --------------------------------------------------------------------------- locking

# The one lock of the data home lives in deckcheck.staging (imports and updates share it).
exclusive_lock = staging.exclusive_lock


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


def _source_id(conn: sqlite3.Connection, plan: cdbfile.Plan, rows: int, now: str) -> int:
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


def _desc_sql(plan: cdbfile.Plan, table: str) -> str:
    """The card text column of a cdb, read in the same pass as its names (issue 30)."""
    if "desc" not in plan.extra:
        return "NULL"
    return f"substr({table}.desc, 1, {cardtext.MAX_CHARS + 1})"


def _add_cards(conn: sqlite3.Connection, plan: cdbfile.Plan, now: str) -> int:
    dialect = plan.dialect or "edopro"
    setcode = "d.setcode" if "setcode" in plan.extra else "0"
    rows = cdbfile.read_rows(
        plan.path,
        "SELECT d.id, d.ot, d.alias, d.type, d.atk, d.def, d.level, d.race, d.attribute, "
        f"{setcode}, {_desc_sql(plan, 't')}, substr(t.name, 1, {cdbfile.MAX_NAME_CHARS + 1}) "
        "FROM datas d LEFT JOIN texts t ON t.id = d.id",
    )
    sid = _source_id(conn, plan, len(rows), now)
    card_rows = []
    name_rows = []
    texts = cardtext.CdbTexts(plan.path, "en")
    p = plan.path
    for cid_, ot, alias_, typ_, atk, df, level, race, attr, setcode_, desc, name_ in rows:
        cid = cdbfile.passcode(cid_, "datas.id", p)
        alias = cdbfile.passcode(alias_, f"datas.alias of card {cid}", p)
        typ = cdbfile.as_int(typ_, "datas.type", p, cid)
        name = cdbfile.name_text(name_, cid, p)
        card_rows.append(
            (
                cid,
                alias or cid,
                alias,
                common.alias_kind(cid, alias, dialect),
                typ,
                common.card_kind(typ),
                common.scopes_from_ot(cdbfile.as_int(ot, "datas.ot", p, cid), dialect),
                cdbfile.as_int(level, "datas.level", p, cid),
                cdbfile.as_int(atk, "datas.atk", p, cid),
                cdbfile.as_int(df, "datas.def", p, cid),
                cdbfile.as_int(race, "datas.race", p, cid),
                cdbfile.as_int(attr, "datas.attribute", p, cid),
                cdbfile.as_int(setcode_, "datas.setcode", p, cid),
                dialect,
                sid,
            )
        )
        if name and name.strip():
            name_rows.append((cid, "en", name, "name"))
        if desc is not None:
            texts.add(cid, desc)
    # Later files win: a card's row and its English name are replaced as a whole.
    conn.executemany(
        "INSERT OR REPLACE INTO cards (id, canonical, alias, alias_kind, type_bits, kind, scopes, "
        "level, atk, def, race, attribute, setcode, dialect, source_id) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        card_rows,
    )
    conn.executemany(
        "DELETE FROM names WHERE card_id = ? AND lang = 'en' AND kind = 'name'",
        [(r[0],) for r in name_rows],
    )
    conn.executemany(_INSERT_NAME, name_rows)
    if (said := texts.write(conn)) is not None:
        plan.notes.append(said)
    return len(card_rows)


def _add_names(conn: sqlite3.Connection, plan: cdbfile.Plan, now: str) -> int:
    lang = plan.lang or "en"
    rows = cdbfile.read_rows(
        plan.path,
        f"SELECT id, {_desc_sql(plan, 'texts')}, "
        f"substr(name, 1, {cdbfile.MAX_NAME_CHARS + 1}) FROM texts",
    )
    name_rows = []
    texts = cardtext.CdbTexts(plan.path, lang)
    for cid_, desc, name_ in rows:
        cid = cdbfile.passcode(cid_, "texts.id", plan.path)
        name = cdbfile.name_text(name_, cid, plan.path)
        if name and name.strip():
            name_rows.append((cid, lang, name, "name"))
        if desc is not None:
            texts.add(cid, desc)
    _source_id(conn, plan, len(name_rows), now)
    conn.executemany(
        "DELETE FROM names WHERE card_id = ? AND lang = ? AND kind = 'name'",
        [(r[0], lang) for r in name_rows],
    )
    conn.executemany(_INSERT_NAME, name_rows)
    if (said := texts.write(conn)) is not None:
        plan.notes.append(said)
    return len(name_rows)


def _finish(conn: sqlite3.Connection, now: str, note: Callable[[str], None]) -> str:
    aliases = {int(i): int(a) for i, a in conn.execute("SELECT id, alias FROM cards")}
    canon = common.canonical_ids(aliases)
    stored = dict(conn.execute("SELECT id, canonical FROM cards").fetchall())
    changed = [(c, i) for i, c in canon.items() if stored.get(i) != c]
    conn.executemany("UPDATE cards SET canonical = ? WHERE id = ?", changed)
    common.store_keys(conn)
    from deckcheck.carddb import archetypes, cardfields

    cardfields.rebuild(conn)  # from the canonical ids just stored

    archetypes.rebuild(conn)
    cardtext.rebuild_index(conn, note)  # by name key: after store_keys
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
    plans: list[cdbfile.Plan] = []
    extra: list[official.Plan] = []
    for f in files:
        sniffed = official.sniff(f)
        if sniffed is None:
            plans.append(cdbfile.inspect(f, lang))
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

    cdbfile.choose_dialects(plans, dialect)
    for p in plans:
        p.sha256 = sha256_file(p.path)
        p.size = p.path.stat().st_size
    db_path.parent.mkdir(parents=True, exist_ok=True)
    installed = db_path.absolute() == dc_paths.database_path().absolute()
    if lock and installed:
        # the installed database: a new state (home lock; serialises with updates; the
        # database and lists switch together in one step, staging.new_state)
        size = sum(p.size for p in plans) + sum(p.size for p in extra)
        with staging.new_state(keep_db=False, size_hint=size) as st:
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
    plans: list[cdbfile.Plan],
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
                for said in plan.notes:
                    note(said)
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
            _finish(conn, now, note)
            conn.execute("COMMIT")
            conn.close()
            conn = None
    except sqlite3.DatabaseError as exc:
        raise DataError(f"import failed: {exc}", where=str(db_path)) from None
    finally:
        if conn is not None:
            conn.close()
    return results
