"""Shared fixtures: an isolated DECKCHECK_HOME per test and the real reference data."""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

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


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite the golden files that differ from the output, then fail those tests "
        "(re-run without the option and review the diff)",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that needs ``../shared/data`` (the ``shared_data`` fixture, itself or through
    another fixture) is a ``realdata`` test, so ``-m "not fuzz and not realdata and not slow"``
    (CONTRIBUTING.md's quick subset) leaves out every one of them."""
    for item in items:
        if "shared_data" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.realdata)


GoldenCheck = Callable[[Path, str], None]


def check_golden(path: Path, output: str, *, update: bool) -> None:
    """The suite's one golden-file check (the ``golden`` fixture passes ``update``).

    Normally the output must equal the committed file. With ``--update-golden`` a differing
    (or missing) file is rewritten and the test fails with "golden file updated, re-run", so
    an update never passes by comparing a file with itself.
    """
    old = path.read_text(encoding="utf-8") if path.is_file() else None
    if old == output:
        return
    if update:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(output, encoding="utf-8")
        pytest.fail(
            f"golden file {path.name} updated, re-run without --update-golden and review the diff",
            pytrace=False,
        )
    if old is None:
        pytest.fail(f"golden file {path} is missing: run pytest --update-golden", pytrace=False)
    diff = "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True),
            output.splitlines(keepends=True),
            fromfile=f"{path.name} (golden)",
            tofile="output",
            n=2,
        )
    )
    pytest.fail(
        f"output differs from golden file {path.name} (pytest --update-golden "
        f"rewrites it after a deliberate change):\n{diff}",
        pytrace=False,
    )


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> GoldenCheck:
    """``golden(path, output)``: check_golden with this run's ``--update-golden``."""
    update = bool(request.config.getoption("--update-golden"))

    def check(path: Path, output: str) -> None:
        check_golden(path, output, update=update)

    return check


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
    monkeypatch.delenv("DECKCHECK_CACHE", raising=False)  # the cache stays in the home
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    return home


def _shared_missing(reason: str) -> NoReturn:
    """A shared folder is absent: the test fails in CI (``DECKCHECK_REQUIRE_SHARED``), skips
    with ``reason`` elsewhere."""
    if os.environ.get("DECKCHECK_REQUIRE_SHARED"):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data``; skips with a clear reason where it is absent (fails CI instead)."""
    if SHARED_DATA is None:
        _shared_missing(_MISSING_REASON)
    return SHARED_DATA


@pytest.fixture(scope="session")
def shared_seeds(shared_data: Path) -> Path:
    """``../shared/seeds``, the documents the project started from: beside the data, wherever
    ``DECKCHECK_SHARED_DATA`` puts it; skips where it is absent (fails CI instead)."""
    seeds = shared_data.parent / "seeds"
    if not seeds.is_dir():
        _shared_missing(f"seed documents not found: expected {seeds} beside the data")
    return seeds


@pytest.fixture(scope="session")
def real_home_dir(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory with the real card database and real lists imported, built once.

    Tests must treat it as read-only; copy it when a test changes data.
    """
    from tests._realhome import build_full_home

    return build_full_home(shared_data, tmp_path_factory.mktemp("real-home"))


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
    "ProjectIgnis__Distribution/config/strings.conf",
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
def official_home(official_import: tuple[Path, object], monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point DECKCHECK_HOME at the shared real-data home with official data imported."""
    monkeypatch.setenv("DECKCHECK_HOME", str(official_import[0]))
    return official_import[0]


@pytest.fixture
def tiny_card_db(isolated_home: Path, tmp_path: Path) -> Path:
    """The official-data card set (``tests.builders.TINY``) installed in the test's home: the
    database file."""
    from deckcheck.carddb.importer import import_files
    from tests.builders import tiny_cdb

    db = isolated_home / "cards.sqlite3"
    import_files([tiny_cdb(tmp_path / "cards.cdb")], db_path=db)
    return db
