"""Each card's official release fields decided once at import (``card_fields``, schema 4)
against the per-card decision a database of an older deckcheck still gets: the same cards,
field by field and type by type, on the hand-written official files and on the real data."""

from __future__ import annotations

import datetime as dt
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from deckcheck.carddb import open_db
from deckcheck.carddb._common import SCHEMA_VERSION
from deckcheck.carddb.db import CardDB, connect_ro
from deckcheck.carddb.importer import import_files
from tests.builders import as_schema_3
from tests.conftest import FIXTURES

OFF = FIXTURES / "official"
ALL_OFFICIAL = [OFF / "cards.json", OFF / "rush.json", OFF / "skill.json", OFF / "ygojson"]


def older_copy(db: Path, tmp_path: Path) -> Path:
    return as_schema_3(Path(shutil.copy(db, tmp_path / "older.sqlite3")))


def fields(cards: dict[int, Any]) -> dict[int, dict[str, tuple[Any, type]]]:
    """Every field of every card with its type (1 is not True here)."""
    return {cid: {k: (v, type(v)) for k, v in vars(c).items()} for cid, c in cards.items()}


def counted(path: Path) -> tuple[CardDB, list[str]]:
    """A CardDB over ``path`` and the list its SQL statements are appended to."""
    said: list[str] = []
    conn = connect_ro(path)
    db = CardDB(conn, str(path))
    conn.set_trace_callback(said.append)
    return db, said


def test_decided_fields_are_the_per_card_decision(tiny_card_db: Path, tmp_path: Path) -> None:
    import_files(ALL_OFFICIAL, db_path=tiny_card_db)
    decided, older = open_db(tiny_card_db), open_db(older_copy(tiny_card_db, tmp_path))
    assert fields(decided.all_cards()) == fields(older.all_cards())
    # not vacuous: the official files decide dates and regions of these cards
    ten = decided.get(10000)
    assert ten is not None and ten.tcg_date == dt.date(2017, 5, 4)
    ash = decided.get(14558127)
    assert ash is not None and ash.md_date == dt.date(2024, 2, 7)
    assert decided.releases(14558127) == older.releases(14558127)  # the full regions too
    conn = sqlite3.connect(tiny_card_db)
    version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
    rows = conn.execute("SELECT count(*) FROM card_fields").fetchone()[0]
    conn.close()
    assert int(version) == SCHEMA_VERSION == 4 and rows > 0


def test_a_card_is_one_row_of_one_query(tiny_card_db: Path, tmp_path: Path) -> None:
    import_files(ALL_OFFICIAL, db_path=tiny_card_db)
    older_path = older_copy(tiny_card_db, tmp_path)
    db, said = counted(tiny_card_db)
    ids = db.all_ids()
    said.clear()
    got = db.get_many(ids)
    assert len(said) == 1 and all(got.values())
    old, old_said = counted(older_path)
    old_said.clear()
    old.get_many(ids)
    assert len(old_said) > len(ids)  # the older database: a query more per card


def test_an_import_into_an_older_database_decides_the_fields(
    tiny_card_db: Path, tmp_path: Path
) -> None:
    import_files(ALL_OFFICIAL, db_path=tiny_card_db)
    fresh = fields(open_db(tiny_card_db).all_cards())
    as_schema_3(tiny_card_db)
    import_files([OFF / "skill.json"], db_path=tiny_card_db)  # any import migrates it
    conn = sqlite3.connect(tiny_card_db)
    version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
    rows = conn.execute("SELECT count(*) FROM card_fields").fetchone()[0]
    conn.close()
    assert int(version) == SCHEMA_VERSION and rows > 0
    assert fields(open_db(tiny_card_db).all_cards()) == fresh


def test_a_database_without_official_data_keeps_its_own_columns(tiny_card_db: Path) -> None:
    conn = sqlite3.connect(tiny_card_db)
    rows = conn.execute("SELECT count(*) FROM card_fields").fetchone()[0]
    conn.close()
    assert rows == 0
    card = open_db(tiny_card_db).get(10000)
    assert card is not None and card.tcg_date is None and card.in_md is None


@pytest.mark.realdata
def test_real_decided_fields_are_the_per_card_decision(
    official_import: tuple[Path, Any], tmp_path: Path
) -> None:
    home, _summary = official_import
    decided = open_db(home / "cards.sqlite3").all_cards()
    older = open_db(older_copy(home / "cards.sqlite3", tmp_path)).all_cards()
    assert len(decided) > 20_000
    assert fields(decided) == fields(older)
    # the real data decides each kind of field for thousands of cards
    assert sum(c.md_date is not None for c in decided.values()) > 5_000
    assert sum(c.in_dl is not None for c in decided.values()) > 5_000
    assert sum(c.tcg_date is not None for c in decided.values()) > 10_000
