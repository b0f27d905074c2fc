"""Issue 18, P4: ``db import`` builds the card-name index (with progress lines), so the
first ``card search`` afterwards loads it from the cache instead of building it."""

from __future__ import annotations

import subprocess
from pathlib import Path

from deckcheck.carddb import open_db
from deckcheck.lookup.warm import build_index_cache, index_cached
from tests.builders import child_env, numbered_cards, run_deckcheck, write_cdb

REPO = Path(__file__).resolve().parent.parent.parent


def _run(home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return run_deckcheck(*argv, env=child_env(home), timeout=120)


def test_db_import_builds_the_index_the_first_search_loads(tmp_path: Path) -> None:
    home = tmp_path / "home"
    cards = write_cdb(tmp_path / "cards.cdb", numbered_cards(40, "Warm Card"))
    r = _run(home, "db", "import", str(cards))
    assert r.returncode == 0, r.stderr
    assert "building the card name index" in r.stderr and "card name index ready" in r.stderr
    cached = list((home / "cache").glob("lookup-*.pickle"))
    assert len(cached) == 1
    stamp = cached[0].stat().st_mtime_ns
    s = _run(home, "card", "search", "Warm Card 7")
    assert s.returncode == 0 and "Warm Card 7" in s.stdout
    # the search loaded that very file: not rewritten, no other index built
    assert [p.stat().st_mtime_ns for p in (home / "cache").glob("lookup-*.pickle")] == [stamp]
    # a second import (the database changes) builds the index of the new database
    more = write_cdb(tmp_path / "more.cdb", numbered_cards(41, "Warm Card"))
    r2 = _run(home, "db", "import", str(more))
    assert r2.returncode == 0 and "card name index ready" in r2.stderr
    again = list((home / "cache").glob("lookup-*.pickle"))
    assert len(again) == 1 and again[0] != cached[0]


def test_build_index_cache_reports_progress_and_skips_a_cached_index(
    tmp_path: Path,
) -> None:
    db = open_db()  # the built-in sample
    lines: list[str] = []
    assert not index_cached(db, tmp_path)
    seconds = build_index_cache(db, cache_dir=tmp_path, progress=lines.append)
    assert seconds is not None and seconds >= 0 and len(lines) == 2
    assert index_cached(db, tmp_path)
    assert build_index_cache(db, cache_dir=tmp_path, progress=lines.append) is None
    assert len(lines) == 2  # nothing built, nothing said


def test_build_index_cache_writes_an_index_already_in_memory(tmp_path: Path) -> None:
    from deckcheck.lookup import Index

    db = open_db()
    Index.for_db(db, cache_dir=tmp_path / "elsewhere")  # now memoized in this process
    assert build_index_cache(db, cache_dir=tmp_path / "here") is not None
    assert index_cached(db, tmp_path / "here")
