"""Half-written cache files a killed import left are removed by the next import; a temp file a
live writer still holds (flocked by ``fsio.replacing``) is spared."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from deckcheck import fsio, paths
from tests.reliability.test_reliability_data import _run, lflist_text


def test_next_import_removes_stale_cache_temps_and_spares_live_ones(
    tmp_path: Path, isolated_home: Path
) -> None:
    src = tmp_path / "lists.conf"
    src.write_text(lflist_text(0, lists=2, entries=20))
    assert _run(["banlist", "import", str(src)]).returncode == 0
    cache = paths.cache_dir() / "lists"
    assert cache.is_dir()
    stale = cache / ".dc-killed1.tmp"  # what a SIGKILL inside seed_cache leaves
    stale.write_text('{"half":')
    live = cache / ".dc-live0001.tmp"
    live.write_text("")
    fd = os.open(live, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)  # as a reader compiling a list into the cache holds it
    try:
        assert _run(["banlist", "import", str(src)]).returncode == 0
        assert not stale.exists()
        assert live.exists()
    finally:
        os.close(fd)


def test_replacing_holds_its_temp_file_locked_until_the_rename(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    with fsio.replacing(target) as tmp:
        tmp.write_text("{}")
        probe = os.open(tmp, os.O_RDONLY)
        try:
            try:
                fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
                locked = False
            except BlockingIOError:
                locked = True
        finally:
            os.close(probe)
        assert locked
    assert target.read_text() == "{}"
