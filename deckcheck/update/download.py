"""Fetching upstream files: conditional HTTP with retries, size caps, checks, and a small cache.

A file is downloaded to a staging folder and checked there (SQLite with ``datas``/``texts``, or
an lflist with at least one ``!`` list); nothing reaches the cache until every file is checked,
so a failed update leaves cache, state, database and lists as they were.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import hashlib
import http.client
import json
import os
import shutil
import socket
import sqlite3
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from deckcheck import __version__, fsio, notes, paths
from deckcheck.errors import DataError
from deckcheck.records import Record, field, record
from deckcheck.sqlite import connect_ro, is_sqlite
from deckcheck.update.sources import Component, Source

TIMEOUT = 30.0  # seconds per connect/read
#: A download that brings fewer than STALL_BYTES in any STALL_SECONDS is given up (a server
#: dripping a byte at a time never trips the socket timeout), and no file takes more than
#: FILE_SECONDS in all its attempts: a stalled update ends within a minute, nothing changed.
#: The environment overrides them (tests use small values).
STALL_BYTES = int(os.environ.get("DECKCHECK_UPDATE_STALL_BYTES", "16384"))
STALL_SECONDS = float(os.environ.get("DECKCHECK_UPDATE_STALL_SECONDS", "20"))
FILE_SECONDS = float(os.environ.get("DECKCHECK_UPDATE_FILE_SECONDS", "60"))
#: The whole download phase of one update (every file), however fast each file is.
UPDATE_SECONDS = float(os.environ.get("DECKCHECK_UPDATE_SECONDS", "1800"))
RETRIES = 3  # attempts after the first for transient failures
BACKOFF = 1.0  # first delay; doubles per attempt (1, 2, 4 s)
_CHUNK = 1 << 16
STATE_VERSION = 1

Status = Literal["new", "changed", "unchanged", "missing"]


def state_path() -> Path:
    return paths.cache_dir() / "update-state.json"


def downloads_dir() -> Path:
    return paths.cache_dir() / "downloads"


def load_state() -> dict[str, Any]:
    """``{"files": {url: {...http meta, sha256, cached}}, "installed": {key: {...}}}``."""
    try:
        data = json.loads(state_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"version": STATE_VERSION, "files": {}, "installed": {}}
    if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
        return {"version": STATE_VERSION, "files": {}, "installed": {}}
    data.setdefault("files", {})
    data.setdefault("installed", {})
    return data


def save_state(state: dict[str, Any]) -> None:
    """Atomic write: a crash never leaves half a state file."""
    fsio.write_atomic(state_path(), json.dumps(state, indent=1, sort_keys=True), mkdir=True)


sha256_of = fsio.sha256_file  # kept for callers of the old name


# --------------------------------------------------------------------------- checks


def check_file(path: Path, comp: Component, where: str) -> None:
    """Raise DataError unless ``path`` is a plausible file of ``comp``'s kind (offline)."""
    size = path.stat().st_size
    if size == 0:
        raise DataError("empty file", where=where)
    if size > comp.max_bytes:
        raise DataError(f"{size} bytes is over the {comp.max_bytes} byte cap", where=where)
    if comp.kind == "lists":
        _check_lflist(path, comp, where)
    elif comp.kind == "official":
        _check_official(path, where)
    else:
        _check_cdb(path, comp, where)


def _check_cdb(path: Path, comp: Component, where: str) -> None:
    if not is_sqlite(path):
        raise DataError("corrupt download: not an SQLite database", where=where)
    try:
        conn = connect_ro(path, immutable=True)
        deadline = time.monotonic() + FILE_SECONDS
        conn.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
        try:
            # real tables only: a view named datas/texts can be recursive or endless
            tables = {
                r[0].lower()
                for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            missing = [t for t in ("datas", "texts") if t not in tables]
            if missing:
                raise DataError(
                    f"corrupt download: not a cards.cdb (no table {', '.join(missing)})",
                    where=where,
                )
            conn.execute("SELECT count(*) FROM texts").fetchone()
            ok = conn.execute("PRAGMA quick_check").fetchone()
            if not ok or ok[0] != "ok":
                raise DataError(f"corrupt download: SQLite check says {ok[0]!r}", where=where)
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise DataError(f"corrupt download: {exc}", where=where) from None


def _check_official(path: Path, where: str) -> None:
    """A yaml-yugi array that parses, a zip holding the YGOJSON layout with sound CRCs, or an
    EDOPro strings.conf (UTF-8 text with ``!system``/``!setname`` lines)."""
    from deckcheck.carddb import official
    from deckcheck.errors import InputError

    try:
        kind = official.sniff(path)
        if kind in ("yaml-yugi", "strings"):
            official.plan(path, kind)
        elif kind == "ygojson":
            import zipfile

            try:
                with zipfile.ZipFile(path) as z:
                    bad = z.testzip()
            except (zipfile.BadZipFile, OSError, EOFError) as exc:
                raise DataError(f"corrupt download: {exc}", where=where) from None
            if bad is not None:
                raise DataError(f"corrupt download: bad CRC in {bad}", where=where)
        else:
            raise DataError(
                "corrupt download: neither a yaml-yugi JSON array, a YGOJSON zip nor a "
                "strings.conf",
                where=where,
            )
    except InputError as exc:
        raise DataError(f"corrupt download: {exc.message}", where=where) from None


def _check_lflist(path: Path, comp: Component, where: str) -> None:
    from deckcheck.formats.official import check_archive, sniff

    kind = sniff(path)
    if kind == "archive":
        check_archive(path, where)  # the repository zip: CRCs and unpacked size, now
    if kind is not None:
        return  # an official list file (JSON or the Duel Links SQLite): checked on import
    try:
        text = fsio.read_bounded(path, comp.max_bytes).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DataError("corrupt download: list is not UTF-8 text", where=where) from None
    if "\x00" in text:
        raise DataError("corrupt download: list holds binary data", where=where)
    if not any(line.startswith("!") and line[1:].strip() for line in text.splitlines()):
        raise DataError("corrupt download: no '!name' list in this lflist.conf", where=where)


# --------------------------------------------------------------------------- fetching


@record(frozen=False, slots=True)
class Fetched(Record):
    """One upstream file after download (or reuse): where its checked bytes are now."""

    comp: Component
    location: str  # URL or mirror path
    status: Status
    path: Path | None = None  # staged or cached file to import (None: missing optional)
    staged: bool = False  # True: a new download to move into the cache on commit
    sha256: str = ""
    size: int = 0
    meta: dict[str, Any] = field(default_factory=dict)  # etag, last_modified
    note: str = ""


class _Transient(Exception):
    """A failure worth retrying (5xx, connection drop, timeout, truncation)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class _Missing(Exception):
    pass


def _reason(exc: BaseException, timeout: float = TIMEOUT) -> str:
    inner = exc.reason if isinstance(exc, urllib.error.URLError) else exc
    if isinstance(inner, ConnectionRefusedError):
        return "connection refused (no server at that address, or no network)"
    if isinstance(inner, socket.gaierror):
        return "cannot resolve the host name (no network or DNS failure)"
    if isinstance(inner, (TimeoutError, socket.timeout)):
        return f"timed out after {timeout:g} s"
    if isinstance(inner, (ConnectionResetError, http.client.RemoteDisconnected)):
        return "the server closed the connection"
    if isinstance(inner, http.client.IncompleteRead):
        return "truncated download: the connection ended early"
    if isinstance(inner, OSError) and inner.strerror:
        return f"network error: {inner.strerror}"
    return f"network error: {inner}"


class _HttpOnlyRedirects(urllib.request.HTTPRedirectHandler):
    """Follows redirects to http(s) URLs only (urllib's default also follows ftp://)."""

    def redirect_request(
        self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str
    ) -> Any:
        scheme = urllib.parse.urlparse(newurl).scheme.lower()
        if scheme not in ("http", "https"):
            raise urllib.error.HTTPError(
                req.full_url,
                code,
                f"redirect to a {scheme or 'relative'}: URL refused "
                f"(only http and https are followed): {newurl[:200]}",
                headers,
                fp,
            )
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class _Watchdog:
    """The whole-request deadline: at ``seconds`` it shuts every socket the request opened
    (redirects included), so connect, TLS, the response headers and the body together end in
    time. The socket timeout alone counts per read: a server sending one header byte a second
    held ``update`` for as long as it liked (issue 32)."""

    def __init__(self, seconds: float):
        self.fired = False
        self._socks: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(max(0.0, seconds), self._fire)
        self._timer.daemon = True
        self._timer.start()

    def attach(self, sock: socket.socket) -> None:
        with self._lock:
            self._socks.append(sock)
            if self.fired:
                _shut(sock)

    def _fire(self) -> None:
        with self._lock:
            self.fired = True
            for sock in self._socks:
                _shut(sock)

    def cancel(self) -> None:
        self._timer.cancel()


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)  # a blocked recv returns at once
    except OSError:
        pass


def _watched(base: type[http.client.HTTPConnection], dog: _Watchdog) -> Any:
    """``base`` whose TCP socket is handed to ``dog`` as soon as it is connected (before TLS)."""

    class Watched(base):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            connect: Callable[..., socket.socket] = getattr(self, "_create_connection")  # noqa: B009

            def create(*a: Any, **k: Any) -> socket.socket:
                sock = connect(*a, **k)
                dog.attach(sock)
                return sock

            self._create_connection = create

    return Watched


def _opener(dog: _Watchdog) -> urllib.request.OpenerDirector:
    """An opener whose connections ``dog`` watches (built per request: cheap)."""

    class Http(urllib.request.HTTPHandler):
        def http_open(self, req: Any) -> Any:
            return self.do_open(_watched(http.client.HTTPConnection, dog), req)

    class Https(urllib.request.HTTPSHandler):
        def https_open(self, req: Any) -> Any:
            return self.do_open(
                _watched(http.client.HTTPSConnection, dog),
                req,
                context=self._context,  # type: ignore[attr-defined]
            )

    return urllib.request.build_opener(_HttpOnlyRedirects(), Http(), Https())


class Fetcher:
    """Downloads components into a staging folder, reusing the cache when upstream agrees."""

    def __init__(
        self,
        source: Source,
        state: dict[str, Any],
        staging: Path,
        *,
        sleep: Callable[[float], None] = time.sleep,
        retries: int | None = None,
        backoff: float | None = None,
        timeout: float | None = None,
        progress: bool | None = None,
    ):
        self.source, self.state, self.staging, self.sleep = source, state, staging, sleep
        self.retries = RETRIES if retries is None else retries
        self.backoff = BACKOFF if backoff is None else backoff
        self.timeout = TIMEOUT if timeout is None else timeout
        self.progress = sys.stderr.isatty() if progress is None else progress
        self.requests = 0  # HTTP requests sent, for the summary
        self.started = time.monotonic()
        self._deadline = self.started + UPDATE_SECONDS  # this file's, set per file

    # -- public

    def fetch(self, comp: Component) -> Fetched:
        location = self.source.locate(comp)
        if self.source.directory is not None:
            return self._from_dir(comp, location)
        return self._from_url(comp, location)

    # -- directory mirror: read in place

    def _from_dir(self, comp: Component, location: str) -> Fetched:
        p = Path(location)
        if not p.is_file():
            if comp.required:
                raise DataError("required file missing from the source directory", where=location)
            return Fetched(comp, location, "missing", note="optional file not in the mirror")
        check_file(p, comp, location)
        sha = sha256_of(p)
        return Fetched(comp, location, self._status(comp, sha), p, False, sha, p.stat().st_size)

    def _status(self, comp: Component, sha: str) -> Status:
        old = self.state["installed"].get(comp.key)
        if old is None:
            return "new"
        return "unchanged" if old.get("sha256") == sha else "changed"

    # -- HTTP

    def _cached(self, comp: Component, url: str) -> tuple[dict[str, Any], Path] | None:
        entry = self.state["files"].get(url)
        if not entry:
            return None
        p = downloads_dir() / comp.key
        if not p.is_file() or p.stat().st_size != entry.get("size"):
            return None  # cache lost or changed behind our back: fetch in full
        return entry, p

    def _from_url(self, comp: Component, url: str) -> Fetched:
        cached = self._cached(comp, url)
        attempt = 0
        now = time.monotonic()
        self._deadline = min(now + FILE_SECONDS, self.started + UPDATE_SECONDS)
        while True:
            try:
                if time.monotonic() >= self._deadline:
                    raise DataError(self._late(), where=url)
                return self._attempt(comp, url, cached)
            except _Missing:
                if comp.required:
                    raise DataError("HTTP 404 Not Found (required file)", where=url) from None
                return Fetched(comp, url, "missing", note="optional file not found upstream")
            except _Transient as exc:
                if attempt >= self.retries:
                    raise DataError(exc.message, where=url) from None
                delay = self.backoff * (2**attempt)
                if time.monotonic() + delay >= self._deadline:
                    raise DataError(f"{exc.message}; {self._late()}", where=url) from None
                attempt += 1
                notes.note(
                    f"deckcheck: note: {url}: {exc.message}; retry {attempt}/{self.retries} "
                    f"in {delay:g} s"
                )
                self.sleep(delay)

    def _late(self) -> str:
        if self._deadline >= self.started + UPDATE_SECONDS:
            return f"gave up: the update took over {UPDATE_SECONDS:g} s"
        return f"gave up after {FILE_SECONDS:g} s on this file"

    def _timeout(self) -> float:
        return max(0.1, min(self.timeout, self._deadline - time.monotonic()))

    def _attempt(
        self, comp: Component, url: str, cached: tuple[dict[str, Any], Path] | None
    ) -> Fetched:
        headers = {"User-Agent": f"deckcheck/{__version__}"}
        if cached is not None:
            entry = cached[0]
            if entry.get("etag"):
                headers["If-None-Match"] = entry["etag"]
            if entry.get("last_modified"):
                headers["If-Modified-Since"] = entry["last_modified"]
        req = urllib.request.Request(url, headers=headers)
        self.requests += 1
        dog = _Watchdog(self._deadline - time.monotonic())
        try:
            return self._request(comp, url, cached, req, dog)
        except (_Transient, DataError, OSError, http.client.HTTPException):
            if dog.fired:  # the deadline shut the socket: whatever broke was that
                raise DataError(self._late(), where=url) from None
            raise
        finally:
            dog.cancel()

    def _request(
        self,
        comp: Component,
        url: str,
        cached: tuple[dict[str, Any], Path] | None,
        req: urllib.request.Request,
        dog: _Watchdog,
    ) -> Fetched:
        try:
            resp = _opener(dog).open(req, timeout=self._timeout())
        except urllib.error.HTTPError as exc:
            exc.close()
            if exc.code == 304 and cached is not None:
                entry, p = cached
                sha = str(entry["sha256"])
                return Fetched(
                    comp,
                    url,
                    self._status(comp, sha),
                    p,
                    False,
                    sha,
                    int(entry["size"]),
                    {k: entry.get(k) for k in ("etag", "last_modified")},
                    "not modified",
                )
            if exc.code == 404:
                raise _Missing() from None
            msg = f"HTTP {exc.code} {exc.reason}"
            if exc.code >= 500 or exc.code == 429:
                raise _Transient(msg) from None
            raise DataError(msg, where=url) from None
        except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
            raise _Transient(_reason(exc, self.timeout)) from None
        with resp:
            return self._receive(comp, url, resp, dog)

    def _receive(self, comp: Component, url: str, resp: Any, dog: _Watchdog) -> Fetched:
        length_hdr = resp.headers.get("Content-Length")
        expected = int(length_hdr) if length_hdr and length_hdr.isdigit() else None
        if expected is not None and expected > comp.max_bytes:
            raise DataError(
                f"{expected} bytes is over the {comp.max_bytes} byte cap for this file", where=url
            )
        target = self.staging / comp.key
        target.parent.mkdir(parents=True, exist_ok=True)
        h = hashlib.sha256()
        got = 0
        name = comp.key
        try:
            window_start, window_got = time.monotonic(), 0
            with target.open("wb") as out:
                while True:
                    # read1: what has arrived, so the clock is checked between drips
                    chunk = resp.read1(_CHUNK)
                    if not chunk:
                        break
                    got += len(chunk)
                    window_got += len(chunk)
                    now = time.monotonic()
                    if now >= self._deadline:
                        raise DataError(f"{self._late()} ({got} bytes received)", where=url)
                    if now - window_start >= STALL_SECONDS:
                        if window_got < STALL_BYTES:
                            raise DataError(
                                f"stalled: {window_got} bytes in {now - window_start:.0f} s "
                                f"(under {STALL_BYTES} bytes per {STALL_SECONDS:g} s); gave up",
                                where=url,
                            )
                        window_start, window_got = now, 0
                    if got > comp.max_bytes:
                        raise DataError(
                            f"more than {comp.max_bytes} bytes: over the cap for this file",
                            where=url,
                        )
                    h.update(chunk)
                    out.write(chunk)
                    self._show(name, got, expected)
        except (OSError, http.client.HTTPException) as exc:
            raise _Transient(_reason(exc, self.timeout)) from None
        finally:
            self._show_done()
        if dog.fired:  # the body ended because the deadline shut the socket
            raise DataError(f"{self._late()} ({got} bytes received)", where=url)
        dog.cancel()  # every byte is in: the checks below have deadlines of their own
        if expected is not None and got != expected:
            raise _Transient(f"truncated download: got {got} of {expected} bytes")
        check_file(target, comp, url)
        sha = h.hexdigest()
        meta = {
            "etag": resp.headers.get("ETag"),
            "last_modified": resp.headers.get("Last-Modified"),
        }
        return Fetched(comp, url, self._status(comp, sha), target, True, sha, got, meta)

    def _show(self, name: str, got: int, expected: int | None) -> None:
        if not self.progress:
            return
        if expected:
            pct = 100 * got // expected
            bar = "#" * (pct // 5)
            notes.progress(f"\r{name[-40:]:40} [{bar:20}] {pct:3d}%")
        else:
            notes.progress(f"\r{name[-40:]:40} {got // 1024} KiB")

    def _show_done(self) -> None:
        if self.progress:
            notes.progress("\n")


def commit_downloads(fetched: list[Fetched], state: dict[str, Any]) -> None:
    """Move staged downloads into the cache and remember their HTTP validators."""
    now = dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()
    for f in fetched:
        if f.path is None:
            continue
        if f.staged:
            dest = downloads_dir() / f.comp.key
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(f.path), dest)
            f.path = dest
            f.staged = False
        if f.location.startswith(("http://", "https://")):
            state["files"][f.location] = {
                "etag": f.meta.get("etag"),
                "last_modified": f.meta.get("last_modified"),
                "sha256": f.sha256,
                "size": f.size,
                "checked_at": now,
            }


def http_date(value: str | None) -> str | None:
    """An HTTP date header as ISO 8601 (UTC), or None."""
    if not value:
        return None
    try:
        return email.utils.parsedate_to_datetime(value).astimezone(dt.UTC).isoformat()
    except (TypeError, ValueError):
        return None
