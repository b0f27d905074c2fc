"""Where deckcheck finds its built-in data and keeps the user's database, lists and caches.

Every folder is given two ways: the documented ``Path`` functions (``database_path()``, …)
and a plain-string twin of each (``database_file()``, …) that gives exactly
``str(<the Path>)``. The one-deck ``validate`` path uses the twins, so it never imports
``pathlib`` (with ``urllib.parse``, ``fnmatch`` and ``ipaddress`` behind it); the twins stay
because that pays over issue 28's 3% of P1: importing ``pathlib`` first made a one-deck
``validate`` 13% slower in wall time, 14% in CPU (interleaved, 15 runs, 2026-12-03), 6.9% in
a second run under load 2.3 (``python benchmarks/bench_goals.py --only p1`` measures it as
``pathlib_ratio``).
``tests/test_cli_main.py`` holds that path free of ``pathlib``. ``str_path``/``is_file``/
``is_dir`` are ``str(Path(p))``, ``Path(p).is_file()`` and ``Path(p).is_dir()`` without a
Path.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

# what ``Path.is_file``/``is_dir``/``exists`` answer False to (pathlib's _IGNORED_ERRNOS);
# any other error (a folder that cannot be searched) is raised, as pathlib does
_IGNORED = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)


def str_path(p: str | os.PathLike[str]) -> str:
    """``str(Path(p))``: the same spelling (``//`` and ``.`` parts gone, no trailing slash,
    ``.`` for an empty path) without making a Path."""
    s = os.fspath(p)
    if os.name != "posix" or not isinstance(s, str):  # another flavour: pathlib's own rules
        from pathlib import Path

        return str(Path(p))
    if s[:1] == "/":
        # POSIX keeps exactly two leading slashes (implementation-defined), folds more to one
        root = "//" if s[:2] == "//" and s[:3] != "///" else "/"
    else:
        root = ""
    return (root + "/".join(x for x in s.split("/") if x and x != ".")) or "."


def join(folder: str, *names: str) -> str:
    """``str(Path(folder, *names))`` for a ``str_path`` folder and plain names."""
    return str_path(os.path.join(folder, *names))


def expand_user(p: str | os.PathLike[str]) -> str:
    """``str(Path(p).expanduser())`` (RuntimeError when ``~`` cannot be expanded, too)."""
    s = str_path(p)
    if s[:1] == "~":
        first, slash, rest = s.partition("/")
        home = os.path.expanduser(first)
        if home[:1] == "~":
            raise RuntimeError("Could not determine home directory.")
        return str_path(home + slash + rest)
    return s


def _mode(p: str) -> int | None:
    try:
        return os.stat(p).st_mode
    except OSError as exc:
        if exc.errno not in _IGNORED:
            raise
        return None
    except ValueError:  # an embedded NUL: no such file, as pathlib says
        return None


def is_file(p: str) -> bool:
    """``Path(p).is_file()``."""
    m = _mode(p)
    return m is not None and stat.S_ISREG(m)


def is_dir(p: str) -> bool:
    """``Path(p).is_dir()``."""
    m = _mode(p)
    return m is not None and stat.S_ISDIR(m)


def exists(p: str) -> bool:
    """``Path(p).exists()``."""
    return _mode(p) is not None


def _path(s: str) -> Path:
    from pathlib import Path

    return Path(s)


_PKG = os.path.dirname(os.path.realpath(__file__))  # Path(__file__).resolve().parent


def _builtin(name: str) -> str:
    # Installed wheel: data is force-included under deckcheck/_data/.
    # Source checkout / editable install: the folders sit at the repository top.
    packaged = join(_PKG, "_data", name)
    if is_dir(packaged):
        return packaged
    return join(os.path.dirname(_PKG), name)


def builtin_banlists_dir() -> Path:
    """The shipped ``banlists/`` folder (lists per family, ``formats/``)."""
    return _path(builtin_banlists_folder())


def builtin_banlists_folder() -> str:
    """``str(builtin_banlists_dir())``."""
    return _builtin("banlists")


def builtin_card_db_dir() -> Path:
    """The shipped ``card_db/`` folder (schema, sample card set, nicknames)."""
    return _path(_builtin("card_db"))


def data_home() -> Path:
    """The user data directory; ``$DECKCHECK_HOME`` overrides the platform default."""
    return _path(data_home_folder())


def data_home_folder() -> str:
    """``str(data_home())``."""
    env = os.environ.get("DECKCHECK_HOME")
    if env:
        return expand_user(env)
    import platformdirs

    return str_path(platformdirs.user_data_dir("deckcheck", appauthor=False))


#: In the data home: the link naming the installed state's folder (``state-<n>``), which
#: holds the card database and the lists. Writers build ``state-<n+1>`` beside it and
#: replace the link with one rename (``deckcheck.staging``), so a reader sees one whole
#: state. A home without the link is the older layout (database and lists at the top).
CURRENT = "current"
STATE_PREFIX = "state-"
DB_NAME = "cards.sqlite3"
LISTS_NAME = "banlists"

# home -> (the state folder this process reads, its open fd holding a shared flock)
_STATE: dict[str, tuple[str, int | None]] = {}


def state_dir() -> Path:
    """The installed state's folder, resolved once per process (per home): every later
    call gives the same folder, so the database and the lists one command reads always
    belong together, whatever an update switches meanwhile. The folder is held with a
    shared flock, so no writer removes it while this process may still read it. The home
    itself in the older layout (no ``current`` link)."""
    return _path(state_folder())


def state_folder() -> str:
    """``str(state_dir())``."""
    home = data_home_folder()
    got = _STATE.get(home)
    if got is not None and (got[1] is None or is_dir(got[0])):
        return got[0]
    # another home (a test, a library user switching $DECKCHECK_HOME): let the others go
    forget_state()
    got = _resolve_state(home)
    _STATE[home] = got
    return got[0]


def _resolve_state(home: str) -> tuple[str, int | None]:
    link = join(home, CURRENT)
    for _ in range(100):
        try:
            target = os.readlink(link)
        except OSError:
            return home, None
        import fcntl  # a home with installed states only (an older layout needs no lock)

        state = join(home, target)
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
    return join(home, os.readlink(link)), None


def forget_state() -> None:
    """Resolve the state again on the next call (a writer switched it, or a new command
    starts); releases this process's hold on the folders it read."""
    for _folder, fd in _STATE.values():
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass
    _STATE.clear()


def database_path() -> Path:
    """The installed card database (may not exist yet), in the installed state."""
    return _path(database_file())


def database_file() -> str:
    """``str(database_path())``."""
    return join(state_folder(), DB_NAME)


def lists_dir() -> Path:
    """Installed lists, same layout as ``banlists/``: ``<family>/<YYYY-MM-DD>.yaml``, in the
    installed state."""
    return _path(lists_folder())


def lists_folder() -> str:
    """``str(lists_dir())``."""
    return join(state_folder(), LISTS_NAME)


def formats_dir() -> Path:
    """The user's own format files (``*.yaml``), merged over the shipped ones."""
    return _path(formats_folder())


def formats_folder() -> str:
    """``str(formats_dir())``."""
    return join(data_home_folder(), "formats")


def cache_dir() -> Path:
    """Derived, rebuildable files (compiled lists and formats, lookup index, the built sample,
    downloads and update state).

    ``$DECKCHECK_CACHE`` overrides; with ``$DECKCHECK_HOME`` set the cache stays inside that
    home (``$DECKCHECK_HOME/cache``, so a test's or a CI job's home is self-contained);
    otherwise the platform's user cache folder (platformdirs ``user_cache_dir``), not the
    data folder: deleting it loses nothing. When that folder cannot be written (a read-only
    home), a private per-user folder under ``$XDG_RUNTIME_DIR`` or the temp folder.
    """
    return _path(cache_folder())


def cache_folder() -> str:
    """``str(cache_dir())``."""
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
    return None if _writable(chosen) else _path(chosen)


def read_only_cache_folder() -> str | None:
    """``str(read_only_cache_dir())``, without pathlib (the warm path asks it on a cache
    miss: a read-only home's compiled lists and formats are read from there, issue 32)."""
    chosen = _chosen_cache_dir()
    return None if _writable(chosen) else chosen


def _chosen_cache_dir() -> str:
    env = os.environ.get("DECKCHECK_CACHE")
    if env:
        return expand_user(env)
    if os.environ.get("DECKCHECK_HOME"):
        return join(expand_user(os.environ["DECKCHECK_HOME"]), "cache")
    import platformdirs

    return str_path(platformdirs.user_cache_dir("deckcheck", appauthor=False))


def _parent(p: str) -> str:
    # ``str(Path(p).parent)`` of a ``str_path`` (the parent of "a" is ".", of "/" is "/")
    head = os.path.dirname(p)
    return str_path(head) if head else "."


def _writable(folder: str) -> bool:
    """``folder`` can be written, or created in its nearest existing parent."""
    p = folder
    while not exists(p):
        if _parent(p) == p:
            return False
        p = _parent(p)
    return os.access(p, os.W_OK)


def _private_cache() -> str | None:
    """``$XDG_RUNTIME_DIR/deckcheck-cache`` or ``$TMPDIR/deckcheck-<uid>-cache``: a folder of
    this user's only (0700, owned by them; never one another user could plant files in,
    since the lookup cache is a pickle). None when no such folder can be had."""
    base = os.environ.get("XDG_RUNTIME_DIR") or os.environ.get("TMPDIR") or "/tmp"
    folder = join(str_path(base), f"deckcheck-{os.getuid()}-cache")
    try:
        try:
            os.mkdir(folder, 0o700)
        except FileNotFoundError:
            raise
        except OSError:  # as Path.mkdir(exist_ok=True): fine when a folder is there
            if not is_dir(folder):
                raise
        st = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        return None
    return folder


def lock_path() -> Path:
    """Lock file that serialises imports and updates."""
    return _path(join(data_home_folder(), ".lock"))
