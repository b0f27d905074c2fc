"""``deckcheck db``: build the card database from cdb files and show what is installed."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from deckcheck.commands.options import lang_option, output_option
from deckcheck.errors import EXIT_OK, InputError
from deckcheck.render.common import to_json


@click.group(
    "db",
    epilog="""\b
Examples:
  deckcheck db import cards.cdb locales/*/cards.cdb
  deckcheck db import --dialect ygopro ygopro/cards.cdb
  deckcheck db import --replace cards.cdb     (rebuild; also replaces a corrupt database)
  deckcheck db reset
  deckcheck db info --output json""",
)
def db() -> None:
    """Import, inspect and reset the card database."""


@db.command(
    "import",
    epilog="""\b
Examples:
  deckcheck db import cards.cdb cards-rush.cdb cards-skills.cdb
  deckcheck db import BabelCDB/cards.cdb ygopro-database/locales/*/cards.cdb
  deckcheck db import yaml-yugi/cards.json yaml-yugi/rush.json individual.zip
  deckcheck db import --lang ja names-ja.cdb
  deckcheck db import --dialect ygopro cards.cdb""",
)
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--dialect",
    type=click.Choice(["edopro", "ygopro"]),
    default=None,
    help="Meaning of the cdb 'ot' bits (detected when unambiguous).",
)
@lang_option(
    None,
    short=False,
    metavar="L",
    help="Read every file as a names file in this language (default: from locales/<lang>/; "
    "BCP 47 tags such as ja-JP, zh-Hant work).",
)
@click.option(
    "--replace",
    is_flag=True,
    help="Build the database from FILES alone, replacing the installed one (also when it "
    "is corrupt) instead of extending it.",
)
def import_cmd(
    files: tuple[Path, ...], dialect: str | None, lang: str | None, replace: bool
) -> int:
    """Build or extend the card database from EDOPro/YGOPro cards.cdb files and official data.

    Files merge in order (later files win); the installed database is extended and
    replaced only when the import is complete. Files under locales/<lang>/ add names.
    yaml-yugi cards.json/rush.json/skill.json (Konami ids, official names) and a YGOJSON
    folder or individual.zip (release dates) are recognised by content; they need cards.
    """
    from deckcheck.carddb.importer import import_files
    from deckcheck.render.db import import_text

    summary = import_files(
        list(files),
        dialect=dialect,
        lang=lang,
        progress=sys.stderr.isatty(),
        replace=replace,
        note=lambda text: click.echo(f"deckcheck: note: {text}", err=True),
    )
    for line in import_text(summary):
        click.echo(line)
    # The first search after an import must not pay for the name index (issue 18, P4).
    from deckcheck.lookup.warm import build_index_cache

    build_index_cache(progress=lambda text: click.echo(text, err=True))
    click.echo(
        f"deckcheck: imported {len(summary.files)} file(s) in {summary.seconds:.1f} s", err=True
    )
    return EXIT_OK


@db.command(
    "reset",
    epilog="""\b
Examples:
  deckcheck db reset                 remove a corrupt database (asks first)
  deckcheck db reset --yes && deckcheck update""",
)
@click.option(
    "-y", "--yes", is_flag=True, help="Do not ask (scripts); without a terminal it is needed."
)
def reset_cmd(yes: bool) -> int:
    """Remove the installed card database (for instance a corrupt one), after asking.

    Until the next 'deckcheck db import' or 'deckcheck update', lookups use the built-in
    sample of cards. Lists and formats are kept.
    """
    from deckcheck import paths
    from deckcheck.carddb.importer import reset

    db_path = paths.database_path()
    if not db_path.exists() and not db_path.is_symlink():
        click.echo("deckcheck: no card database installed; nothing to remove", err=True)
        return EXIT_OK
    if not yes:
        # It deletes what an update or import took minutes to build: never unasked
        # (issue 32); a script says --yes, and without a terminal nothing can be asked.
        if not _can_ask():
            raise InputError(
                f"db reset removes {db_path}; pass --yes to remove it without asking "
                "(no terminal to ask on)"
            )
        if not click.confirm(f"Remove the card database {db_path}?", default=False, err=True):
            click.echo("deckcheck: nothing removed", err=True)
            return EXIT_OK
    removed = reset()
    if removed is None:
        click.echo("deckcheck: no card database installed; nothing to remove", err=True)
    else:
        click.echo(f"removed {removed}", err=True)
    return EXIT_OK


@db.command(
    "info",
    epilog="""\b
Examples:
  deckcheck db info
  deckcheck db info --output json | jq .by_scope""",
)
@output_option()
def info(output: str) -> int:
    """Show the installed card database: path, counts by kind, scope and language, sources."""
    from deckcheck.carddb import open_db

    data = open_db().info()
    from deckcheck.update.apply import installed_sources

    # The importer records cached file paths; the update state knows the URL each came from.
    data["update"] = {} if data["sample"] else installed_sources()
    from deckcheck import paths
    from deckcheck.formats.faults import read_faults

    # official lists refused as upstream faults (issue 15): the previous list stays in force
    data["refused_lists"] = read_faults(paths.lists_dir())
    # cards per video game, by source, and what to install where there is none (issue 27)
    from deckcheck.formats.catalog import ListStore
    from deckcheck.gamepool import info as game_info

    data["games"] = game_info((data.get("official") or {}).get("games") or {}, ListStore.default())
    if output == "json":
        click.echo(to_json(data))
    else:
        from deckcheck.render.db import info_text

        click.echo(info_text(data))
    return EXIT_OK


def _can_ask() -> bool:
    """Whether a question can be answered: stdin is a terminal."""
    return sys.stdin.isatty()
