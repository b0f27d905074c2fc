"""The ``deckcheck update`` command: fetch current cards and lists, install them all or nothing."""

from __future__ import annotations

import click

from deckcheck.commands.options import output_option
from deckcheck.commands.quiet import NoteTally, verbose_option
from deckcheck.errors import EXIT_OK
from deckcheck.render.common import to_json


@click.command(
    "update",
    epilog="""\b
Examples:
  deckcheck update
  deckcheck update --dry-run
  deckcheck update --only lists
  deckcheck update --source https://mirror.example.org/ygo
  deckcheck update --source ~/mirror      (a folder laid out as <owner>/<repo>/<path>)

The files and their upstream repositories are listed in card_db/sources.yaml. A mirror
holds them as BASE/<owner>/<repo>/<path>, e.g. BASE/ProjectIgnis/BabelCDB/cards.cdb,
BASE/DawnbrandBots/yaml-yugi/cards.json, BASE/iconmaster5326/YGOJSON/individual.zip.
$DECKCHECK_SOURCE sets the source when --source is not given. Unchanged files are not
downloaded again. On any failure nothing is changed and the exit code is 2.""",
)
@click.option("--source", "source", metavar="URL|DIR", help="Mirror base URL or directory.")
@click.option("--only", type=click.Choice(["cards", "lists"]), help="Update only one part.")
@click.option("--dry-run", is_flag=True, help="Report new or changed files; install nothing.")
@click.option("--force", is_flag=True, help="Rebuild even when nothing changed.")
@output_option()
@verbose_option
def update(
    source: str | None, only: str | None, dry_run: bool, force: bool, output: str, verbose: bool
) -> int:
    """Fetch current cards, names and Forbidden/Limited lists from upstream.

    Quiet by default: a summary of what changed and the notes counted by kind (--dry-run
    names the new and changed files); -v says each note and lists every file."""
    from deckcheck.update import run_update

    with NoteTally(verbose) as tally:
        result = run_update(source, only=only, dry_run=dry_run, force=force)  # type: ignore[arg-type]
        for note in result.notes:
            tally.add(f"deckcheck: note: {note}")
    if not dry_run and only != "lists":
        # The name index of the new cards now, with a message, not at the first search
        # (issue 18, P4); nothing to do when the cards did not change.
        from deckcheck.lookup.warm import build_index_cache

        build_index_cache(progress=lambda text: click.echo(text, err=True))
    from deckcheck.render.update import files_text, summary_text

    data = result.to_json()
    if output == "json":
        click.echo(to_json(data, 1))
    elif verbose or dry_run:
        # quiet by default: the summary says how many files changed; a dry run names the
        # new and changed ones (what it is for), -v every file (unchanged, optional missing)
        shown = data if verbose else {**data, "files": _changed(data["files"])}
        for line in files_text(shown):
            click.echo(line)
    click.echo(summary_text(result, dry_run), err=True)
    details = (
        "'deckcheck update -v' says each note and lists every file; 'deckcheck db info' "
        "shows the installed sources and the lists refused as upstream faults"
    )
    for line in tally.lines(details):
        click.echo(line, err=True)
    return EXIT_OK


def _changed(files: list[dict[str, object]]) -> list[dict[str, object]]:
    return [f for f in files if f["status"] in ("new", "changed")]
