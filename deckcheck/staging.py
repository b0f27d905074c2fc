"""The data home's write discipline: the one lock that imports, updates and their cleanup
hold, the installed state switched in one step (``new_state``: ``current -> state-<n>``),
and the removal of what killed runs left.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import shutil
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from deckcheck import notes
from deckcheck import paths as dc_paths
from deckcheck.errors import DataError
from deckcheck.records import Record, record

__all__ = [
    "READY",
    "STAGE",
    "STAGE_PREFIX",
    "NewState",
    "clean_stale",
    "exclusive_lock",
    "finish_interrupted",
    "home_lock",
    "in_state",
    "new_state",
    "swap_stage",
    "write_all",
]

#: Temp files ``write_all`` makes beside their targets (only a lock holder makes them).
STAGE_PREFIX = ".dc-stage-"
#: In a folder outside the home (``--out``), where no home lock guards the writers: a temp
#: file this old, and not locked by its writer, was left by a killed run.
STALE_SECONDS = 3600.0

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
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        lock.touch(exist_ok=True)
    except OSError as exc:
        if machine_trouble(exc) == errno.EROFS:
            raise _read_only(dc_paths.data_home()) from exc
        raise
    key = str(lock.resolve())
    first = key not in _HELD
    with exclusive_lock(lock.resolve()):
        if first:
            finish_interrupted(dc_paths.data_home())
        yield


#: In the data home: the next state of an update as older deckchecks built it (database,
#: lists, a READY mark); finished or removed on the next lock, then no longer made.
STAGE = ".update-stage"
#: In STAGE: the state is complete; the swap may start (and is finished if interrupted).
READY = "READY"


def swap_stage(home: Path) -> None:
    """Move an older deckcheck's complete staged state into place (two renames; only
    used to finish what such a run left, before the home moves to the state layout)."""
    stage = home / STAGE
    db = stage / dc_paths.DB_NAME
    if db.exists():
        os.replace(db, home / dc_paths.DB_NAME)
    new_lists = stage / dc_paths.LISTS_NAME
    if new_lists.exists():
        if (home / dc_paths.LISTS_NAME).exists():
            os.replace(home / dc_paths.LISTS_NAME, stage / "banlists-old")
        os.replace(new_lists, home / dc_paths.LISTS_NAME)
    (stage / READY).unlink(missing_ok=True)
    shutil.rmtree(stage, ignore_errors=True)


def finish_interrupted(home: Path) -> None:
    """What killed runs left, removed (call it holding the home lock): states no link
    names and nobody reads, half-made links, and the files of older deckchecks' updates
    (a complete READY stage of one is swapped in first); an older home is moved to the
    state layout."""
    linked = (home / dc_paths.CURRENT).is_symlink()
    stage = home / STAGE
    if not linked and (stage / READY).exists():
        swap_stage(home)
    shutil.rmtree(stage, ignore_errors=True)
    old_lists = home / ".banlists-old"  # older layout: lists moved aside and not back
    if not linked and old_lists.is_dir() and not (home / dc_paths.LISTS_NAME).exists():
        os.replace(old_lists, home / dc_paths.LISTS_NAME)
    for leftover in (home / ".cards-update.sqlite3", home / ".cards-previous.sqlite3"):
        with contextlib.suppress(OSError):
            leftover.unlink()
    for d in (home / ".banlists-update", old_lists):
        shutil.rmtree(d, ignore_errors=True)
    _migrate(home)
    _remove_old_states(home)


# --------------------------------------------------------------------------- states


def _current(home: Path) -> Path | None:
    try:
        return home / os.readlink(home / dc_paths.CURRENT)
    except OSError:
        return None


def _remove_old_states(home: Path) -> None:
    """Every ``state-*`` the link does not name goes, unless a reader still holds it (a
    shared flock, ``paths.state_dir``); half-made links and moved-aside files too."""
    cur = _current(home)
    for p in home.glob(f"{dc_paths.STATE_PREFIX}*"):
        if cur is not None and p.name == cur.name:
            continue
        if p.is_symlink() or not p.is_dir():
            with contextlib.suppress(OSError):
                p.unlink()
            continue
        try:
            fd = os.open(p, os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            continue
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # a command still reads it; the next writer removes it
            shutil.rmtree(p, ignore_errors=True)
        finally:
            os.close(fd)
    _remove_all((*home.glob(".current-*"), *home.glob(".legacy-*")))


def _remove_all(found: Iterable[Path]) -> None:
    """Remove each of ``found``: a folder with what is in it, a file or a link."""
    for p in found:
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                p.unlink()


def _next_state(home: Path) -> Path:
    nums = [0]
    for p in home.glob(f"{dc_paths.STATE_PREFIX}*"):
        tail = p.name[len(dc_paths.STATE_PREFIX) :]
        if tail.isdigit():
            nums.append(int(tail))
    return home / f"{dc_paths.STATE_PREFIX}{max(nums) + 1}"


def _fsync_tree(root: Path) -> None:
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            fd = os.open(os.path.join(dirpath, name), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        _fsync_dir(Path(dirpath))


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _switch(home: Path, state: Path) -> None:
    """The one step from the old state to the new: the link is replaced by one rename."""
    # a lists folder always, so ``<home>/banlists`` never dangles (something writing lists
    # through that name, without a lock, makes its folders there)
    (state / dc_paths.LISTS_NAME).mkdir(exist_ok=True)
    tmp = home / f".current-{os.getpid()}"
    with contextlib.suppress(OSError):
        tmp.unlink()
    os.symlink(state.name, tmp)
    link = home / dc_paths.CURRENT
    if link.is_dir() and not link.is_symlink():
        # a copied home (cp -r follows links): its copy of a state is read as the top level
        os.replace(link, home / f".legacy-{dc_paths.CURRENT}-{os.getpid()}")
    os.replace(tmp, link)
    _fsync_dir(home)
    dc_paths.forget_state()
    _compat_links(home)


def _compat_links(home: Path) -> None:
    """``<home>/cards.sqlite3`` and ``<home>/banlists`` stay usable names (scripts, older
    habits): links through ``current``. A real file or folder there (an older layout, moved
    into a state already) is moved aside first, then removed."""
    for name in (dc_paths.DB_NAME, dc_paths.LISTS_NAME):
        p = home / name
        want = f"{dc_paths.CURRENT}/{name}"
        if p.is_symlink() and os.readlink(p) == want:
            continue
        if p.exists() or p.is_symlink():
            aside = home / f".legacy-{name}-{os.getpid()}"
            os.replace(p, aside)
        tmp = home / f".current-{os.getpid()}-{name}"
        with contextlib.suppress(OSError):
            tmp.unlink()
        os.symlink(want, tmp)
        os.replace(tmp, p)
    _remove_all(home.glob(".legacy-*"))


def _migrate(home: Path) -> None:
    """An older home (database and lists at its top, no ``current`` link) becomes state 1:
    its files linked (hard links) into ``state-1``, then the link made in one step."""
    if (home / dc_paths.CURRENT).is_symlink():
        if not all((home / n).is_symlink() for n in (dc_paths.DB_NAME, dc_paths.LISTS_NAME)):
            _compat_links(home)  # killed after the switch, before the names were linked
        return
    db, lists = home / dc_paths.DB_NAME, home / dc_paths.LISTS_NAME
    if not (db.exists() or lists.exists()):
        return  # nothing installed yet: the first writer makes the first state
    state = _next_state(home)
    state.mkdir()
    if db.is_file():
        _link_or_copy(db, state / dc_paths.DB_NAME)
    if lists.is_dir():
        copy_tree(lists, state / dc_paths.LISTS_NAME, copy=_link_or_copy)
    _fsync_tree(state)
    _switch(home, state)


def _link_or_copy(src: str | Path, dest: str | Path) -> None:
    try:
        os.link(src, dest)
    except OSError:
        shutil.copy2(src, dest)


@record(frozen=False, slots=True)
class NewState(Record):
    """The next installed state while it is built: write into ``db`` and ``lists``."""

    path: Path
    old: Path | None  # the state it replaces (None: nothing installed yet)

    @property
    def db(self) -> Path:
        return self.path / dc_paths.DB_NAME

    @property
    def lists(self) -> Path:
        return self.path / dc_paths.LISTS_NAME

    @property
    def old_db(self) -> Path | None:
        p = None if self.old is None else self.old / dc_paths.DB_NAME
        return p if p is not None and p.is_file() else None


@contextlib.contextmanager
def new_state(
    *, keep_db: bool = True, keep_lists: bool = True, size_hint: int = 0
) -> Iterator[NewState]:
    """Build the next installed state and switch to it in one step, holding the home lock.

    The new folder starts with the current database (``keep_db``: a hard link — callers
    that change the database build a new file there instead, never write it in place) and
    a copy of the lists (``keep_lists``). When the block ends without error every file is
    fsync'ed and the ``current`` link replaced with one rename; a failure (or a kill) before
    that leaves the old state exactly as it was, and the folder is removed (now, or by
    the next writer). Readers that resolved the old state keep reading it whole.

    A full disk or a read-only home anywhere in the block is one ``DataError`` naming the
    home (and, for a full disk, about how much free space the new state needs: the most of
    what was written before the disk filled, ``size_hint`` — the caller's inputs — and the
    current state's size).
    """
    home = dc_paths.data_home()
    written = 0
    try:
        with home_lock():
            dc_paths.forget_state()
            old = _current(home)
            state = _next_state(home)
            state.mkdir()
            try:
                if old is not None and keep_db and (old / dc_paths.DB_NAME).is_file():
                    _link_or_copy(old / dc_paths.DB_NAME, state / dc_paths.DB_NAME)
                if old is not None and keep_lists and (old / dc_paths.LISTS_NAME).is_dir():
                    copy_tree(old / dc_paths.LISTS_NAME, state / dc_paths.LISTS_NAME)
                yield NewState(state, old)
                _fsync_tree(state)
                _switch(home, state)
            except BaseException:
                written = _new_bytes(state)
                shutil.rmtree(state, ignore_errors=True)
                raise
    except Exception as exc:
        trouble = machine_trouble(exc)
        if trouble is None:
            raise
        if trouble == errno.EROFS:
            raise _read_only(home) from exc
        current = _current(home)
        needed = max(written, size_hint, _new_bytes(current) if current is not None else 0)
        raise DataError(
            f"No space left on device: the new data needs about {human_size(needed)} "
            f"free there, {human_size(_free(home))} is free (nothing was changed; free space "
            "or set DECKCHECK_HOME to a folder on another disk)",
            where=str(home),
        ) from exc


def _read_only(home: Path) -> DataError:
    return DataError(
        "Read-only file system: deckcheck cannot write its data folder here; set "
        "DECKCHECK_HOME to a writable folder (nothing was changed)",
        where=str(home),
    )


#: errnos of the machine rather than the input: a full disk or quota, a read-only mount
_FULL = frozenset(e for e in (errno.ENOSPC, getattr(errno, "EDQUOT", None)) if e is not None)


def machine_trouble(exc: BaseException) -> int | None:
    """``errno.ENOSPC`` (a full disk or quota) or ``errno.EROFS`` when that is what ``exc``
    or an exception behind it (SQLite's "database or disk is full" included) comes from."""
    seen: set[int] = set()
    e: BaseException | None = exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, OSError) and e.errno is not None:
            if e.errno in _FULL:
                return errno.ENOSPC
            if e.errno == errno.EROFS:
                return errno.EROFS
        if type(e).__name__ in ("OperationalError", "DatabaseError") and (
            getattr(e, "sqlite_errorcode", None) == _SQLITE_FULL
            or "database or disk is full" in str(e)
        ):
            return errno.ENOSPC
        if type(e).__name__ == "OperationalError" and "readonly database" in str(e):
            return errno.EROFS
        e = e.__cause__ or e.__context__
    return None


_SQLITE_FULL = 13  # sqlite3.SQLITE_FULL (not imported here: sqlite3 is not on every path)


def human_size(n: int) -> str:
    """``n`` bytes as people read them: 950 bytes, 12.3 KB, 9.2 MB, 1.4 GB."""
    if n < 1000:
        return f"{n} bytes"
    for unit in ("KB", "MB", "GB"):
        n_f = n / 1000
        if n_f < 1000 or unit == "GB":
            return f"{n_f:.1f} {unit}"
        n = int(n_f)
    return f"{n} bytes"  # pragma: no cover


def _free(folder: Path) -> int:
    for p in (folder, *folder.parents):
        try:
            return shutil.disk_usage(p).free
        except OSError:
            continue
    return 0


def _new_bytes(root: Path) -> int:
    """Bytes of the files under ``root`` that no other name shares (a hard-linked database
    takes no new space)."""
    total = 0
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            try:
                st = os.lstat(os.path.join(dirpath, name))
            except OSError:
                continue
            if st.st_nlink <= 1:
                total += st.st_size
    return total


def copy_tree(src: Path, dest: Path, copy: Callable[[str, str], object] = shutil.copy2) -> None:
    """``src`` copied to ``dest`` (symlinks as links), stopping at the first error: a full disk
    is one OSError naming its file, not ``shutil.copytree``'s list of every file that failed
    (59 KB of paths in one "line", issue 32)."""
    for dirpath, dirs, files in os.walk(src):
        rel = os.path.relpath(dirpath, src)
        out = str(dest) if rel == "." else os.path.join(dest, rel)
        os.mkdir(out)
        for name in [*dirs, *files]:
            p = os.path.join(dirpath, name)
            if os.path.islink(p):
                os.symlink(os.readlink(p), os.path.join(out, name))
            elif name in files:
                copy(p, os.path.join(out, name))
        shutil.copystat(dirpath, out)


def in_state(target: Path) -> bool:
    """``target`` is the installed lists folder (through any of its names)."""
    home = dc_paths.data_home()
    try:
        t = target.resolve()
        return t in {dc_paths.lists_dir().resolve(), (home / dc_paths.LISTS_NAME).resolve()}
    except OSError:
        return False


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
    fds: list[int] = []  # held with an exclusive flock until renamed: not stale to others
    try:
        try:
            for target, text in files:
                target.parent.mkdir(parents=True, exist_ok=True)
                tmp = target.parent / f"{STAGE_PREFIX}{os.getpid()}-{len(staged)}.tmp"
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666 & ~umask)
                fds.append(fd)
                staged.append((tmp, target))
                fcntl.flock(fd, fcntl.LOCK_EX)
                data = text.encode("utf-8")
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
        except BaseException:
            for tmp, _ in staged:
                with contextlib.suppress(OSError):
                    tmp.unlink()
            raise
        for tmp, target in staged:
            os.replace(tmp, target)
    finally:
        for fd in fds:
            os.close(fd)


def clean_stale(
    folder: Path, patterns: Sequence[str], *, older_than: float = 0.0, recursive: bool = True
) -> int:
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
                if p.is_file() and not p.is_symlink() and _locked(p):
                    continue  # its writer is still at work (write_all holds a flock)
                if p.is_dir() and not p.is_symlink():
                    shutil.rmtree(p)
                else:
                    p.unlink()
                removed += 1
            except OSError:
                pass
    return removed


def _locked(p: Path) -> bool:
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
    return False
