"""``deckcheck validate``: check decks against a format and the list in force, stream reports."""

from __future__ import annotations

import os
import sys

import click

from deckcheck.commands.options import (
    banlist_option,
    date_option,
    format_option,
    lang_option,
    output_option,
    parse_date,
)
from deckcheck.report import exit_code

__all__ = ["parse_date", "validate"]  # parse_date: still imported by commands/deck.py
OUTPUT_KINDS = ("text", "json", "github", "junit", "csv")


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
    from deckcheck.batch import Request, Run

    req = Request(inputs, format_id, banlist_ref, parse_date(date_text), format_files,
                  points_cap, lang, jobs)  # fmt: skip
    run = Run(req)  # a data error stops here, before any output
    kind = output or render.default_kind()
    out, err = render.escaping(sys.stdout), render.escaping(sys.stderr)
    color = kind == "text" and out.isatty() and "NO_COLOR" not in os.environ
    summary = render.stream(render.make(kind, out, err, color=color), run.meta(strict),
                            run.reports(), strict)  # fmt: skip
    out.flush()
    return exit_code(summary, strict)
