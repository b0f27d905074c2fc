"""What a deck says about itself before its first card: its "#format ID", "#player NAME" and
"#created by NAME" comment lines, and who the deck is from."""

from __future__ import annotations

import os
import re

from deckcheck.model import Deck

_HEADER = re.compile(r"#\s*(format|player)\s*[:=]?\s*(.+?)\s*$", re.IGNORECASE)
#: "#created by" names clients write when nobody set one
_PLACEHOLDER_PLAYERS = {"", "player", "...", "…", "unknown"}


def deck_header(deck: Deck) -> tuple[str | None, str | None]:
    """The deck's own "#format ID" and "#player NAME" comment lines (before its first card)."""
    fmt = player = None
    for line in deck.comments:
        m = _HEADER.match(line.strip())
        if m is None:
            continue
        key, value = m.group(1).lower(), m.group(2)
        if key == "format" and fmt is None and " " not in value:
            fmt = value.lower()
        elif key == "player" and player is None:
            player = value
    return fmt, player


def created_by(deck: Deck) -> str | None:
    """The name of a ``#created by NAME`` header (YGOPro/EDOPro write it), unless a placeholder."""
    for line in deck.comments:
        if line[:12].lower() == "#created by ":
            name = line[12:].strip()
            return None if name.lower() in _PLACEHOLDER_PLAYERS else name
    return None


def player_of(deck: Deck) -> str | None:
    """Who the deck is from: its "#player NAME" line, else its file name without suffix; a
    deck without a file (ydke://, stdin, a service's upload) falls back to its "#created by
    NAME" line."""
    got = deck_header(deck)[1]
    if got:
        return got
    src = deck.source
    if src.startswith(("ydke://", "<")):
        return created_by(deck)
    return os.path.splitext(os.path.basename(src))[0] or None
