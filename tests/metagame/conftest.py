"""The metagame tests' home: the real card database and lists plus EDOPro's strings.conf."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def meta_home_dir(
    real_home_dir: Path, shared_data: Path, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """The real home (cards.cdb + locales, ProjectIgnis lists) plus EDOPro's strings.conf."""
    from deckcheck.carddb.importer import import_files

    home = tmp_path_factory.mktemp("meta-home")
    shutil.copy2(real_home_dir / "cards.sqlite3", home / "cards.sqlite3")
    shutil.copytree(real_home_dir / "banlists", home / "banlists")
    conf = shared_data / "upstream" / "ProjectIgnis__Distribution" / "config" / "strings.conf"
    import_files([conf], db_path=home / "cards.sqlite3")
    return home


@pytest.fixture
def meta_home(meta_home_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DECKCHECK_HOME", str(meta_home_dir))
    return meta_home_dir


@pytest.fixture(scope="session")
def decks_dir(shared_data: Path) -> Path:
    return shared_data / "decks"
