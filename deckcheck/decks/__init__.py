"""Deck input: read ``.ydk`` files, ``ydke://`` URLs and text decklists into ``model.Deck``.

``read_path`` / ``read_string`` / ``read_bytes`` pick the reader by content; whole-input
problems raise ``InputError``, line problems become findings in ``Deck.findings``.
"""

from __future__ import annotations

import os
import re
import sys

from deckcheck.decks import ydk as _ydk
from deckcheck.decks import ydke
from deckcheck.decks.source import DEFAULT_LIMITS, Limits, decode, read_path_bytes, split_lines
from deckcheck.errors import InputError
from deckcheck.model import Deck

__all__ = ["Limits", "read_bytes", "read_path", "read_stdin", "read_string", "sniff", "ydke"]

# A passcode line for sniffing: digits alone, or a 5+ digit passcode and a comment after it.
# "3 Pot of Greed" is a decklist line, not a passcode line.
_YDK_LINE = r"\s*(?:[0-9]+|[0-9]{5,}\s*(?:#|--|//|-\s).*|[#!].*)?\s*"
_MARKER = r"\s*(?:#\s*(?:main|extra)|!\s*side)\s*$"


def sniff(lines: list[str], source: str = "") -> str:
    """ "ydk" or "text" for the lines of a deck file.

    A ``.txt`` name means text; a ``#main``/``#extra``/``!side`` marker means ydk; a ``.ydk``
    name means ydk unless no line is a passcode; otherwise ydk when most content lines are
    passcode lines.
    """
    # splitext only when the name may end in .txt (it costs per deck)
    suffix = os.path.splitext(source)[1].lower() if source[-4:].lower() == ".txt" else ""
    if suffix == ".txt":
        return "text"
    # pays 3.2% of a batch's per-deck cost (docs/ARCHITECTURE.md, performance paths)
    if "#main" in lines or "#extra" in lines or "!side" in lines:
        return "ydk"  # a marker as clients write it (the loop below finds any spelling)
    suffix = os.path.splitext(source)[1].lower()
    # compiled here (re's own cache keeps them): a file with a marker as clients write it
    # needs neither
    is_marker, ydk_line = re.compile(_MARKER, re.IGNORECASE), re.compile(_YDK_LINE)
    ydk_like = other = 0
    for line in lines:
        if not line.strip():
            continue
        if is_marker.match(line):
            return "ydk"
        if ydk_line.fullmatch(line):
            if line.strip()[0] not in "#!":
                ydk_like += 1
        else:
            other += 1
    if suffix == ".ydk":
        # A decklist saved as .ydk (no passcode at all) is still read as names.
        return "text" if ydk_like == 0 and other > 0 else "ydk"
    return "ydk" if ydk_like > other else "text"


def _parse(
    text: str, source: str, limits: Limits, kind: str | None, ints: dict[str, int] | None = None
) -> Deck:
    if kind in (None, "ydke") and ydke.is_ydke(text):
        return ydke.parse(text, source)
    if kind == "ydke":
        raise InputError("not a ydke:// link (it must start with ydke://)", where=source)
    lines = split_lines(text, source, limits)
    chosen = kind or sniff(lines, source)
    if chosen == "ydk":
        return _ydk.parse_lines(lines, source, ints)
    if chosen == "text":
        from deckcheck.decks import text as _text  # only text lists pay for its grammar

        return _text.parse_lines(lines, source)
    raise ValueError(f"unknown deck kind {kind!r}")


def read_string(
    text: str,
    source: str = "<string>",
    limits: Limits = DEFAULT_LIMITS,
    kind: str | None = None,
    ints: dict[str, int] | None = None,
) -> Deck:
    """A Deck from text already in memory: a ydke:// URL, ``.ydk`` content or a decklist.

    ``kind`` ("ydk", "ydke", "text") skips sniffing; ``ints``: the run's passcode table
    (``ydk.parse_lines``), for every reader here.
    """
    from deckcheck.decks.source import check_text_size

    check_text_size(text, source, limits)
    if "\x00" in text:
        raise InputError("binary input: contains NUL characters", where=source)
    text = text.removeprefix("\ufeff")
    return _parse(text, source, limits, kind, ints)


def read_bytes(
    data: bytes,
    source: str,
    limits: Limits = DEFAULT_LIMITS,
    kind: str | None = None,
    ints: dict[str, int] | None = None,
) -> Deck:
    """A Deck from raw bytes (file content or stdin), with the binary and size checks."""
    return _parse(decode(data, source, limits), source, limits, kind, ints)


def read_path(
    path: str | os.PathLike[str],
    limits: Limits = DEFAULT_LIMITS,
    kind: str | None = None,
    ints: dict[str, int] | None = None,
) -> Deck:
    """A Deck from a file (ydk, text or a file holding a ydke:// URL, picked by content)."""
    source = str(path)
    return read_bytes(read_path_bytes(path, limits), source, limits, kind, ints)


def read_stdin(
    limits: Limits = DEFAULT_LIMITS, kind: str | None = None, ints: dict[str, int] | None = None
) -> Deck:
    """A Deck from standard input (``-`` on the command line)."""
    from deckcheck.decks.source import read_stream_bytes

    data = read_stream_bytes(sys.stdin.buffer, "<stdin>", limits)
    return read_bytes(data, "<stdin>", limits, kind, ints)
