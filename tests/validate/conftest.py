"""The validate tests' small card database."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.builders import make_cdb

MONSTER, FUSION, SPELL, SKILL = 0x11, 0x41, 0x2, 0x8000000


@pytest.fixture
def small_db(tmp_path: Path) -> Path:
    """An installed database of 40 monsters, an alternate artwork (500, of card 100), an
    OCG-only Fusion, a Spell and a Skill; only read, so one serves a whole test."""
    rows = [(100 + i, 3, 0, MONSTER, f"Card {i}") for i in range(40)]
    rows += [
        (500, 3, 100, MONSTER, "Card 0"),
        (501, 1, 0, FUSION, "A Fusion"),
        (502, 3, 0, SPELL, "A Spell"),
        (503, 3, 0, SKILL, "A Skill"),
    ]
    from deckcheck.carddb import importer

    importer.import_files([make_cdb(tmp_path / "c.cdb", rows)], db_path=tmp_path / "db.sqlite3")
    return tmp_path / "db.sqlite3"
