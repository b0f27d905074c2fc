"""Concurrent use and crashes with real processes: imports serialise on the lock, readers see
the old or the new database, and SIGKILL at any point leaves a working database."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.builders import run_process
from tests.conftest import FIXTURES

HOSTILE = FIXTURES / "hostile"
DATAS = (
    "CREATE TABLE datas (id INTEGER PRIMARY KEY, ot INTEGER, alias INTEGER, setcode INTEGER, "
    "type INTEGER, atk INTEGER, def INTEGER, level INTEGER, race INTEGER, attribute INTEGER, "
    "category INTEGER)"
)
TEXTS = "CREATE TABLE texts (id INTEGER PRIMARY KEY, name TEXT, desc TEXT)"


def make_cdb(path: Path, first: int, n: int) -> Path:
    """An EDOPro cards.cdb of ``n`` normal monsters (OCG+TCG) with ids from ``first``."""
    conn = sqlite3.connect(path)
    conn.execute(DATAS)
    conn.execute(TEXTS)
    ids = range(first, first + n)
    conn.executemany(
        "INSERT INTO datas VALUES (?, 3, 0, 0, 17, 1000, 1000, 4, 1, 1, 0)", [(i,) for i in ids]
    )
    conn.executemany("INSERT INTO texts VALUES (?, ?, '')", [(i, f"Card {i}") for i in ids])
    conn.commit()
    conn.close()
    return path


def deckcheck(home: Path, *args: str, **kw: object) -> subprocess.Popen[str]:
    env = {**os.environ, "DECKCHECK_HOME": str(home)}
    return subprocess.Popen(
        [sys.executable, "-m", "deckcheck", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kw,  # type: ignore[arg-type]
    )


def finish(p: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = p.communicate(timeout=120)
    return p.returncode, out, err


def card_count(home: Path) -> int:
    """Cards in the installed database, through `deckcheck db info` (a fresh process)."""
    rc, out, err = finish(deckcheck(home, "db", "info", "--output", "json"))
    assert rc == 0, err
    assert "Traceback" not in err
    info = json.loads(out)
    assert not info["sample"]
    counts = {v for k, v in info.items() if k in ("cards", "card_count", "total")}
    assert len(counts) == 1, info
    return int(counts.pop())


def integrity(home: Path) -> None:
    conn = sqlite3.connect(f"file:{home / 'cards.sqlite3'}?mode=ro", uri=True)
    try:
        problems = [r[0] for r in conn.execute("PRAGMA integrity_check")]
        # SQLite 3.40 reports "NULL value in names.<column>" for any WITHOUT ROWID table whose
        # primary key columns are declared out of order (a one-row table in memory does it).
        assert [p for p in problems if p != "ok" and not p.startswith("NULL value in names.")] == []
        assert conn.execute("SELECT count(*) FROM names WHERE name IS NULL").fetchone() == (0,)
    finally:
        conn.close()


def wait_for_temp(home: Path, p: subprocess.Popen[str]) -> None:
    """Until the importer holds the lock (its temp database exists) or has ended."""
    for _ in range(600):
        if list(home.glob(".cards-*.sqlite3.tmp")) or p.poll() is not None:
            return
        time.sleep(0.01)


def test_two_imports_at_once_are_serialised(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    a = make_cdb(tmp_path / "a.cdb", 10_000_000, 60_000)
    b = make_cdb(tmp_path / "b.cdb", 20_000_000, 30_000)
    # The test holds the lock until both importers are waiting for it, so that they really
    # run at once on a loaded machine; then they race for it when it is released.
    fd = os.open(home / ".lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        first = deckcheck(home, "db", "import", str(a))
        second = deckcheck(home, "db", "import", str(b))
        for p in (first, second):
            line = p.stderr.readline() if p.stderr else ""
            assert "waiting" in line, line
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
    rc1, _, err1 = finish(first)
    rc2, _, err2 = finish(second)
    assert (rc1, rc2) == (0, 0), (err1, err2)
    # Both imports are in the database (an import extends it): nothing lost to a race.
    assert card_count(home) == 90_000
    integrity(home)
    assert not list(home.glob(".cards-*"))


def test_validate_during_reimport_sees_old_or_new_never_a_mix(tmp_path: Path) -> None:
    from deckcheck.formats.importer import import_lflists

    home = tmp_path / "home"
    a = make_cdb(tmp_path / "a.cdb", 10_000_000, 20_000)
    rc, _, err = finish(deckcheck(home, "db", "import", str(a)))
    assert rc == 0, err
    import_lflists([HOSTILE / "tiny.lflist.conf"], dest=home / "banlists")
    ydk = tmp_path / "deck.ydk"
    ids = [10_000_000 + i for i in range(14)] * 3  # 42 cards, three of each: legal
    ydk.write_text("#main\n" + "\n".join(map(str, ids)) + "\n#extra\n!side\n")
    text = tmp_path / "deck.txt"
    text.write_text("".join(f"3 Card {10_000_100 + i}\n" for i in range(14)))
    loop = tmp_path / "loop.py"
    loop.write_text(
        "import hashlib, io, sys, contextlib\n"
        "from deckcheck.cli import main\n"
        "for _ in range(20):\n"
        "    out, err = io.StringIO(), io.StringIO()\n"
        "    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):\n"
        f"        rc = main(['validate', '-d', '2021-01-01', {str(ydk)!r}, {str(text)!r}])\n"
        "    print(rc, hashlib.sha1(out.getvalue().encode()).hexdigest(), repr(err.getvalue()))\n"
        "    sys.stdout.flush()\n"
    )
    importer = tmp_path / "reimport.sh"
    errs = tmp_path / "import.err"
    importer.write_text(
        f'while [ ! -e {tmp_path / "stop"} ]; do "{sys.executable}" -m deckcheck db import '
        f'"{a}" >/dev/null 2>>"{errs}" || echo FAIL >> "{errs}"; done\n'
    )
    env = {**os.environ, "DECKCHECK_HOME": str(home)}
    reimports = subprocess.Popen(["sh", str(importer)], env=env)
    try:
        wait_for_temp(home, reimports)
        proc = run_process([sys.executable, str(loop)], env=env, timeout=300)
    finally:
        (tmp_path / "stop").touch()
        reimports.wait(timeout=120)
    assert proc.returncode == 0, proc.stderr
    runs = [ln.split(" ", 2) for ln in proc.stdout.splitlines()]
    assert len(runs) == 20
    assert {r[0] for r in runs} == {"0"}, runs  # both decks legal every time
    assert len({r[1] for r in runs}) == 1  # identical report every time
    assert "Traceback" not in proc.stdout and "error" not in proc.stdout
    assert "FAIL" not in (tmp_path / "import.err").read_text()
    integrity(home)


def _kill_import_at(home: Path, base: Path, new: Path, delay: float) -> None:
    (home / "cards.sqlite3").write_bytes(base.read_bytes())
    p = deckcheck(home, "db", "import", str(new))
    time.sleep(delay)
    p.send_signal(signal.SIGKILL)
    p.communicate(timeout=60)


def test_sigkill_during_db_import_leaves_old_or_new(tmp_path: Path) -> None:
    home = tmp_path / "home"
    a = make_cdb(tmp_path / "a.cdb", 10_000_000, 20_000)
    b = make_cdb(tmp_path / "b.cdb", 20_000_000, 60_000)
    rc, _, err = finish(deckcheck(home, "db", "import", str(a)))
    assert rc == 0, err
    base = tmp_path / "base.sqlite3"
    base.write_bytes((home / "cards.sqlite3").read_bytes())
    seen = set()
    for delay in (0.05, 0.3, 0.5, 0.7, 0.9, 1.2, 2.0):
        _kill_import_at(home, base, b, delay)
        n = card_count(home)
        assert n in (20_000, 80_000), (delay, n)
        integrity(home)
        seen.add(n)
    assert 20_000 in seen  # at least one kill landed before the swap
    # The next import runs normally and leaves no temp database behind.
    rc, _, err = finish(deckcheck(home, "db", "import", str(b)))
    assert rc == 0, err
    assert card_count(home) == 80_000
    assert sorted(p.name for p in home.iterdir() if p.name.startswith(".cards-")) == []


def test_sigkill_during_real_db_import(shared_data: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    a = make_cdb(tmp_path / "a.cdb", 10_000_000, 1000)
    rc, _, err = finish(deckcheck(home, "db", "import", str(a)))
    assert rc == 0, err
    base = tmp_path / "base.sqlite3"
    base.write_bytes((home / "cards.sqlite3").read_bytes())
    real = shared_data / "cards" / "cards.cdb"
    _kill_import_at(home, base, real, 0.5)
    n = card_count(home)
    integrity(home)
    rc, _, err = finish(deckcheck(home, "db", "import", str(real)))
    assert rc == 0, err
    full = card_count(home)
    assert n in (1000, full) and full > 20_000
    assert not list(home.glob(".cards-*"))


def test_sigkill_during_banlist_import(shared_data: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    confs = sorted((shared_data / "banlists" / "projectignis-lflists" / "TCG").glob("*.conf"))
    assert len(confs) > 20
    rc, _, err = finish(deckcheck(home, "banlist", "import", *map(str, confs[:5])))
    assert rc == 0, err
    for delay in (0.3, 0.6, 1.0):
        p = deckcheck(home, "banlist", "import", *map(str, confs))
        time.sleep(delay)
        p.send_signal(signal.SIGKILL)
        p.communicate(timeout=60)
        # Every list file is whole (the store reads them all) and the store works.
        rc, _out, err = finish(deckcheck(home, "banlist", "list"))
        assert rc == 0 and "Traceback" not in err, err
        rc, _out, err = finish(
            deckcheck(home, "validate", "-d", "2021-01-01", str(HOSTILE / "ok.ydk"))
        )
        assert rc in (0, 1) and "error" not in err.lower().replace("error dc", ""), err
    rc, _out, err = finish(deckcheck(home, "banlist", "import", *map(str, confs)))
    assert rc == 0, err
    installed = list((home / "banlists" / "tcg").glob("*.yaml"))
    assert len(installed) >= len(confs) - 2  # lists of one date may share a file
    assert not list((home / "banlists").rglob("*.tmp"))


@pytest.fixture(autouse=True)
def _no_inherited_home(monkeypatch: pytest.MonkeyPatch) -> None:
    # Subprocesses get DECKCHECK_HOME explicitly; the parent's must not leak a lock path.
    monkeypatch.delenv("DECKCHECK_DEBUG", raising=False)
