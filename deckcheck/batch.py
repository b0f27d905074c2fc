"""One ``validate`` run, straight through: the inputs walked once (``walk``), one complete
``Request`` (``plan``: inputs, format, list, date, outputs), one ``execute`` that checks the
decks with the runner ``runners.runner_for`` picks and writes every output.

    items = walk(inputs)                              # paths checked, folders walked, once
    request, engine = plan(inputs, items, format_id="tcg", output=Output("json"))
    code = execute(request, engine)                   # the exit code; reports(request) yields them
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from typing import IO, Any

from deckcheck.engine import Engine
from deckcheck.errors import InputError
from deckcheck.inputs import Discovery, Item, check_paths
from deckcheck.report import DeckReport, RunTally, exit_code
from deckcheck.request import Output, Request
from deckcheck.runners import runner_for, say

__all__ = ["Output", "Request", "execute", "plan", "reports", "stream", "walk"]


def walk(
    inputs: Iterable[str],
    discovery: Discovery | None = None,
    *,
    filter_files: bool = False,
    sheets: str | None = None,
) -> tuple[Item, ...]:
    """The decks ``inputs`` name, in a stable order: ``-``, ``ydke://`` links, files, and the
    deck files of folders (walked by ``discovery``, like a linter). Every path is checked
    first (and the ``--sheets`` folder), so a missing one stops the run before any output.
    ``filter_files``: a named file only when a walk of its folder would check it
    (pre-commit)."""
    import os

    inputs = tuple(inputs)
    check_paths(inputs)
    if sheets is not None and not os.path.isdir(sheets):
        raise InputError("no such folder for --sheets", where=sheets)
    return tuple((discovery or Discovery()).expand(inputs, filter_files=filter_files))


def plan(
    inputs: Iterable[str],
    items: Iterable[Item],
    *,
    format_id: str = "tcg",
    date: dt.date | None = None,
    banlist_ref: str | None = None,
    deck_formats: bool = False,
    format_files: Iterable[str] = (),
    points_cap: int | None = None,
    lang: str | None = None,
    jobs: int | str = "auto",
    output: Output | None = None,
    engine: Engine | None = None,
) -> tuple[Request, Engine]:
    """The complete request, and the engine that checks it: the format and the list are
    chosen here (and ``--out`` checked), so a usage or data error (an unknown format, no
    list in force, a missing folder) stops the run before any output."""
    format_files = tuple(format_files)
    if output is not None and output.out is not None:
        _check_out(output.out)
    engine = engine or Engine.open(format_files=format_files)
    target = engine.target(format_id, date, banlist_ref, points_cap=points_cap, lang=lang)
    request = Request(
        tuple(inputs),
        items,
        target,
        output,
        jobs,
        deck_formats,
        banlist_ref,
        format_files,
    )
    return request, engine


def reports(request: Request, engine: Engine | None = None) -> Iterator[DeckReport]:
    """The request's reports in input order, checked in this process or in ``--jobs``
    workers; the same either way (``request.output`` waivers and ``--only-illegal`` applied
    when it has one)."""
    engine = engine or Engine.open(request.db_path, request.format_files)
    keys: set[str] = set()
    for payload, _part, kept in runner_for(request, engine).answers():
        if kept:
            say(kept, keys)
        yield from payload  # type: ignore[misc]


def execute(
    request: Request,
    engine: Engine | None = None,
    out: IO[str] | None = None,
    err: IO[str] | None = None,
) -> int:
    """Check the request's decks and write its output (default streams: stdout, stderr);
    the exit code (0 every deck passes, 1 one does not). The card database is opened first:
    a data error stops the run before any output."""
    import sys

    output = request.output or Output()
    if request.output is None:
        request = request.replace(output=output)
    engine = engine or Engine.open(request.db_path, request.format_files)
    engine.cards  # noqa: B018 - opened now, before anything is written
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    if output.out is None:
        tally = _write(request, engine, out, err)
    else:
        tally = _write_file(request, engine, output.out, out)
    summary = tally.summary
    meta = request.meta()
    if tally.rows is not None and output.step_summary is not None:
        _write_step_summary(output.step_summary, tally.rows, meta, summary, output.strict)
    if output.sheets is not None:
        from deckcheck.sheet.files import write_batch_sheets

        target = request.target
        n, sheet_notes = write_batch_sheets(
            tally.passed or [], output.sheets, engine.cards, target.date, target.lang
        )
        for note in sheet_notes:
            err.write(note + "\n")
        err.write(f"{n} sheet{'' if n == 1 else 's'} written to {output.sheets}\n")
    return exit_code(summary, output.strict)


def _write(request: Request, engine: Engine, out: IO[str], err: IO[str]) -> RunTally:
    """Check the decks and write them through the output's renderer; the run's tally."""
    assert request.output is not None
    renderer = request.output.renderer(out, err)
    renderer.start(request.meta())
    tally = stream(request, engine, renderer)
    renderer.finish(tally.summary)
    out.flush()
    err.flush()
    return tally


def stream(request: Request, engine: Engine, renderer: Any) -> RunTally:
    """Check the request's decks and write each (waivers applied; with ``--only-illegal``
    only those that fail) through ``renderer`` (started), in input order, as they come; the
    run's tally. Over a pool whose workers render, the parent writes their text and merges
    their tallies' parts: it has nothing to do per deck."""
    assert request.output is not None
    tally = request.output.tally()
    keys: set[str] = set()
    deck = renderer.deck
    for payload, part, kept in runner_for(request, engine, renderer).answers():
        if kept:
            say(kept, keys)
        if isinstance(payload, str):
            renderer.write_decks(payload)  # rendered by a worker
        else:
            for report in payload:
                deck(report)
        tally.merge(part)  # type: ignore[arg-type]
    return tally


def _write_file(request: Request, engine: Engine, path: str, summary_to: IO[str]) -> RunTally:
    """``_write`` into the file ``path``, all or nothing (``fsio.replacing``: a failed run
    leaves the file as it was); the summary line goes to ``summary_to``."""
    from deckcheck import fsio

    try:
        with (
            fsio.replacing(path) as tmp,
            open(tmp, "w", encoding="utf-8", errors="backslashreplace", newline="") as fh,
        ):
            tally = _write(request, engine, fh, summary_to)
    except OSError as exc:
        raise InputError(f"cannot write the report: {exc.strerror or exc}", where=path) from None
    return tally


def _check_out(path: str) -> None:
    """``--out FILE`` can be written: not a folder, in a folder that exists (as every command
    that writes a file says it, ``decks.write.write_atomic``)."""
    import os

    folder = os.path.dirname(path) or "."
    if os.path.isdir(path):
        raise InputError("is a directory", where=path)
    if not os.path.isdir(folder):
        raise InputError(
            f"folder {folder} does not exist (deckcheck creates no folders)", where=path
        )


def _write_step_summary(path: str, rows: list[Any], meta: Any, summary: Any, strict: bool) -> None:
    from deckcheck.render.github import step_summary

    text = step_summary(rows, meta, summary, strict)
    try:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise InputError(
            f"cannot write the step summary: {exc.strerror or exc}", where=path
        ) from None
