"""``ydke://`` URLs: base64 of little-endian uint32 passcodes for main, extra and side.

Layout as in ProjectIgnis/ydke.js and EDOPro's ExportDeckBase64. A malformed link is one
``InputError`` naming the problem: a URL has no lines to attach findings to.
"""

from __future__ import annotations

import os

from deckcheck.errors import InputError
from deckcheck.model import SECTIONS, Deck, DeckEntry

PREFIX = "ydke://"


def is_ydke(text: str) -> bool:
    """True when ``text`` (surrounding whitespace aside) looks like a ydke:// URL."""
    return text.lstrip()[: len(PREFIX)].lower() == PREFIX


def is_argument(arg: str) -> bool:
    """True when a command-line argument is a ydke:// URL rather than a path: it looks like one
    and no file of that name exists (every command that takes DECK decides it this way)."""
    return is_ydke(arg) and not os.path.exists(arg)


# base64/binascii/struct are imported where a link is decoded or encoded: every command
# asks ``is_argument`` of its inputs, and a .ydk file needs none of them (~1 ms at start).


def _decode_part(part: str, name: str, where: str) -> list[int]:
    import base64
    import binascii
    import struct

    part = part.strip()
    if not part:
        return []
    # Links pasted through chat or URLs sometimes lose their "=" padding; restore it.
    if len(part) % 4:
        part += "=" * (-len(part) % 4)
    try:
        raw = base64.b64decode(part, validate=True)
    except (binascii.Error, ValueError):
        raise InputError(
            f"ydke:// link: the {name} section is not valid base64", where=where
        ) from None
    if len(raw) % 4:
        raise InputError(
            f"ydke:// link: the {name} section decodes to {len(raw)} bytes, "
            "not a whole number of 4-byte passcodes",
            where=where,
        )
    return list(struct.unpack(f"<{len(raw) // 4}I", raw))


def parse(url: str, source: str | None = None) -> Deck:
    """A Deck from a ``ydke://main!extra!side!`` URL (entries have no line numbers)."""
    text = url.strip()
    # The error names the link, shortened and on one line (stderr messages are one line).
    shown = " ".join(text.split())
    where = source or (shown[:40] + ("…" if len(shown) > 40 else ""))
    if not is_ydke(text):
        raise InputError("not a ydke:// link (it must start with ydke://)", where=where)
    parts = text[len(PREFIX) :].split("!")
    if len(parts) < 3:
        raise InputError(
            f"ydke:// link has {len(parts)} section(s); it needs main!extra!side!", where=where
        )
    if any(p.strip() for p in parts[3:]):
        # ydke.js ignores anything after the third section; refusing it drops nothing silently.
        raise InputError("ydke:// link has data after the side section", where=where)
    deck = Deck(source=source or "ydke://", kind="ydke")
    for name, part in zip(SECTIONS, parts[:3], strict=True):
        target = deck.section(name)
        for n in _decode_part(part, name, where):
            target.append(DeckEntry(name, n, None, 1, None, str(n)))
    return deck


def encode(deck: Deck) -> str:
    """The ydke:// URL of a deck (text entries must be resolved: ``card_id`` set)."""
    import base64
    import struct

    parts = []
    for name in SECTIONS:
        ids: list[int] = []
        for e in deck.section(name):
            if e.card_id is None:
                raise InputError(
                    f'cannot write ydke://: "{e.query}" is not resolved to a card',
                    where=f"{deck.source}:{e.line}" if e.line else deck.source,
                )
            ids.extend([e.card_id] * e.count)
        parts.append(base64.b64encode(struct.pack(f"<{len(ids)}I", *ids)).decode("ascii"))
    return PREFIX + "!".join(parts) + "!"
