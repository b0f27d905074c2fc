"""``deckcheck formats``: the formats deckcheck knows, their sizes and the list in force today."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import click

from deckcheck import dates
from deckcheck.errors import EXIT_OK


def _size(r: Any) -> str:
    if r is None:
        return "-"
    return f"{r.min}-{r.max}" if r.max is not None else f"{r.min}+"


@click.command(
    "formats",
    epilog="""\b
Examples:
  deckcheck formats
  deckcheck formats --date 2010-01-01
  deckcheck formats --output json | jq '.[].id'""",
)
@click.option("--output", "-o", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output kind.")  # fmt: skip
@click.option("--date", "-d", "date_text", default=None,
              help="Date for the list in force (default: today).")  # fmt: skip
@click.option("--format-file", "format_files", multiple=True, type=click.Path(dir_okay=False),
              help="Also read this format file (repeatable).")  # fmt: skip
def formats(output: str, date_text: str | None, format_files: tuple[str, ...]) -> int:
    """List the formats deckcheck knows: sizes, copies, list family and the list in force."""
    from deckcheck.formats.store import ListStore, load_formats

    try:
        date = dates.optional_date(date_text) or dt.date.today()
    except ValueError:
        raise click.BadParameter(
            f"{date_text!r} is not a date (YYYY-MM-DD)", param_hint="--date"
        ) from None
    store = ListStore.default()
    rows: list[dict[str, Any]] = []
    for fid, f in load_formats(format_files).items():
        f = f.at(date)
        b = store.in_force(f.list_family, date) if f.list_family else None
        rows.append({
            "id": fid,
            "name": f.name,
            "main": _size(f.main), "extra": _size(f.extra), "side": _size(f.side),
            "copies": f.copies,
            "list_family": f.list_family,
            "list": ({"name": b.name, "effective": b.effective.isoformat()} if b else None),
        })  # fmt: skip
    if output == "json":
        click.echo(json.dumps(rows, ensure_ascii=False, indent=1))
        return EXIT_OK
    head = ("ID", "NAME", "MAIN", "EXTRA", "SIDE", "COPIES", "FAMILY", f"LIST ON {date}")
    table: list[tuple[str, ...]] = [head]
    for r in rows:
        if r["list_family"] is None:
            lst = "(no list)"
        elif r["list"] is None:
            lst = "none installed"
        else:
            lst = f"{r['list']['name']} ({r['list']['effective']})"
        table.append((r["id"], r["name"], r["main"], r["extra"], r["side"], str(r["copies"]),
                      r["list_family"] or "-", lst))  # fmt: skip
    widths = [max(len(row[i]) for row in table) for i in range(len(head) - 1)]
    for row in table:
        cells = [c.ljust(w) for c, w in zip(row, widths, strict=False)]
        click.echo("  ".join([*cells, row[-1]]))
    return EXIT_OK
