"""Checking a table of ydke decks on a dask.distributed cluster: the card data shipped to
every worker once, one verdict row per deck written back as a table (JSONL parts).

    python -m deckcheck.commands.scale decks.jsonl verdicts/ --format tcg --date 2026-06-01 \\
        [--scheduler tcp://host:8786 | --workers 2] [--column ydke] [--id-column id]

The input is JSON Lines, one object per deck with a ``ydke`` column (a ``ydke://`` link) and
an optional ``id`` column; the output folder gets ``part-*.jsonl`` files with one verdict row
per deck: ``{"id", "legal", "errors", "warnings", "codes"}`` (codes sorted, one per finding
kind). Needs the optional extra ``deckcheck[dask]``; the library functions work without it.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deckcheck.model import Banlist, Format


@dataclass(frozen=True)
class CheckData:
    """Everything a worker needs, shipped once: the format, the list and the card table."""

    fmt: Format
    banlist: Banlist | None
    date: dt.date
    cards: Any  # carddb.snapshot.CardSnapshot
    points_cap: int | None = None
    upcoming: Banlist | None = None  # the next announced list (DC601), as validate checks it


def prepare(
    format_id: str = "tcg",
    date: dt.date | None = None,
    banlist_ref: str | None = None,
    db_path: str | None = None,
) -> CheckData:
    """Format, list in force and the whole card table, read here once (the client side)."""
    from deckcheck.carddb import open_db
    from deckcheck.carddb.snapshot import CardSnapshot
    from deckcheck.formats import get_format, list_for

    day = date or dt.date.today()
    fmt = get_format(format_id)
    banlist = list_for(fmt.at(day), day, banlist_ref)
    upcoming = None
    if banlist_ref is None and banlist is not None and fmt.at(day).list_family:
        from deckcheck.formats.catalog import ListStore
        from deckcheck.rules.upcoming import next_list

        upcoming = next_list(ListStore.default(), banlist.family, day)
    db = open_db(db_path) if db_path else open_db()
    return CheckData(fmt, banlist, day, CardSnapshot.of(db), upcoming=upcoming)


def verdict(ydke: str, data: CheckData, deck_id: Any = None) -> dict[str, Any]:
    """The verdict row of one ydke link (an unreadable link is an illegal deck, DC101)."""
    from deckcheck.decks import ydke as ydke_reader
    from deckcheck.errors import InputError
    from deckcheck.validate import unreadable, validate_deck

    try:
        deck = ydke_reader.parse(ydke)
        report = validate_deck(
            deck, data.fmt, data.banlist, data.cards, date=data.date, points_cap=data.points_cap
        )
        if data.upcoming is not None and report.legal:  # as deckcheck validate does (DC601)
            from deckcheck.rules.upcoming import compare

            later = validate_deck(
                deck,
                data.fmt,
                data.upcoming,
                data.cards,
                date=data.upcoming.effective,
                points_cap=data.points_cap,
            )
            report = compare(report, later, data.upcoming)
    except InputError as exc:
        report = unreadable(ydke, f"cannot read the deck: {exc}", data.fmt, data.banlist)
    return {
        "id": deck_id,
        "legal": report.legal,
        "errors": report.errors,
        "warnings": report.warnings,
        "codes": sorted({f.code for f in report.findings}),
    }


def check_rows(
    rows: Iterable[dict[str, Any]], data: CheckData, column: str = "ydke", id_column: str = "id"
) -> Iterator[dict[str, Any]]:
    """Verdict rows for table rows (dicts), in order; a row without the column is DC101."""
    for row in rows:
        yield verdict(str(row.get(column, "")), data, row.get(id_column))


def _partition(lines: Iterable[str], data: CheckData, column: str, id_column: str) -> list[str]:
    rows = (json.loads(line) for line in lines if line.strip())
    return [json.dumps(v, ensure_ascii=False) for v in check_rows(rows, data, column, id_column)]


def run(
    input_path: str | Path,
    output_dir: str | Path,
    data: CheckData,
    client: Any,
    *,
    column: str = "ydke",
    id_column: str = "id",
    blocksize: int | None = None,
) -> int:
    """Check every row of a JSONL table on ``client``'s cluster; the verdicts go to
    ``output_dir/part-*.jsonl`` in input order. Returns the number of decks checked."""
    import dask.bag as db

    # broadcast: every worker holds the card table before the first partition runs, and
    # no partition ships it again (dask passes the future's value to each task).
    shipped = client.scatter(data, broadcast=True)
    if blocksize is None:  # four partitions a worker: balanced, yet few tasks
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        blocksize = max(1 << 16, Path(input_path).stat().st_size // (4 * workers) + 1)
    lines = db.read_text(str(input_path), blocksize=blocksize)
    verdicts = lines.map_partitions(_partition, shipped, column, id_column)
    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    verdicts.to_textfiles(str(out / "part-*.jsonl"), compute=True)
    return sum(_count_lines(p) for p in out.glob("part-*.jsonl"))


def _count_lines(path: Path) -> int:
    with path.open(encoding="utf-8") as f:
        return sum(1 for line in f if line.strip())


def read_verdicts(output_dir: str | Path) -> list[dict[str, Any]]:
    """The verdict rows of a ``run`` (parts in order)."""
    parts = sorted(Path(output_dir).glob("part-*.jsonl"), key=lambda p: int(p.stem.split("-")[1]))
    out: list[dict[str, Any]] = []
    for p in parts:
        with p.open(encoding="utf-8") as f:
            out.extend(json.loads(line) for line in f if line.strip())
    return out
