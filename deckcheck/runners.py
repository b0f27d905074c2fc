"""How a run's decks are checked: one ``Worker`` per process (its engine, and for output
rendered in workers its own renderer and tally), fed chunks of inputs by one of three
runners, chosen in one place (``runner_for``): in this process, a fork pool
(``deckcheck.forkpool``), or ``multiprocessing``. Every runner yields the same answers,
chunk by chunk in input order, so the output is the same whichever runs."""

from __future__ import annotations

import io
import itertools
import os
import sys
from collections import deque
from collections.abc import Iterable, Iterator, Sized
from typing import Any, Protocol

from deckcheck.decks.header import deck_header
from deckcheck.engine import Engine
from deckcheck.errors import InputError
from deckcheck.inputs import Item
from deckcheck.report import DeckReport, Row, RunTally, Summary
from deckcheck.request import Request
from deckcheck.validate import Target

#: a chunk's answer: its decks (the text a worker rendered, or the reports to render), what
#: its tally adds (None without an output) and the notes its decks gave, (key, text)
Answer = tuple[
    "str | list[DeckReport]",
    "tuple[Summary, list[str] | None, list[Row] | None] | None",
    list[tuple["str | None", str]],
]

#: below this many decks ``--jobs auto`` stays in this process (a pool costs more to start
#: than it saves on fewer decks; measured, benchmarks/README.md)
AUTO_MIN_DECKS = 1000
#: decks per task sent to a worker: fewer pipe messages than one deck a task, small enough
#: to keep every worker busy and the decks in flight few
CHUNK = 64


class Worker:
    """Checks chunks of a request's inputs with one engine. With ``render`` (a ``--jobs``
    worker whose output kind is a pure function of each report: ``Renderer.text_per_deck``)
    it also tallies and renders them, so that no report crosses a pipe; with ``keep_notes``
    (a worker process, which does not own stderr) the notes its decks give go back with each
    answer and the parent says them."""

    def __init__(
        self,
        request: Request,
        engine: Engine | None = None,
        *,
        render: bool = False,
        keep_notes: bool = False,
    ) -> None:
        self.request = request
        self.engine = engine or Engine.open(request.db_path, request.format_files)
        self.kept: list[tuple[str | None, str]] | None = [] if keep_notes else None
        self._targets: dict[str, Target | None] = {}  # a deck's "#format" id -> its target
        output = request.output
        self.tally: RunTally | None = output.tally() if output is not None else None
        self.renderer: Any = None
        if render:
            assert output is not None
            self.renderer = output.renderer(io.StringIO(), io.StringIO())
            self.renderer.start(request.meta())  # its head goes nowhere: the parent writes its own

    def note(self, text: str, key: str | None = None) -> None:
        """A note, said at once, or kept for the parent. ``key``: a note said once per run for
        its key (a ``#format`` line's format: each worker says it for the first deck it meets,
        the parent only for the first in input order, as one process would)."""
        if self.kept is not None:
            self.kept.append((key, text))
        else:
            from deckcheck import notes

            notes.note(text)

    def keep(self, text: str) -> None:
        """A worker process's notes sink: every note of library code (a legacy encoding)."""
        if self.kept is not None:
            self.kept.append((None, text))

    def target_for(self, deck: Any) -> Target:
        """The run's target, or that of the deck's own "#format" line (no --format given)."""
        request = self.request
        run = request.target
        hint = deck_header(deck)[0] if request.deck_formats else None
        if hint is None or hint == run.fmt.id:
            return run
        if hint not in self._targets:
            from deckcheck.errors import DeckcheckError

            try:
                got = self.engine.target(
                    hint,
                    run.date,
                    request.banlist_ref,
                    points_cap=run.points_cap,
                    lang=run.lang,
                    upcoming=False,
                )
                self._targets[hint] = got
                self.note(
                    f"{deck.source}: checked as {got.fmt.name} (its '#format {hint}' line; "
                    "--format overrides it)",
                    hint,
                )
            except DeckcheckError as exc:
                self._targets[hint] = None
                self.note(
                    f"{deck.source}: '#format {hint}' line not used ({exc}); "
                    f"checked as {run.fmt.name}",
                    hint,
                )
        mine = self._targets[hint]
        return mine if mine is not None else run

    def __call__(self, items: list[Item]) -> Answer:
        """A chunk's answer: its reports (the waivers applied and, with ``--only-illegal``,
        only those that fail, when the request has an output), or their text when rendered
        here; its tally's part; its notes."""
        reports = self.engine.check_items(items, self.request.target, self.target_for)
        part = None
        tally = self.tally
        if tally is not None:
            reports = [r for r in map(tally.take, reports) if r is not None]
            part = tally.part()
        kept: list[tuple[str | None, str]] = []
        if self.kept:
            kept, self.kept = self.kept, []
        if self.renderer is not None:
            return self.renderer.decks_text(reports), part, kept
        return reports, part, kept


class Runner(Protocol):
    """Runs a ``Worker`` over the chunks of a request's inputs; answers in input order."""

    def answers(self) -> Iterator[Answer]: ...


class InProcess:
    """The worker in this process: no pool to start (a small batch, ``--jobs 1``)."""

    def __init__(self, worker: Worker, items: Iterable[Item], chunk: int) -> None:
        self.worker, self.items, self.chunk = worker, items, chunk

    def answers(self) -> Iterator[Answer]:
        it = iter(self.items)
        while chunk := list(itertools.islice(it, self.chunk)):
            yield self.worker(chunk)


# A worker process's one Worker, set up by ``_init_worker`` when the process starts.
_WORKER: Worker | None = None


def _init_worker(request: Request, render: bool) -> None:
    global _WORKER
    import deckcheck.carddb
    from deckcheck import notes

    # The parent has already said once that the built-in sample is in use; the notes of the
    # decks go back with each chunk's answer, and the parent says them (it owns stderr).
    deckcheck.carddb.mark_sample_noted()
    _WORKER = Worker(request, render=render, keep_notes=True)  # its own database connection
    notes.set_sink(_WORKER.keep)


def _work(items: list[Item]) -> Answer:
    assert _WORKER is not None
    return _WORKER(items)


class ForkPool:
    """Forked workers over a list in memory (Linux): they take chunk numbers from one pipe
    (``deckcheck.forkpool``: no ``multiprocessing`` import, no pool threads)."""

    def __init__(
        self, request: Request, items: list[Item], workers: int, chunk: int, render: bool
    ) -> None:
        self.request, self.items = request, items
        self.workers, self.chunk, self.render = workers, chunk, render

    def answers(self) -> Iterator[Answer]:
        from deckcheck import forkpool

        items = [_stdin_read(i) for i in self.items] if "-" in self.items else self.items
        initargs = (self.request, self.render)
        yield from forkpool.imap_chunks(
            _work, items, self.chunk, self.workers, _init_worker, initargs
        )


class ProcessPool:
    """``multiprocessing`` workers (forked where the platform can, else spawned), for a
    stream of inputs or a platform without the fork pool; at most two chunks a worker in
    flight, so memory stays flat however many decks come."""

    def __init__(
        self, request: Request, items: Iterable[Item], workers: int, chunk: int, render: bool
    ) -> None:
        self.request, self.items = request, items
        self.workers, self.chunk, self.render = workers, chunk, render

    def answers(self) -> Iterator[Answer]:
        import multiprocessing

        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        ctx = multiprocessing.get_context(method)
        window: deque[Any] = deque()
        it = iter(self.items)
        initargs = (self.request, self.render)
        with ctx.Pool(self.workers, initializer=_init_worker, initargs=initargs) as pool:
            while True:
                batch = [_stdin_read(i) for i in itertools.islice(it, self.chunk)]
                if batch:
                    window.append(pool.apply_async(_work, (batch,)))
                if window and (not batch or len(window) >= 2 * self.workers):
                    yield window.popleft().get()
                if not batch and not window:
                    break


def runner_for(request: Request, engine: Engine, renderer: Any = None) -> Runner:
    """The runner of a request (the one place it is chosen): in this process for one
    worker (``plan_workers``: ``--jobs 1``, ``auto`` on a small batch, one usable core) or
    one or two decks; else the fork pool for a list on Linux, ``multiprocessing`` otherwise.
    Workers render when the output's deck text is a pure function of each report
    (``renderer.text_per_deck``); in this process the parent renders, deck by deck for an
    output that is not (JUnit times each deck)."""
    items, workers, known = _plan(request.items, request.jobs)
    text = renderer is not None and renderer.text_per_deck
    if workers <= 1:
        return InProcess(Worker(request, engine), items, CHUNK if text else 1)
    # the items stay with the parent: a worker gets them by chunk (spawned ones pickle this)
    shipped = request.replace(items=())
    chunk = max(1, min(CHUNK, known // (workers * 4) or 1))
    from deckcheck import forkpool

    if isinstance(items, list) and forkpool.usable():
        return ForkPool(shipped, items, workers, chunk, text)
    return ProcessPool(shipped, items, workers, chunk, text)


def say(kept: list[tuple[str | None, str]], keys: set[str]) -> None:
    """Say a worker's notes in the parent, a keyed one only the first time its key comes."""
    from deckcheck import notes

    for key, text in kept:
        if key is not None:
            if key in keys:
                continue
            keys.add(key)
        notes.note(text)


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


def others_running() -> int:
    """Tasks running besides this process right now, the fewest of three looks at the fourth
    field of /proc/loadavg (runnable tasks, this one included: a momentary one is not taken
    for load); 0 where there is no such file."""
    fewest = None
    for _ in range(3):
        try:
            with open("/proc/loadavg") as f:
                running = int(f.read().split()[3].split("/")[0])
        except (OSError, ValueError, IndexError):
            return 0
        fewest = running if fewest is None else min(fewest, running)
    return max(0, (fewest or 1) - 1)


def plan_workers(jobs: int | str, decks: int | None) -> int:
    """Worker processes for a run: 1 means in this process, no pool.

    An explicit count is capped at the cores this process may use (more workers than cores
    only add switching and memory). ``"auto"`` stays in process for fewer than
    ``AUTO_MIN_DECKS`` decks (``decks``: None when unknown or more), and when fewer than two
    cores are free of other work (``others_running``): the kernel shares the machine between
    sessions, not processes (autogroup scheduling), so more workers than free cores win no
    more of it for this run and only add their start and their pipes (measured in
    benchmarks/bench_goals.py ``--only auto``, with a busy loop in another session); otherwise
    it takes every free usable core.
    """
    n = cores()
    if jobs == "auto":
        if decks is not None and decks < AUTO_MIN_DECKS:
            return 1
        free = n - others_running()
        return free if free >= 2 else 1
    return max(1, min(int(jobs), n))


def _plan(items: Iterable[Item], jobs: int | str) -> tuple[Iterator[Item] | list[Item], int, int]:
    """The items (a list or tuple becomes a list; else one iterator), the worker processes to
    check them with (1: in this process) and how many items are known to come (at least)."""
    if isinstance(items, tuple):
        items = list(items)
    it = iter(items)
    head: list[Item] = []
    workers = 1
    known = 0
    if jobs == "auto" or (isinstance(jobs, int) and jobs > 1):
        if isinstance(items, Sized):
            known = len(items)
        else:  # look ahead far enough to know whether a pool pays
            head = list(itertools.islice(it, AUTO_MIN_DECKS))
            known = min(AUTO_MIN_DECKS, len(head))
        workers = plan_workers(jobs, known if known < AUTO_MIN_DECKS else None)
        if workers > 1 and known < 2 * workers:
            workers = 1  # one or two decks: nothing to share out
    if isinstance(items, list):
        return items, workers, known
    return (itertools.chain(head, it) if head else it), workers, known


def _stdin_read(item: Item) -> Item:
    """Workers have no stdin: the parent reads ``-`` and hands the bytes over."""
    if item != "-":
        return item  # a path, a URL, or stdin bytes already read
    from deckcheck.decks.source import read_stream_bytes

    try:
        return ("-", read_stream_bytes(sys.stdin.buffer, "<stdin>"))
    except InputError as exc:
        return ("!", str(exc).encode())  # reported by the worker as an unreadable deck
