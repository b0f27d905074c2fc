"""Getting deck input as text: size and line limits, binary refusal, decoding, line splitting.

Whole-input problems (missing, a directory, too big, binary) raise ``InputError`` before any
parsing work; everything line-level is left to the readers, which turn it into findings.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import BinaryIO

from deckcheck import fsio
from deckcheck.errors import InputError
from deckcheck.model import Record, record

MIB = 1024 * 1024


@record
class Limits(Record):
    """How much input a reader accepts; real decks are a few KiB and under 200 lines."""

    max_bytes: int = MIB
    max_lines: int = 10_000


DEFAULT_LIMITS = Limits()


def _size_label(n: int) -> str:
    return f"{n // MIB} MiB" if n % MIB == 0 else f"{n:,} bytes"


def read_path_bytes(path: str | os.PathLike[str], limits: Limits = DEFAULT_LIMITS) -> bytes:
    """The bytes of a deck file, reading at most ``max_bytes + 1`` of it."""
    where = str(path)
    try:
        # No stat before open: reading a directory fails with IsADirectoryError anyway.
        # O_NONBLOCK: a FIFO with no writer (say, in a deck folder) would block open() for
        # ever; opened at once, a blocking read then sees end of file. Files ignore the flag.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # no Path(): it costs per deck
        try:
            os.set_blocking(fd, True)
            return _read_fd(fd, where, limits)
        finally:
            os.close(fd)
    except FileNotFoundError:
        raise InputError("no such file", where=where) from None
    except PermissionError:
        raise InputError("permission denied", where=where) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a deck file", where=where) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", where=where) from None


def _read_fd(fd: int, where: str, limits: Limits) -> bytes:
    """At most ``max_bytes + 1`` bytes of an open file, in reads of 64 KiB: a buffered
    ``read(max_bytes + 1)`` would allocate the whole cap (1 MiB) for every few-KiB deck."""
    cap = limits.max_bytes
    chunks: list[bytes] = []
    total = 0
    while True:
        got = os.read(fd, min(1 << 16, cap + 1 - total))
        if not got:
            return b"".join(chunks) if len(chunks) != 1 else chunks[0]
        chunks.append(got)
        total += len(got)
        if total > cap:
            raise InputError(
                f"input is larger than the {_size_label(cap)} limit for a deck", where=where
            )


def read_stream_bytes(fp: BinaryIO, where: str, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """Read a stream, refusing it once it exceeds the byte limit (never slurps a huge file)."""
    try:
        return fsio.read_bounded(fp, limits.max_bytes)
    except fsio.TooLarge:
        raise InputError(
            f"input is larger than the {_size_label(limits.max_bytes)} limit for a deck",
            where=where,
        ) from None


#: Set (by ``deckcheck --encoding ENC`` or by the user) to read every deck file that is not
#: UTF-8 / UTF-16 with a BOM in this encoding instead of detecting it. An environment
#: variable, so ``--jobs`` worker processes see it too.
ENV_ENCODING = "DECKCHECK_ENCODING"

#: The legacy encodings decklists really come in (Japanese, Chinese, Korean sites and
#: clients); single-byte code pages are left out because any bytes decode in them.
LEGACY_ENCODINGS = ("cp932", "gb18030", "big5", "euc_jp", "cp949")


def decode(data: bytes, where: str, limits: Limits = DEFAULT_LIMITS) -> str:
    """Deck bytes as text (see ``decode_with``)."""
    return decode_with(data, where, limits)[0]


def decode_with(data: bytes, where: str, limits: Limits = DEFAULT_LIMITS) -> tuple[str, str]:
    """Deck bytes as text, and the encoding they were read in (what an edit writes back).

    Accepted: UTF-8 (a BOM is dropped), UTF-16 with a BOM (what Windows Notepad writes as
    "Unicode"), the encoding named by ``$DECKCHECK_ENCODING`` (``deckcheck --encoding``),
    and else a legacy CJK encoding (Shift-JIS/cp932, GBK/GB18030, Big5, EUC-JP, EUC-KR)
    detected with charset-normalizer when the text holds CJK characters; a detection is
    said in a note, since a wrong guess turns names into unknown ones (DC102).
    Refused as binary: a NUL byte, or bytes none of these reads.
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
        return text.lstrip("\ufeff"), "utf-16"
    nul = data.find(b"\x00")
    if nul >= 0:
        raise InputError(f"binary file: NUL byte at offset {nul}", where=where)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        asked = os.environ.get(ENV_ENCODING)
        if asked:
            return _decode_asked(data, asked, where), asked
        got = _detect(data)
        if got is None:
            raise InputError(
                f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}), nor "
                "Shift-JIS, GBK, Big5, EUC-JP or EUC-KR; save the deck as UTF-8 or name its "
                "encoding with 'deckcheck --encoding ENC'",
                where=where,
            ) from None
        from deckcheck import notes

        text, enc = got
        cands = legacy_candidates(data) if _SCORER is not None else []
        if len(cands) > 1 and _SCORER is not None:
            # several encodings decode it (short lists often do: GBK "灰流丽" is valid Big5
            # too): the one whose names resolve best, the detector's pick on a tie
            scored = [(_SCORER(t), i, t, e) for i, (t, e) in enumerate(cands)]
            best = min(scored, key=lambda x: (x[0], x[1]))
            text, enc = best[2], best[3]
            tried = ", ".join(e for _t, e in cands)
            notes.note(
                f"deckcheck: note: {where}: not UTF-8; read as {enc} (detected: of "
                f"{tried}, which all decode it, the one whose names resolve best, "
                f"{best[0][0]} unknown; 'deckcheck --encoding ENC' names another)"
            )
            return text, enc
        notes.note(
            f"deckcheck: note: {where}: not UTF-8; read as {enc} (detected; "
            "'deckcheck --encoding ENC' names another)"
        )
        return text, enc
    return (text.removeprefix("\ufeff")), "utf-8"


def _decode_asked(data: bytes, encoding: str, where: str) -> str:
    import codecs

    try:
        codecs.lookup(encoding)
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r} ({ENV_ENCODING} / --encoding)") from None
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise InputError(
            f"not {encoding} text (byte 0x{data[exc.start]:02x} at offset {exc.start})", where=where
        ) from None


# Compiled on first use (only a legacy-encoded file needs it): start-up is a feature.
_LATIN_NEXT_TO_CJK = (
    r"[A-Za-z][\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]|"
    r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af][A-Za-z]"
)


def _is_cjk(ch: str) -> bool:
    o = ord(ch)
    return (
        0x3040 <= o <= 0x30FF
        or 0x3400 <= o <= 0x9FFF
        or 0xAC00 <= o <= 0xD7AF
        or 0xFF00 <= o <= 0xFFEF
    )


def _detect(data: bytes) -> tuple[str, str] | None:
    """(text, encoding) of bytes in one of LEGACY_ENCODINGS, or None."""
    try:
        import charset_normalizer
    except ImportError:  # pragma: no cover - a declared dependency
        return None
    best = charset_normalizer.from_bytes(data, cp_isolation=list(LEGACY_ENCODINGS)).best()
    if best is None:
        return None
    text = str(best)
    if not any(_is_cjk(ch) for ch in text):
        return None  # not what a legacy CJK file is for: refuse rather than guess
    if re.search(_LATIN_NEXT_TO_CJK, text):
        # "Über" in cp1252 reads as Big5 "鈁er": an ideograph glued to a Latin letter is
        # the mark of a single-byte file misread; ask for --encoding instead of guessing.
        return None
    return text, best.encoding


#: How badly the names of a text resolve (unknown copies, unreadable lines; fewer is better),
#: installed by the service layer that has a card database (``inputs``); without it the
#: detector's pick stands.
_SCORER: Callable[[str], tuple[int, int]] | None = None


def set_scorer(scorer: Callable[[str], tuple[int, int]] | None) -> None:
    """Install how ``decode_with`` ranks the legacy encodings that all decode a file."""
    global _SCORER
    _SCORER = scorer


def legacy_candidates(data: bytes) -> list[tuple[str, str]]:
    """Every reading of bytes that are not UTF-8 (no BOM, no NUL, no ``--encoding``) in one of
    LEGACY_ENCODINGS that decodes them strictly and looks like CJK text (charset-normalizer's
    pick first): what ``decode_with`` picks from by how well the names resolve.
    Empty when the bytes need no detection."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in data or os.environ.get(ENV_ENCODING):
        return []
    try:
        data.decode("utf-8")
        return []
    except UnicodeDecodeError:
        pass
    out: list[tuple[str, str]] = []
    first = _detect(data)
    if first is not None:
        out.append(first)
    for enc in LEGACY_ENCODINGS:
        if first is not None and codecs_name(enc) == codecs_name(first[1]):
            continue
        try:
            text = data.decode(enc)
        except UnicodeDecodeError:
            continue
        if any(_is_cjk(ch) for ch in text) and not re.search(_LATIN_NEXT_TO_CJK, text):
            out.append((text, enc))
    return out


def codecs_name(enc: str) -> str:
    import codecs

    return codecs.lookup(enc).name


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
