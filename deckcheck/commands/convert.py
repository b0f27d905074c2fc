"""``deckcheck convert``: a deck between .ydk, ydke:// and text, without losing a card."""

from __future__ import annotations

import click

from deckcheck.commands.options import names_option, out_option
from deckcheck.errors import EXIT_ILLEGAL, EXIT_OK


@click.command(
    "convert",
    epilog="""\b
Examples:
  deckcheck convert deck.ydk --to ydke
  deckcheck convert "ydke://…" --to ydk --out deck.ydk
  deckcheck convert deck.ydk --to text --lang ja
  deckcheck convert list.txt --to ydk --names --out deck.ydk
  cat deck.ydk | deckcheck convert - --to text

Exit codes: 0 converted, 1 a line could not be read or a name not resolved
(nothing is written), 2 usage or input error.""",
)
@click.argument("input_", metavar="INPUT")
@click.option(
    "--to", "to", type=click.Choice(["ydk", "ydke", "text"]), required=True, help="Output kind."
)
@out_option(metavar="OUT")
@names_option(False, "ydk: add a '# Card Name' comment line before each card (default: off).")
@click.option(
    "--lang", default="en", show_default=True, metavar="L", help="Language of card names."
)
def convert(input_: str, to: str, out: str | None, names: bool, lang: str) -> int:
    """Convert INPUT (a .ydk file, a text decklist, a ydke:// URL, or - for stdin).

    Text decklists are resolved to passcodes through the card database; a line that cannot
    be read or a name that is unknown or ambiguous is reported (with suggestions) and
    nothing is written.
    """
    from deckcheck.decks import write
    from deckcheck.decks.cli_support import format_finding, needs_names, read_input

    deck = read_input(input_)
    db: object | None = None
    index = None
    if needs_names(deck) or to == "text" or names:
        from deckcheck.carddb import open_db

        db = open_db()
    if needs_names(deck) or to == "text":
        from deckcheck.lookup import Index

        index = Index.for_db(db)  # type: ignore[arg-type]
    if needs_names(deck):
        from deckcheck.decks.resolve import resolve_deck

        notes: list[str] = []
        deck = resolve_deck(deck, db, index, notes, lang)  # type: ignore[arg-type]
        for note in notes:
            click.echo(f"{deck.source}: note: {note}", err=True)
    if deck.findings:
        for f in deck.findings:
            click.echo(format_finding(deck.source, f), err=True)
        click.echo(f"deckcheck: {len(deck.findings)} problem(s); nothing written", err=True)
        return EXIT_ILLEGAL
    if to == "ydk":
        text = write.to_ydk(deck, db if names else None, lang=lang)  # type: ignore[arg-type]
    elif to == "ydke":
        text = write.to_ydke(deck) + "\n"
    else:
        text = write.to_text(deck, db, lang=lang, index=index)  # type: ignore[arg-type]
    if out is None or out == "-":
        click.echo(text, nl=False)
    else:
        write.write_atomic(out, text)
    c = deck.counts()
    click.echo(
        f"{out or 'stdout'}: {to}, main {c['main']}, extra {c['extra']}, side {c['side']}",
        err=True,
    )
    return EXIT_OK
