"""Issue 20, "Unbounded work on hostile input": hostile cards.cdb files, a locale-only
import, and `deckcheck update` against a hostile HTTP server on 127.0.0.1 (bounded in time)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from deckcheck.cli import main
from tests._http import serving
from tests.builders import child_env, run_deckcheck

REPO = Path(__file__).resolve().parent.parent.parent
DATAS = (
    "CREATE TABLE datas (id INTEGER PRIMARY KEY, ot INTEGER, alias INTEGER, type INTEGER, "
    "atk INTEGER, def INTEGER, level INTEGER, race INTEGER, attribute INTEGER)"
)


def cdb(path: Path, *, datas: str | None = DATAS, texts: str | None = None, rows: int = 2) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    if datas:
        conn.execute(datas)
        if datas == DATAS:
            conn.executemany(
                "INSERT INTO datas VALUES (?, 3, 0, 2, 0, 0, 0, 0, 0)",
                [(10_000_000 + i,) for i in range(rows)],
            )
    conn.execute(texts or "CREATE TABLE texts (id INTEGER PRIMARY KEY, name TEXT, desc TEXT)")
    if not texts:
        conn.executemany(
            "INSERT INTO texts VALUES (?, ?, '')",
            [(10_000_000 + i, f"Card {i}") for i in range(rows)],
        )
    conn.commit()
    conn.close()
    return path


def run(argv: list[str], timeout: float = 60, **env: str) -> subprocess.CompletedProcess[str]:
    return run_deckcheck(*argv, env=child_env(**env), timeout=timeout)


def _one_error(r: subprocess.CompletedProcess[str], needle: str) -> None:
    assert r.returncode == 2, (r.returncode, r.stderr)
    lines = [x for x in r.stderr.splitlines() if not x.startswith("deckcheck: note:")]
    assert len(lines) == 1 and lines[0].startswith("deckcheck: error: "), r.stderr
    assert needle in lines[0], lines[0]


# --------------------------------------------------------------------------- hostile cdb


def test_recursive_view_named_datas_is_refused_at_once(tmp_path: Path) -> None:
    p = cdb(
        tmp_path / "v" / "cards.cdb",
        datas=(
            "CREATE VIEW datas AS WITH RECURSIVE r(id, ot, alias, type, atk, def, level, race, "
            "attribute) AS (SELECT 1, 1, 0, 1, 0, 0, 0, 0, 0 UNION ALL SELECT id + 1, 1, 0, 1, 0, "
            "0, 0, 0, 0 FROM r) SELECT * FROM r"
        ),
    )
    # before: the importer read the endless view until killed
    _one_error(run(["db", "import", str(p)], timeout=60), "missing table datas")


def test_huge_view_named_texts_is_not_read(tmp_path: Path) -> None:
    p = tmp_path / "t" / "cards.cdb"
    p.parent.mkdir(parents=True)
    conn = sqlite3.connect(p)
    conn.execute(DATAS)
    conn.execute(
        "CREATE VIEW texts AS WITH RECURSIVE r(id, name) AS (SELECT 1, 'x' UNION ALL "
        "SELECT id + 1, 'x' FROM r LIMIT 50000000) SELECT id, name, '' AS desc FROM r"
    )
    conn.commit()
    conn.close()
    _one_error(run(["db", "import", str(p)]), "missing table texts")


def test_name_of_twenty_mebibytes_is_refused_without_reading_it_whole(tmp_path: Path) -> None:
    p = cdb(tmp_path / "n" / "cards.cdb")
    conn = sqlite3.connect(p)
    conn.execute("UPDATE texts SET name = ? WHERE id = 10000000", ("A" * (20 << 20),))
    conn.commit()
    conn.close()
    _one_error(run(["db", "import", str(p)]), "card 10000000: a name over 1000 characters")


def test_too_many_rows_and_too_slow_are_bounded(
    tmp_path: Path,
    isolated_home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from deckcheck.carddb import cdbfile

    p = cdb(tmp_path / "r" / "cards.cdb", rows=50)
    monkeypatch.setattr(cdbfile, "MAX_ROWS", 10)
    assert main(["db", "import", str(p)]) == 2
    assert "more than 10 rows: not a cards.cdb" in capsys.readouterr().err
    monkeypatch.setattr(cdbfile, "MAX_ROWS", 1_000_000)
    monkeypatch.setattr(cdbfile, "MAX_SECONDS", 0.0)  # every SQLite step is over time
    monkeypatch.setattr(cdbfile, "_PROGRESS_STEPS", 1)
    assert main(["db", "import", str(p)]) == 2
    assert "reading it took over 0 s" in capsys.readouterr().err
    assert not (isolated_home / "cards.sqlite3").exists()


def test_locale_only_import_into_an_empty_home_is_refused(
    tmp_path: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = cdb(tmp_path / "locales" / "ja-JP" / "cards.cdb", datas=None)
    assert main(["db", "import", str(names)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "names need cards: there is no card database yet" in err[0]
    assert not (isolated_home / "cards.sqlite3").exists()  # the built-in sample stays in use
    cards = cdb(tmp_path / "cards.cdb")
    assert main(["db", "import", str(cards), str(names)]) == 0  # with cards it works
    assert main(["db", "import", str(names)]) == 0  # and names now extend that database


# --------------------------------------------------------------------------- hostile server


class _Hostile(BaseHTTPRequestHandler):
    mode = "drip"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        if self.mode == "ftp":
            self.send_response(302)
            self.send_header("Location", "ftp://127.0.0.1/cards.cdb")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Length", str(1 << 20))
        self.end_headers()
        try:
            for _ in range(1 << 20):  # one byte every 0.5 s: never trips a socket timeout
                self.wfile.write(b"\0")
                self.wfile.flush()
                time.sleep(0.5)
        except OSError:
            pass


@pytest.fixture
def hostile() -> Iterator[tuple[str, type[_Hostile]]]:
    handler = type("H", (_Hostile,), {})
    with serving(handler) as url:
        yield url, handler


def _snapshot(home: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(home)): p.read_bytes()
        for p in sorted(home.rglob("*"))
        if p.is_file() and "cache" not in p.parts
    }


def test_dripping_server_is_given_up_in_bounded_time(
    hostile: tuple[str, type[_Hostile]], isolated_home: Path, tmp_path: Path
) -> None:
    url, _ = hostile
    conf = tmp_path / "l.conf"
    conf.write_text("!2026.01 TCG\n55144522 0\n")
    assert main(["banlist", "import", str(conf)]) == 0
    before = _snapshot(isolated_home)
    t0 = time.monotonic()
    # before: it kept reading until killed (150 s in the issue); the timeout here is the bound
    r = run(
        ["update", "--source", url],
        timeout=60,
        DECKCHECK_UPDATE_STALL_SECONDS="3",
        DECKCHECK_UPDATE_FILE_SECONDS="8",
    )
    took = time.monotonic() - t0
    _one_error(r, "stalled: ")
    assert took < 45
    assert _snapshot(isolated_home) == before  # old data intact


def test_file_deadline_ends_retries_too(
    hostile: tuple[str, type[_Hostile]], isolated_home: Path
) -> None:
    url, _ = hostile
    # the stall rule off: the per-file deadline alone ends the drip
    r = run(
        ["update", "--source", url],
        timeout=60,
        DECKCHECK_UPDATE_STALL_SECONDS="1000",
        DECKCHECK_UPDATE_FILE_SECONDS="4",
    )
    _one_error(r, "gave up after 4 s on this file")


def test_redirect_to_ftp_is_not_followed(hostile: tuple[str, type[_Hostile]]) -> None:
    url, handler = hostile
    handler.mode = "ftp"
    r = run(["update", "--source", url], timeout=60)
    _one_error(r, "redirect to a ftp: URL refused (only http and https are followed)")


# --------------------------------------------------------------------------- lookup work


def test_fuzzy_lookups_per_deck_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from deckcheck import decks
    from deckcheck.carddb import open_db
    from deckcheck.decks import resolve
    from deckcheck.lookup import Index

    monkeypatch.setattr(resolve, "MAX_FUZZY", 3)
    db = open_db()
    index = Index.for_db(db)
    calls: list[str] = []

    class Counting:
        def resolve(self, query: str, lang: str | None = None) -> object:
            calls.append(query)
            return index.resolve(query)

    text = "3 Pot of Greed\n" + "".join(f"1 Qzxv{i} Wyrm\n" for i in range(8)) + '1 Maxx "C"\n'
    d = resolve.resolve_deck(decks.read_string(text, "l.txt"), db, Counting())
    msgs = [f.message for f in d.findings]
    # every line past the budget is reported, a real card too (Maxx "C"): never dropped
    assert [f.code for f in d.findings] == ["DC102"] * 9
    assert sum("not looked up: the list already has 3 names" in m for m in msgs) == 6
    # only three were searched (each as "Qzxv0 Wyrm" and as the whole line "1 Qzxv0 Wyrm")
    assert len({q for q in calls if "Qzxv" in q}) == 6
    found = [e.card_id for e in d.entries() if e.card_id]
    assert len(found) == 1  # Pot of Greed (the sample has it)


def test_read_only_home_caches_the_lookup_index_elsewhere(tmp_path: Path) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    r = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=20m", "tmpfs", str(ro)],
        capture_output=True,
        check=False,
    )
    if r.returncode != 0:
        pytest.skip("mounting a tmpfs is not permitted here (needs root / CAP_SYS_ADMIN)")
    try:
        home = ro / "home"
        cards = cdb(tmp_path / "cards.cdb", rows=50)
        assert run(["db", "import", str(cards)], DECKCHECK_HOME=str(home)).returncode == 0
        import shutil

        shutil.rmtree(home / "cache", ignore_errors=True)
        subprocess.run(["mount", "-o", "remount,ro", str(ro)], check=True)
        tmp = tmp_path / "tmp"
        tmp.mkdir()
        env = {"DECKCHECK_HOME": str(home), "TMPDIR": str(tmp), "XDG_RUNTIME_DIR": ""}
        first = run(["card", "search", "Card 7"], **env)
        assert first.returncode == 0, first.stderr
        private = tmp / f"deckcheck-{os.getuid()}-cache"
        assert list(private.glob("lookup-*.pickle"))  # built once, kept outside the home
        assert oct(private.stat().st_mode & 0o777) == "0o700"
        second = run(["card", "search", "Card 7"], **env)
        assert second.stdout == first.stdout and "not cached" not in second.stderr
    finally:
        subprocess.run(["umount", "-l", str(ro)], check=False)
