"""The shared helpers: atomic writer, bounded read, sha256, date parser, read-only SQLite,
notes, and where the cache folder is."""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import os
import sqlite3
import stat
from pathlib import Path

import pytest

from deckcheck import dates, fsio, notes, paths
from deckcheck import sqlite as dc_sqlite


def test_write_atomic_text_bytes_and_permissions(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "f.txt"
    with pytest.raises(FileNotFoundError):
        fsio.write_atomic(target, "x")  # no folder, no mkdir
    fsio.write_atomic(target, "a\nb\n", mkdir=True)
    assert target.read_bytes() == b"a\nb\n"
    fsio.write_atomic(target, b"\x00\x01")
    assert target.read_bytes() == b"\x00\x01"
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
    assert [p.name for p in target.parent.iterdir()] == ["f.txt"]


def test_write_atomic_failure_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "f.txt"
    target.write_text("old")

    def full_disk(*_a: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(OSError, match="No space"):
        fsio.write_atomic(target, "new")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]  # no temp file left


def test_replacing_moves_only_on_success(tmp_path: Path) -> None:
    target = tmp_path / "db"
    target.write_text("old")
    with pytest.raises(RuntimeError), fsio.replacing(target, prefix=".x-") as tmp:
        assert tmp.parent == tmp_path and tmp.name.startswith(".x-")
        tmp.write_text("half")
        raise RuntimeError("build failed")
    assert target.read_text() == "old" and len(list(tmp_path.iterdir())) == 1
    with fsio.replacing(target) as tmp:
        tmp.write_text("new")
    assert target.read_text() == "new" and len(list(tmp_path.iterdir())) == 1


def test_remove_others(tmp_path: Path) -> None:
    for n in ("lookup-a.pickle", "lookup-b.pickle", "other.json"):
        (tmp_path / n).write_text(n)
    fsio.remove_others(tmp_path / "lookup-b.pickle", "lookup-*.pickle")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lookup-b.pickle", "other.json"]


def test_read_bounded(tmp_path: Path) -> None:
    f = tmp_path / "f"
    f.write_bytes(b"x" * 10)
    assert fsio.read_bounded(f, 10) == b"x" * 10
    with pytest.raises(fsio.TooLarge) as got:
        fsio.read_bounded(f, 9)
    assert (got.value.size, got.value.limit) == (10, 9)
    assert fsio.read_bounded(io.BytesIO(b"abc"), 3) == b"abc"
    stream = io.BytesIO(b"abcd" * 1000)
    with pytest.raises(fsio.TooLarge) as got:
        fsio.read_bounded(stream, 3)
    assert got.value.size is None and stream.tell() == 4  # read cap + 1, not the whole stream


def test_sha256(tmp_path: Path) -> None:
    data = os.urandom(3 << 20)
    f = tmp_path / "f"
    f.write_bytes(data)
    assert fsio.sha256_file(f) == fsio.sha256_bytes(data) == hashlib.sha256(data).hexdigest()


def test_name_hash_is_crc32_then_adler32() -> None:
    # the names must not change between processes or Python versions (so no ``hash()``):
    # two standard checksums, held to their well-known values for b"123456789"
    assert fsio.name_hash(b"") == "00000000" + "00000001"
    assert fsio.name_hash(b"123456789") == "cbf43926" + "091e01de"
    assert len({fsio.name_hash(f"key {i}".encode()) for i in range(10_000)}) == 10_000


def test_dates() -> None:
    assert dates.parse_date("2026-05-01") == dt.date(2026, 5, 1)
    assert dates.parse_date(dt.date(2026, 5, 1)) == dt.date(2026, 5, 1)
    assert dates.optional_date(None) is None and dates.optional_date("") is None
    assert dates.to_iso("2026-05-01") == "2026-05-01" and dates.to_iso(None) is None
    for bad in ("2026-13-01", "May 1", ""):
        with pytest.raises(ValueError):
            dates.parse_date(bad)


def test_connect_ro_never_writes(tmp_path: Path) -> None:
    path = tmp_path / "x y.sqlite3"  # a space: the URI must quote the path
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (a)")
    conn.commit()
    conn.close()
    assert dc_sqlite.is_sqlite(path)
    ro = dc_sqlite.connect_ro(path)
    try:
        assert ro.execute("SELECT count(*) FROM t").fetchone() == (0,)
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            ro.execute("INSERT INTO t VALUES (1)")
    finally:
        ro.close()
    assert dc_sqlite.ro_uri(path, immutable=True).endswith("?mode=ro&immutable=1")
    (tmp_path / "text").write_text("not a database at all")
    assert not dc_sqlite.is_sqlite(tmp_path / "text")


def test_notes_sink() -> None:
    got: list[str] = []
    old = notes.set_sink(got.append)
    try:
        notes.note("deckcheck: note: hello")
        assert got == ["deckcheck: note: hello"]
        assert notes.set_sink(None) == got.append
        notes.note("dropped")
        assert got == ["deckcheck: note: hello"]
    finally:
        notes.set_sink(old)


def test_library_notes_are_silent_until_a_sink_is_installed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    old = notes.set_sink(None)
    old_p = notes.set_progress_sink(None)
    try:
        notes.note("deckcheck: note: dropped")
        notes.progress("\r10%")
        assert capsys.readouterr().err == ""  # library code never prints by itself
        notes.set_sink(notes.stderr_sink())
        notes.set_progress_sink(notes.stderr_progress_sink())
        notes.note("deckcheck: note: x")
        notes.progress("\r50%")
    finally:
        notes.set_sink(old)
        notes.set_progress_sink(old_p)
    assert capsys.readouterr().err == "deckcheck: note: x\n\r50%"


def test_the_cli_installs_the_note_sink() -> None:
    from click.testing import CliRunner

    from deckcheck.cli import cli

    old, old_p = notes.set_sink(None), notes.set_progress_sink(None)
    try:
        # the sample note reaches the user through the CLI's sink
        from deckcheck import carddb

        carddb.mark_sample_noted(False)
        res = CliRunner().invoke(cli, ["card", "search", "pot of greed"], catch_exceptions=False)
        assert "using the built-in sample" in res.stderr
    finally:
        notes.set_sink(old)
        notes.set_progress_sink(old_p)


def test_cache_dir_placement(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import platformdirs

    home = Path(os.environ["DECKCHECK_HOME"])
    assert paths.cache_dir() == home / "cache"  # tests stay inside their home
    monkeypatch.setenv("DECKCHECK_CACHE", str(tmp_path / "c"))
    assert paths.cache_dir() == tmp_path / "c"
    monkeypatch.delenv("DECKCHECK_CACHE")
    monkeypatch.delenv("DECKCHECK_HOME")
    want = Path(platformdirs.user_cache_dir("deckcheck", appauthor=False))
    assert paths.cache_dir() == want and paths.cache_dir() != paths.data_home() / "cache"


def test_stale_formats_caches_are_removed(tmp_path: Path) -> None:
    from deckcheck.formats.formatfiles import load_formats

    extra = tmp_path / "mine.yaml"
    extra.write_text("id: mine\nname: Mine\nextends: tcg\ncopies: 2\n")
    assert load_formats([extra])["mine"].copies == 2
    extra.write_text("id: mine\nname: Mine\nextends: tcg\ncopies: 1\n")
    os.utime(extra, ns=(1, 1))  # another stat: another cache key
    assert load_formats([extra])["mine"].copies == 1
    assert len(list(paths.cache_dir().glob("formats-*.marshal"))) == 1
