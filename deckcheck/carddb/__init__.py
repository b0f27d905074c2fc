"""Read access to the card database: cards by passcode, card identity, names per language.

``open_db()`` opens the installed database read-only, or the built-in sample when none is
installed. Card identity is decided at import time (``_common.compute_keys``) and only read
here, as three keys: the copy key (``copy_key``/``canonical``: what counts toward 3 copies and
list limits), the list key (``list_key``: what a list entry names) and the name key
(``name_key``: what lookup shows). ``goes_to_extra`` says where a card is played.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from deckcheck import notes, paths
from deckcheck import sqlite as dc_sqlite
from deckcheck.carddb import _common
from deckcheck.dates import optional_date
from deckcheck.errors import DataError
from deckcheck.model import SUBTYPE_BITS, TYPE_MONSTER, Card, Format, Scope

__all__ = [
    "CardDB", "extra_deck_bits", "goes_to_extra", "mark_sample_noted", "open_db",
]

_CARD_SQL = (
    "SELECT c.id, c.canonical, c.alias_kind, c.type_bits, c.scopes, c.level, c.atk, c.def, "
    "c.race, c.attribute, c.ocg_date, c.tcg_date, {keys}, "
    "(SELECT n.name FROM names n WHERE n.card_id = c.id AND n.lang = 'en' AND n.kind = 'name' "
    " LIMIT 1), "
    "(SELECT n.name FROM names n WHERE n.card_id = c.canonical AND n.lang = 'en' "
    " AND n.kind = 'name' LIMIT 1) "
    "FROM cards c WHERE c.id = ?"
)

_sample_noted = False


def mark_sample_noted(noted: bool = True) -> None:
    """Say (or forget) that the "built-in sample in use" note was given in this process.

    A worker process whose parent already gave the note marks it so as not to repeat it.
    """
    global _sample_noted
    _sample_noted = noted


def extra_deck_bits(extra_deck_types: Iterable[str]) -> int:
    """The type bits of a format's ``extra_deck_types`` (compute once per format and date)."""
    bits = 0
    for t in extra_deck_types:
        bits |= SUBTYPE_BITS.get(t, 0)
    return bits


def goes_to_extra(card: Card, extra: Format | int) -> bool:
    """True when a monster of ``card``'s types is played from the Extra Deck.

    ``extra`` is the format as in force on the date (its ``extra_deck_types``), or the bits
    ``extra_deck_bits`` made of them.
    """
    bits = extra if isinstance(extra, int) else extra_deck_bits(extra.extra_deck_types)
    return bool(card.type_bits & TYPE_MONSTER and card.type_bits & bits)


class CardDB:
    """One opened card database (read-only). Cheap lookups, cached per id."""

    def __init__(self, conn: sqlite3.Connection, path: Path, *, is_sample: bool = False):
        self._conn = conn
        self.path = path
        self.is_sample = is_sample
        self._cards: dict[int, Card | None] = {}
        self._keys: dict[int, tuple[int, int]] = {}  # id -> (list key, name key)
        try:
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            conn.execute("SELECT id FROM cards LIMIT 1").fetchall()
            columns = {r[1] for r in conn.execute("PRAGMA table_info(cards)")}
        except sqlite3.DatabaseError as exc:
            raise DataError(
                f"not a deckcheck card database ({exc}); "
                "remove it with 'deckcheck db reset' or rebuild it with "
                "'deckcheck db import --replace FILE…'",
                where=str(path),
            ) from None
        self.meta: dict[str, str] = meta
        # A schema-1 database (keys not stored yet) gets them computed once, the same way.
        self._legacy = "list_key" not in columns
        self._card_sql = _CARD_SQL.format(
            keys="c.id, c.id" if self._legacy else "c.list_key, c.name_key"
        )
        self.fingerprint: str = meta.get("fingerprint", "")
        if not self.fingerprint:
            st = path.stat()
            self.fingerprint = f"{st.st_mtime_ns:x}-{st.st_size:x}"

    # ------------------------------------------------------------------ cards

    def get(self, card_id: int) -> Card | None:
        """The card with this passcode, or None when the database does not have it."""
        try:
            return self._cards[card_id]
        except KeyError:
            pass
        row = self._query(self._card_sql, (card_id,)).fetchone()
        card = None
        if row is not None:
            (cid, canon, akind, typ, scopes, level, atk, df, race, attr, ocg, tcg, lkey, nkey,
             en, canon_en) = row
            card = Card(
                id=cid, name=_common.display_name(cid, akind, en, canon_en), canonical=canon,
                alias_kind=akind, type_bits=typ, scopes=Scope(scopes), level=level, atk=atk,
                defense=df, race=race, attribute=attr, ocg_date=optional_date(ocg),
                tcg_date=optional_date(tcg),
            )
            if self._legacy:
                lkey, nkey = self._legacy_keys()[cid]
            self._keys[cid] = (lkey, nkey)
        self._cards[card_id] = card
        return card

    def _legacy_keys(self) -> dict[int, tuple[int, int]]:
        got: dict[int, tuple[int, int]] | None = getattr(self, "_all_keys", None)
        if got is None:
            try:
                got = self._all_keys = _common.compute_keys(self._conn)
            except sqlite3.DatabaseError as exc:
                raise DataError(f"card database unreadable: {exc}", where=str(self.path)) from None
        return got

    def __contains__(self, card_id: object) -> bool:
        return isinstance(card_id, int) and self.get(card_id) is not None

    def canonical(self, card_id: int) -> int:
        """The copy key: the id whose copies and list status this card shares (itself when
        unknown). Artwork alternates and "always treated as" cards share their main card's."""
        card = self.get(card_id)
        return card.canonical if card is not None else card_id

    copy_key = canonical

    def list_key(self, card_id: int) -> int:
        """The id a list entry names: artwork alternates merged into their main card,
        "treated as" cards kept apart (itself when unknown)."""
        if self.get(card_id) is None:
            return card_id
        return self._keys[card_id][0]

    def name_key(self, card_id: int) -> int:
        """The id lookup shows for this passcode: artworks collapse to their main card, a
        "treated as" card only when it has its main card's very name (itself when unknown)."""
        if self.get(card_id) is None:
            return card_id
        return self._keys[card_id][1]

    def alternates(self, canonical: int) -> list[int]:
        """Alternate-artwork passcodes of a card (not the card itself), ascending."""
        rows = self._query(
            "SELECT id FROM cards WHERE canonical = ? AND alias_kind = 'artwork' AND id != ? "
            "ORDER BY id",
            (canonical, canonical),
        )
        return [r[0] for r in rows]

    def same_card(self, canonical: int) -> list[int]:
        """Every passcode that counts as this card (artworks and "treated as"), ascending."""
        rows = self._query(
            "SELECT id FROM cards WHERE canonical = ? AND id != ? ORDER BY id",
            (canonical, canonical),
        )
        return [r[0] for r in rows]

    def all_ids(self) -> list[int]:
        return [r[0] for r in self._query("SELECT id FROM cards ORDER BY id", ())]

    def __len__(self) -> int:
        return int(self._query("SELECT count(*) FROM cards", ()).fetchone()[0])

    # ------------------------------------------------------------------ names

    def _names_of(self, card_id: int, lang: str | None, kind: str = "name") -> list[str]:
        if lang is None:
            sql, args = "SELECT name FROM names WHERE card_id = ? AND kind = ?", (card_id, kind)
        else:
            sql = "SELECT name FROM names WHERE card_id = ? AND lang = ? AND kind = ?"
            args = (card_id, lang, kind)  # type: ignore[assignment]
        return [r[0] for r in self._query(sql, args)]

    def name(self, card_id: int, lang: str = "en") -> str:
        """The card's name in ``lang``; alternate artworks fall back to their main card,
        other languages to English; an unknown id gives the passcode as text."""
        card = self.get(card_id)
        ids = [card_id]
        if card is not None and card.alias_kind == "artwork" and card.canonical != card_id:
            ids.append(card.canonical)
        for lg in dict.fromkeys([lang, "en"]):
            for i in ids:
                got = self._names_of(i, lg)
                if got:
                    return got[0]
        return card.name if card is not None else str(card_id)

    def names(self, card_id: int) -> dict[str, list[str]]:
        """Every name of a card per language (readings under ``<lang>_reading``).

        An alternate artwork without a name of its own in a language takes its main card's.
        """
        out: dict[str, list[str]] = {}
        for lang, name, kind in self._query(
            "SELECT lang, name, kind FROM names WHERE card_id = ?", (card_id,)
        ):
            out.setdefault(lang if kind == "name" else f"{lang}_reading", []).append(name)
        card = self.get(card_id)
        if card is not None and card.alias_kind == "artwork" and card.canonical != card_id:
            for lang, got in self.names(card.canonical).items():
                out.setdefault(lang, got)
        return out

    def iter_names(self) -> Iterator[tuple[int, str, str, str]]:
        """(card_id, lang, name, kind) for every name of a card in the database."""
        yield from self._query(
            "SELECT n.card_id, n.lang, n.name, n.kind FROM names n "
            "JOIN cards c ON c.id = n.card_id ORDER BY n.card_id",
            (),
        )

    # ------------------------------------------------------------------ info

    def info(self) -> dict[str, Any]:
        """What is installed: path, sample or not, counts by kind/scope/language, sources."""
        q = self._query
        by_kind = dict(q("SELECT kind, count(*) FROM cards GROUP BY kind ORDER BY kind", ()))
        by_scope: dict[str, int] = {}
        for scope in Scope:
            n = q("SELECT count(*) FROM cards WHERE scopes & ? != 0", (int(scope),)).fetchone()[0]
            if n:
                by_scope[str(scope.name).lower()] = n
        names: dict[str, dict[str, int]] = {}
        for lang, kind, rows, cards in q(
            "SELECT lang, kind, count(*), count(DISTINCT card_id) FROM names "
            "GROUP BY lang, kind",
            (),
        ):
            key = lang if kind == "name" else f"{lang}_reading"
            names[key] = {"names": rows, "cards": cards}
        order = {lg: i for i, lg in enumerate(_common.LANGS)}
        names = dict(sorted(names.items(), key=lambda kv: (order.get(kv[0], 99), kv[0])))
        sources = [
            {"path": p, "sha256": s, "size": z, "imported_at": t, "dialect": d, "lang": lg,
             "rows": r, "kind": k}
            for p, s, z, t, d, lg, r, k in q(
                "SELECT path, sha256, size, imported_at, dialect, lang, rows, kind FROM sources "
                "ORDER BY id",
                (),
            )
        ]
        return {
            "path": str(self.path),
            "sample": self.is_sample,
            "schema_version": int(self.meta.get("schema_version", 0)),
            "built_at": self.meta.get("built_at"),
            "fingerprint": self.fingerprint,
            "cards": sum(by_kind.values()),
            "by_kind": by_kind,
            "by_scope": by_scope,
            "names": names,
            "sources": sources,
        }

    # ------------------------------------------------------------------ plumbing

    def _query(self, sql: str, args: tuple[Any, ...]) -> sqlite3.Cursor:
        try:
            return self._conn.execute(sql, args)
        except sqlite3.DatabaseError as exc:
            raise DataError(f"card database unreadable: {exc}", where=str(self.path)) from None

    def close(self) -> None:
        self._conn.close()


def connect_ro(path: Path) -> sqlite3.Connection:
    """A read-only connection (validation never writes the database)."""
    return dc_sqlite.connect_ro(path, check_same_thread=False)


def open_db(path: Path | str | None = None) -> CardDB:
    """The card database at ``path``, the installed one, or the built-in sample.

    Raises DataError when ``path`` is given but missing, or the file is not a deckcheck
    database.
    """
    if path is not None:
        p = Path(path)
        if not p.is_file():
            raise DataError("no card database here", where=str(p))
        return _open_file(p)
    installed = paths.database_path()
    if installed.is_file():
        return _open_file(installed)
    from deckcheck.carddb import sample

    db = sample.open_sample()
    _note_sample(len(db))
    return db


def _open_file(p: Path) -> CardDB:
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
