"""One opened card database (read-only): cards by passcode, the identity keys decided at
import, names per language, official release data; and where a card is played."""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
from collections.abc import Iterable, Iterator
from functools import cached_property
from typing import TYPE_CHECKING, Any

from deckcheck import sqlite as dc_sqlite
from deckcheck.carddb import _common
from deckcheck.carddb._common import RELEASE_REGIONS
from deckcheck.dates import optional_date
from deckcheck.errors import DataError
from deckcheck.model import SUBTYPE_BITS, TYPE_MONSTER, Card, Format

if TYPE_CHECKING:
    from pathlib import Path

_CARD_SQL = (
    "SELECT c.id, c.canonical, c.alias_kind, c.type_bits, {fields}, c.level, c.atk, c.def, "
    "c.race, c.attribute, {keys}, "
    "(SELECT n.name FROM names n WHERE n.card_id = c.id AND n.lang = 'en' AND n.kind = 'name' "
    " LIMIT 1), "
    "(SELECT n.name FROM names n WHERE n.card_id = c.canonical AND n.lang = 'en' "
    " AND n.kind = 'name' LIMIT 1) "
    "FROM cards c{join}"
)
# A card's release fields: its own columns, or those the import decided (card_fields).
_PLAIN_FIELDS = "c.scopes, c.ocg_date, c.tcg_date, NULL, NULL, NULL, NULL"
_DECIDED_FIELDS = (
    "coalesce(f.scopes, c.scopes), coalesce(f.ocg_date, c.ocg_date), "
    "coalesce(f.tcg_date, c.tcg_date), f.md_date, f.dl_date, f.in_md, f.in_dl"
)
_DECIDED_JOIN = " LEFT JOIN card_fields f ON f.card_id = c.id"

_REGION_ALIASES = {
    "jp": "ocg",
    "md": "masterduel",
    "master-duel": "masterduel",
    "master_duel": "masterduel",
    "dl": "duellinks",
    "duel-links": "duellinks",
    "duel_links": "duellinks",
}
#: ids per query of ``CardDB.get_many`` (below SQLite's oldest limit of 999 parameters)
_MANY = 900
_INT64 = -(1 << 63)


def region_code(region: str) -> str:
    """The stored code of a release region (``jp`` -> ``ocg``); ValueError when unknown."""
    r = region.strip().lower()
    r = _REGION_ALIASES.get(r, r)
    if r not in RELEASE_REGIONS:
        raise ValueError(f"unknown release region {region!r} (use {', '.join(RELEASE_REGIONS)})")
    return r


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

    _path: str | Path

    @property
    def path(self) -> Path:
        """The database file (made a Path when first asked: ``open_db`` gives a string, so
        the one-deck path imports no ``pathlib``)."""
        if isinstance(self._path, str):
            from pathlib import Path

            self._path = Path(self._path)
        return self._path

    def __init__(self, conn: sqlite3.Connection, path: str | Path, *, is_sample: bool = False):
        self._conn = conn
        self._path = path
        self.is_sample = is_sample
        self._cards: dict[int, Card | None] = {}
        self._keys: dict[int, tuple[int, int]] = {}  # id -> (list key, name key)
        self._releases: dict[int, dict[str, tuple[dt.date, str]]] = {}
        self._games: dict[int, dict[str, bool]] = {}  # id -> game -> in it (carddb.games)
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
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        # Databases built before the official-data tables existed simply have none of it.
        self._official = {"konami_ids", "releases", "official_ids"} <= tables
        self.has_releases = self._official and bool(
            conn.execute("SELECT 1 FROM releases LIMIT 1").fetchall()
        )
        self._game_table = self._official and "game_cards" in tables
        # Schema 4 stores each card's release fields at import (carddb/cardfields.py): read
        # in the card's row, they save a query per card, 13M (5.6%) of a one-deck validate
        # with the official data (callgrind). An older database decides them per card here.
        decided = "card_fields" in tables
        self._per_card = not decided and self._official
        self._all_sql = _CARD_SQL.format(
            fields=_DECIDED_FIELDS if decided else _PLAIN_FIELDS,
            keys="c.id, c.id" if self._legacy else "c.list_key, c.name_key",
            join=_DECIDED_JOIN if decided else "",
        )
        self._card_sql = self._all_sql + " WHERE c.id = ?"
        self.fingerprint: str = meta.get("fingerprint", "")
        if not self.fingerprint:
            st = os.stat(path)
            self.fingerprint = f"{st.st_mtime_ns:x}-{st.st_size:x}"

    @cached_property
    def games(self) -> frozenset[str]:
        """The video games the official card data says which cards are in (carddb.games):
        one indexed lookup per game (``SELECT DISTINCT game`` read every row of the table,
        tens of thousands, on every command)."""
        if not self._game_table:
            return frozenset()
        sql = "SELECT 1 FROM game_cards WHERE game = ? LIMIT 1"
        return frozenset(g for g in _common.GAMES if self._query(sql, (g,)).fetchone())

    # ------------------------------------------------------------------ cards

    def get(self, card_id: int) -> Card | None:
        """The card with this passcode, or None when the database does not have it."""
        try:
            return self._cards[card_id]
        except KeyError:
            pass
        row = self._query(self._card_sql, (card_id,)).fetchone()
        card = self._card_from_row(row) if row is not None else None
        self._cards[card_id] = card
        return card

    def get_many(self, card_ids: Iterable[int | None]) -> dict[int, Card | None]:
        """``get`` of each id (None skipped), the cards not cached yet read in one query per
        ``_MANY`` ids instead of one each: what a deck's distinct cards cost. The same
        ``Card`` objects as ``get`` gives (they fill its cache)."""
        cards = self._cards
        ids = card_ids if isinstance(card_ids, (list, tuple, dict)) else list(card_ids)
        try:  # every card cached, as for most decks of a batch: no query
            got = {i: cards[i] for i in ids}  # type: ignore[misc,index]
            if None not in got:  # (None is skipped: it is cached once get(None) was asked)
                return got  # type: ignore[return-value]
        except (KeyError, TypeError):  # one not cached yet, or None or another odd id
            pass
        want = list(dict.fromkeys(ids))
        if None in want:
            want.remove(None)
        self.prefetch(want)
        try:
            return dict(zip(want, map(cards.__getitem__, want), strict=True))  # C loops
        except KeyError:  # an id SQLite cannot bind: get() as for the others
            return {i: cards[i] if i in cards else self.get(i) for i in want}

    def prefetch(self, card_ids: Iterable[int | None]) -> None:
        """``get_many`` without its answer: the cards not cached yet are read (one query per
        ``_MANY`` ids), so each later ``get`` is a cache hit. Nothing is done when all are
        cached already, as for most decks of a batch after the first."""
        cards = self._cards
        ids = card_ids if isinstance(card_ids, list) else list(card_ids)
        if cards.keys() >= set(ids) - {None}:
            return
        # ids SQLite can bind as integers; anything else is left to get() as it is
        missing = [
            i
            for i in dict.fromkeys(ids)
            if i not in cards and type(i) is int and _INT64 <= i < -_INT64
        ]
        for at in range(0, len(missing), _MANY):
            part = missing[at : at + _MANY]
            sql = f"{self._all_sql} WHERE c.id IN ({', '.join('?' * len(part))})"
            found = {row[0]: row for row in self._query(sql, tuple(part)).fetchall()}
            for i in part:  # in the order asked: the caches fill as get() would fill them
                row = found.get(i)
                cards[i] = self._card_from_row(row) if row is not None else None

    def _card_from_row(self, row: tuple[Any, ...]) -> Card:
        """The ``Card`` of one row of ``_CARD_SQL`` (the one place a row becomes a card; its
        identity keys are kept aside for ``list_key``/``name_key``)."""
        (
            cid,
            canon,
            akind,
            typ,
            scopes,
            ocg,
            tcg,
            md,
            dl,
            in_md,
            in_dl,
            level,
            atk,
            df,
            race,
            attr,
            lkey,
            nkey,
            en,
            canon_en,
        ) = row
        if self._per_card and (self.has_releases or self.games):
            scopes, ocg, tcg, md, dl, in_md, in_dl = self._decide_fields(
                cid, canon, akind, scopes, ocg, tcg
            )
        if self._legacy:
            lkey, nkey = self._legacy_keys()[cid]
        self._keys[cid] = (lkey, nkey)
        # Positional, in Card's field order (id, name, canonical, alias_kind, type_bits,
        # scopes, level, atk, defense, race, attribute, ocg/tcg/md/dl dates, in_md, in_dl):
        # this is the one place a card row becomes a Card.
        return Card(
            cid,
            _common.display_name(cid, akind, en, canon_en),
            canon,
            akind,
            typ,
            scopes,
            level,
            atk,
            df,
            race,
            attr,
            optional_date(ocg),
            optional_date(tcg),
            optional_date(md),
            optional_date(dl),
            None if in_md is None else bool(in_md),
            None if in_dl is None else bool(in_dl),
        )

    def all_cards(self) -> dict[int, Card]:
        """Every card of the database by passcode, the card rows read in one query (what a
        snapshot for other processes holds; the cards also fill this database's cache)."""
        out: dict[int, Card] = {}
        for row in self._query(self._all_sql, ()).fetchall():
            card = self._cards.get(row[0]) or self._card_from_row(row)
            self._cards[row[0]] = out[row[0]] = card
        return out

    def _legacy_keys(self) -> dict[int, tuple[int, int]]:
        got: dict[int, tuple[int, int]] | None = getattr(self, "_all_keys", None)
        if got is None:
            try:
                got = self._all_keys = _common.compute_keys(self._conn)
            except sqlite3.DatabaseError as exc:
                raise DataError(f"card database unreadable: {exc}", where=str(self.path)) from None
        return got

    def _decide_fields(
        self, cid: int, canonical: int, alias_kind: str, scopes: int, ocg: Any, tcg: Any
    ) -> tuple[Any, ...]:
        """``decide_fields`` of a card row read from a database older than schema 4 (no
        ``card_fields``): its official rows are read here, one query per card."""
        from deckcheck.carddb import cardfields

        ids = cardfields.release_ids(cid, canonical, alias_kind, scopes, self.official_passcode)
        got = self._read_official(cid, ids)
        return cardfields.decide_fields(scopes, ocg, tcg, got, self._games.get(cid, {}))

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

    # ------------------------------------------------------------------ official data

    def releases(self, card_id: int) -> dict[str, tuple[dt.date, str]]:
        """First release per region: region -> (date, set name); empty when unknown.

        A passcode without rows of its own takes those of the official passcode it stands
        for (EDOPro prerelease ids), else, for an alternate artwork or another OCG/TCG row of
        the same card (EDOPro's "TCG version" 17412731 of Norden), those of its card: it was
        not released before the card itself. A Rush reprint "treated as" an Advanced card
        keeps only its own.
        """
        if not self._official:
            return {}
        got = self._releases.get(card_id)
        if got is None:
            from deckcheck.carddb.cardfields import release_ids

            card = self.get(card_id)
            at = (card.canonical, card.alias_kind, card.scopes) if card else (card_id, "none", 0)
            got = self._read_official(card_id, release_ids(card_id, *at, self.official_passcode))
        return got

    def _read_official(self, card_id: int, ids: list[int]) -> dict[str, tuple[dt.date, str]]:
        """Reads the release and game rows ``card_id`` takes (``ids``, as ``release_ids``
        gives them) into the ``releases`` cache and the games' presence; its releases."""
        from deckcheck.carddb.cardfields import games_of, releases_of

        # one query for every candidate id, release and game rows
        marks = ", ".join("?" * len(ids))
        sql = (
            f"SELECT card_id, region, first_date, set_name FROM releases WHERE card_id IN ({marks})"
        )
        if self.games:
            sql += (
                " UNION ALL SELECT card_id, '@' || game, present, source FROM game_cards "
                f"WHERE card_id IN ({marks})"
            )
        rows = self._query(sql, tuple(ids) * (2 if self.games else 1)).fetchall()
        games = [(r[0], r[1][1:], r[2]) for r in rows if r[1][:1] == "@"]
        if games:
            self._games[card_id] = games_of(ids, games)
        got = releases_of(ids, [r for r in rows if r[1][:1] != "@"])
        out = {region: (dt.date.fromisoformat(date), name) for region, (date, name) in got.items()}
        self._releases[card_id] = out
        return out

    def first_release(self, card_id: int, region: str) -> dt.date | None:
        """The day the card was first released in ``region`` (ocg, tcg, kr, ae, sc, tc,
        masterduel, duellinks; ``jp`` = ocg), or None when the data does not know it."""
        got = self.releases(card_id).get(region_code(region))
        return got[0] if got else None

    def first_release_set(self, card_id: int, region: str) -> str | None:
        """The set that first released the card in ``region``, or None."""
        got = self.releases(card_id).get(region_code(region))
        return got[1] if got else None

    def release_regions(self, card_id: int) -> list[str]:
        """The regions the card was printed (or, for the video games, released) in."""
        return list(self.releases(card_id))

    def passcodes_for_konami(self, konami_id: int, kind: str = "ocg_tcg") -> list[int]:
        """Passcodes of a Konami card-database id: the official passcode(s) for ``ocg_tcg``
        (two for 4837 Polymerization and 4041 Dark Magician), the EDOPro Rush passcodes
        (matched by English name) for ``rush``. Empty when unknown."""
        if kind not in ("ocg_tcg", "rush"):
            raise ValueError(f"unknown Konami id kind {kind!r} (use ocg_tcg or rush)")
        if not self._official:
            return []
        rows = self._query(
            "SELECT card_id FROM konami_ids WHERE kind = ? AND konami_id = ? ORDER BY card_id",
            (kind, konami_id),
        )
        return [int(r[0]) for r in rows]

    def konami_id(self, card_id: int) -> int | None:
        """The Konami card-database id of a passcode (official or EDOPro Rush), or None."""
        if not self._official:
            return None
        ids = [card_id]
        off = self.official_passcode(card_id)
        if off is not None:
            ids.append(off)
        canon = self.canonical(card_id)
        card = self.get(card_id)
        if card is not None and card.alias_kind == "artwork" and canon != card_id:
            ids.append(canon)  # an alternate artwork is the same Konami card
        for cid in ids:
            row = self._query(
                "SELECT konami_id FROM konami_ids WHERE card_id = ? ORDER BY kind LIMIT 1", (cid,)
            ).fetchone()
            if row is not None:
                return int(row[0])
        return None

    def official_passcode(self, card_id: int) -> int | None:
        """The official passcode an EDOPro prerelease passcode stands for, where known."""
        if not self._official:
            return None
        row = self._query(
            "SELECT official_id FROM official_ids WHERE edopro_id = ?", (card_id,)
        ).fetchone()
        return int(row[0]) if row is not None else None

    def prerelease_passcodes(self, official_id: int) -> list[int]:
        """EDOPro prerelease passcodes known to stand for an official passcode."""
        if not self._official:
            return []
        rows = self._query(
            "SELECT edopro_id FROM official_ids WHERE official_id = ? ORDER BY edopro_id",
            (official_id,),
        )
        return [int(r[0]) for r in rows]

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
        """What is installed: path, sample or not, counts by kind/scope/language, sources
        (``carddb.dbinfo``)."""
        from deckcheck.carddb.dbinfo import info

        return info(self)

    # ------------------------------------------------------------------ plumbing

    def rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Every row of a read-only query (the readers of ``carddb.facts`` use it)."""
        return self._query(sql, args).fetchall()

    def _query(self, sql: str, args: tuple[Any, ...]) -> sqlite3.Cursor:
        try:
            return self._conn.execute(sql, args)
        except sqlite3.DatabaseError as exc:
            raise DataError(f"card database unreadable: {exc}", where=str(self.path)) from None

    def close(self) -> None:
        self._conn.close()


def connect_ro(path: str | Path) -> sqlite3.Connection:
    """A read-only connection (validation never writes the database)."""
    return dc_sqlite.connect_ro(path, check_same_thread=False)
