"""The batch engine: check many deck inputs against one format and list, in input order,
in this process or over ``--jobs`` worker processes, one ``DeckReport`` per deck."""

from __future__ import annotations

import datetime as dt
import itertools
import os
import sys
from collections import deque
from collections.abc import Iterable, Iterator, Sized
from typing import Any

from deckcheck.decks.header import deck_header
from deckcheck.engine import Engine
from deckcheck.errors import InputError
from deckcheck.inputs import Item
from deckcheck.model import Record, record
from deckcheck.report import DeckReport
from deckcheck.validate import Target


@record
class Job(Record):
    """Everything a worker needs to check decks (picklable, for ``--jobs``): the run's target
    and, for a deck's own "#format ID" line, what its target is built from."""

    target: Target
    db_path: str | None = None
    #: check a deck with a "#format ID" line against that format (no --format given)
    deck_formats: bool = False
    banlist_ref: str | None = None
    format_files: tuple[str, ...] = ()


class Checker:
    """Reads, resolves and validates one input at a time with one engine (the card database
    opened once)."""

    def __init__(self, job: Job, engine: Engine | None = None):
        self.job = job
        self.engine = engine or Engine.open(job.db_path, job.format_files)
        self._formats: dict[str, Target | None] = {}

    def target_for(self, deck: Any) -> Target:
        """The run's target, or that of the deck's own "#format" line."""
        job = self.job
        run = job.target
        hint = deck_header(deck)[0] if job.deck_formats else None
        if hint is None or hint == run.fmt.id:
            return run
        if hint not in self._formats:
            from deckcheck.errors import DeckcheckError

            try:
                got = self.engine.target(
                    hint,
                    run.date,
                    job.banlist_ref,
                    points_cap=run.points_cap,
                    lang=run.lang,
                    upcoming=False,
                )
                self._formats[hint] = got
                _note(
                    f"{deck.source}: checked as {got.fmt.name} (its '#format {hint}' line; "
                    "--format overrides it)",
                    hint,
                )
            except DeckcheckError as exc:
                self._formats[hint] = None
                _note(
                    f"{deck.source}: '#format {hint}' line not used ({exc}); "
                    f"checked as {run.fmt.name}",
                    hint,
                )
        mine = self._formats[hint]
        return mine if mine is not None else run

    def __call__(self, item: Item) -> DeckReport:
        return self.engine.check_item(item, self.job.target, self.target_for)


_WORKER: Checker | None = None
#: a worker's renderer and tally, for ``run_output``'s chunks (None for ``run_batch``'s)
_RENDER: tuple[Any, Any] | None = None
#: in a worker: the notes of the chunk being checked, (key, text), sent back with its answer
#: (``_pooled`` says them in the parent); None in the process that owns stderr
_KEPT: list[tuple[str | None, str]] | None = None


def _note(text: str, key: str | None = None) -> None:
    """A note, said at once; in a worker, kept for the parent. ``key``: a note said once per
    run for its key (a ``#format`` line's format: each worker says it for the first deck it
    meets, the parent only for the first in input order, as one process would)."""
    if _KEPT is not None:
        _KEPT.append((key, text))
    else:
        from deckcheck import notes

        notes.note(text)


def _keep(text: str) -> None:
    """A worker's notes sink: every note of library code (a legacy encoding detected, …)."""
    if _KEPT is not None:
        _KEPT.append((None, text))


def _kept() -> list[tuple[str | None, str]]:
    """The notes kept for the chunk just checked (a fresh list for the next)."""
    global _KEPT
    if _KEPT is None:  # not a worker: its notes were said at once
        return []
    got, _KEPT = _KEPT, []
    return got


def _say(kept: list[tuple[str | None, str]], keys: set[str]) -> None:
    """Say a worker's notes in the parent, a keyed one only the first time its key comes."""
    from deckcheck import notes

    for key, text in kept:
        if key is not None:
            if key in keys:
                continue
            keys.add(key)
        notes.note(text)


#: below this many decks ``--jobs auto`` stays in this process (a pool costs more to start
#: than it saves on fewer decks)
AUTO_MIN_DECKS = 1000
#: decks per task sent to a worker: fewer pipe messages than one deck a task, small enough
#: to keep every worker busy and the decks in flight few
CHUNK = 64


def _init_worker(job: Job, output: Output | None = None) -> None:
    global _WORKER, _RENDER, _KEPT
    import deckcheck.carddb
    from deckcheck import notes

    # The parent has already said once that the built-in sample is in use; the notes of the
    # decks (a "#format" line, a legacy encoding) go back with each chunk's answer, and the
    # parent says them (it owns stderr).
    deckcheck.carddb.mark_sample_noted()
    _KEPT = []
    notes.set_sink(_keep)
    _WORKER = Checker(job)  # its own database connection (none is carried over a fork)
    if output is not None:
        import io

        renderer = output.renderer(io.StringIO(), io.StringIO())
        renderer.start(output.meta)  # its head goes nowhere: the parent writes its own
        _RENDER = (renderer, output.tally())


def _work(items: list[Item]) -> tuple[list[DeckReport], list[tuple[str | None, str]]]:
    """A chunk's reports, and its notes."""
    assert _WORKER is not None
    return [_WORKER(item) for item in items], _kept()


def _work_rendered(items: list[Item]) -> tuple[tuple[str, Any], list[tuple[str | None, str]]]:
    """A chunk tallied and rendered here: its text and its tally's part, all the parent
    needs (no report crosses the pipe), and its notes."""
    assert _WORKER is not None and _RENDER is not None
    renderer, tally = _RENDER
    shown = [r for r in map(tally.take, map(_WORKER, items)) if r is not None]
    return (renderer.decks_text(shown), tally.part()), _kept()


def cores() -> int:
    """CPUs this process may use: its affinity mask (not the machine's count), and no more
    than a cgroup CPU quota allows (a container limited to one CPU gains nothing from two)."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        n = os.cpu_count() or 1
    try:
        with open("/sys/fs/cgroup/cpu.max") as f:  # cgroup v2; absent elsewhere
            quota, period = f.read().split()[:2]
        if quota != "max" and int(period) > 0:
            n = min(n, max(1, -(-int(quota) // int(period))))
    except (OSError, ValueError):
        pass
    return max(1, n)


def plan_workers(jobs: int | str, decks: int | None) -> int:
    """Worker processes for a run: 1 means in this process, no pool.

    An explicit count is capped at the cores this process may use (more workers than cores
    only add switching and memory). ``"auto"`` stays in process for fewer than
    ``AUTO_MIN_DECKS`` decks (``decks``: None when unknown or more), and otherwise takes every
    usable core. Not fewer when other work is running: the scheduler shares a busy core
    among processes, so workers still get more of the machine than one process does
    (measured in benchmarks/bench_goals.py: ``--jobs 2`` against ``--jobs 1`` with a
    busy-loop process on one core).
    """
    n = cores()
    if jobs == "auto":
        if decks is not None and decks < AUTO_MIN_DECKS:
            return 1
        return n
    return max(1, min(int(jobs), n))


def _plan(items: Iterable[Item], jobs: int | str) -> tuple[Iterator[Item] | list[Item], int, int]:
    """The items (a list stays one; else one iterator), the worker processes to check them
    with (1: in this process) and how many items are known to come (at least)."""
    it = iter(items)
    head: list[Item] = []
    workers = 1
    known = 0
    if jobs == "auto" or (isinstance(jobs, int) and jobs > 1):
        if isinstance(items, Sized):
            known = len(items)
        else:  # look ahead far enough to know whether a pool pays
            head = list(itertools.islice(it, AUTO_MIN_DECKS))
            known = len(head) if len(head) < AUTO_MIN_DECKS else AUTO_MIN_DECKS
        workers = plan_workers(jobs, known if known < AUTO_MIN_DECKS else None)
        if workers > 1 and known < 2 * workers:
            workers = 1  # one or two decks: nothing to share out
    if isinstance(items, list):
        return items, workers, known
    return (itertools.chain(head, it) if head else it), workers, known


def run_batch(
    items: Iterable[Item], job: Job, jobs: int | str = 1, checker: Checker | None = None
) -> Iterator[DeckReport]:
    """Reports for ``items`` in input order; ``jobs`` > 1 (or ``"auto"``) may check them in
    worker processes (see ``plan_workers``); the output is the same either way."""
    it, workers, known = _plan(items, jobs)
    if workers <= 1:
        checker = checker or Checker(job)
        for item in it:
            yield checker(item)
        return
    for reports in _pooled(it, job, workers, known, _work):
        yield from reports


class Output:
    """How a ``validate`` run writes its decks: output kind and options, the run's ``Meta``,
    waivers, ``--strict``, ``--only-illegal``, and whether the passing inputs (``--sheets``)
    and the step summary's rows are kept. Picklable: ``--jobs`` workers render with it."""

    __slots__ = (
        "kind",
        "color",
        "per_deck",
        "meta",
        "waivers",
        "strict",
        "only_illegal",
        "sheets",
        "rows",
    )

    def __init__(
        self,
        kind: str,
        meta: Any,
        waivers: Any,
        *,
        color: bool = False,
        per_deck: bool = False,
        strict: bool = False,
        only_illegal: bool = False,
        sheets: bool = False,
        rows: bool = False,
    ) -> None:
        self.kind = kind
        self.color = color
        self.per_deck = per_deck  # csv: one row per deck (--csv-decks)
        self.meta = meta
        self.waivers = waivers
        self.strict = strict
        self.only_illegal = only_illegal
        self.sheets = sheets
        self.rows = rows

    def renderer(self, out: Any, err: Any) -> Any:
        """The renderer of this output writing to ``out`` and ``err`` (not started)."""
        from deckcheck import render

        renderer = render.make(self.kind, out, err, color=self.color)
        if self.per_deck and hasattr(renderer, "per_deck"):
            renderer.per_deck = True
        return renderer

    def tally(self) -> Any:
        from deckcheck.report import RunTally

        return RunTally(self.waivers, self.strict, self.only_illegal, self.sheets, self.rows)


def run_output(
    items: Iterable[Item],
    job: Job,
    jobs: int | str,
    output: Output,
    renderer: Any,
    checker: Checker | None = None,
) -> Any:
    """Check ``items`` and write each deck (waivers applied; with ``--only-illegal``, only
    those that fail) through ``renderer`` (``output.renderer``, started), in input order;
    the run's ``report.RunTally``. The same as ``run_batch`` fed to the tally and the
    renderer deck by deck, and so it is in this process; over a pool with a
    ``text_per_deck`` renderer, each worker tallies and renders its chunks and the parent
    writes their text and merges their tallies (it has nothing to do per deck)."""
    tally = output.tally()
    it, workers, known = _plan(items, jobs)
    if workers > 1 and renderer.text_per_deck:
        for text, part in _pooled(it, job, workers, known, _work_rendered, output):
            renderer.write_decks(text)
            tally.merge(part)
        return tally
    reports: Iterable[DeckReport]
    if workers > 1:
        reports = itertools.chain.from_iterable(_pooled(it, job, workers, known, _work))
    else:
        reports = map(checker or Checker(job), it)
    take, deck = tally.take, renderer.deck
    for report in reports:
        shown = take(report)
        if shown is not None:
            deck(shown)
    return tally


def _pooled(
    items: Iterator[Item] | list[Item],
    job: Job,
    workers: int,
    known: int,
    work: Any,
    output: Output | None = None,
) -> Iterator[Any]:
    """``work``'s answer for each chunk of decks over ``workers`` processes, at most two
    chunks a worker in flight (memory stays flat however many decks), in input order; the
    notes of each chunk's decks are said here before its answer is handed on."""
    keys: set[str] = set()
    for answer, kept in _answers(items, job, workers, known, work, output):
        if kept:
            _say(kept, keys)
        yield answer


def _answers(
    items: Iterator[Item] | list[Item],
    job: Job,
    workers: int,
    known: int,
    work: Any,
    output: Output | None,
) -> Iterator[Any]:
    """``_pooled`` without the notes: each chunk's (answer, notes), in input order."""
    chunk = max(1, min(CHUNK, known // (workers * 4) or 1))
    initargs = (job,) if output is None else (job, output)
    from deckcheck import forkpool

    if isinstance(items, list) and forkpool.usable():
        # A list in memory (the CLI's walk) on Linux: forked workers that take chunk numbers
        # (no multiprocessing import, no pool threads: start-up is part of every --jobs run)
        if "-" in items:
            items = [_stdin_read(i) for i in items]
        yield from forkpool.imap_chunks(work, items, chunk, workers, _init_worker, initargs)
        return
    import multiprocessing

    # fork where there is one: workers start at once with every module already imported
    # (each opens its own database connection); elsewhere spawn.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    ctx = multiprocessing.get_context(method)
    window: deque[Any] = deque()
    it = iter(items)
    with ctx.Pool(workers, initializer=_init_worker, initargs=initargs) as pool:
        while True:
            batch = [_stdin_read(i) for i in itertools.islice(it, chunk)]
            if batch:
                window.append(pool.apply_async(work, (batch,)))
            if window and (not batch or len(window) >= 2 * workers):
                yield window.popleft().get()
            if not batch and not window:
                break


def _stdin_read(item: Item) -> Item:
    """Workers have no stdin: the parent reads ``-`` and hands the bytes over."""
    if item != "-":
        return item  # a path, a URL, or stdin bytes already read
    from deckcheck.decks.source import read_stream_bytes

    try:
        return ("-", read_stream_bytes(sys.stdin.buffer, "<stdin>"))
    except InputError as exc:
        return ("!", str(exc).encode())  # reported by the worker as an unreadable deck


@record
class Request(Record):
    """What ``deckcheck validate`` was asked: the inputs, the format, list and date."""

    inputs: tuple[str, ...]
    format_id: str = "tcg"
    banlist_ref: str | None = None
    date: dt.date | None = None
    format_files: tuple[str, ...] = ()
    points_cap: int | None = None
    lang: str | None = None
    jobs: int | str = "auto"  # a count, or "auto" (see plan_workers)


class Run:
    """A request made ready: format and list chosen, paths checked, the database open, so a
    data error stops it before any output starts; ``reports()`` then checks the decks."""

    def __init__(self, req: Request):
        from deckcheck.inputs import check_paths

        self.request = req
        engine = Engine.open(format_files=req.format_files)  # the database opened when used
        target = engine.target(
            req.format_id, req.date, req.banlist_ref, points_cap=req.points_cap, lang=req.lang
        )
        check_paths(req.inputs)
        engine.cards  # noqa: B018 - opened now: a data error stops the run before any output
        self.job = Job(target, format_files=req.format_files)
        self.checker = Checker(self.job, engine)

    def meta(self, strict: bool) -> Any:
        """What the run checks against, as every renderer prints it."""
        from deckcheck.render.base import Meta

        target = self.job.target
        fmt, banlist = target.fmt, target.banlist
        return Meta(
            format_id=fmt.id,
            format_name=fmt.name,
            list_name=banlist.name if banlist else None,
            list_effective=banlist.effective.isoformat() if banlist else None,
            date=target.date.isoformat(),
            strict=strict,
            list_source=(banlist.source or None) if banlist else None,
            list_date_exact=banlist.date_exact if banlist else None,
        )

    def reports(self) -> Iterator[DeckReport]:
        from deckcheck.inputs import expand_inputs

        items = expand_inputs(self.request.inputs)
        return run_batch(items, self.job, self.request.jobs, checker=self.checker)
