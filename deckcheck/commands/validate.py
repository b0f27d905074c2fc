"""``deckcheck validate``: check decks against a format and the list in force, stream reports."""

from __future__ import annotations

import datetime as dt
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from deckcheck.errors import DataError, InputError
from deckcheck.model import Banlist, Format
from deckcheck.report import DeckReport, Summary, exit_code

DECK_SUFFIXES = (".ydk", ".txt", ".ydke")
#: what a worker checks: a path, "-", a ydke:// URL, or ("-", stdin bytes) read by the parent
Item = str | tuple[str, bytes]
OUTPUT_KINDS = ("text", "json", "github", "junit", "csv", "html")  # html: issue 17


# --------------------------------------------------------------------------- inputs


def expand_inputs(inputs: Iterable[str]) -> Iterator[str]:
    """Each INPUT as an item to read: "-", a ydke:// URL, or a deck file (folders recursed).

    Folders are walked in sorted order so every run lists decks the same way. Paths are
    checked by the caller first, so a missing path stops the run before any output.
    """
    for item in inputs:
        if item == "-" or item.startswith("ydke://"):
            yield item
            continue
        p = Path(item)
        if p.is_dir():
            for root, dirs, files in os.walk(p):
                dirs.sort()
                for name in sorted(files):
                    if name.lower().endswith(DECK_SUFFIXES):
                        yield os.path.join(root, name)
        else:
            yield item


def check_paths(inputs: Iterable[str]) -> None:
    for item in inputs:
        if item == "-" or item.startswith("ydke://"):
            continue
        if not os.path.exists(item):
            raise InputError("no such file or directory", where=item)


# --------------------------------------------------------------------------- one deck


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to check decks (picklable, for ``--jobs``)."""

    fmt: Format
    banlist: Banlist | None
    date: dt.date
    points_cap: int | None
    lang: str | None
    db_path: str | None


class Checker:
    """Reads, resolves and validates one input at a time; the card database opened once."""

    def __init__(self, job: Job):
        from deckcheck.carddb import open_db

        self.job = job
        self.db = open_db(job.db_path) if job.db_path else open_db()
        self._index: Any = None

    def read(self, item: Item) -> Any:
        from deckcheck import decks

        if isinstance(item, tuple):  # stdin read by the parent process (--jobs)
            if item[0] == "!":
                raise InputError(item[1].decode())
            return decks.read_bytes(item[1], "<stdin>")
        if item == "-":
            return decks.read_stdin()
        if item.startswith("ydke://"):
            return decks.read_string(item, source=item)
        return decks.read_path(item)

    def resolve(self, deck: Any) -> Any:
        if not any(e.card_id is None and e.query for e in deck.entries()):
            return deck
        # Name lookup (rapidfuzz, the index) is paid only by text decklists.
        from deckcheck.decks.resolve import resolve_deck
        from deckcheck.lookup import Index

        if self._index is None:
            self._index = Index.for_db(self.db)
        return resolve_deck(deck, self.db, self._index)

    def __call__(self, item: Item) -> DeckReport:
        from deckcheck.validate import unreadable, validate_deck

        job = self.job
        try:
            deck = self.resolve(self.read(item))
        except InputError as exc:
            where = item if isinstance(item, str) and item != "-" else "<stdin>"
            return unreadable(where, f"cannot read the deck: {exc}", job.fmt, job.banlist)
        names = None
        if job.lang and job.lang != "en":
            lang = job.lang
            names = lambda cid: self.db.name(cid, lang)  # noqa: E731
        return validate_deck(
            deck,
            job.fmt,
            job.banlist,
            self.db,
            date=job.date,
            points_cap=job.points_cap,
            names=names,
        )


_WORKER: Checker | None = None


def _init_worker(job: Job) -> None:
    global _WORKER
    import deckcheck.carddb

    # The parent has already said once that the built-in sample is in use.
    deckcheck.carddb._sample_noted = True
    _WORKER = Checker(job)


def _work(item: Item) -> DeckReport:
    assert _WORKER is not None
    return _WORKER(item)


def run_batch(
    items: Iterable[str], job: Job, jobs: int = 1, checker: Checker | None = None
) -> Iterator[DeckReport]:
    """Reports for ``items`` in input order; ``jobs`` > 1 maps them over worker processes."""
    if jobs <= 1:
        checker = checker or Checker(job)
        for item in items:
            yield checker(item)
        return
    import multiprocessing

    # spawn: no inherited locks or open SQLite handles from this process.
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(jobs, initializer=_init_worker, initargs=(job,)) as pool:
        # Chunks of 64: fewer pipe messages (measured 16 -> 128: a quarter less CPU on 10k
        # decks), still small enough to keep both workers busy on a few hundred decks.
        yield from pool.imap(_work, (_stdin_read(i) for i in items), chunksize=64)


def _stdin_read(item: str) -> Item:
    """Workers have no stdin: the parent reads ``-`` and hands the bytes over."""
    if item != "-":
        return item
    from deckcheck.decks.source import read_stream_bytes

    try:
        return ("-", read_stream_bytes(sys.stdin.buffer, "<stdin>"))
    except InputError as exc:
        return ("!", str(exc).encode())  # reported by the worker as an unreadable deck


# --------------------------------------------------------------------------- format and list


def parse_date(value: str | None) -> dt.date:
    if value is None:
        return dt.date.today()
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(
            f"{value!r} is not a date (YYYY-MM-DD)", param_hint="--date"
        ) from None


def pick_list(fmt: Format, ref: str | None, date: dt.date) -> Banlist | None:
    """The list to check against: ``--banlist`` when given, else the format's list in force."""
    if ref is None and fmt.list_family is None:
        return None
    from deckcheck.formats.store import ListStore

    store = ListStore.default()
    if ref is not None or fmt.list_family is None:
        return store.resolve(ref or "", date)
    got = store.in_force(fmt.list_family, date)
    if got is None:
        raise DataError(
            f"no {fmt.list_family!r} list is in force on {date.isoformat()} for format "
            f"{fmt.id!r}; install lists with `deckcheck update` or "
            "`deckcheck banlist import FILE`, or name one with --banlist"
        )
    return got


def default_output() -> str:
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"


# --------------------------------------------------------------------------- command


def _escaping(stream: Any) -> Any:
    """``stream`` set to escape what it cannot encode (click's get_text_stream is deprecated)."""
    try:
        stream.reconfigure(errors="backslashreplace")
    except (AttributeError, ValueError, OSError):
        pass  # not a TextIOWrapper (or already in use): write to it as it is
    return stream


@click.command(
    "validate",
    epilog="""\b
Examples:
  deckcheck validate deck.ydk
  deckcheck validate --format ocg --date 2026-07-01 decks/
  deckcheck validate -b "2026.05 TCG" -o json decks/ > report.json
  deckcheck validate --format genesys --points-cap 120 deck.ydk
  deckcheck validate "ydke://…"
  cat deck.ydk | deckcheck validate -

\b
Exit codes: 0 every deck legal, 1 a deck is illegal (or warns under --strict),
2 usage or data error (missing path, unknown format or list, no list in force).""",
)
@click.argument("inputs", nargs=-1, required=True, metavar="INPUT...")
@click.option(
    "-f",
    "--format",
    "format_id",
    default="tcg",
    show_default=True,
    help="Format id; `deckcheck formats` lists them.",
)
@click.option(
    "-b",
    "--banlist",
    "banlist_ref",
    metavar="REF",
    help='A list: "<family>@<YYYY-MM-DD>", its name ("2025.04 TCG"), or a .yaml/.lflist.conf path. '
    "Default: the format's list in force on --date.",
)
@click.option(
    "-d", "--date", "date_text", metavar="YYYY-MM-DD", help="Event date (default: today)."
)
@click.option(
    "-o",
    "--output",
    type=click.Choice(OUTPUT_KINDS),
    default=None,
    help="Output kind (default: text; github when GITHUB_ACTIONS=true).",
)
@click.option("--strict", is_flag=True, help="Warnings fail too.")
@click.option(
    "--format-file",
    "format_files",
    multiple=True,
    type=click.Path(dir_okay=False),
    metavar="PATH",
    help="Extra format definition (YAML); may be repeated.",
)
@click.option(
    "--points-cap",
    type=click.IntRange(min=0),
    metavar="N",
    help="Points cap overriding the format's (Genesys).",
)
@click.option("--lang", metavar="LANG", help="Language of card names in messages (en, ja, de, …).")
@click.option(
    "--sheets",
    "sheets_dir",
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="Also write a decklist sheet (PDF) per legal deck into DIR.",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    metavar="N",
    help="Worker processes; output is identical to --jobs 1.",
)
def validate(
    inputs: tuple[str, ...],
    format_id: str,
    banlist_ref: str | None,
    date_text: str | None,
    output: str | None,
    strict: bool,
    format_files: tuple[str, ...],
    points_cap: int | None,
    lang: str | None,
    jobs: int,
    sheets_dir: str | None = None,
) -> int:
    """Check decks (files, folders, ydke:// URLs, - for stdin) against a format and its list."""
    from deckcheck import render
    from deckcheck.formats import get_format

    date = parse_date(date_text)
    fmt = get_format(format_id, extra_files=format_files)
    banlist = pick_list(fmt.at(date), banlist_ref, date)
    check_paths(inputs)
    if sheets_dir is not None and not os.path.isdir(sheets_dir):  # --sheets (issue 17)
        raise InputError("no such folder for --sheets", where=sheets_dir)
    job = Job(fmt=fmt, banlist=banlist, date=date, points_cap=points_cap, lang=lang, db_path=None)
    # Open the database before any output starts, so a data error never leaves half a report.
    checker = Checker(job)
    kind = output or default_output()
    # A file name that is not UTF-8 reaches Python as lone surrogates: print them escaped
    # (as Python's own stderr does) rather than fail with UnicodeEncodeError mid-report.
    out = _escaping(sys.stdout)
    err = _escaping(sys.stderr)
    color = kind == "text" and out.isatty() and "NO_COLOR" not in os.environ
    renderer = render.make(kind, out, err, color=color)
    renderer.start(
        render.Meta(
            format_id=fmt.id,
            format_name=fmt.name,
            list_name=banlist.name if banlist else None,
            list_effective=banlist.effective.isoformat() if banlist else None,
            date=date.isoformat(),
            strict=strict,
            list_source=banlist.source or None if banlist else None,
            list_date_exact=banlist.date_exact if banlist else None,
        )
    )
    summary = Summary()
    legal: list[str] = []
    for report in run_batch(expand_inputs(inputs), job, jobs, checker=checker):
        summary.add(report, strict)
        renderer.deck(report)
        if sheets_dir is not None and report.legal:
            legal.append(report.input)
    renderer.finish(summary)
    out.flush()
    if sheets_dir is not None:  # --sheets (issue 17): after the report, from the same decks
        from deckcheck.commands.sheet import write_batch_sheets

        n, notes = write_batch_sheets(legal, sheets_dir, checker.db, date, lang)
        for note in notes:
            err.write(note + "\n")
        err.write(f"{n} sheet{'' if n == 1 else 's'} written to {sheets_dir}\n")
    return exit_code(summary, strict)
