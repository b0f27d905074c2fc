"""Importer behaviour on small hand-made cdb files: dialects, aliases, bad files, atomicity."""

from __future__ import annotations

import fcntl
import io
import os
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from deckcheck import paths
from deckcheck.carddb import importer, open_db
from deckcheck.cli import main
from deckcheck.errors import DataError, InputError
from deckcheck.model import Scope
from tests.builders import TEXTS, make_cdb

MONSTER, SPELL, TOKEN, SKILL = 0x11, 0x2, 0x4011, 0x8000000


@pytest.fixture
def edo(tmp_path: Path) -> Path:
    return make_cdb(
        tmp_path / "edo" / "cards.cdb",
        [
            (46986414, 3, 0, MONSTER, "Dark Magician"),
            (46986415, 3, 46986414, MONSTER, "Dark Magician"),
            (91932350, 3, 76812113, 0x21, "Harpie Lady 1"),
            (76812113, 3, 0, MONSTER, "Harpie Lady"),
            (300101001, 0x40, 0, SKILL, "Ectoplasmic Fortification!"),
            (946, 3, 0, TOKEN, "Generic Token"),
        ],
    )


def test_edopro_detected_by_high_bits_and_aliases_resolved(edo: Path, tmp_path: Path) -> None:
    db_path = tmp_path / "db.sqlite3"
    summary = importer.import_files([edo], db_path=db_path)
    assert summary.files[0].dialect == "edopro"
    db = open_db(db_path)
    assert db.get(46986415).alias_kind == "artwork"  # type: ignore[union-attr]
    assert db.canonical(46986415) == 46986414
    assert db.get(91932350).alias_kind == "treated_as"  # type: ignore[union-attr]
    assert db.canonical(91932350) == 76812113
    assert db.get(300101001).kind == "skill"  # type: ignore[union-attr]
    assert db.get(300101001).scopes == Scope.SPEED  # type: ignore[union-attr]
    assert db.get(946).kind == "token"  # type: ignore[union-attr]
    assert db.alternates(46986414) == [46986415]


def test_only_ocg_tcg_bits_default_to_edopro(tmp_path: Path) -> None:
    f = make_cdb(tmp_path / "a.cdb", [(1000, 1, 0, SPELL, "A"), (2000, 2, 0, SPELL, "B")])
    summary = importer.import_files([f], db_path=tmp_path / "db.sqlite3")
    assert summary.files[0].dialect == "edopro"
    assert open_db(tmp_path / "db.sqlite3").get(2000).scopes == Scope.TCG  # type: ignore[union-attr]


def test_low_bits_4_8_are_ambiguous(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = make_cdb(tmp_path / "a.cdb", [(1000, 4, 0, SPELL, "A"), (2000, 8, 0, SPELL, "B")])
    with pytest.raises(InputError, match="--dialect"):
        importer.import_files([f], db_path=tmp_path / "db.sqlite3")
    assert main(["db", "import", str(f)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(f) in err[0] and "--dialect" in err[0]
    assert not paths.database_path().exists()


@pytest.mark.parametrize(
    ("dialect", "scope_a", "scope_b"),
    [("ygopro", Scope.CUSTOM, Scope.SIMPLIFIED_CHINESE), ("edopro", Scope.ANIME, Scope.ILLEGAL)],
)
def test_explicit_dialect_maps_scope_bits(
    tmp_path: Path, dialect: str, scope_a: Scope, scope_b: Scope
) -> None:
    f = make_cdb(tmp_path / "a.cdb", [(1000, 4, 0, SPELL, "A"), (2000, 8 | 1, 0, SPELL, "B")])
    assert main(["db", "import", "--dialect", dialect, str(f)]) == 0
    db = open_db()
    assert db.get(1000).scopes == scope_a  # type: ignore[union-attr]
    assert db.get(2000).scopes == scope_b | Scope.OCG  # type: ignore[union-attr]


def test_ygopro_artwork_distance_is_20(tmp_path: Path) -> None:
    rows = [
        (1000, 3, 0, MONSTER, "Main"),
        (1015, 3, 1000, MONSTER, "Main"),
        (1025, 3, 1000, MONSTER, "Other"),
    ]
    f = make_cdb(tmp_path / "a.cdb", rows)
    importer.import_files([f], db_path=tmp_path / "y.sqlite3", dialect="ygopro")
    importer.import_files([f], db_path=tmp_path / "e.sqlite3", dialect="edopro")
    ygo, edo_db = open_db(tmp_path / "y.sqlite3"), open_db(tmp_path / "e.sqlite3")
    assert ygo.get(1015).alias_kind == "artwork"  # type: ignore[union-attr]
    assert ygo.get(1025).alias_kind == "treated_as"  # type: ignore[union-attr]
    assert edo_db.get(1015).alias_kind == "treated_as"  # type: ignore[union-attr]
    assert {ygo.canonical(i) for i in (1015, 1025)} == {1000}


def test_mixed_dialects_in_one_import_name_the_files(edo: Path, tmp_path: Path) -> None:
    amb = make_cdb(tmp_path / "ygo.cdb", [(1000, 4, 0, SPELL, "A")])
    with pytest.raises(InputError) as exc:
        importer.import_files([edo, amb], db_path=tmp_path / "db.sqlite3")
    assert str(amb) in str(exc.value) and str(edo) in str(exc.value)
    with pytest.raises(InputError, match="EDOPro"):
        importer.import_files([edo, amb], db_path=tmp_path / "db.sqlite3", dialect="ygopro")


def test_alias_chains_and_cycles(tmp_path: Path) -> None:
    rows = [
        (10, 3, 0, MONSTER, "Root"),
        (500, 3, 10, MONSTER, "Treated as root"),
        (503, 3, 500, MONSTER, "Art of 500"),
        (700, 3, 900, MONSTER, "Cycle A"),
        (900, 3, 700, MONSTER, "Cycle B"),
    ]
    f = make_cdb(tmp_path / "a.cdb", rows)
    importer.import_files([f], db_path=tmp_path / "db.sqlite3")
    db = open_db(tmp_path / "db.sqlite3")
    assert db.canonical(503) == 10
    assert db.canonical(700) == db.canonical(900) == 700


def test_later_files_win_and_names_files_add_languages(edo: Path, tmp_path: Path) -> None:
    patch = make_cdb(tmp_path / "patch.cdb", [(946, 3, 0, TOKEN, "Renamed Token")])
    ja = make_cdb(
        tmp_path / "locales" / "ja-JP" / "cards.cdb",
        [(46986414, 3, 0, MONSTER, "ブラック・マジシャン")],
    )
    summary = importer.import_files([edo, patch, ja], db_path=tmp_path / "db.sqlite3")
    assert [f.kind for f in summary.files] == ["cards", "cards", "names"]
    assert summary.files[2].lang == "ja"
    db = open_db(tmp_path / "db.sqlite3")
    assert db.name(946) == "Renamed Token"
    assert db.name(46986414, "ja") == "ブラック・マジシャン"
    assert db.name(46986415, "ja") == "ブラック・マジシャン"  # artwork falls back to its card
    assert db.names(46986414)["ja"] == ["ブラック・マジシャン"]
    assert summary.names_by_lang == {"en": 6, "ja": 1}


def test_lang_option_reads_names_file(edo: Path, tmp_path: Path) -> None:
    names = make_cdb(tmp_path / "whatever.cdb", [(76812113, 3, 0, MONSTER, "鹰身女郎")])
    importer.import_files([edo], db_path=tmp_path / "db.sqlite3")
    importer.import_files([names], db_path=tmp_path / "db.sqlite3", lang="zh-CN")
    db = open_db(tmp_path / "db.sqlite3")
    assert db.name(76812113, "zh-CN") == "鹰身女郎"
    assert db.name(76812113) == "Harpie Lady"  # the earlier import is kept (merge)


def test_reimport_is_idempotent(edo: Path, tmp_path: Path) -> None:
    db_path = tmp_path / "db.sqlite3"
    first = importer.import_files([edo], db_path=db_path)
    info1 = open_db(db_path).info()
    second = importer.import_files([edo], db_path=db_path)
    info2 = open_db(db_path).info()
    assert first.fingerprint == second.fingerprint
    assert (first.cards, first.names_by_lang) == (second.cards, second.names_by_lang)
    for key in ("cards", "by_kind", "by_scope", "names"):
        assert info1[key] == info2[key]
    assert len(info2["sources"]) == 1


def _bad_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    text = tmp_path / "text.cdb"
    text.write_text("this is not a database\n")
    notables = tmp_path / "empty.cdb"
    sqlite3.connect(notables).execute("CREATE TABLE other (x)").connection.commit()
    badcols = tmp_path / "badcols.cdb"
    conn = sqlite3.connect(badcols)
    conn.execute("CREATE TABLE datas (id INTEGER, foo INTEGER)")
    conn.execute(TEXTS)
    conn.commit()
    conn.close()
    return {
        "not sqlite": (text, "not an SQLite database"),
        "missing tables": (notables, "missing table"),
        "wrong columns": (badcols, "lacks column"),
        "missing file": (tmp_path / "nope.cdb", "file not found"),
    }


@pytest.mark.parametrize("case", ["not sqlite", "missing tables", "wrong columns", "missing file"])
def test_bad_files_give_one_line_and_exit_2(
    tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path, reason = _bad_files(tmp_path)[case]
    assert main(["db", "import", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith(f"deckcheck: error: {path}: ") and reason in err[0]
    assert "Traceback" not in err[0]


def _snapshot(folder: Path) -> dict[str, bytes]:
    # every file under the folder (a data home holds its state folder and links to it)
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.name != ".lock" and p.is_file() and "cache" not in p.parts
    }


def test_corrupt_second_file_leaves_database_untouched(edo: Path, tmp_path: Path) -> None:
    db_path = paths.database_path()
    importer.import_files([edo], db_path=db_path)
    before = _snapshot(db_path.parent)
    good = make_cdb(tmp_path / "good.cdb", [(5, 3, 0, SPELL, "Five")])
    broken = tmp_path / "broken.cdb"
    broken.write_bytes(good.read_bytes()[:100] + b"\0" * 1000)  # SQLite header, no pages
    assert main(["db", "import", str(good), str(broken)]) == 2
    assert _snapshot(db_path.parent) == before


def test_failure_mid_write_leaves_database_byte_identical(
    edo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db_path = tmp_path / "db" / "cards.sqlite3"
    importer.import_files([edo], db_path=db_path)
    before = _snapshot(db_path.parent)
    calls = {"n": 0}
    real = importer._add_cards

    def failing(conn: sqlite3.Connection, plan: object, now: str) -> int:
        calls["n"] += 1
        n = real(conn, plan, now)  # type: ignore[arg-type]
        if calls["n"] == 2:
            raise sqlite3.OperationalError("database or disk is full")
        return n

    monkeypatch.setattr(importer, "_add_cards", failing)
    more = make_cdb(tmp_path / "more.cdb", [(5, 3, 0, SPELL, "Five")])
    with pytest.raises(DataError, match="disk is full"):
        importer.import_files([edo, more], db_path=db_path)
    assert calls["n"] == 2
    assert _snapshot(db_path.parent) == before  # same bytes, and no temp file left behind


def test_second_import_waits_for_the_lock(edo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db_path = paths.database_path()
    db_path.parent.mkdir(parents=True, exist_ok=True)
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    fd = os.open(paths.lock_path(), os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    done: list[object] = []
    t = threading.Thread(target=lambda: done.append(importer.import_files([edo])))
    try:
        t.start()
        for _ in range(400):
            if "waiting" in err.getvalue():
                break
            time.sleep(0.05)
        assert "waiting" in err.getvalue()
        assert not db_path.exists() and not done
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
        t.join(60)
    assert done and db_path.exists()


def test_existing_file_that_is_not_a_database_is_not_overwritten(edo: Path) -> None:
    db_path = paths.database_path()
    db_path.parent.mkdir(parents=True, exist_ok=True)
    db_path.write_bytes(b"SQLite format 3\x00" + b"\x01" * 200)
    with pytest.raises(DataError):
        importer.import_files([edo])
    assert db_path.read_bytes().startswith(b"SQLite format 3\x00\x01\x01")
    assert [p.name for p in db_path.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_lock_is_reentrant_for_update(edo: Path) -> None:
    # `deckcheck update` holds the lock around its work and imports inside it.
    with importer.exclusive_lock():
        summary = importer.import_files([edo])
    assert summary.cards == 6 and paths.database_path().exists()


def test_db_import_prints_a_summary(edo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["db", "import", str(edo)]) == 0
    out, err = capsys.readouterr()
    assert f"{edo}: 6 cards (edopro)" in out
    assert "cards: 6" in out and "names: en 6" in out
    assert "imported 1 file(s)" in err


def test_unknown_ids_and_missing_alias_targets(tmp_path: Path) -> None:
    f = make_cdb(tmp_path / "a.cdb", [(1234, 3, 99999999, 0x21, "Points at a missing card")])
    importer.import_files([f], db_path=tmp_path / "db.sqlite3")
    db = open_db(tmp_path / "db.sqlite3")
    assert db.canonical(1234) == 99999999  # the alias still names the card it counts as
    assert db.get(5) is None and db.canonical(5) == 5 and db.name(5) == "5"
    assert 1234 in db and 5 not in db
