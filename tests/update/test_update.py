"""deckcheck update: downloads against a real HTTP server on 127.0.0.1, and all-or-nothing installs.

The server serves a folder laid out like the upstream repositories (``<owner>/<repo>/<path>``),
sends ETag/Last-Modified, honours conditional requests, counts requests, and can be told to
fail on a given file (500, connection drop, garbage bytes, short body).
"""

from __future__ import annotations

import contextlib
import email.utils
import hashlib
import json
import os
import shutil
import socket
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from deckcheck import paths
from deckcheck.carddb._common import SCHEMA_VERSION
from deckcheck.cli import main
from deckcheck.errors import DataError, InputError
from deckcheck.update import download
from deckcheck.update.download import Fetcher, check_file, commit_downloads, load_state
from deckcheck.update.sources import Component, load_components, resolve_source
from tests._http import serving
from tests.builders import as_schema_3

# --------------------------------------------------------------------------- the test server

Fault = Callable[[str, int], str | None]  # (path, nth request for it) -> fault kind or None


@dataclass
class Mirror:
    root: Path
    url: str = ""
    requests: list[tuple[str, int]] = field(default_factory=list)  # (path, status)
    fault: Fault | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, status: int | None = None) -> int:
        with self.lock:
            return sum(1 for _, s in self.requests if status is None or s == status)

    def reset(self) -> None:
        with self.lock:
            self.requests.clear()


def _handler(mirror: Mirror) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep pytest output clean

        def _log(self, status: int) -> int:
            with mirror.lock:
                n = sum(1 for p, _ in mirror.requests if p == self.path)
                mirror.requests.append((self.path, status))
            return n

        def do_GET(self) -> None:
            rel = self.path.lstrip("/")
            f = mirror.root / rel
            with mirror.lock:
                nth = sum(1 for p, _ in mirror.requests if p == self.path)
            fault = mirror.fault(rel, nth) if mirror.fault else None
            if fault == "drop":
                self._log(0)
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            if fault == "500":
                self._log(500)
                self._send(500, b"boom")
                return
            if not f.is_file():
                self._log(404)
                self._send(404, b"not found")
                return
            body = f.read_bytes()
            if fault == "garbage":
                body = b"\x8b\x1f this is not SQLite at all " * 100
            etag = '"' + hashlib.sha1(body).hexdigest() + '"'
            mtime = int(f.stat().st_mtime)
            last_mod = email.utils.formatdate(mtime, usegmt=True)
            if fault is None:
                inm = self.headers.get("If-None-Match")
                ims = self.headers.get("If-Modified-Since")
                if inm == etag or (inm is None and ims and _parse(ims) >= mtime):
                    self._log(304)
                    self.send_response(304)
                    self.send_header("ETag", etag)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
            self._log(200)
            self.send_response(200)
            self.send_header("ETag", etag)
            self.send_header("Last-Modified", last_mod)
            if fault == "truncate":
                self.send_header("Content-Length", str(len(body) + 1000))
                self.close_connection = True
            else:
                self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _send(self, status: int, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return Handler


def _parse(date: str) -> float:
    return email.utils.parsedate_to_datetime(date).timestamp()


@pytest.fixture
def serve() -> Iterator[Callable[[Path], Mirror]]:
    """Start servers on 127.0.0.1 (port 0); each is shut down and closed afterwards."""
    with contextlib.ExitStack() as servers:

        def start(root: Path) -> Mirror:
            m = Mirror(root)
            m.url = servers.enter_context(serving(_handler(m)))
            return m

        yield start


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --------------------------------------------------------------------------- small files


def _tiny_cdb(path: Path, names: dict[int, str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE datas (id INTEGER PRIMARY KEY, ot INTEGER, alias INTEGER)")
    conn.execute("CREATE TABLE texts (id INTEGER PRIMARY KEY, name TEXT, desc TEXT)")
    conn.executemany("INSERT INTO datas VALUES (?, 2, 0)", [(i,) for i in names])
    conn.executemany("INSERT INTO texts VALUES (?, ?, '')", list(names.items()))
    conn.commit()
    conn.close()
    return path


def _comp(path: str, kind: str = "cards", required: bool = True, cap: int = 1 << 20) -> Component:
    return Component("Own", "Repo", "main", path, kind, required, cap)  # type: ignore[arg-type]


@pytest.fixture
def tiny_mirror(tmp_path: Path) -> Path:
    root = tmp_path / "mirror"
    _tiny_cdb(root / "Own/Repo/cards.cdb", {55144522: "Pot of Greed", 23434538: 'Maxx "C"'})
    lf = root / "Own/Repo/A.lflist.conf"
    lf.write_bytes(b"#[2026.01 TCG]\r\n!2026.01 TCG\r\n55144522 0 -- Pot of Greed\r\n")
    return root


def _fetcher(base: str, staging: Path, sleeps: list[float] | None = None, **kw: Any) -> Fetcher:
    rec = sleeps if sleeps is not None else []
    kw.setdefault("timeout", 5)
    return Fetcher(
        resolve_source(base),
        load_state(),
        staging,
        sleep=rec.append,
        progress=False,
        backoff=0.5,
        **kw,
    )


# --------------------------------------------------------------------------- sources


def test_sources_file_lists_every_upstream_file_once() -> None:
    comps = load_components()
    keys = [c.key for c in comps]
    assert len(keys) == len(set(keys))
    assert "ProjectIgnis/BabelCDB/cards.cdb" in keys
    assert "Fluorohydride/ygopro/lflist.conf" in keys
    required = {c.key for c in comps if c.required}
    assert "ProjectIgnis/BabelCDB/cards-rush.cdb" not in required
    assert "mycard/ygopro-database/locales/zh-TW/cards.cdb" not in required
    assert "mycard/ygopro-database/locales/zh-CN/cards.cdb" in required
    assert {c.kind for c in load_components("lists")} == {"lists"}
    assert {c.kind for c in load_components("cards")} == {"cards", "names", "official"}


def test_default_source_is_github_raw_with_branch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DECKCHECK_SOURCE", raising=False)
    comp = next(c for c in load_components() if c.path == "0TCG.lflist.conf")
    assert resolve_source(None).locate(comp) == (
        f"https://raw.githubusercontent.com/ProjectIgnis/LFLists/{comp.branch}/0TCG.lflist.conf"
    )


def test_mirror_url_and_env_override(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    comp = next(c for c in load_components() if c.path == "locales/zh-CN/cards.cdb")
    monkeypatch.setenv("DECKCHECK_SOURCE", "http://127.0.0.1:9/base/")
    assert resolve_source(None).locate(comp) == (
        "http://127.0.0.1:9/base/mycard/ygopro-database/locales/zh-CN/cards.cdb"
    )
    # --source beats the environment; a directory maps the same way
    got = resolve_source(str(tmp_path)).locate(comp)
    assert got == str(tmp_path.resolve() / "mycard/ygopro-database/locales/zh-CN/cards.cdb")
    with pytest.raises(InputError, match="source directory not found"):
        resolve_source(str(tmp_path / "nope"))


# --------------------------------------------------------------------------- checks (offline)


def test_checks_accept_real_shapes_and_reject_garbage(tmp_path: Path, tiny_mirror: Path) -> None:
    check_file(tiny_mirror / "Own/Repo/cards.cdb", _comp("cards.cdb"), "x")
    check_file(tiny_mirror / "Own/Repo/A.lflist.conf", _comp("A.lflist.conf", "lists"), "x")
    bad = tmp_path / "bad.cdb"
    bad.write_bytes(b"garbage" * 10)
    with pytest.raises(DataError, match="not an SQLite database"):
        check_file(bad, _comp("cards.cdb"), "x")
    other = tmp_path / "other.cdb"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE foo (a)")
    conn.commit()
    conn.close()
    with pytest.raises(DataError, match="no table datas, texts"):
        check_file(other, _comp("cards.cdb"), "x")
    nolist = tmp_path / "x.lflist.conf"
    nolist.write_text("#[2026.01]\n55144522 0\n")
    with pytest.raises(DataError, match="no '!name' list"):
        check_file(nolist, _comp("x.lflist.conf", "lists"), "x")
    empty = tmp_path / "e.lflist.conf"
    empty.write_bytes(b"")
    with pytest.raises(DataError, match="empty file"):
        check_file(empty, _comp("e.lflist.conf", "lists"), "x")


# --------------------------------------------------------------------------- fetching


def test_fetch_then_conditional_304_reuses_cache(
    tiny_mirror: Path, tmp_path: Path, serve: Callable[[Path], Mirror]
) -> None:
    m = serve(tiny_mirror)
    comp = _comp("cards.cdb")
    f1 = _fetcher(m.url, tmp_path / "s1")
    got = f1.fetch(comp)
    body = (tiny_mirror / "Own/Repo/cards.cdb").read_bytes()
    assert got.status == "new" and got.staged
    assert got.sha256 == hashlib.sha256(body).hexdigest() and got.size == len(body)
    assert got.meta["etag"] and got.meta["last_modified"]
    commit_downloads([got], f1.state)
    download.save_state(f1.state)
    cached = download.downloads_dir() / comp.key
    assert cached.read_bytes() == body
    m.reset()
    again = _fetcher(m.url, tmp_path / "s2").fetch(comp)
    assert m.requests == [("/Own/Repo/cards.cdb", 304)]
    assert again.path == cached and not again.staged and again.sha256 == got.sha256
    # a changed file upstream is fetched in full
    _tiny_cdb(tiny_mirror / "Own/Repo/cards.cdb", {1: "New Card"})
    m.reset()
    third = _fetcher(m.url, tmp_path / "s3").fetch(comp)
    assert m.requests == [("/Own/Repo/cards.cdb", 200)] and third.sha256 != got.sha256


def test_transient_failures_retry_with_backoff(
    tiny_mirror: Path, tmp_path: Path, serve: Callable[[Path], Mirror]
) -> None:
    m = serve(tiny_mirror)
    m.fault = lambda path, nth: ("500" if nth == 0 else "drop") if nth < 2 else None
    sleeps: list[float] = []
    got = _fetcher(m.url, tmp_path / "s", sleeps).fetch(_comp("cards.cdb"))
    assert got.status == "new"
    assert sleeps == [0.5, 1.0]
    assert [s for _, s in m.requests] == [500, 0, 200]


def test_an_update_builds_a_database_of_an_older_deckcheck_again(
    installed: Installed, updated_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    as_schema_3((updated_copy / "cards.sqlite3").resolve())
    args = ["update", "--source", installed.mirror.url, "-o", "json"]
    assert main([*args, "-v"]) == 0
    got = capsys.readouterr()
    out = json.loads(got.out)
    assert installed.mirror.count(200) == 0  # nothing new downloaded: the same files
    assert out["cards_updated"] is True and not out["lists_updated"]
    assert "the card database was built by an older deckcheck (schema 3)" in got.err
    conn = sqlite3.connect(updated_copy / "cards.sqlite3")
    version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    conn.close()
    assert int(version) == SCHEMA_VERSION and "card_fields" in tables
    assert main(args) == 0  # and then it is current: nothing to do
    assert json.loads(capsys.readouterr().out)["cards_updated"] is False


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ("500", "HTTP 500 Internal Server Error"),
        ("drop", "closed the connection"),
        ("truncate", "truncated download"),
    ],
)
def test_persistent_failure_names_url_and_reason(
    fault: str, message: str, tiny_mirror: Path, tmp_path: Path, serve: Callable[[Path], Mirror]
) -> None:
    m = serve(tiny_mirror)
    m.fault = lambda path, nth: fault
    sleeps: list[float] = []
    with pytest.raises(DataError, match=message) as exc:
        _fetcher(m.url, tmp_path / "s", sleeps, retries=2).fetch(_comp("cards.cdb"))
    assert exc.value.where == f"{m.url}/Own/Repo/cards.cdb"
    assert sleeps == [0.5, 1.0] and m.count() == 3


def test_garbage_cdb_and_size_cap_refused(
    tiny_mirror: Path, tmp_path: Path, serve: Callable[[Path], Mirror]
) -> None:
    m = serve(tiny_mirror)
    m.fault = lambda path, nth: "garbage"
    with pytest.raises(DataError, match="not an SQLite database"):
        _fetcher(m.url, tmp_path / "s").fetch(_comp("cards.cdb"))
    m.fault = None
    with pytest.raises(DataError, match="over the 100 byte cap"):
        _fetcher(m.url, tmp_path / "s2").fetch(_comp("cards.cdb", cap=100))


def test_missing_file_optional_skipped_required_fails(
    tiny_mirror: Path, tmp_path: Path, serve: Callable[[Path], Mirror]
) -> None:
    m = serve(tiny_mirror)
    f = _fetcher(m.url, tmp_path / "s")
    skipped = f.fetch(_comp("cards-rush.cdb", required=False))
    assert skipped.status == "missing" and skipped.path is None
    with pytest.raises(DataError, match="404") as exc:
        f.fetch(_comp("cards-rush.cdb"))
    assert exc.value.where == f"{m.url}/Own/Repo/cards-rush.cdb"
    d = _fetcher(str(tiny_mirror), tmp_path / "s2")
    assert d.fetch(_comp("cards-rush.cdb", required=False)).status == "missing"
    with pytest.raises(DataError, match="required file missing"):
        d.fetch(_comp("cards-rush.cdb"))
    assert d.requests == 0


def test_unreachable_server_is_one_clear_error(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_free_port()}"
    sleeps: list[float] = []
    with pytest.raises(DataError, match="connection refused"):
        _fetcher(url, tmp_path / "s", sleeps, retries=1).fetch(_comp("cards.cdb"))
    assert sleeps == [0.5]


# --------------------------------------------------------------------------- full updates


def _build_mirror(shared: Path, root: Path) -> Path:
    """Upstream layout in ``root``, symlinked to ../shared/data files."""
    links: dict[str, Path] = {"ProjectIgnis/BabelCDB/cards.cdb": shared / "cards/cards.cdb"}
    for d in sorted((shared / "locales").iterdir()):
        links[f"mycard/ygopro-database/locales/{d.name}/cards.cdb"] = d / "cards.cdb"
    for f in sorted((shared / "banlists/projectignis-lflists/upstream-head").glob("*.lflist.conf")):
        links[f"ProjectIgnis/LFLists/{f.name}"] = f
    links["Fluorohydride/ygopro/lflist.conf"] = (
        shared / "banlists/fluorohydride-ygopro/upstream-head/lflist.conf"
    )
    for rel, target in links.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).symlink_to(target)
    return root


def _snapshot(home: Path) -> dict[str, str]:
    """sha256 of the database and of every installed list file."""
    out = {}
    db = home / "cards.sqlite3"
    if db.exists():
        out["cards.sqlite3"] = hashlib.sha256(db.read_bytes()).hexdigest()
    lists = home / "banlists"
    for p in sorted(lists.rglob("*")) if lists.is_dir() else []:
        if p.is_file():
            out[str(p.relative_to(home))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@dataclass
class Installed:
    home: Path
    mirror: Mirror
    first_out: str
    first_requests: int


@pytest.fixture(scope="module")
def installed(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    """One real update from a local HTTP mirror of ../shared/data, reused by the module."""
    root = _build_mirror(shared_data, tmp_path_factory.mktemp("upstream"))
    home = tmp_path_factory.mktemp("updated-home")
    m = Mirror(root)
    with serving(_handler(m)) as m.url, pytest.MonkeyPatch.context() as mp:
        mp.setenv("DECKCHECK_HOME", str(home))
        mp.setattr(download, "BACKOFF", 0.0)
        args = ["update", "--source", m.url, "-o", "json"]
        from click.testing import CliRunner

        from deckcheck.cli import cli

        res = CliRunner().invoke(cli, args, catch_exceptions=False)
        assert res.exit_code == 0, res.output
        first_requests = m.count()
        yield Installed(home, m, res.stdout, first_requests)


@pytest.fixture
def updated_copy(installed: Installed, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of the updated home (tests that change or try to change it)."""
    home = tmp_path / "home"
    shutil.copytree(installed.home, home, symlinks=True)
    monkeypatch.setenv("DECKCHECK_HOME", str(home))
    monkeypatch.setattr(download, "BACKOFF", 0.0)
    installed.mirror.fault = None
    installed.mirror.reset()
    return home


def test_full_update_installs_database_and_records_sources(
    installed: Installed, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    report = json.loads(installed.first_out)
    statuses = {f["file"]: f["status"] for f in report["files"]}
    assert statuses["ProjectIgnis/BabelCDB/cards.cdb"] == "new"
    assert statuses["ProjectIgnis/BabelCDB/cards-rush.cdb"] == "missing"  # optional, absent
    assert statuses["mycard/ygopro-database/locales/zh-TW/cards.cdb"] == "new"
    assert report["cards_updated"] is True
    monkeypatch.setenv("DECKCHECK_HOME", str(installed.home))
    assert main(["db", "info", "-o", "json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert not info["sample"] and info["cards"] > 10_000
    babel = hashlib.sha256(
        (installed.mirror.root / "ProjectIgnis/BabelCDB/cards.cdb").read_bytes()
    ).hexdigest()
    src = {s["sha256"]: s for s in info["sources"]}
    assert babel in src and src[babel]["imported_at"]
    assert src[babel]["path"].endswith("downloads/ProjectIgnis/BabelCDB/cards.cdb")
    assert {s["lang"] for s in info["sources"]} >= {"ja", "zh-CN", "de", "zh-TW"}
    # the upstream URL of each installed file is kept in the update state
    state = load_state()["installed"]
    assert state["ProjectIgnis/BabelCDB/cards.cdb"]["location"] == (
        f"{installed.mirror.url}/ProjectIgnis/BabelCDB/cards.cdb"
    )
    assert state["ProjectIgnis/BabelCDB/cards.cdb"]["sha256"] == babel
    # ... and `db info` shows it: the URL each file came from, its hash and date
    assert info["update"]["ProjectIgnis/BabelCDB/cards.cdb"]["location"] == (
        f"{installed.mirror.url}/ProjectIgnis/BabelCDB/cards.cdb"
    )
    assert main(["db", "info"]) == 0
    text = capsys.readouterr().out
    assert f"{installed.mirror.url}/ProjectIgnis/BabelCDB/cards.cdb  sha256 {babel}" in text
    lists = {p.parent.name for p in (installed.home / "banlists").rglob("*.yaml")}
    assert {"tcg", "ocg", "goat", "speed", "rush"} <= lists, f"lists installed: {lists}"
    assert report["lists_updated"] is True


def test_second_update_downloads_nothing(
    installed: Installed, updated_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _snapshot(updated_copy)
    args = ["update", "--source", installed.mirror.url, "-o", "json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert installed.mirror.count(200) == 0
    assert installed.mirror.count(304) == installed.first_requests - installed.mirror.count(404)
    assert {f["status"] for f in out["files"]} <= {"unchanged", "missing"}
    assert not out["cards_updated"] and not out["lists_updated"]
    assert _snapshot(updated_copy) == before


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ("500", "HTTP 500"),
        ("drop", "closed the connection"),
        ("garbage", "not an SQLite database"),
        ("truncate", "truncated download"),
    ],
)
def test_failed_update_leaves_everything_untouched(
    fault: str,
    message: str,
    installed: Installed,
    updated_copy: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = _snapshot(updated_copy)
    state_before = download.state_path().read_bytes()
    # the 5th file (a locale database) fails; garbage/truncate ignore conditional requests
    fifth = load_components()[4].key
    installed.mirror.fault = lambda path, nth: fault if path == fifth else None
    assert main(["update", "--source", installed.mirror.url, "--force"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(f"deckcheck: error: {installed.mirror.url}/{fifth}: ")
    assert message in err[-1]
    assert all("Traceback" not in line for line in err)
    assert _snapshot(updated_copy) == before
    assert download.state_path().read_bytes() == state_before
    assert not any(p.name.startswith(".") and p.name != ".lock" for p in updated_copy.iterdir())


def test_unreachable_server_exits_2_and_changes_nothing(
    updated_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _snapshot(updated_copy)
    url = f"http://127.0.0.1:{_free_port()}"
    assert main(["update", "--source", url]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == (
        f"deckcheck: error: {url}/ProjectIgnis/BabelCDB/cards.cdb: "
        "connection refused (no server at that address, or no network)"
    )
    assert _snapshot(updated_copy) == before


@contextlib.contextmanager
def _changed_mirror(installed: Installed, name: str) -> Iterator[Path]:
    """A copy of the mirror whose TCG lflist gained a comment (a changed upstream file)."""
    changed = installed.mirror.root.parent / name
    shutil.copytree(installed.mirror.root, changed, symlinks=True)
    lf = changed / "ProjectIgnis/LFLists/0TCG.lflist.conf"
    text = lf.read_bytes()
    lf.unlink()
    lf.write_bytes(text + b"\r\n# a new comment\r\n")
    try:
        yield changed
    finally:
        shutil.rmtree(changed)


def test_dry_run_changes_nothing(
    installed: Installed, updated_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # upstream gains a changed list file: dry run reports it, installs nothing
    with _changed_mirror(installed, "changed-upstream") as changed:
        before = _snapshot(updated_copy)
        state_before = download.state_path().read_bytes()
        assert main(["update", "--source", str(changed), "--dry-run", "-o", "json"]) == 0
        out = json.loads(capsys.readouterr().out)
        st = {f["file"]: f["status"] for f in out["files"]}
        assert st["ProjectIgnis/LFLists/0TCG.lflist.conf"] == "changed"
        assert st["ProjectIgnis/BabelCDB/cards.cdb"] == "unchanged"
        assert out["lists_updated"] is True and out["cards_updated"] is False
        assert _snapshot(updated_copy) == before
        assert download.state_path().read_bytes() == state_before
        # the text form is quiet (issue 32) but a dry run names what would change: the
        # changed file, not the unchanged ones (-v lists them all)
        assert main(["update", "--source", str(changed), "--dry-run"]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert [line.split()[0] for line in lines] == ["changed"], lines
        assert "ProjectIgnis/LFLists/0TCG.lflist.conf" in lines[0]
        assert main(["update", "--source", str(changed), "--dry-run", "-v"]) == 0
        assert len(capsys.readouterr().out.splitlines()) == len(st)
        assert _snapshot(updated_copy) == before


def test_directory_source_and_failing_list_step_keeps_old_database(
    installed: Installed,
    updated_copy: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Cards are rebuilt from a directory mirror, then the list step fails: nothing swapped."""
    from deckcheck.update import apply

    def broken_lists(paths_: Any, dest: Path, **kw: Any) -> None:  # kw: konami_missing
        (dest / "half").mkdir(parents=True, exist_ok=True)
        raise DataError("list import failed on purpose", where=str(paths_[0]))

    monkeypatch.setattr(apply, "_lflist_importer", lambda: broken_lists)
    before = _snapshot(updated_copy)
    db_before = (updated_copy / "cards.sqlite3").stat().st_mtime_ns
    assert main(["update", "--source", str(installed.mirror.root), "--force"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].endswith("list import failed on purpose")
    assert _snapshot(updated_copy) == before
    assert (updated_copy / "cards.sqlite3").stat().st_mtime_ns == db_before
    assert not (updated_copy / "banlists" / "half").exists()
    assert installed.mirror.count() == 0  # a directory source needs no server
    assert not any(p.name.startswith(".") and p.name != ".lock" for p in updated_copy.iterdir())


def test_directory_source_installs(
    installed: Installed, updated_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A directory mirror installs; only the changed list is reimported (cards untouched)."""
    with _changed_mirror(installed, "changed-dir") as changed:
        lf = changed / "ProjectIgnis/LFLists/0TCG.lflist.conf"
        db_before = hashlib.sha256((updated_copy / "cards.sqlite3").read_bytes()).hexdigest()
        assert main(["update", "--source", str(changed), "-o", "json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["lists_updated"] is True and out["cards_updated"] is False
        after = hashlib.sha256((updated_copy / "cards.sqlite3").read_bytes()).hexdigest()
        assert after == db_before
        inst = load_state()["installed"]["ProjectIgnis/LFLists/0TCG.lflist.conf"]
        assert inst["location"] == str(lf.resolve().parent / lf.name)
        assert inst["sha256"] == hashlib.sha256(lf.read_bytes()).hexdigest()
        assert os.listdir(paths.lists_dir())


def test_first_install_failing_list_step_leaves_no_database(
    installed: Installed,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """No database before: a failed list step removes the new one again (no half install)."""
    from deckcheck.update import apply

    def broken_lists(paths_: Any, dest: Path, **kw: Any) -> None:  # kw: konami_missing
        raise DataError("list import failed on purpose")

    monkeypatch.setattr(apply, "_lflist_importer", lambda: broken_lists)
    home = tmp_path / "fresh"
    monkeypatch.setenv("DECKCHECK_HOME", str(home))
    assert main(["update", "--source", str(installed.mirror.root)]) == 2
    assert "list import failed on purpose" in capsys.readouterr().err
    assert not (home / "cards.sqlite3").exists() and not (home / "banlists").exists()
    assert load_state()["installed"] == {}


def test_env_source_and_only_lists(
    installed: Installed,
    updated_copy: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DECKCHECK_SOURCE", installed.mirror.url)
    assert main(["update", "--only", "lists", "--dry-run", "-o", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {f["kind"] for f in out["files"]} == {"lists"}
    assert out["source"] == installed.mirror.url
    requested = {p for p, _ in installed.mirror.requests}
    # lflist files, and the official list files of kind lists (issue 15): the
    # limit-regulation source zip and the Duel Links dev.db
    assert requested and all(p.endswith(("lflist.conf", "master.zip", "dev.db")) for p in requested)
    assert out["cards_updated"] is False


def test_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["update", "--help"]) == 0
    out = capsys.readouterr().out
    assert "Examples:" in out and "deckcheck update --source" in out and "--dry-run" in out


def test_timeout_is_one_clear_error(tmp_path: Path) -> None:
    """A server that accepts the connection and never answers."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        sleeps: list[float] = []
        with pytest.raises(DataError, match=r"timed out after 0\.3 s") as exc:
            _fetcher(url, tmp_path / "s", sleeps, retries=1, timeout=0.3).fetch(_comp("cards.cdb"))
    assert exc.value.where == f"{url}/Own/Repo/cards.cdb" and sleeps == [0.5]


def test_dns_failure_reason() -> None:
    import urllib.error

    err = urllib.error.URLError(socket.gaierror(-2, "Name or service not known"))
    assert download._reason(err) == "cannot resolve the host name (no network or DNS failure)"
