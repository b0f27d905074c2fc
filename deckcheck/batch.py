"""The batch engine: check many deck inputs against one format and list, in input order,
in this process or over ``--jobs`` worker processes, one ``DeckReport`` per deck."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from deckcheck.errors import InputError
from deckcheck.inputs import DeckLoader, Item, deck_header, item_source, player_of, read_item
from deckcheck.model import Banlist, Deck, Format
from deckcheck.report import DeckReport


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to check decks (picklable, for ``--jobs``)."""

    fmt: Format
    banlist: Banlist | None
    date: dt.date
    points_cap: int | None
    lang: str | None
    db_path: str | None
    #: check a deck with a "#format ID" line against that format (no --format given)
    deck_formats: bool = False
    banlist_ref: str | None = None
    format_files: tuple[str, ...] = ()
    upcoming: Banlist | None = None  # the next announced list (DC601), see rules.upcoming


class Checker:
    """Reads, resolves and validates one input at a time; the card database opened once."""

    def __init__(self, job: Job):
        from deckcheck.carddb import open_db

        self.job = job
        self.db = open_db(job.db_path) if job.db_path else open_db()
        self.loader = DeckLoader(self.db)
        self._formats: dict[str, tuple[Format, Banlist | None] | None] = {}

    def format_for(self, deck: Any) -> tuple[Format, Banlist | None]:
        """The run's format and list, or those of the deck's own "#format" line."""
        job = self.job
        hint = deck_header(deck)[0] if job.deck_formats else None
        if hint is None or hint == job.fmt.id:
            return job.fmt, job.banlist
        if hint not in self._formats:
            from deckcheck import notes
            from deckcheck.errors import DeckcheckError
            from deckcheck.formats import get_format, list_for

            try:
                fmt = get_format(hint, extra_files=job.format_files)
                self._formats[hint] = (fmt, list_for(fmt.at(job.date), job.date, job.banlist_ref))
                notes.note(f"{deck.source}: checked as {fmt.name} (its '#format {hint}' line; "
                           "--format overrides it)")  # fmt: skip
            except DeckcheckError as exc:
                self._formats[hint] = None
                notes.note(f"{deck.source}: '#format {hint}' line not used ({exc}); "
                           f"checked as {job.fmt.name}")  # fmt: skip
        got = self._formats[hint]
        return got if got is not None else (job.fmt, job.banlist)

    def read(self, item: Item) -> Any:
        return read_item(item)

    def resolve(self, deck: Any) -> Any:
        return self.loader.resolve(deck)

    def __call__(self, item: Item) -> DeckReport:
        from deckcheck.validate import unreadable, validate_deck

        job = self.job
        try:
            deck = self.resolve(self.read(item))
        except InputError as exc:
            src = item_source(item)
            report = unreadable(src, f"cannot read the deck: {exc}", job.fmt, job.banlist)
            return replace(report, player=player_of(Deck(source=src)))
        names = None
        if job.lang and job.lang != "en":
            lang = job.lang
            names = lambda cid: self.db.name(cid, lang)  # noqa: E731
        fmt, banlist = self.format_for(deck)
        report = validate_deck(
            deck,
            fmt,
            banlist,
            self.db,
            date=job.date,
            points_cap=job.points_cap,
            names=names,
        )
        if job.upcoming is not None:
            from deckcheck.rules.upcoming import compare

            if report.legal and fmt is job.fmt:
                later = validate_deck(
                    deck, fmt, job.upcoming, self.db, date=job.upcoming.effective,
                    points_cap=job.points_cap, names=names,
                )
                report = compare(report, later, job.upcoming)
        return replace(report, player=player_of(deck))


_WORKER: Checker | None = None


def _init_worker(job: Job) -> None:
    global _WORKER
    import deckcheck.carddb

    # The parent has already said once that the built-in sample is in use.
    deckcheck.carddb.mark_sample_noted()
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


@dataclass(frozen=True)
class Request:
    """What ``deckcheck validate`` was asked: the inputs, the format, list and date."""

    inputs: tuple[str, ...]
    format_id: str = "tcg"
    banlist_ref: str | None = None
    date: dt.date | None = None
    format_files: tuple[str, ...] = ()
    points_cap: int | None = None
    lang: str | None = None
    jobs: int = 1


class Run:
    """A request made ready: format and list chosen, paths checked, the database open, so a
    data error stops it before any output starts; ``reports()`` then checks the decks."""

    def __init__(self, req: Request):
        from deckcheck.formats import get_format, list_for
        from deckcheck.inputs import check_paths

        self.request = req
        date = req.date or dt.date.today()
        fmt = get_format(req.format_id, extra_files=req.format_files)
        banlist = list_for(fmt.at(date), date, req.banlist_ref)
        check_paths(req.inputs)
        upcoming = None
        if req.banlist_ref is None and banlist is not None and fmt.at(date).list_family:
            from deckcheck.formats.catalog import ListStore
            from deckcheck.rules.upcoming import next_list

            upcoming = next_list(ListStore.default(), banlist.family, date)
        self.job = Job(
            fmt, banlist, date, req.points_cap, req.lang, db_path=None, upcoming=upcoming
        )
        self.checker = Checker(self.job)

    def meta(self, strict: bool) -> Any:
        """What the run checks against, as every renderer prints it."""
        from deckcheck.render.base import Meta

        fmt, banlist = self.job.fmt, self.job.banlist
        return Meta(
            format_id=fmt.id,
            format_name=fmt.name,
            list_name=banlist.name if banlist else None,
            list_effective=banlist.effective.isoformat() if banlist else None,
            date=self.job.date.isoformat(),
            strict=strict,
            list_source=(banlist.source or None) if banlist else None,
            list_date_exact=banlist.date_exact if banlist else None,
        )

    def reports(self) -> Iterator[DeckReport]:
        from deckcheck.inputs import expand_inputs

        items = expand_inputs(self.request.inputs)
        return run_batch(items, self.job, self.request.jobs, checker=self.checker)
