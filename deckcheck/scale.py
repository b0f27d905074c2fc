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
from pathlib import Path
from typing import Any

from deckcheck.records import Record, record
from deckcheck.validate import Target


@record
class CheckData(Record):
    """Everything a worker needs, shipped once: what decks are checked against (the format,
    the list in force, the date, the next announced list: DC601, as validate checks it) and
    the card table."""

    target: Target
    cards: Any  # carddb.snapshot.CardSnapshot


def prepare(
    format_id: str = "tcg",
    date: dt.date | None = None,
    banlist_ref: str | None = None,
    db_path: str | None = None,
) -> CheckData:
    """Format, list in force and the whole card table, read here once (the client side)."""
    from deckcheck.carddb.snapshot import CardSnapshot
    from deckcheck.engine import Engine

    engine = Engine.open(db_path)
    target = engine.target(format_id, date, banlist_ref)
    return CheckData(target, CardSnapshot.of(engine.cards))


def verdict(ydke: str, data: CheckData, deck_id: Any = None, engine: Any = None) -> dict[str, Any]:
    """The verdict row of one ydke link (an unreadable link is an illegal deck, DC101);
    ``engine``: the ``Engine`` over ``data.cards`` of the rows checked before (a fresh one
    when None)."""
    from deckcheck.decks import ydke as ydke_reader
    from deckcheck.engine import Engine
    from deckcheck.errors import InputError
    from deckcheck.validate import unreadable, validate_deck

    engine = engine or Engine(data.cards)
    try:
        report = validate_deck(engine, ydke_reader.parse(ydke), data.target)
    except InputError as exc:
        report = unreadable(ydke, f"cannot read the deck: {exc}", data.target)
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
    """Verdict rows for table rows (dicts), in order, with one engine; a row without the
    column is DC101."""
    from deckcheck.engine import Engine

    engine = Engine(data.cards)
    for row in rows:
        yield verdict(str(row.get(column, "")), data, row.get(id_column), engine)


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
