"""Aligned text tables with a header row, measured in terminal cells (CJK names are two
cells a character), for the card and deck commands."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence


def cells(text: str) -> int:
    """Terminal cells ``text`` takes: wide and full-width characters count two."""
    return sum(
        2 if unicodedata.east_asian_width(ch) in "WF" else 0 if unicodedata.combining(ch) else 1
        for ch in text
    )


def pad(text: str, width: int, right: bool = False) -> str:
    fill = " " * max(0, width - cells(text))
    return fill + text if right else text + fill


def table(
    headers: Sequence[str], rows: Sequence[Sequence[object]], right: Sequence[int] = ()
) -> list[str]:
    """Header, then one line per row; columns ``right`` (indexes) are right-aligned; the
    last column is not padded. A cell never breaks its line (``one_line``)."""
    from deckcheck.render.common import one_line

    text = [[one_line(str(c)) for c in r] for r in rows]
    widths = [max([cells(h)] + [cells(r[i]) for r in text]) for i, h in enumerate(headers)]
    out = []
    for r in [list(headers), *text]:
        parts = [
            pad(c, widths[i], i in right) if i < len(r) - 1 or i in right else c
            for i, c in enumerate(r)
        ]
        out.append("  ".join(parts).rstrip())
    return out
