"""The ``deckcheck update`` command: fetch current cards and lists, install them all or nothing."""

from __future__ import annotations

import json
from typing import Any

import click

from deckcheck.errors import EXIT_OK


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
@click.option(
    "-o", "--output", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def update(source: str | None, only: str | None, dry_run: bool, force: bool, output: str) -> int:
    """Fetch current cards, names and Forbidden/Limited lists from upstream."""
    from deckcheck.update import run_update

    result = run_update(source, only=only, dry_run=dry_run, force=force)  # type: ignore[arg-type]
    data: dict[str, Any] = result.to_json()
    if output == "json":
        click.echo(json.dumps(data, ensure_ascii=False, indent=1))
    else:
        for f in data["files"]:
            sha = (f["sha256"] or "")[:12]
            click.echo(f"{f['status']:9}  {f['kind']:5}  {f['file']}  {sha}")
    for note in result.notes:
        click.echo(f"deckcheck: note: {note}", err=True)
    changed = sum(f.status in ("new", "changed") for f in result.files)
    verb = "would update" if dry_run else "updated"
    done = (("cards", result.cards_updated), ("lists", result.lists_updated))
    parts = [p for p, on in done if on]
    what = f"{verb} {' and '.join(parts)}" if parts else "nothing to install"
    click.echo(
        f"deckcheck: {what}: {changed} new or changed file(s) of {len(result.files)}, "
        f"{result.requests} request(s) to {result.source}",
        err=True,
    )
    return EXIT_OK
