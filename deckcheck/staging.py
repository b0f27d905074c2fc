"""The data home's write discipline: the one lock that imports, updates and their cleanup
hold, the all-or-nothing install of several files, and the removal of what killed runs left.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from deckcheck import notes
from deckcheck import paths as dc_paths

__all__ = ["READY", "STAGE", "STAGE_PREFIX", "clean_stale", "exclusive_lock",
           "finish_interrupted", "home_lock", "swap_stage", "write_all"]

#: Temp files ``write_all`` makes beside their targets (only a lock holder makes them).
STAGE_PREFIX = ".dc-stage-"

_HELD: dict[str, int] = {}


@contextlib.contextmanager
def exclusive_lock(lock_file: Path | None = None) -> Iterator[None]:
    """Hold the exclusive import lock (re-entrant within one process).

    A second process waits, saying so on stderr. ``deckcheck update`` holds this lock
    around its whole run and calls the importers inside it; ``banlist import`` and ``db
    import`` take it too, so an import during an update waits and then lands in the
    updated state instead of being swapped away.
    """
    lock_file = lock_file or dc_paths.lock_path()
    key = str(lock_file.resolve() if lock_file.exists() else lock_file.absolute())
    if key in _HELD:
        _HELD[key] += 1
        try:
            yield
        finally:
            _HELD[key] -= 1
        return
    lock_file.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            notes.note(
                f"deckcheck: note: another import or update holds {lock_file}; waiting for it"
            )
            fcntl.flock(fd, fcntl.LOCK_EX)
        _HELD[key] = 1
        try:
            yield
        finally:
            del _HELD[key]
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


@contextlib.contextmanager
def home_lock() -> Iterator[None]:
    """Hold the data home's lock (``paths.lock_path()``); on first taking it, finish or
    remove what a killed update left (``finish_interrupted``), so no import writes into
    a state that a pending swap would then replace."""
    lock = dc_paths.lock_path()
    lock.parent.mkdir(parents=True, exist_ok=True)
    lock.touch(exist_ok=True)
    key = str(lock.resolve())
    first = key not in _HELD
    with exclusive_lock(lock.resolve()):
        if first:
            finish_interrupted(dc_paths.data_home())
        yield


#: In the data home: the next state of an update (database, lists), built whole.
STAGE = ".update-stage"
#: In STAGE: the state is complete; the swap may start (and is finished if interrupted).
READY = "READY"


def swap_stage(home: Path) -> None:
    """Move the complete staged state into place (two renames). Idempotent: a run killed
    half-way is finished by the next one, so the home ends old or new, never mixed."""
    stage = home / STAGE
    db = stage / dc_paths.database_path().name
    if db.exists():
        os.replace(db, dc_paths.database_path())
    new_lists = stage / "banlists"
    if new_lists.exists():
        if dc_paths.lists_dir().exists():
            os.replace(dc_paths.lists_dir(), stage / "banlists-old")
        os.replace(new_lists, dc_paths.lists_dir())
    (stage / READY).unlink(missing_ok=True)
    shutil.rmtree(stage, ignore_errors=True)


def finish_interrupted(home: Path) -> None:
    """What a killed update left: a complete (READY) stage is swapped in, anything else is
    removed, as are stale files of older deckchecks' updates. Call it holding the lock."""
    stage = home / STAGE
    if (stage / READY).exists():
        swap_stage(home)
    shutil.rmtree(stage, ignore_errors=True)
    old_lists = home / ".banlists-old"  # older layout: lists moved aside and not back
    if old_lists.is_dir() and not dc_paths.lists_dir().exists():
        os.replace(old_lists, dc_paths.lists_dir())
    for leftover in (home / ".cards-update.sqlite3", home / ".cards-previous.sqlite3"):
        with contextlib.suppress(OSError):
            leftover.unlink()
    for d in (home / ".banlists-update", old_lists):
        shutil.rmtree(d, ignore_errors=True)


def write_all(files: Sequence[tuple[Path, str]]) -> None:
    """Install several text files all or nothing as far as a full disk or an error goes:
    every file is written and fsync'ed as a temp file beside its target first, and only
    then are they renamed into place, one after the other (microseconds, no I/O between).

    On OSError every temp file is removed and no target has changed. Callers hold the
    home lock, so a temp file left by a killed run is stale (``clean_stale``).
    """
    umask = os.umask(0)
    os.umask(umask)
    staged: list[tuple[Path, Path]] = []
    try:
        for target, text in files:
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.parent / f"{STAGE_PREFIX}{os.getpid()}-{len(staged)}.tmp"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666 & ~umask)
            staged.append((tmp, target))
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
    except BaseException:
        for tmp, _ in staged:
            with contextlib.suppress(OSError):
                tmp.unlink()
        raise
    for tmp, target in staged:
        os.replace(tmp, target)


def clean_stale(folder: Path, patterns: Sequence[str], *, older_than: float = 0.0,
                recursive: bool = True) -> int:  # fmt: skip
    """Remove what killed runs left under ``folder`` (files or folders matching one of
    ``patterns``, searched recursively unless ``recursive`` is False); call it holding the
    lock that guards their writers. ``older_than`` (seconds) spares what a writer outside
    the lock may still use. Returns how many were removed."""
    removed = 0
    if not folder.is_dir():
        return 0
    now = time.time()
    for pattern in patterns:
        for p in folder.rglob(pattern) if recursive else folder.glob(pattern):
            try:
                if older_than and now - p.lstat().st_mtime < older_than:
                    continue
                if p.is_dir() and not p.is_symlink():
                    shutil.rmtree(p)
                else:
                    p.unlink()
                removed += 1
            except OSError:
                pass
    return removed
