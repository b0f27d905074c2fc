"""``deckcheck db``: build the card database from cdb files and show what is installed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from deckcheck.errors import EXIT_OK


@click.group(
    "db",
    epilog="""\b
Examples:
  deckcheck db import cards.cdb locales/*/cards.cdb
  deckcheck db import --dialect ygopro ygopro/cards.cdb
  deckcheck db info --output json""",
)
def db() -> None:
    """Import and inspect the card database."""


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
@click.option(
    "--lang",
    default=None,
    metavar="L",
    help="Read every file as a names file in this language (default: from locales/<lang>/).",
)
def import_cmd(files: tuple[Path, ...], dialect: str | None, lang: str | None) -> int:
    """Build or extend the card database from EDOPro/YGOPro cards.cdb files and official data.

    Files merge in order (later files win); the installed database is extended and
    replaced only when the import is complete. Files under locales/<lang>/ add names.
    yaml-yugi cards.json/rush.json/skill.json (Konami ids, official names) and a YGOJSON
    folder or individual.zip (release dates) are recognised by content; they need cards.
    """
    from deckcheck.carddb.importer import import_files

    summary = import_files(
        list(files), dialect=dialect, lang=lang, progress=True,
        note=lambda text: click.echo(f"deckcheck: note: {text}", err=True),
    )
    for f in summary.files:
        if f.kind == "cards":
            what = f"{f.rows} cards ({f.dialect})"
        elif f.kind == "names":
            what = f"{f.rows} names ({f.lang})"
        else:
            unmapped = sum((f.unmapped or {}).values())
            what = f"{f.kind}: {f.rows} records, {f.mapped} mapped, {unmapped} not mapped"
        click.echo(f"{f.path}: {what}")
    langs = ", ".join(f"{lg} {n}" for lg, n in summary.names_by_lang.items())
    click.echo(f"database: {summary.db_path}")
    click.echo(f"cards: {summary.cards}")
    click.echo(f"names: {langs}")
    click.echo(
        f"deckcheck: imported {len(summary.files)} file(s) in {summary.seconds:.1f} s", err=True
    )
    return EXIT_OK


def _text(info: dict[str, Any]) -> str:
    lines = [
        f"database: {info['path']}" + ("  (built-in sample)" if info["sample"] else ""),
        f"schema: {info['schema_version']}  built: {info['built_at']}  "
        f"fingerprint: {info['fingerprint']}",
        f"cards: {info['cards']}",
        "by kind: " + ", ".join(f"{k} {n}" for k, n in info["by_kind"].items()),
        "by scope: " + ", ".join(f"{k} {n}" for k, n in info["by_scope"].items()),
        "names: " + ", ".join(f"{k} {v['names']}" for k, v in info["names"].items()),
        "sources:",
    ]
    for s in info["sources"]:
        extra = s["dialect"] if s["kind"] in ("cards", "sample") else s["lang"]
        lines.append(
            f"  {s['path']}  {s['kind']} ({extra}), {s['rows']} rows, {s['size']} bytes, "
            f"sha256 {s['sha256']}, imported {s['imported_at']}"
        )
    off = info.get("official") or {}
    if off.get("sources"):
        lines.append(
            "official: releases " + ", ".join(f"{k} {n}" for k, n in off["releases"].items())
            + "; Konami ids " + ", ".join(f"{k} {n}" for k, n in off["konami_ids"].items())
            + f"; prerelease->official {off['prerelease_to_official']}"
        )
        for s in off["sources"]:
            lines.append(
                f"  {s['path']}  {s['kind']}, {s['rows']} rows, {s['mapped']} mapped, "
                f"{s['unmapped']} not mapped, sha256 {s['sha256']}, imported {s['imported_at']}"
            )
    if info.get("update"):
        lines.append("installed by 'deckcheck update':")
        for key, u in sorted(info["update"].items()):
            lines.append(
                f"  {key}: {u.get('location')}  sha256 {u.get('sha256')}, "
                f"{u.get('size')} bytes, installed {u.get('installed_at', '?')}"
            )
    return "\n".join(lines)


@db.command(
    "info",
    epilog="""\b
Examples:
  deckcheck db info
  deckcheck db info --output json | jq .by_scope""",
)
@click.option(
    "-o", "--output", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def info(output: str) -> int:
    """Show the installed card database: path, counts by kind, scope and language, sources."""
    from deckcheck.carddb import open_db

    data = open_db().info()
    from deckcheck.update.apply import installed_sources

    # The importer records cached file paths; the update state knows the URL each came from.
    data["update"] = {} if data["sample"] else installed_sources()
    if output == "json":
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        click.echo(_text(data))
    return EXIT_OK
