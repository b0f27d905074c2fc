"""File helpers every layer shares: the atomic writer, the size-capped read, sha256."""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

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
    """A file or stream holds more than the cap given to ``read_bounded``."""


def read_bounded(source: str | os.PathLike[str] | object, max_bytes: int) -> bytes:
    """At most ``max_bytes`` bytes of a path or binary file object, reading ``max_bytes + 1``
    so a larger input is told apart (raises TooLarge) without reading it whole."""
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            data = f.read(max_bytes + 1)
    else:
        data = source.read(max_bytes + 1)  # type: ignore[attr-defined]
    if len(data) > max_bytes:
        raise TooLarge(f"more than {max_bytes} bytes")
    return bytes(data)


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str | os.PathLike[str]) -> str:
    """Hex sha256 of a file, read in 1 MiB chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
