"""Issue 18, P4: ``db import`` builds the card-name index (with progress lines), so the
first ``card search`` afterwards loads it from the cache instead of building it."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from deckcheck.carddb import open_db
from deckcheck.lookup.warm import build_index_cache, index_cached

REPO = Path(__file__).resolve().parent.parent.parent


def _cdb(path: Path, rows: int) -> Path:
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE datas (id INTEGER PRIMARY KEY, ot INTEGER, alias INTEGER, "
        "type INTEGER, atk INTEGER, def INTEGER, level INTEGER, race INTEGER, "
        "attribute INTEGER)"
    )
    conn.execute("CREATE TABLE texts (id INTEGER PRIMARY KEY, name TEXT, desc TEXT)")
    conn.executemany(
        "INSERT INTO datas VALUES (?, 3, 0, 2, 0, 0, 0, 0, 0)",
        [(10_000_000 + i,) for i in range(rows)],
    )
    conn.executemany(
        "INSERT INTO texts VALUES (?, ?, '')",
        [(10_000_000 + i, f"Warm Card {i}") for i in range(rows)],
    )
    conn.commit()
    conn.close()
    return path


def _run(home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ,
        DECKCHECK_HOME=str(home),
        PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
    )
    return subprocess.run(
        [sys.executable, "-m", "deckcheck", *argv],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_db_import_builds_the_index_the_first_search_loads(tmp_path: Path) -> None:
    home = tmp_path / "home"
    r = _run(home, "db", "import", str(_cdb(tmp_path / "cards.cdb", 40)))
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
    r2 = _run(home, "db", "import", str(_cdb(tmp_path / "more.cdb", 41)))
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
