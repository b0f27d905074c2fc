"""Text output of ``deckcheck formats``: one aligned table row per format."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any


def formats_table(rows: Sequence[dict[str, Any]], date: dt.date) -> list[str]:
    head = ("ID", "NAME", "MAIN", "EXTRA", "SIDE", "COPIES", "FAMILY", f"LIST ON {date}")
    table: list[tuple[str, ...]] = [head]
    for r in rows:
        if r["list_family"] is None:
            lst = "(no list)"
        elif r["list"] is None:
            lst = "none installed"
        else:
            lst = f"{r['list']['name']} ({r['list']['effective']})"
        table.append(
            (
                r["id"],
                r["name"],
                r["main"],
                r["extra"],
                r["side"],
                str(r["copies"]),
                r["list_family"] or "-",
                lst,
            )
        )
    widths = [max(len(row[i]) for row in table) for i in range(len(head) - 1)]
    out = []
    for row in table:
        cells = [c.ljust(w) for c, w in zip(row, widths, strict=False)]
        out.append("  ".join([*cells, row[-1]]))
    return out
