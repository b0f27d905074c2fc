"""One update, all or nothing: download and check every file, then build, then swap in.

Order matters for "never a broken database": (1) every file is downloaded and checked; (2) the
card database is built beside the installed one and swapped in (the old one kept aside); (3)
the lists are imported into a copy of the lists folder, named through the new cards, and
swapped in. A failure anywhere puts the old database back, so nothing the user sees changes;
the whole run holds the import lock.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckcheck import paths
from deckcheck.errors import DataError
from deckcheck.update import download
from deckcheck.update.download import Fetched, Fetcher
from deckcheck.update.sources import CARD_KINDS, Kind, load_components, resolve_source


@dataclass(slots=True)
class UpdateResult:
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
    from deckcheck.carddb.importer import exclusive_lock

    src = resolve_source(source)
    comps = load_components(only)
    home = paths.data_home()
    home.mkdir(parents=True, exist_ok=True)
    lock = paths.lock_path()
    lock.touch(exist_ok=True)  # so the re-entrant lock keys this path the same way as the importer
    with exclusive_lock(lock.resolve()):
        state = download.load_state()
        paths.cache_dir().mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".update-", dir=paths.cache_dir()))
        try:
            fetcher = Fetcher(
                src, state, staging, sleep=sleep, retries=retries, backoff=backoff,
                timeout=timeout, progress=progress,
            )
            files = [fetcher.fetch(c) for c in comps]
            result = UpdateResult(src.label, files, dry_run, requests=fetcher.requests)
            for f in files:
                if f.status == "missing":
                    result.notes.append(f"{f.comp.key}: skipped ({f.note})")
            want_cards = only != "lists" and (
                force or not paths.database_path().exists()
                or _group_needs(files, CARD_KINDS, state)
            )
            want_lists = only != "cards" and (
                force or not paths.lists_dir().is_dir() or _group_needs(files, ("lists",), state)
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
            result.notes += _apply(files, state, want_cards, import_lflists, home)
            result.cards_updated, result.lists_updated = want_cards, import_lflists is not None
            return result
        finally:
            shutil.rmtree(staging, ignore_errors=True)


def _apply(
    files: list[Fetched],
    state: dict[str, Any],
    want_cards: bool,
    import_lflists: Callable[..., Any] | None,
    home: Path,
) -> list[str]:
    from deckcheck.carddb.importer import import_files

    new_db = home / ".cards-update.sqlite3"
    old_db = home / ".cards-previous.sqlite3"
    new_lists = home / ".banlists-update"
    old_lists = home / ".banlists-old"
    db_path = paths.database_path()
    progress = sys.stderr.isatty()
    for leftover in (new_db, old_db):
        leftover.unlink(missing_ok=True)
    for d in (new_lists, old_lists):
        shutil.rmtree(d, ignore_errors=True)
    had_db = db_path.is_file()
    swapped_db = False
    notes: list[str] = []
    try:
        if want_cards:
            # official files (yaml-yugi, YGOJSON) are told apart by content and go last
            cdbs = [f.path for f in files if f.comp.kind in CARD_KINDS and f.path]
            summary = import_files(cdbs, db_path=new_db, dialect="edopro", progress=progress)
            notes += summary.notes
            # The list importer names cards through the installed database, so the new one
            # goes in first; the old one stays linked as old_db to roll back to.
            if had_db:
                _keep(db_path, old_db)
            os.replace(new_db, db_path)
            swapped_db = True
        if import_lflists is not None:
            if paths.lists_dir().is_dir():
                shutil.copytree(paths.lists_dir(), new_lists, symlinks=True)
            else:
                new_lists.mkdir(parents=True)
            confs = [f.path for f in files if f.comp.kind == "lists" and f.path]
            import_lflists(confs, dest=new_lists, konami_missing="skip")
            # renames within one folder: the lists folder is always whole
            if paths.lists_dir().exists():
                os.replace(paths.lists_dir(), old_lists)
            os.replace(new_lists, paths.lists_dir())
    except BaseException:
        if swapped_db:
            if had_db:
                os.replace(old_db, db_path)
            else:
                db_path.unlink(missing_ok=True)
        raise
    finally:
        for f_ in (new_db, old_db):
            f_.unlink(missing_ok=True)
        shutil.rmtree(new_lists, ignore_errors=True)
        shutil.rmtree(old_lists, ignore_errors=True)
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


def _keep(src: Path, dest: Path) -> None:
    """``dest`` becomes a second name of ``src`` (a copy where hard links are not possible)."""
    try:
        os.link(src, dest)
    except OSError:
        shutil.copy2(src, dest)


def installed_sources() -> dict[str, dict[str, Any]]:
    """What the last successful update installed, per upstream file (URL, sha256, dates)."""
    return dict(download.load_state()["installed"])
