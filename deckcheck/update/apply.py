"""One update, all or nothing: download and check every file, then build, then swap in.

(1) every file is downloaded and checked; (2) the next installed state is built whole
beside the current one (``staging.new_state``): the card database (upstream files, then
the files the user added with ``db import``) and a copy of the lists with the new lists
imported, named through the new cards, within the update's deadline; (3) one rename of the
``current`` link switches to it. A failure or a kill before that changes nothing. The whole
run holds the home lock.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from deckcheck import paths, staging
from deckcheck.errors import DataError
from deckcheck.records import Record, field, record
from deckcheck.update import download
from deckcheck.update.download import Fetched, Fetcher
from deckcheck.update.sources import CARD_KINDS, Kind, load_components, resolve_source


@record(frozen=False, slots=True)
class UpdateResult(Record):
    """What an update found and did; ``files`` in sources.yaml order."""

    source: str
    files: list[Fetched]
    dry_run: bool
    cards_updated: bool = False
    lists_updated: bool = False
    requests: int = 0
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "dry_run": self.dry_run,
            "cards_updated": self.cards_updated,
            "lists_updated": self.lists_updated,
            "requests": self.requests,
            "files": [
                {
                    "file": f.comp.key,
                    "kind": f.comp.kind,
                    "location": f.location,
                    "status": f.status,
                    "sha256": f.sha256 or None,
                    "size": f.size or None,
                    "last_modified": download.http_date(f.meta.get("last_modified")),
                }
                for f in self.files
            ],
        }


def _group_needs(files: list[Fetched], kinds: tuple[Kind, ...], state: dict[str, Any]) -> bool:
    mine = [f for f in files if f.comp.kind in kinds]
    if any(f.status in ("new", "changed") for f in mine):
        return True
    # an optional file that was installed but has gone upstream: rebuild without it
    return any(f.status == "missing" and f.comp.key in state["installed"] for f in mine)


def _older_schema() -> int | None:
    """The schema of the installed card database when an older deckcheck built it (its new
    tables are empty, e.g. schema 4's card_fields): the update then builds it again, as with
    ``--force``. None when it is current, absent or unreadable (the import says why)."""
    import sqlite3

    from deckcheck.carddb._common import SCHEMA_VERSION
    from deckcheck.sqlite import connect_ro

    db = paths.database_path()
    if not db.is_file():
        return None
    try:
        conn = connect_ro(db)
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        finally:
            conn.close()
        version = int(row[0]) if row is not None else None
    except (sqlite3.DatabaseError, ValueError, OSError):
        return None
    return version if version is not None and version < SCHEMA_VERSION else None


def _has_lists() -> bool:
    d = paths.lists_dir()
    return d.is_dir() and any(d.iterdir())


def _lflist_importer() -> Callable[..., Any]:
    try:
        from deckcheck.formats.importer import import_lflists
    except ImportError:
        raise DataError(
            "this deckcheck cannot import lists (deckcheck.formats.importer is missing)"
        ) from None
    return import_lflists


def run_update(
    source: str | None = None,
    *,
    only: Kind | None = None,
    dry_run: bool = False,
    force: bool = False,
    sleep: Callable[[float], None] = time.sleep,
    retries: int | None = None,
    backoff: float | None = None,
    timeout: float | None = None,
    progress: bool | None = None,
) -> UpdateResult:
    """Fetch the files of ``card_db/sources.yaml`` and install what changed.

    ``only`` is "cards" (cards and names) or "lists". ``force`` rebuilds even when nothing
    changed. Raises DataError/InputError (nothing changed) on any failure.
    """
    src = resolve_source(source)
    comps = load_components(only)
    home = paths.data_home()
    home.mkdir(parents=True, exist_ok=True)
    with staging.home_lock():  # also finishes or removes what a killed update left
        paths.cache_dir().mkdir(parents=True, exist_ok=True)
        # download folders of killed updates (each up to a whole cards.cdb), and the temp
        # files of a state file write they were killed in
        staging.clean_stale(paths.cache_dir(), [".update-*"], recursive=False)
        state = download.load_state()
        downloads_tmp = Path(tempfile.mkdtemp(prefix=".update-", dir=paths.cache_dir()))
        try:
            fetcher = Fetcher(
                src,
                state,
                downloads_tmp,
                sleep=sleep,
                retries=retries,
                backoff=backoff,
                timeout=timeout,
                progress=progress,
            )
            files = [fetcher.fetch(c) for c in comps]
            result = UpdateResult(src.label, files, dry_run, requests=fetcher.requests)
            for f in files:
                if f.status == "missing":
                    result.notes.append(f"{f.comp.key}: skipped ({f.note})")
            older = _older_schema() if only != "lists" else None
            if older is not None:
                result.notes.append(
                    f"cards: the card database was built by an older deckcheck (schema "
                    f"{older}): it is built again from the same files"
                )
            want_cards = only != "lists" and (
                force
                or older is not None
                or not paths.database_path().exists()
                or _group_needs(files, CARD_KINDS, state)
            )
            want_lists = only != "cards" and (
                force or not _has_lists() or _group_needs(files, ("lists",), state)
            )
            if dry_run:
                result.cards_updated, result.lists_updated = want_cards, want_lists
                return result
            import_lflists = _lflist_importer() if want_lists else None
            # The cache now holds checked files matching the remembered validators, whatever
            # happens next; "installed" changes only after the swap.
            download.commit_downloads(files, state)
            download.save_state(state)
            # what the official data could not map (counts, examples) reaches the user
            n_import = sum(1 for f in files if f.path is not None) or 1
            deadline = min(
                fetcher.started + download.UPDATE_SECONDS,
                time.monotonic() + download.FILE_SECONDS * n_import,
            )
            result.notes += _apply(
                files, state, want_cards, import_lflists, home, result.notes, deadline
            )
            result.cards_updated, result.lists_updated = want_cards, import_lflists is not None
            return result
        finally:
            shutil.rmtree(downloads_tmp, ignore_errors=True)


finish_interrupted = staging.finish_interrupted


def _user_files(
    files: list[Fetched],
) -> tuple[list[tuple[Path, str, str | None, str | None]], list[str]]:
    """Files the user added with ``db import`` (not from this update): (path, kind, lang,
    dialect) to apply again over the new upstream data, and notes on the ones it replaces
    or cannot find any more. An update never drops a user's cards unsaid."""
    from deckcheck.sqlite import connect_ro

    db_path = paths.database_path()
    if not db_path.is_file():
        return [], []
    try:
        conn = connect_ro(db_path)
        try:
            rows = conn.execute(
                "SELECT path, kind, lang, dialect, sha256 FROM sources WHERE kind != 'sample' "
                "ORDER BY id"
            ).fetchall()
        finally:
            conn.close()
    except Exception:  # noqa: BLE001 (a damaged database: the update replaces it)
        return [], ["the installed database could not be read; rebuilt from the update alone"]
    ours = {str(Path(f.path).absolute()) for f in files if f.path}
    downloads = str(download.downloads_dir().absolute()) + os.sep
    upstream = {(Path(f.comp.path).name, f.comp.kind, _lang_of(f.comp.path)) for f in files}
    keep: list[tuple[Path, str, str | None, str | None]] = []
    said: list[str] = []
    for path, kind, lang, dialect, _sha in rows:
        if path in ours or path.startswith(downloads):
            continue
        p = Path(path)
        if (p.name, kind, lang if kind == "names" else None) in {
            (n, k, lg if k == "names" else None) for n, k, lg in upstream
        }:
            said.append(
                f"{path}: replaced by the update's {p.name} ({kind}"
                f"{' ' + lang if kind == 'names' else ''})"
            )
            continue
        if not p.is_file():
            said.append(
                f"{path}: imported with 'db import' but gone; its cards are no longer "
                "in the database (import it again)"
            )
            continue
        keep.append((p, kind, lang, dialect))
        said.append(f"{path}: imported with 'db import'; applied again over the update")
    return keep, said


def _lang_of(path: str) -> str | None:
    from deckcheck.carddb import _common as common

    parts = Path(path).parts
    return common.lang_code(parts[-2]) if "locales" in parts and len(parts) > 1 else None


def _apply(
    files: list[Fetched],
    state: dict[str, Any],
    want_cards: bool,
    import_lflists: Callable[..., Any] | None,
    home: Path,
    said: list[str] | None = None,
    deadline: float | None = None,
) -> list[str]:
    """Build the next installed state (database and lists, the lists named through the new
    database) and switch to it in one step (``staging.new_state``); the import's notes.
    The build gives up at ``deadline`` (``time.monotonic()``), old state intact."""
    from deckcheck.carddb.importer import import_files

    progress = sys.stderr.isatty()
    notes: list[str] = []
    size = sum(f.size for f in files)  # the full-disk message's estimate
    with staging.new_state(keep_db=not want_cards, size_hint=size) as st, _bounded(deadline):
        if want_cards:
            # official files (yaml-yugi, YGOJSON) are told apart by content and go last
            cdbs = [f.path for f in files if f.comp.kind in CARD_KINDS and f.path]
            keep, notes_ = _user_files(files)
            # (the home lock is held: no lock beside the new database)
            summary = import_files(
                cdbs, db_path=st.db, dialect="edopro", progress=progress, lock=False
            )
            notes += summary.notes
            for p, kind, lang, dialect in keep:
                import_files(
                    [p],
                    db_path=st.db,
                    dialect=dialect if kind == "cards" else None,
                    lang=lang if kind == "names" else None,
                    progress=progress,
                    lock=False,
                )
            if said is not None:
                said.extend(notes_)
        if import_lflists is not None:
            if not st.lists.is_dir():
                st.lists.mkdir(parents=True)
            confs = [f.path for f in files if f.comp.kind == "lists" and f.path]
            # names cards through the new state's database
            import_lflists(confs, dest=st.lists, konami_missing="skip")
    now = dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()
    kinds = (set(CARD_KINDS) if want_cards else set()) | (
        {"lists"} if import_lflists is not None else set()
    )
    for f in files:
        if f.comp.kind not in kinds:
            continue
        if f.path is None:
            state["installed"].pop(f.comp.key, None)
            continue
        state["installed"][f.comp.key] = {
            "location": f.location,
            "path": str(f.path),
            "sha256": f.sha256,
            "size": f.size,
            "last_modified": download.http_date(f.meta.get("last_modified")),
            "installed_at": now,
        }
    download.save_state(state)
    return notes


class _Late(BaseException):
    """Raised by the alarm inside the build when the update's deadline has passed (not an
    Exception: no ``except Exception`` on the way may swallow it)."""


@contextlib.contextmanager
def _bounded(deadline: float | None) -> Iterator[None]:
    """The import work after the download within the update's deadline: an alarm stops it
    (SQLite and list import alike) and the update fails with one line, nothing changed.
    Only the main thread can take signals; elsewhere the work is not bounded here."""
    if deadline is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    left = deadline - time.monotonic()
    if left <= 0:
        raise DataError(_late_message())

    caught: list[bool] = []  # set once the _Late is on its way out: later rings do nothing

    def _ring(_sig: int, _frame: Any) -> None:
        if not caught:
            raise _Late()

    hook = sys.unraisablehook

    def _unraisable(unraisable: Any) -> None:
        # a ring swallowed where Python cannot raise is not the user's business: the next
        # ring follows (below); anything else goes to the hook there was before
        if unraisable.exc_type is not _Late:
            hook(unraisable)

    previous = signal.signal(signal.SIGALRM, _ring)
    sys.unraisablehook = _unraisable
    # The alarm rings again every RING_AGAIN seconds until the work stops: an exception
    # raised where Python swallows it (a gc callback, a __del__, an SQLite callback) is
    # followed by another one, so the deadline still holds.
    signal.setitimer(signal.ITIMER_REAL, left, RING_AGAIN)
    try:
        yield
    except _Late:
        caught.append(True)
        raise DataError(_late_message()) from None
    finally:
        caught.append(True)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        sys.unraisablehook = hook


#: seconds between the deadline alarm's rings once it has first rung (see ``_bounded``)
RING_AGAIN = 0.2


def _late_message() -> str:
    return (
        f"gave up: the update (download and import) went past its deadline "
        f"({download.FILE_SECONDS:g} s per file, {download.UPDATE_SECONDS:g} s in all); "
        "nothing was changed"
    )


def installed_sources() -> dict[str, dict[str, Any]]:
    """What the last successful update installed, per upstream file (URL, sha256, dates)."""
    return dict(download.load_state()["installed"])
