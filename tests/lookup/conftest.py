"""The lookup tests' real-data fixtures: the real home's database and its name index, built
once per session, and a home that card commands run against without writing to it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from deckcheck.lookup import Index


@pytest.fixture(scope="session")
def lookup_home_dir(real_home_dir: Path) -> Path:
    """The shared real home (real cards and lists; read-only: the index cache goes elsewhere)."""
    return real_home_dir


@pytest.fixture(scope="session")
def real_db(lookup_home_dir: Path) -> Any:
    from deckcheck.carddb import open_db

    return open_db(lookup_home_dir / "cards.sqlite3")


@pytest.fixture(scope="session")
def real_index(real_db: Any, tmp_path_factory: pytest.TempPathFactory) -> Index:
    # Own cache folder: the shared real home stays untouched.
    return Index.for_db(real_db, cache_dir=tmp_path_factory.mktemp("lookup-cache"))


@pytest.fixture
def home(
    lookup_home_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path_factory: pytest.TempPathFactory,
) -> Path:
    """DECKCHECK_HOME at the real home, its name index warmed in this process from a
    private cache, so card commands never write to the shared home."""
    from deckcheck.carddb import open_db

    monkeypatch.setenv("DECKCHECK_HOME", str(lookup_home_dir))
    Index.for_db(open_db(), cache_dir=tmp_path_factory.mktemp("card-cmd-cache"))
    return lookup_home_dir
