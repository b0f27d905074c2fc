"""Getting deck input as text: size and line limits, binary refusal, decoding, line splitting.

Whole-input problems (missing, a directory, too big, binary) raise ``InputError`` before any
parsing work; everything line-level is left to the readers, which turn it into findings.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from deckcheck import fsio
from deckcheck.errors import InputError

MIB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Limits:
    """How much input a reader accepts; real decks are a few KiB and under 200 lines."""

    max_bytes: int = MIB
    max_lines: int = 10_000


DEFAULT_LIMITS = Limits()


def _size_label(n: int) -> str:
    return f"{n // MIB} MiB" if n % MIB == 0 else f"{n:,} bytes"


def read_path_bytes(path: str | os.PathLike[str], limits: Limits = DEFAULT_LIMITS) -> bytes:
    """The bytes of a deck file, reading at most ``max_bytes + 1`` of it."""
    p = Path(path)
    where = str(path)
    try:
        # No stat before open: reading a directory fails with IsADirectoryError anyway.
        # O_NONBLOCK: a FIFO with no writer (say, in a deck folder) would block open() for
        # ever; opened at once, a blocking read then sees end of file. Files ignore the flag.
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK)
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb") as fp:
            return read_stream_bytes(fp, where, limits)
    except FileNotFoundError:
        raise InputError("no such file", where=where) from None
    except PermissionError:
        raise InputError("permission denied", where=where) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a deck file", where=where) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", where=where) from None


def read_stream_bytes(fp: BinaryIO, where: str, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """Read a stream, refusing it once it exceeds the byte limit (never slurps a huge file)."""
    try:
        return fsio.read_bounded(fp, limits.max_bytes)
    except fsio.TooLarge:
        raise InputError(
            f"input is larger than the {_size_label(limits.max_bytes)} limit for a deck",
            where=where,
        ) from None


def decode(data: bytes, where: str, limits: Limits = DEFAULT_LIMITS) -> str:
    """Deck bytes as text.

    Accepted: UTF-8 (a BOM is dropped) and UTF-16 with a BOM (what Windows Notepad writes as
    "Unicode"). Refused as binary: a NUL byte, or bytes that are not valid UTF-8; legacy code
    pages (GBK, Shift-JIS) are refused too rather than guessed, because a wrong guess would
    turn card names into different, silently unknown names.
    """
    if len(data) > limits.max_bytes:
        raise InputError(
            f"input is larger than the {_size_label(limits.max_bytes)} limit for a deck",
            where=where,
        )
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            raise InputError("binary file: broken UTF-16 text", where=where) from None
        if "\x00" in text:
            raise InputError("binary file: contains NUL characters", where=where)
        return text.lstrip("\ufeff")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise InputError(f"binary file: NUL byte at offset {nul}", where=where)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "save the deck as UTF-8",
            where=where,
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


def split_lines(text: str, where: str, limits: Limits = DEFAULT_LIMITS) -> list[str]:
    """Lines split on ``\\r\\n``, ``\\n`` or ``\\r`` (and nothing else, so line numbers match
    what an editor shows), refusing input over the line limit."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) > limits.max_lines:
        raise InputError(
            f"input has {len(lines):,} lines, over the limit of {limits.max_lines:,} for a deck",
            where=where,
        )
    return lines


def check_text_size(text: str, where: str, limits: Limits = DEFAULT_LIMITS) -> None:
    """The byte limit for input that arrives as a str (counted in UTF-8 bytes)."""
    # A char is at most 4 UTF-8 bytes: only encode when the text could be over the limit.
    if len(text) * 4 > limits.max_bytes and len(text.encode("utf-8", "surrogatepass")) > (
        limits.max_bytes
    ):
        raise InputError(
            f"input is larger than the {_size_label(limits.max_bytes)} limit for a deck",
            where=where,
        )
