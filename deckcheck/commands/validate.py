"""``deckcheck validate``: check decks against a format and the list in force, stream reports."""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from deckcheck.batch import Checker, Job, run_batch
from deckcheck.commands.options import (
    banlist_option,
    date_option,
    format_option,
    lang_option,
    output_option,
    parse_date,
)
from deckcheck.formats.select import list_for
from deckcheck.inputs import check_paths, expand_inputs
from deckcheck.report import Summary, exit_code

__all__ = ["parse_date", "validate"]  # parse_date: still imported by commands/deck.py
OUTPUT_KINDS = ("text", "json", "github", "junit", "csv")


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
@format_option(show_default=True)
@banlist_option(
    help='A list: "<family>@<YYYY-MM-DD>", its name ("2025.04 TCG"), or a .yaml/.lflist.conf path. '
    "Default: the format's list in force on --date.",
)
@date_option(help="Event date (default: today).")
@output_option(
    OUTPUT_KINDS, None, help="Output kind (default: text; github when GITHUB_ACTIONS=true)."
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
@lang_option(None, short=False, metavar="LANG",
             help="Language of card names in messages (en, ja, de, …).")  # fmt: skip
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
) -> int:
    """Check decks (files, folders, ydke:// URLs, - for stdin) against a format and its list."""
    from deckcheck import render
    from deckcheck.formats import get_format

    date = parse_date(date_text)
    fmt = get_format(format_id, extra_files=format_files)
    banlist = list_for(fmt.at(date), date, banlist_ref)
    check_paths(inputs)
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
        )
    )
    summary = Summary()
    for report in run_batch(expand_inputs(inputs), job, jobs, checker=checker):
        summary.add(report, strict)
        renderer.deck(report)
    renderer.finish(summary)
    out.flush()
    return exit_code(summary, strict)
