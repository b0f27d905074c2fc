"""File helpers every layer shares: the atomic writer, the size-capped read, sha256."""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

__all__ = ["TooLarge", "read_bounded", "remove_others", "replacing", "sha256_bytes",
           "sha256_file", "write_atomic"]


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

    The temp file gets the permissions a plain ``open()`` would (``mkstemp`` alone makes
    0600). ``mkdir`` creates missing parent folders. Raises OSError.
    """
    import tempfile  # writers only: the warm validate path never imports it

    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if mkdir:
        folder.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(
        dir=folder, prefix=prefix if prefix is not None else f".{target.name}.", suffix=suffix
    )
    os.close(fd)
    tmp = Path(name)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        yield tmp
        os.replace(tmp, target)
    finally:
        try:
            tmp.unlink()
        except OSError:
            pass


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
        super().__init__(f"{size if size is not None else 'more than ' + str(limit)} bytes, "
                         f"over the {limit} byte cap")
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
        with Path(source).open("rb") as f:
            data = f.read(max_bytes + 1)
            if len(data) > max_bytes:  # grew since the stat
                raise TooLarge(max(os.fstat(f.fileno()).st_size, len(data)), max_bytes)
    else:
        data = source.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise TooLarge(None, max_bytes)
    return data


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str | os.PathLike[str]) -> str:
    """Hex sha256 of a file, read in 1 MiB chunks."""
    h = hashlib.sha256()
    with Path(path).open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
