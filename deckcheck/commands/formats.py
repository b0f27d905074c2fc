"""``deckcheck formats``: the formats deckcheck knows, their sizes and the list in force today."""

from __future__ import annotations

import click

from deckcheck.commands.options import date_option, output_option, parse_date
from deckcheck.errors import EXIT_OK
from deckcheck.render.common import to_json


@click.command(
    "formats",
    epilog="""\b
Examples:
  deckcheck formats
  deckcheck formats --date 2010-01-01
  deckcheck formats --output json | jq '.[].id'""",
)
@output_option(help="Output kind.")
@date_option(help="Date for the list in force (default: today).", metavar=None)
@click.option(
    "--format-file",
    "format_files",
    multiple=True,
    type=click.Path(dir_okay=False),
    help="Also read this format file (repeatable).",
)
def formats(output: str, date_text: str | None, format_files: tuple[str, ...]) -> int:
    """List the formats deckcheck knows: sizes, copies, list family and the list in force."""
    from deckcheck.listinfo import format_rows
    from deckcheck.render.formats import formats_table

    date = parse_date(date_text or None)
    rows = format_rows(date, format_files)
    if output == "json":
        click.echo(to_json(rows, 1))
        return EXIT_OK
    for line in formats_table(rows, date):
        click.echo(line)
    return EXIT_OK
