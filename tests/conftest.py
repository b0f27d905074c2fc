"""Shared fixtures: an isolated DECKCHECK_HOME per test and the real reference data."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _shared_data() -> Path | None:
    env = os.environ.get("DECKCHECK_SHARED_DATA")
    candidates = [Path(env)] if env else []
    candidates.append(REPO.parent / "shared" / "data")
    for c in candidates:
        if (c / "cards" / "cards.cdb").is_file():
            return c
    return None


SHARED_DATA = _shared_data()
_MISSING_REASON = (
    "real reference data not found: expected ../shared/data beside the repository "
    "(or set DECKCHECK_SHARED_DATA)"
)


@pytest.fixture(autouse=True)
def isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Every test gets its own empty data directory: tests never touch the user's files."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("DECKCHECK_HOME", str(home))
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    return home


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data``; skips with a clear reason where it is absent (fails CI instead)."""
    if SHARED_DATA is None:
        if os.environ.get("DECKCHECK_REQUIRE_SHARED"):
            pytest.fail(_MISSING_REASON)
        pytest.skip(_MISSING_REASON)
    return SHARED_DATA


@pytest.fixture(scope="session")
def real_home_dir(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory with the real card database and real lists imported, built once.

    Tests must treat it as read-only; copy it when a test changes data.
    """
    from deckcheck.carddb.importer import import_files
    from deckcheck.formats.importer import import_lflists

    home = tmp_path_factory.mktemp("real-home")
    cdbs = [shared_data / "cards" / "cards.cdb"]
    cdbs += sorted((shared_data / "locales").glob("*/cards.cdb"))
    import_files(cdbs, db_path=home / "cards.sqlite3")
    pi = shared_data / "banlists" / "projectignis-lflists"
    confs = sorted(p for p in pi.glob("*/*.lflist.conf") if p.parent.name != "upstream-head")
    # Import the lists with this home's card database installed, so that their ids are
    # canonical (alternate artworks merged) as they are for a user who installed both.
    saved = os.environ.get("DECKCHECK_HOME")
    os.environ["DECKCHECK_HOME"] = str(home)
    try:
        import_lflists(confs, dest=home / "banlists")
    finally:
        if saved is None:
            os.environ.pop("DECKCHECK_HOME", None)
        else:
            os.environ["DECKCHECK_HOME"] = saved
    return home


@pytest.fixture
def real_home(real_home_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point DECKCHECK_HOME at the shared real-data home for this test."""
    monkeypatch.setenv("DECKCHECK_HOME", str(real_home_dir))
    return real_home_dir


#: The official upstream files (../shared/data/upstream), in the order `update` imports them.
OFFICIAL_FILES = (
    "DawnbrandBots__yaml-yugi/cards.json",
    "DawnbrandBots__yaml-yugi/rush.json",
    "DawnbrandBots__yaml-yugi/skill.json",
    "iconmaster5326__YGOJSON",
)


@pytest.fixture(scope="session")
def official_import(
    real_home_dir: Path, shared_data: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, object]:
    """(home, ImportSummary): ``real_home_dir`` copied, plus yaml-yugi and YGOJSON imported.

    Built once per session; tests must treat the home as read-only.
    """
    import shutil

    from deckcheck.carddb.importer import import_files

    home = tmp_path_factory.mktemp("official-home")
    shutil.copy2(real_home_dir / "cards.sqlite3", home / "cards.sqlite3")
    shutil.copytree(real_home_dir / "banlists", home / "banlists")
    up = shared_data / "upstream"
    summary = import_files([up / f for f in OFFICIAL_FILES], db_path=home / "cards.sqlite3")
    return home, summary


@pytest.fixture
def official_home(
    official_import: tuple[Path, object], monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Point DECKCHECK_HOME at the shared real-data home with official data imported."""
    monkeypatch.setenv("DECKCHECK_HOME", str(official_import[0]))
    return official_import[0]
