"""The P1 peer: a bare click CLI that reads the same deck file (the framework's floor).

    python benchmarks/peer_click.py validate deck.ydk

What any click command that opens a ``.ydk`` and says something about it costs: the
interpreter, ``import click``, parsing the command line, reading the file, one line out.
"""

from __future__ import annotations

import click


@click.group()
def cli() -> None:
    """A bare click CLI."""


@cli.command()
@click.argument("path", type=click.Path(dir_okay=False))
def validate(path: str) -> None:
    """Count the passcode lines of a deck."""
    with open(path, encoding="utf-8-sig") as f:
        n = sum(1 for line in f if line.strip().isdigit())
    click.echo(f"{path}: {n} cards")


if __name__ == "__main__":
    cli()
