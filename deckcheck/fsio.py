"""File helpers every layer shares: the atomic writer, the size-capped read, sha256."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "NotRegularFile",
    "TooLarge",
    "backup_path",
    "read_bounded",
    "remove_others",
    "replacing",
    "resolve_target",
    "sha256_bytes",
    "sha256_file",
    "write_atomic",
]


class NotRegularFile(OSError):
    """Raised by ``replacing``/``write_atomic``: the path names a FIFO, a device, a socket or
    a folder, which a write must never replace by a regular file (``/dev/null``)."""

    def __init__(self, path: str | os.PathLike[str]):
        super().__init__(
            errno.EINVAL,
            "not a regular file (a FIFO, device, socket or folder): refusing to replace it",
            str(path),
        )


#: Temp names stay short whatever the target is called: a 245-character deck name plus a
#: prefix made of that name went over NAME_MAX (255) and failed with "File name too long".
_TEMP_PREFIX = ".dc-"


def resolve_target(path: str | os.PathLike[str]) -> Path:
    """The file a write to ``path`` must change: symlinks followed (an edit of ``link.ydk``
    edits the deck it points to, the link stays a link). NotRegularFile when that file
    exists and is not a regular file."""
    from pathlib import Path  # writers only: the read path imports no pathlib

    target = Path(os.path.realpath(path))
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return target
    if not stat.S_ISREG(st.st_mode):
        raise NotRegularFile(path)
    return target


def _copy_identity(st: os.stat_result, tmp: Path) -> None:
    """Give ``tmp`` the mode and (when allowed) owner and group of the file it replaces."""
    os.chmod(tmp, stat.S_IMODE(st.st_mode))
    if hasattr(os, "chown"):
        try:
            os.chown(tmp, st.st_uid, st.st_gid)
        except OSError:
            pass  # not root and not our group: the file keeps its mode, the new owner is us


def backup_path(target: str | os.PathLike[str]) -> Path:
    """Where the complete new text of a file with several hard links waits while the file is
    rewritten in place (``<name>.deckcheck-backup``): left there only when that rewrite was
    interrupted, and looked for by the next edit (``deckedit.files.load``)."""
    from pathlib import Path

    t = Path(target)
    return t.with_name(t.name[:200] + ".deckcheck-backup")


def _rewrite_in_place(tmp: Path, target: Path) -> None:
    """Copy ``tmp`` (complete and fsynced) into ``target`` itself, for a file with several hard
    links: ``os.replace`` would give only this name the new text and break the links.

    Not atomic, so ``tmp`` first becomes ``backup_path(target)``, a name the next edit looks
    for: if this process dies in the copy, the next edit (or show) of the deck finds it and
    recovers. Removed once the copy is written, synced and read back equal, and on an error
    before the first byte of ``target`` changed; on an error after it, kept and named in the
    message."""
    data = tmp.read_bytes()
    keep = backup_path(target)
    try:
        os.replace(tmp, keep)
        _sync_dir(target.parent)
    except OSError:
        keep = tmp  # (an unwritable name: the temp file itself serves)
    touched = False  # no byte of ``target`` changed yet: on an error the backup is not needed
    try:
        fd = os.open(target, os.O_WRONLY)
        try:
            touched = True
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.ftruncate(fd, len(data))
            os.fsync(fd)
        finally:
            os.close(fd)
        if target.read_bytes() != data:
            raise OSError(errno.EIO, "the file did not read back as written", str(target))
    except OSError as exc:
        if not touched:  # the file is as it was: no interrupted write to recover from
            if keep != tmp:
                with contextlib.suppress(OSError):
                    keep.unlink()
            raise
        if keep == tmp:
            keep = tmp.with_name(tmp.name + ".keep")  # `replacing` removes tmp itself
            try:
                os.link(tmp, keep)
            except OSError:
                keep = target.parent / "(nowhere: the folder is not writable)"
        raise OSError(
            exc.errno, f"{exc.strerror or exc}; the new text is in {keep}", str(target)
        ) from None
    if keep != tmp:
        with contextlib.suppress(OSError):
            keep.unlink()


def _sync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _naming(exc: OSError, target: Path) -> OSError:
    """``exc`` naming the file being written (a write or fsync error names none, and "No
    space left on device" alone does not say which file was not written)."""
    if exc.filename is None or str(exc.filename).startswith(str(target.parent / _TEMP_PREFIX)):
        exc.filename = str(target)
    return exc


@contextlib.contextmanager
def replacing(
    path: str | os.PathLike[str],
    *,
    mkdir: bool = False,
    prefix: str | None = None,
    suffix: str = ".tmp",
) -> Iterator[Path]:
    """A new temp file beside ``path``, moved onto ``path`` by ``os.replace`` when the block
    ends without error and removed otherwise: the one way deckcheck replaces a file.

    What is written is the real file: a symlink is followed (the link stays), an existing
    file keeps its mode, owner and group, a file with several hard links is rewritten in
    place (after the full new text is on disk beside it) so every link sees the change, and
    a FIFO, device or folder is refused (NotRegularFile). A new file gets the permissions a
    plain ``open()`` would (the user's umask; ``mkstemp`` alone makes 0600). Temp names are
    short whatever ``path`` is called. ``mkdir`` creates missing parent folders.
    Raises OSError.
    """
    import tempfile  # writers only: the warm validate path never imports it
    from pathlib import Path

    target = resolve_target(path)
    folder = target.parent
    if mkdir:
        folder.mkdir(parents=True, exist_ok=True)
    try:
        old: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        old = None
    try:
        fd, name = tempfile.mkstemp(
            dir=folder, prefix=prefix if prefix is not None else _TEMP_PREFIX, suffix=suffix
        )
    except OSError as exc:
        raise _naming(exc, target) from None
    # Held with an exclusive flock until the rename: a cleaner (``staging.clean_stale``) takes
    # an unlocked temp file for one a killed run left, and spares this one.
    _lock_fd(fd)
    tmp = Path(name)
    try:
        if old is not None:
            _copy_identity(old, tmp)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        try:
            yield tmp
            if old is not None and old.st_nlink > 1:
                _rewrite_in_place(tmp, target)
            else:
                os.replace(tmp, target)
        except OSError as exc:
            raise _naming(exc, target) from None
    finally:
        try:
            tmp.unlink()
        except OSError:
            pass
        os.close(fd)


def _lock_fd(fd: int) -> None:
    try:
        import fcntl
    except ImportError:  # no flock here (Windows): a cleaner then goes by age alone
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        pass  # a file system without locks: the write itself does not need it


def write_atomic(
    path: str | os.PathLike[str],
    data: str | bytes,
    *,
    encoding: str = "utf-8",
    mkdir: bool = False,
    fsync: bool = True,
) -> None:
    """Write ``data`` to ``path`` all or nothing (``replacing``): a crash or a full disk never
    leaves a half-written file. Text keeps its line ends as given (no ``\r\n`` translation).
    Raises OSError.
    """
    with replacing(path, mkdir=mkdir) as tmp:
        if isinstance(data, bytes):
            with tmp.open("wb") as fb:
                fb.write(data)
                fb.flush()
                if fsync:
                    os.fsync(fb.fileno())
        else:
            with tmp.open("w", encoding=encoding, newline="\n") as ft:
                ft.write(data)
                ft.flush()
                if fsync:
                    os.fsync(ft.fileno())


def remove_others(keep: Path, pattern: str) -> None:
    """Remove the files matching ``pattern`` beside ``keep`` except ``keep`` (stale caches)."""
    for old in keep.parent.glob(pattern):
        if old != keep:
            try:
                old.unlink()
            except OSError:
                pass


class TooLarge(ValueError):
    """Raised by ``read_bounded``: the input holds more than ``limit`` bytes (``size`` is the
    file's size when known from its metadata, else None)."""

    def __init__(self, size: int | None, limit: int):
        super().__init__(
            f"{size if size is not None else 'more than ' + str(limit)} bytes, "
            f"over the {limit} byte cap"
        )
        self.size = size
        self.limit = limit


def read_bounded(source: str | os.PathLike[str] | BinaryIO, max_bytes: int) -> bytes:
    """The bytes of a path or binary stream, never more than ``max_bytes``: the one
    size-capped read of readers and importers.

    A path is stat'ed first (its size goes into TooLarge); either way at most
    ``max_bytes + 1`` bytes are read, so a larger or growing input is told apart without
    being read whole. Raises TooLarge, or OSError from opening/reading a path.
    """
    if isinstance(source, (str, os.PathLike)):
        size = os.stat(source).st_size
        if size > max_bytes:
            raise TooLarge(size, max_bytes)
        with open(source, "rb") as f:  # no Path(): readers call this per deck
            data = f.read(max_bytes + 1)
            if len(data) > max_bytes:  # grew since the stat
                raise TooLarge(max(os.fstat(f.fileno()).st_size, len(data)), max_bytes)
    else:
        data = source.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise TooLarge(None, max_bytes)
    return data


# hashlib is imported where a digest is taken: importing it loads OpenSSL (~6 ms), which
# the commands that only read (``validate``) never need.


def sha256_bytes(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def name_hash(data: bytes) -> str:
    """16 hex digits naming a cache file after ``data`` (a key of paths and stats): its CRC-32
    and Adler-32, from ``zlib``. Stable across processes and Python versions, unlike
    ``hash()``; not a security hash, nor needs to be. ``hashlib`` loads OpenSSL (~6 ms) and
    CPython's C sha1 is a private module."""
    import zlib

    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


def sha256_file(path: str | os.PathLike[str]) -> str:
    """Hex sha256 of a file, read in 1 MiB chunks."""
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
