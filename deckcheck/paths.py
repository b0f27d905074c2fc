"""Where deckcheck finds its built-in data and keeps the user's database, lists and caches."""

from __future__ import annotations

import os
from pathlib import Path

_PKG = Path(__file__).resolve().parent


def _builtin(name: str) -> Path:
    # Installed wheel: data is force-included under deckcheck/_data/.
    # Source checkout / editable install: the folders sit at the repository top.
    packaged = _PKG / "_data" / name
    if packaged.is_dir():
        return packaged
    return _PKG.parent / name


def builtin_banlists_dir() -> Path:
    """The shipped ``banlists/`` folder (lists per family, ``formats/``)."""
    return _builtin("banlists")


def builtin_card_db_dir() -> Path:
    """The shipped ``card_db/`` folder (schema, sample card set, nicknames)."""
    return _builtin("card_db")


def data_home() -> Path:
    """The user data directory; ``$DECKCHECK_HOME`` overrides the platform default."""
    env = os.environ.get("DECKCHECK_HOME")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("deckcheck", appauthor=False))


#: In the data home: the link naming the installed state's folder (``state-<n>``), which
#: holds the card database and the lists. Writers build ``state-<n+1>`` beside it and
#: replace the link with one rename (``deckcheck.staging``), so a reader sees one whole
#: state. A home without the link is the older layout (database and lists at the top).
CURRENT = "current"
STATE_PREFIX = "state-"
DB_NAME = "cards.sqlite3"
LISTS_NAME = "banlists"

# home -> (the state folder this process reads, its open fd holding a shared flock)
_STATE: dict[str, tuple[Path, int | None]] = {}


def state_dir() -> Path:
    """The installed state's folder, resolved once per process (per home): every later
    call gives the same folder, so the database and the lists one command reads always
    belong together, whatever an update switches meanwhile. The folder is held with a
    shared flock, so no writer removes it while this process may still read it. The home
    itself in the older layout (no ``current`` link)."""
    home = data_home()
    key = str(home)
    got = _STATE.get(key)
    if got is not None and (got[1] is None or got[0].is_dir()):
        return got[0]
    # another home (a test, a library user switching $DECKCHECK_HOME): let the others go
    forget_state()
    got = _resolve_state(home)
    _STATE[key] = got
    return got[0]


def _resolve_state(home: Path) -> tuple[Path, int | None]:
    import fcntl

    link = home / CURRENT
    for _ in range(100):
        try:
            target = os.readlink(link)
        except OSError:
            return home, None
        state = home / target
        try:
            fd = os.open(state, os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            continue  # switched and removed since readlink: read the link again
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
            if os.readlink(link) == target:
                return state, fd
        except OSError:
            pass
        os.close(fd)
    return home / os.readlink(link), None


def forget_state() -> None:
    """Resolve the state again on the next call (a writer switched it, or a new command
    starts); releases this process's hold on the folders it read."""
    for _path, fd in _STATE.values():
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass
    _STATE.clear()


def database_path() -> Path:
    """The installed card database (may not exist yet), in the installed state."""
    return state_dir() / DB_NAME


def lists_dir() -> Path:
    """Installed lists, same layout as ``banlists/``: ``<family>/<YYYY-MM-DD>.yaml``, in the
    installed state."""
    return state_dir() / LISTS_NAME


def formats_dir() -> Path:
    """The user's own format files (``*.yaml``), merged over the shipped ones."""
    return data_home() / "formats"


def cache_dir() -> Path:
    """Derived, rebuildable files (compiled lists and formats, lookup index, the built sample,
    downloads and update state).

    ``$DECKCHECK_CACHE`` overrides; with ``$DECKCHECK_HOME`` set the cache stays inside that
    home (``$DECKCHECK_HOME/cache``, so a test's or a CI job's home is self-contained);
    otherwise the platform's user cache folder (platformdirs ``user_cache_dir``), not the
    data folder: deleting it loses nothing. When that folder cannot be written (a read-only
    home), a private per-user folder under ``$XDG_RUNTIME_DIR`` or the temp folder.
    """
    chosen = _chosen_cache_dir()
    if _writable(chosen):
        return chosen
    # A read-only home (a CI image, a mounted share) would rebuild the lookup index on every
    # command (7–13 s): use a private folder of this user's instead.
    return _private_cache() or chosen


def read_only_cache_dir() -> Path | None:
    """The cache folder ``cache_dir`` would use were it writable, when it is not (a
    read-only home): what ``db import`` cached there before can still be read. None when
    it is writable (``cache_dir`` is that folder)."""
    chosen = _chosen_cache_dir()
    return None if _writable(chosen) else chosen


def _chosen_cache_dir() -> Path:
    env = os.environ.get("DECKCHECK_CACHE")
    if env:
        return Path(env).expanduser()
    if os.environ.get("DECKCHECK_HOME"):
        return Path(os.environ["DECKCHECK_HOME"]).expanduser() / "cache"
    import platformdirs

    return Path(platformdirs.user_cache_dir("deckcheck", appauthor=False))


def _writable(folder: Path) -> bool:
    """``folder`` can be written, or created in its nearest existing parent."""
    p = folder
    while not p.exists():
        if p.parent == p:
            return False
        p = p.parent
    return os.access(p, os.W_OK)


def _private_cache() -> Path | None:
    """``$XDG_RUNTIME_DIR/deckcheck-cache`` or ``$TMPDIR/deckcheck-<uid>-cache``: a folder of
    this user's only (0700, owned by them; never one another user could plant files in,
    since the lookup cache is a pickle). None when no such folder can be had."""
    base = os.environ.get("XDG_RUNTIME_DIR") or os.environ.get("TMPDIR") or "/tmp"
    folder = Path(base) / f"deckcheck-{os.getuid()}-cache"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        st = folder.lstat()
    except OSError:
        return None
    import stat

    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        return None
    return folder


def lock_path() -> Path:
    """Lock file that serialises imports and updates."""
    return data_home() / ".lock"
