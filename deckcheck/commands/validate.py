"""``deckcheck validate``: check decks against a format and the list in force, stream reports."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import click

from deckcheck.commands.options import (
    banlist_option,
    date_option,
    format_option,
    lang_option,
    output_option,
    parse_date,
)
from deckcheck.errors import InputError
from deckcheck.report import DeckReport, exit_code

__all__ = ["parse_date", "validate"]  # parse_date: still imported by commands/deck.py
OUTPUT_KINDS = ("text", "json", "github", "junit", "csv", "html")


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
@click.option(
    "--sheets",
    "sheets_dir",
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="Also write a decklist sheet (PDF) per legal deck into DIR.",
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
    from deckcheck.batch import Request, Run

    req = Request(inputs, format_id, banlist_ref, parse_date(date_text), format_files,
                  points_cap, lang, jobs)  # fmt: skip
    if sheets_dir is not None and not os.path.isdir(sheets_dir):
        raise InputError("no such folder for --sheets", where=sheets_dir)
    run = Run(req)  # a data error stops here, before any output
    kind = output or render.default_kind()
    out, err = render.escaping(sys.stdout), render.escaping(sys.stderr)
    color_choice = click.get_current_context().meta.get("deckcheck.color", "auto")  # --color
    color = kind == "text" and render.use_color(out, color_choice)
    legal: list[str] = []

    def reports() -> Iterator[DeckReport]:
        for report in run.reports():
            if sheets_dir is not None and report.legal:
                legal.append(report.input)
            yield report

    summary = render.stream(render.make(kind, out, err, color=color), run.meta(strict),
                            reports(), strict)  # fmt: skip
    out.flush()
    if sheets_dir is not None:  # after the report, from the same decks
        from deckcheck.commands.sheet import write_batch_sheets

        n, sheet_notes = write_batch_sheets(legal, sheets_dir, run.checker.db, run.job.date,
                                            lang)  # fmt: skip
        for note in sheet_notes:
            err.write(note + "\n")
        err.write(f"{n} sheet{'' if n == 1 else 's'} written to {sheets_dir}\n")
    return exit_code(summary, strict)
