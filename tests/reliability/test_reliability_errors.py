"""Issue 20, "Output and errors": input that reached an internal error, a full disk, a
read-only home, a corrupt database, odd environment settings — each gets one clear line and
exit 2 (or works), never a traceback or "internal error"."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from deckcheck.cli import main
from deckcheck.errors import EXIT_ERROR, EXIT_OK
from tests.builders import run_process
from tests.conftest import FIXTURES

TINY = FIXTURES / "hostile" / "tiny.lflist.conf"
DATAS = (
    "CREATE TABLE datas (id, ot, alias, setcode, type, atk, def, level, race, attribute, "
    "category)"
)  # no column types: SQLite then keeps whatever type each value has
TEXTS = "CREATE TABLE texts (id, name, desc)"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


def one_error(rc: int, err: str, *words: str) -> str:
    assert rc == EXIT_ERROR, err
    assert "Traceback" not in err and "internal error" not in err, err
    lines = [ln for ln in err.splitlines() if ln.startswith("deckcheck: error:")]
    assert len(lines) == 1, err
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


def cdb(path: Path, datas: list[tuple[object, ...]], texts: list[tuple[object, ...]]) -> Path:
    conn = sqlite3.connect(path)
    conn.execute(DATAS)
    conn.execute(TEXTS)
    conn.executemany("INSERT INTO datas VALUES (?, ?, ?, 0, ?, 0, 0, 4, 1, 1, 0)", datas)
    conn.executemany("INSERT INTO texts VALUES (?, ?, '')", texts)
    conn.commit()
    conn.close()
    return path


GOOD = (46986414, 3, 0, 0x11)


# --- lflist numbers -----------------------------------------------------------------------


@pytest.mark.parametrize("line", ["1" * 5000 + " 0 --x", "14558127 " + "1" * 5000 + " --x"])
def test_lflist_number_over_int_limit(capsys, tmp_path: Path, line: str) -> None:
    p = tmp_path / "big.lflist.conf"
    p.write_text(f"!2024.01 TCG\n{line}\n")
    rc, _, err = run(capsys, "banlist", "import", str(p))
    one_error(rc, err, "big.lflist.conf:2", "digits")


@pytest.mark.parametrize("text", ["", "#just a comment\n", "\n\n"])
def test_empty_lflist_is_an_error_not_zero_lists(capsys, tmp_path: Path, text: str) -> None:
    p = tmp_path / "empty.lflist.conf"
    p.write_text(text)
    rc, _out, err = run(capsys, "banlist", "import", str(p))
    one_error(rc, err, "no list in this file")
    assert "0 list(s)" not in err


# --- cdb column types ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("datas", "texts", "words"),
    [
        ([(46986414, "abc", 0, 0x11)], [(46986414, "DM")], ["datas.ot", "text"]),
        ([("abc", 3, 0, 0x11)], [("abc", "DM")], ["datas.id", "text"]),
        ([(46986414.5, 3, 0, 0x11)], [(46986414.5, "DM")], ["datas.id", "real"]),
        ([(2**40, 3, 0, 0x11)], [(2**40, "DM")], ["datas.id", "not a passcode"]),
        ([(46986414, 3, 0, "monster")], [(46986414, "DM")], ["datas.type", "text"]),
        ([GOOD], [(46986414, b"\xff\xfe\x00")], ["texts.name", "not UTF-8"]),
        ([(46986414, 3, 1e30, 0x11)], [(46986414, "DM")], ["alias", "real"]),
    ],
)
def test_cdb_wrong_column_types(capsys, tmp_path: Path, datas, texts, words) -> None:
    p = cdb(tmp_path / "cards.cdb", datas, texts)
    rc, _, err = run(capsys, "db", "import", str(p))
    one_error(rc, err, "cards.cdb", *words)


def test_cdb_utf8_blob_name_is_read_as_text(capsys, tmp_path: Path) -> None:
    p = cdb(tmp_path / "cards.cdb", [GOOD], [(46986414, b"Dark Magician")])
    rc, _, err = run(capsys, "db", "import", str(p))
    assert rc == EXIT_OK, err
    rc, out, err = run(capsys, "card", "show", "46986414")
    assert rc == EXIT_OK and out.startswith("Dark Magician"), (out, err)


def test_locale_file_with_text_ids(capsys, tmp_path: Path) -> None:
    cards = cdb(tmp_path / "cards.cdb", [GOOD], [(46986414, "Dark Magician")])
    loc = tmp_path / "locales" / "ja"
    loc.mkdir(parents=True)
    conn = sqlite3.connect(loc / "cards.cdb")
    conn.execute(TEXTS)
    conn.execute("INSERT INTO texts VALUES ('x46986414', 'ブラック・マジシャン', '')")
    conn.commit()
    conn.close()
    rc, _, err = run(capsys, "db", "import", str(cards), str(loc / "cards.cdb"))
    one_error(rc, err, "texts.id", "text")


def test_db_import_proc_self_mem(capsys) -> None:
    if not os.path.exists("/proc/self/mem"):
        pytest.skip("no /proc/self/mem on this system")
    rc, _, err = run(capsys, "db", "import", "/proc/self/mem")
    one_error(rc, err, "/proc/self/mem")


# --- arguments and environment ------------------------------------------------------------


@pytest.mark.parametrize("cmd", [["card", "search"], ["card", "show"]])
@pytest.mark.parametrize("kind", ["json", "text"])
def test_card_query_not_utf8(capsys, cmd: list[str], kind: str) -> None:
    bad = b"ash\xff\xfe".decode("utf-8", "surrogateescape")  # what Python makes of argv bytes
    rc, out, err = run(capsys, *cmd, bad, "-o", kind)
    one_error(rc, err, "not UTF-8", "\\xff\\xfe")
    assert out == ""


def test_deckcheck_home_is_a_file(capsys, tmp_path: Path, monkeypatch) -> None:
    f = tmp_path / "home"
    f.write_text("")
    monkeypatch.setenv("DECKCHECK_HOME", str(f))
    rc, _, err = run(capsys, "formats")
    one_error(rc, err, "DECKCHECK_HOME", "names a file, not a folder")


def test_out_into_a_missing_folder_is_refused(capsys, tmp_path: Path) -> None:
    run(capsys, "banlist", "import", str(TINY))
    missing = tmp_path / "nonexistent" / "x.conf"
    rc, _, err = run(capsys, "banlist", "export", "tcg@2020-01-01", "--out", str(missing))
    one_error(rc, err, "does not exist")
    assert not missing.parent.exists()
    rc, _, err = run(capsys, "banlist", "import", str(TINY), "--out", str(tmp_path / "new"))
    assert rc == EXIT_OK and "does not exist; creating it for --out" in err  # said, not silent
    deck = FIXTURES / "hostile" / "ok.ydk"
    rc, _, err = run(capsys, "convert", str(deck), "--to", "text", "--out", str(missing))
    one_error(rc, err, "does not exist")


def test_written_files_follow_the_umask(capsys, tmp_path: Path, isolated_home: Path) -> None:
    old = os.umask(0o022)
    try:
        rc, out, err = run(capsys, "banlist", "import", "-v", str(TINY))
        assert rc == EXIT_OK, err
        (written,) = [Path(ln) for ln in out.splitlines()]
        out_file = tmp_path / "out.conf"
        rc, _, err = run(capsys, "banlist", "export", "tcg@2020-01-01", "--out", str(out_file))
        assert rc == EXIT_OK, err
    finally:
        os.umask(old)
    assert stat.S_IMODE(written.stat().st_mode) == 0o644
    assert stat.S_IMODE(out_file.stat().st_mode) == 0o644


# --- corrupt database ---------------------------------------------------------------------


@pytest.mark.parametrize("garbage", [os.urandom(4096), b"SQLite format 3\x00" + b"x" * 4096])
def test_corrupt_database_advice_works(
    capsys, tmp_path: Path, isolated_home: Path, garbage: bytes
) -> None:
    db = isolated_home / "cards.sqlite3"
    isolated_home.mkdir(parents=True, exist_ok=True)
    db.write_bytes(garbage)
    good = cdb(tmp_path / "cards.cdb", [GOOD], [(46986414, "Dark Magician")])
    rc, _, err = run(capsys, "card", "show", "46986414")
    line = one_error(rc, err, "db reset", "db import --replace")
    rc, _, err = run(capsys, "db", "import", str(good))  # extending it fails: says what works
    one_error(
        rc,
        err,
        "corrupt" if garbage.startswith(b"SQLite") else "not SQLite",
        "db import --replace",
        "db reset",
    )
    assert line
    rc, _, err = run(capsys, "db", "import", "--replace", str(good))
    assert rc == EXIT_OK, err
    rc, out, err = run(capsys, "card", "show", "46986414")
    assert rc == EXIT_OK and out.startswith("Dark Magician"), err
    db.write_bytes(garbage)
    rc, _, err = run(capsys, "db", "reset", "--yes")
    assert rc == EXIT_OK and "removed" in err
    assert not db.exists()
    rc, _, err = run(capsys, "db", "import", str(good))
    assert rc == EXIT_OK, err
    rc, _, err = run(capsys, "db", "reset", "--yes")
    rc, _, err = run(capsys, "db", "reset", "--yes")
    assert rc == EXIT_OK and "nothing to remove" in err


# --- full disk and read-only home (a small tmpfs) -----------------------------------------


@contextlib.contextmanager
def tmpfs(where: Path, size: str) -> Iterator[Path]:
    where.mkdir(parents=True, exist_ok=True)
    r = run_process(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)])
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.strip() or r.returncode}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False)


def remount_ro(where: Path) -> None:
    r = run_process(["mount", "-o", "remount,ro", str(where)])
    if r.returncode != 0:
        pytest.skip(f"cannot remount the tmpfs read-only: {r.stderr.strip()}")


def big_lflist(path: Path, n: int = 4000) -> Path:
    body = "\n".join(f"{10000000 + i} 1 --card {i} {'x' * 100}" for i in range(n))
    path.write_text(f"!2024.01 TCG\n{body}\n")
    return path


def big_cdb(path: Path, n: int = 3000) -> Path:
    return cdb(
        path,
        [(10000000 + i, 3, 0, 0x11) for i in range(n)],
        [(10000000 + i, f"Card {i} " + "y" * 200) for i in range(n)],
    )


def test_full_disk(capsys, tmp_path: Path, monkeypatch) -> None:
    src_cdb = big_cdb(tmp_path / "cards.cdb")
    src_list = big_lflist(tmp_path / "big.lflist.conf")
    with tmpfs(tmp_path / "small", "128k") as small:
        home = small / "home"
        monkeypatch.setenv("DECKCHECK_HOME", str(home))
        monkeypatch.setenv("DECKCHECK_CACHE", str(tmp_path / "cache"))
        rc, _, err = run(capsys, "db", "import", str(src_cdb))
        # one short line naming the home and the space needed (issue 32)
        one_error(rc, err, f"{home}: No space left on device", "free there")
        assert not (home / "cards.sqlite3").exists()
        assert not list(home.glob(".*.tmp")) and not list(home.glob(".cards-*"))
        rc, _, err = run(capsys, "banlist", "import", str(src_list))
        one_error(rc, err, str(home), "No space left on device")  # all lists or none
        assert not list((home / "banlists").rglob("*.yaml"))
        # export: a list that fits in the home (outside the tmpfs) onto the full disk
        monkeypatch.setenv("DECKCHECK_HOME", str(tmp_path / "home2"))
        rc, _, err = run(capsys, "banlist", "import", str(src_list))
        assert rc == EXIT_OK, err
        rc, _, err = run(
            capsys, "banlist", "export", "tcg@2024-01-01", "--out", str(small / "x.conf")
        )
        one_error(rc, err, "x.conf", "No space left on device")
        assert not (small / "x.conf").exists()


def test_read_only_home(capsys, tmp_path: Path, monkeypatch) -> None:
    src_cdb = big_cdb(tmp_path / "cards.cdb", 10)
    with tmpfs(tmp_path / "ro", "4m") as home:
        monkeypatch.setenv("DECKCHECK_HOME", str(home))
        monkeypatch.setenv("DECKCHECK_CACHE", str(tmp_path / "cache"))
        monkeypatch.setenv("DECKCHECK_SOURCE", str(tmp_path / "no-mirror"))
        rc, _, err = run(capsys, "banlist", "import", str(TINY))
        assert rc == EXIT_OK, err
        remount_ro(home)
        rc, _, err = run(capsys, "db", "import", str(src_cdb))
        one_error(rc, err, "Read-only file system", "DECKCHECK_HOME")
        rc, _, err = run(capsys, "banlist", "import", str(big_lflist(tmp_path / "l.conf", 5)))
        one_error(rc, err, "Read-only file system")
        rc, _, err = run(capsys, "update")
        one_error(rc, err)
        rc, out, err = run(capsys, "banlist", "export", "tcg@2020-01-01")
        assert rc == EXIT_OK and out.startswith("#[2020.01 TCG]"), err
        rc, _, err = run(
            capsys, "banlist", "export", "tcg@2020-01-01", "--out", str(home / "x.conf")
        )
        one_error(rc, err, "x.conf", "Read-only file system")


def test_an_error_is_one_line_whatever_its_file_name_or_library_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A file name (or a library's message quoting a damaged file: SQLite quotes a fuzzed
    # schema) holding a line break or a terminal escape is shown escaped: still one line.
    from deckcheck.errors import InputError

    text = str(InputError('near "\r\n": syntax error \x1b[2J\u2028', where="a\rb.cdb"))
    assert text == 'a\\rb.cdb: near "\\r\\n": syntax error \\x1b[2J\\u2028'
    assert len(text.splitlines()) == 1 and "\t" in str(InputError("a\tb"))  # tabs stay
    rc, _out, err = run(capsys, "validate", str(tmp_path / "no\rsuch\x1b[2J.ydk"))
    line = one_error(rc, err, "no\\rsuch\\x1b[2J.ydk")
    assert "\r" not in err and "\x1b" not in err, line
