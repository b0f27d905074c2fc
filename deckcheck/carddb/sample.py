"""The built-in sample card set: ``card_db/sample.yaml`` turned into a card database.

Built once into ``cache_dir()`` (keyed by the sample file's hash) so later runs skip yaml;
where the cache cannot be written, the database is built in memory instead.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

from deckcheck import fsio, paths
from deckcheck.carddb import _common as common
from deckcheck.carddb.db import CardDB, connect_ro
from deckcheck.dates import to_iso
from deckcheck.errors import DataError
from deckcheck.model import scope_bits


def sample_path() -> Path:
    return paths.builtin_card_db_dir() / "sample.yaml"


def open_sample() -> CardDB:
    """The sample as a read-only CardDB (``is_sample`` True)."""
    src = sample_path()
    try:
        raw = src.read_bytes()
    except OSError as exc:
        raise DataError(f"built-in sample card set unreadable: {exc}", where=str(src)) from None
    digest = fsio.sha256_bytes(raw)
    # The schema version is in the name: a cache built by an older deckcheck is not reused.
    cached = paths.cache_dir() / f"sample-{digest[:16]}-v{common.SCHEMA_VERSION}.sqlite3"
    if cached.is_file():
        try:
            return CardDB(connect_ro(cached), cached, is_sample=True)
        except DataError:
            pass  # a damaged cache file is rebuilt below
    try:
        with fsio.replacing(cached, mkdir=True, prefix=".sample-") as tmp:
            conn = sqlite3.connect(tmp)
            try:
                build(conn, raw, digest, src)
            finally:
                conn.close()
    except OSError:
        # A read-only cache folder: build the sample in memory (every run, but it works).
        conn = sqlite3.connect(":memory:", check_same_thread=False)
        build(conn, raw, digest, src)
        return CardDB(conn, src, is_sample=True)
    fsio.remove_others(cached, "sample-*.sqlite3")  # caches of earlier sample files
    return CardDB(connect_ro(cached), cached, is_sample=True)


def build(conn: sqlite3.Connection, raw: bytes, digest: str, src: Path) -> None:
    """Fill ``conn`` (empty) with the sample described by the YAML text ``raw``."""
    import yaml

    try:
        doc = yaml.load(raw, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        cards_in = doc["cards"]
        dialect = doc.get("dialect", "edopro")
        common.create_tables(conn)
        cards = []
        names = []
        aliases = {}
        for c in cards_in:
            cid, alias, typ = int(c["id"]), int(c.get("alias", 0)), int(c["type"])
            aliases[cid] = alias
            cards.append(
                (
                    cid,
                    alias or cid,
                    alias,
                    common.alias_kind(cid, alias, dialect),
                    typ,
                    common.card_kind(typ),
                    scope_bits(c.get("scopes", [])),
                    int(c.get("level", 0)),
                    int(c.get("atk", 0)),
                    int(c.get("def", 0)),
                    int(c.get("race", 0)),
                    int(c.get("attribute", 0)),
                    to_iso(c.get("ocg_date")),
                    to_iso(c.get("tcg_date")),
                    dialect,
                    1,
                )
            )
            per_lang = {"en": c["name"], **(c.get("names") or {})}
            for lang, value in per_lang.items():
                for n in [value] if isinstance(value, str) else value:
                    names.append((cid, lang, n, "name"))
            for lang, value in (c.get("readings") or {}).items():
                for n in [value] if isinstance(value, str) else value:
                    names.append((cid, lang, n, "reading"))
    except (yaml.YAMLError, KeyError, TypeError, ValueError) as exc:
        raise DataError(f"built-in sample card set malformed: {exc}", where=str(src)) from None
    canon = common.canonical_ids(aliases)
    cards = [(r[0], canon[r[0]], *r[2:]) for r in cards]
    with conn:
        conn.executemany(
            "INSERT OR REPLACE INTO cards (id, canonical, alias, alias_kind, type_bits, kind, "
            "scopes, level, atk, def, race, attribute, ocg_date, tcg_date, dialect, source_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            cards,
        )
        conn.executemany(
            "INSERT OR IGNORE INTO names (card_id, lang, name, kind) VALUES (?, ?, ?, ?)", names
        )
        common.store_keys(conn)
        now = dt.datetime.fromtimestamp(src.stat().st_mtime, dt.UTC).replace(microsecond=0)
        conn.execute(
            "INSERT INTO sources (id, path, sha256, size, imported_at, dialect, lang, rows, kind) "
            "VALUES (1, ?, ?, ?, ?, ?, NULL, ?, 'sample')",
            ("card_db/sample.yaml", digest, len(raw), now.isoformat(), dialect, len(cards)),
        )
        conn.executemany(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
            [
                ("schema_version", str(common.SCHEMA_VERSION)),
                ("built_at", now.isoformat()),
                ("fingerprint", f"sample-{digest[:24]}"),
                ("sample", "1"),
            ],
        )
        common.create_indexes(conn)
