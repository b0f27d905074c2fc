"""The compiled list and format caches (``marshal`` files): a damaged or older (``.json``)
cache is rebuilt, never trusted; the warm store sees a new installed state and an edited list
file (the key is every list file's stat, not the state's name)."""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
from pathlib import Path

from deckcheck import paths
from deckcheck.formats import catalog
from deckcheck.formats.catalog import ListStore
from deckcheck.formats.formatfiles import get_format, load_formats
from deckcheck.formats.importer import import_lflists
from tests.formats.test_formats_store import write_list

LFLIST = "#[2026.01 TCG]\n!2026.01 TCG\n#forbidden\n{card} {n} --x\n"


def _store(tmp_path: Path) -> ListStore:
    return ListStore([tmp_path / "lists"], cache_dir=tmp_path / "cache")


def test_a_damaged_cache_is_rebuilt(tmp_path: Path) -> None:
    write_list(tmp_path / "lists", "tcg", "2025-01-01")
    first = _store(tmp_path).in_force("tcg", dt.date(2025, 2, 1))
    index = next((tmp_path / "cache").glob("lists-*.marshal"))
    blobs = list((tmp_path / "cache" / "lists").glob("*.marshal"))
    assert len(blobs) == 1
    for damage in (b"", b"\x00garbage", index.read_bytes()[:10]):
        index.write_bytes(damage)
        blobs[0].write_bytes(damage)
        again = _store(tmp_path).in_force("tcg", dt.date(2025, 2, 1))
        assert again == first and again is not None and again.limits == {55144522: 0}


def test_an_older_json_cache_is_not_read_and_goes(tmp_path: Path) -> None:
    write_list(tmp_path / "lists", "tcg", "2025-01-01")
    store = _store(tmp_path)
    old = store._index_path().with_suffix(".json")
    old.parent.mkdir(parents=True)
    old.write_text(json.dumps({"key": "whatever", "lists": []}))
    got = store.in_force("tcg", dt.date(2025, 2, 1))
    assert got is not None and got.name == "2025-01-01 TCG"
    assert not old.exists() and store._index_path().is_file()


def test_format_cache_is_marshal_and_an_older_json_one_goes(isolated_home: Path) -> None:
    cache = paths.cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    (cache / "formats-0123456789ab.json").write_text("{}")
    want = load_formats()
    assert [p.suffix for p in cache.glob("formats-*")] == [catalog.SUFFIX]
    assert get_format("tcg") == want["tcg"] and get_format(" TCG ") == want["tcg"]
    next(cache.glob("formats-*")).write_bytes(b"\x01")  # damaged: compiled again
    assert load_formats() == want


def test_format_caches_of_other_file_sets_stay(isolated_home: Path, monkeypatch) -> None:
    # Two installs sharing a home (or a run with --format-file) have other sets of format
    # files: each keeps its own cache, so alternating between them compiles nothing again.
    from deckcheck.formats import compile as compile_mod

    extra = isolated_home.parent / "mine.yaml"
    extra.write_text("id: mine\nname: Mine\nextends: tcg\ncopies: 2\n")
    cache = paths.cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    older = cache / "formats-0123456789ab.marshal"  # the naming before file-set groups
    older.write_bytes(b"\x00")
    plain = load_formats()
    assert not older.exists()
    mine = load_formats([extra])
    assert len(list(cache.glob("formats-*.marshal"))) == 2

    def no_compile(*a: object, **k: object) -> None:
        raise AssertionError("compiled although its cache was there")

    monkeypatch.setattr(compile_mod, "format_file", no_compile)
    assert load_formats() == plain and load_formats([extra]) == mine


def test_the_warm_store_sees_a_new_state_and_an_edited_list(isolated_home: Path) -> None:
    # a real import switches the installed state (state-1, then state-2)
    src = isolated_home.parent / "a.conf"
    src.write_text(LFLIST.format(card=55144522, n=0))
    import_lflists([src])
    day = dt.date(2026, 2, 1)
    first_state = paths.state_dir()
    got = ListStore.default().in_force("tcg", day)
    assert got is not None and got.limits.get(55144522) == 0
    src.write_text(LFLIST.format(card=55144522, n=1))
    import_lflists([src])
    paths.forget_state()  # what cli.main does per command
    assert paths.state_dir() != first_state
    got = ListStore.default().in_force("tcg", day)
    assert got is not None and got.limits.get(55144522) == 1
    # a list file edited where it is installed (through <home>/banlists) is seen too
    edited = next((isolated_home / "banlists" / "tcg").glob("*.yaml"))
    text = edited.read_text(encoding="utf-8")
    assert "limit: 1" in text
    edited.write_text(text.replace("limit: 1", "limit: 2"), encoding="utf-8")
    st = edited.stat()
    os.utime(edited, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    got = ListStore.default().in_force("tcg", day)
    assert got is not None and got.limits.get(55144522) == 2


def test_each_python_keeps_its_own_caches(isolated_home: Path, tmp_path: Path, monkeypatch) -> None:
    # marshal's format belongs to the interpreter (it may change in any release): the
    # interpreter is in every cache key and name, so a cache written by one Python is never
    # read by another, and two Pythons sharing a home do not rewrite each other's caches.
    from deckcheck.formats import compile as compile_mod

    write_list(tmp_path / "lists", "tcg", "2025-01-01")
    cache = tmp_path / "cache"
    assert sys.implementation.cache_tag in catalog.RUNTIME
    monkeypatch.setattr(catalog, "RUNTIME", "cpython-3xx-marshalA")
    first = _store(tmp_path).in_force("tcg", dt.date(2025, 2, 1))
    fmts = load_formats()
    written = {p: p.read_bytes() for p in cache.rglob("*.marshal")}
    formats_a = set(paths.cache_dir().glob("formats-*.marshal"))
    assert len(written) == 2 and len(formats_a) == 1  # the list index and blob; the formats
    monkeypatch.setattr(catalog, "RUNTIME", "cpython-3yy-marshalB")
    assert _store(tmp_path).in_force("tcg", dt.date(2025, 2, 1)) == first
    assert load_formats() == fmts
    assert len(list(cache.rglob("*.marshal"))) == 4  # its own index and blob beside them
    assert {p: p.read_bytes() for p in written} == written  # the other's left as they were
    assert len(set(paths.cache_dir().glob("formats-*.marshal")) - formats_a) == 1

    def no_compile(*a: object, **k: object) -> None:
        raise AssertionError("compiled although its cache was there")

    monkeypatch.setattr(compile_mod, "format_file", no_compile)
    monkeypatch.setattr(catalog, "RUNTIME", "cpython-3xx-marshalA")  # back: its caches serve
    assert load_formats() == fmts
    assert _store(tmp_path).in_force("tcg", dt.date(2025, 2, 1)) == first
    assert len(list(cache.rglob("*.marshal"))) == 4


def _two_families(tmp_path: Path) -> tuple[Path, Path]:
    tcg = write_list(tmp_path / "lists", "tcg", "2025-01-01")
    write_list(tmp_path / "lists", "tcg", "2025-04-01", body="entries: []\n")
    ocg = write_list(tmp_path / "lists", "ocg", "2025-02-01")
    _store(tmp_path).families()  # the whole index compiled and cached
    return tcg, ocg


def _touch(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))


def test_a_question_about_one_family_reads_only_its_folder(tmp_path: Path, monkeypatch) -> None:
    _two_families(tmp_path)
    scanned: list[str] = []
    real = os.scandir

    def spy(path: str = ".") -> object:
        scanned.append(os.path.basename(os.fspath(path)))
        return real(path)

    monkeypatch.setattr(catalog.os, "scandir", spy)
    store = _store(tmp_path)
    got = store.in_force("tcg", dt.date(2025, 5, 1))
    assert got is not None and got.name == "2025-04-01 TCG"
    assert store.first_after("tcg", dt.date(2025, 2, 1)) == got
    assert scanned == ["tcg"]  # once, not the list folder, nor ocg's
    # the whole index, where a question needs it (every family), reads every folder
    assert store.families() == ["ocg", "tcg"]
    assert {"lists", "ocg"} <= set(scanned)


def test_one_family_answers_as_the_whole_index_does_when_files_change(tmp_path: Path) -> None:
    tcg, ocg = _two_families(tmp_path)
    day = dt.date(2025, 3, 1)

    def answers(store: ListStore) -> list[object]:
        return [
            store.in_force("tcg", day),
            store.first_after("tcg", day),
            store.in_force("ocg", day),
            store.lists("tcg"),
        ]

    def whole_index() -> list[object]:
        store = _store(tmp_path)
        store.families()  # the plain path: the whole index first, then the questions
        return answers(store)

    assert answers(_store(tmp_path)) == whole_index()
    # another family's file changed: a tcg question still reads the cached tcg lists
    _touch(ocg, ocg.read_text(encoding="utf-8").replace("limit: 0", "limit: 1"))
    assert answers(_store(tmp_path)) == whole_index()
    assert _store(tmp_path).in_force("ocg", day).limits == {55144522: 1}  # type: ignore[union-attr]
    # its own file changed, a file added, a file removed: seen at once
    _touch(tcg, tcg.read_text(encoding="utf-8").replace("limit: 0", "limit: 2"))
    assert _store(tmp_path).in_force("tcg", day).limits == {55144522: 2}  # type: ignore[union-attr]
    write_list(tmp_path / "lists", "tcg", "2025-02-15", body="entries: []\n")
    assert _store(tmp_path).in_force("tcg", day).name == "2025-02-15 TCG"  # type: ignore[union-attr]
    (tmp_path / "lists" / "tcg" / "2025-02-15.yaml").unlink()
    assert _store(tmp_path).in_force("tcg", day).limits == {55144522: 2}  # type: ignore[union-attr]
    assert answers(_store(tmp_path)) == whole_index()
    # a family nobody installed: no list, as the whole index says
    assert _store(tmp_path).in_force("speed", day) is None
    assert _store(tmp_path).in_force("../lists", day) is None
