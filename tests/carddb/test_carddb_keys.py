"""Card identity decided once in carddb: the copy, list and name keys stored at import, read
through CardDB, for imported databases, the built-in sample and older (schema 1) files."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

import pytest

from deckcheck import carddb, notes
from deckcheck.carddb import _common, importer, open_db
from deckcheck.carddb.sample import open_sample
from deckcheck.cardnames import list_key as formats_list_key
from deckcheck.formats.formatfiles import get_format
from deckcheck.lookup import Index
from deckcheck.model import TYPE_FUSION, TYPE_MONSTER, TYPE_RITUAL
from tests.builders import make_cdb
from tests.carddb.test_carddb_import import MONSTER, SPELL

MAIN, ART, TREATED, SAME_NAME, LONE = 46986414, 46986415, 91932350, 36996508, 5000

# (id, ot, alias, type, name): an artwork (alias within 10), a "treated as" card with its own
# name, one "treated as" with the very same name as its main card, and an alias to a card
# this database does not have.
ROWS = [
    (MAIN, 3, 0, MONSTER, "Dark Magician"),
    (ART, 3, MAIN, MONSTER, "Dark Magician"),
    (TREATED, 3, MAIN, MONSTER, "Dark Magician (Rush)"),
    (SAME_NAME, 3, MAIN, MONSTER, "Dark Magician"),
    (LONE, 3, 4000, SPELL, "Lone"),
]
WANT = {  # id: (copy key, list key, name key)
    MAIN: (MAIN, MAIN, MAIN),
    ART: (MAIN, MAIN, MAIN),
    TREATED: (MAIN, TREATED, TREATED),
    SAME_NAME: (MAIN, SAME_NAME, MAIN),
    LONE: (4000, LONE, LONE),
}


def keys(db: carddb.CardDB, cid: int) -> tuple[int, int, int]:
    return db.copy_key(cid), db.list_key(cid), db.name_key(cid)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    path = tmp_path / "db.sqlite3"
    importer.import_files([make_cdb(tmp_path / "cards.cdb", ROWS)], db_path=path)
    return path


def test_keys_are_stored_at_import_and_read_through_the_api(db_path: Path) -> None:
    conn = sqlite3.connect(db_path)
    stored = {
        r[0]: tuple(r[1:])
        for r in conn.execute("SELECT id, canonical, list_key, name_key FROM cards")
    }
    conn.close()
    assert stored == WANT
    db = open_db(db_path)
    assert {cid: keys(db, cid) for cid in WANT} == WANT
    assert db.canonical(TREATED) == db.copy_key(TREATED) == MAIN
    assert keys(db, 123) == (123, 123, 123)  # unknown ids are their own keys


def test_lists_deck_editing_and_lookup_read_the_stored_keys(db_path: Path) -> None:
    from deckcheck import deckedit

    db = open_db(db_path)
    ix = Index.for_db(db, cache_dir=db_path.parent / "cache")
    for cid, (_copy, lkey, nkey) in WANT.items():
        assert formats_list_key(db, cid) == lkey
        assert deckedit.art_root(cid, db) == lkey
        assert ix.resolve(str(cid)).card_id == nkey
    assert ix.resolve("Dark Magician (Rush)").card_id == TREATED


def test_names_norm_column_is_gone(db_path: Path) -> None:
    conn = sqlite3.connect(db_path)
    cols = {r[1] for r in conn.execute("PRAGMA table_info(names)")}
    indexes = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
    conn.close()
    assert "norm" not in cols and "names_norm" not in indexes
    assert int(version) == _common.SCHEMA_VERSION == 4


def _downgrade_to_schema_1(path: Path) -> None:
    """What deckcheck 1 wrote: no key columns, a names.norm column with its index."""
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE cards DROP COLUMN list_key")
    conn.execute("ALTER TABLE cards DROP COLUMN name_key")
    conn.execute("ALTER TABLE names ADD COLUMN norm TEXT NOT NULL DEFAULT ''")
    conn.execute("CREATE INDEX names_norm ON names (norm)")
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()


def test_schema_1_database_is_read_with_the_same_keys(db_path: Path) -> None:
    _downgrade_to_schema_1(db_path)
    db = open_db(db_path)
    assert {cid: keys(db, cid) for cid in WANT} == WANT


def test_import_extending_a_schema_1_database_migrates_it(db_path: Path, tmp_path: Path) -> None:
    _downgrade_to_schema_1(db_path)
    more = make_cdb(tmp_path / "more.cdb", [(MAIN + 2, 3, MAIN, MONSTER, "Dark Magician")])
    importer.import_files([more], db_path=db_path)
    conn = sqlite3.connect(db_path)
    cols = {r[1] for r in conn.execute("PRAGMA table_info(names)")}
    version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
    conn.close()
    assert "norm" not in cols and version == str(_common.SCHEMA_VERSION)
    db = open_db(db_path)
    assert {cid: keys(db, cid) for cid in WANT} == WANT
    assert keys(db, MAIN + 2) == (MAIN, MAIN, MAIN)


def test_sample_provides_the_same_api() -> None:
    db = open_sample()
    conn = sqlite3.connect(db.path)
    rows = conn.execute("SELECT id, canonical, list_key, name_key FROM cards").fetchall()
    conn.close()
    assert rows and any(lk != cid for cid, _c, lk, _n in rows)  # the sample has artworks
    for cid, canon, lkey, nkey in rows:
        assert keys(db, cid) == (canon, lkey, nkey)
        card = db.get(cid)
        assert card is not None
        assert lkey == (canon if card.alias_kind == "artwork" else cid)


def test_goes_to_extra_follows_the_format_on_the_date() -> None:
    from deckcheck.model import Card, Scope

    ritual = Card(1, "R", 1, "none", TYPE_MONSTER | TYPE_RITUAL, Scope.RUSH)
    fusion = Card(2, "F", 2, "none", TYPE_MONSTER | TYPE_FUSION, Scope.RUSH)
    spell_fusion = Card(3, "Polymerization", 3, "none", 0x2 | TYPE_FUSION, Scope.RUSH)
    rush = get_format("rush")
    before, after = rush.at(dt.date(2025, 4, 25)), rush.at(dt.date(2025, 4, 26))
    assert carddb.goes_to_extra(fusion, before) and carddb.goes_to_extra(fusion, after)
    assert not carddb.goes_to_extra(ritual, before) and carddb.goes_to_extra(ritual, after)
    assert not carddb.goes_to_extra(spell_fusion, after)  # only monsters
    bits = carddb.extra_deck_bits(after.extra_deck_types)
    assert carddb.goes_to_extra(ritual, bits) and not carddb.goes_to_extra(ritual, TYPE_FUSION)


def test_sample_note_is_given_once_and_can_be_marked(monkeypatch: pytest.MonkeyPatch) -> None:
    got: list[str] = []
    old = notes.set_sink(got.append)
    try:
        carddb.mark_sample_noted(False)
        open_db()
        open_db()
        assert len(got) == 1 and "using the built-in sample" in got[0]
        carddb.mark_sample_noted()
        open_db()
        assert len(got) == 1
        carddb.mark_sample_noted(False)
        notes.set_sink(None)
        open_db()  # dropped, not printed
        assert len(got) == 1
    finally:
        notes.set_sink(old)
        carddb.mark_sample_noted()
