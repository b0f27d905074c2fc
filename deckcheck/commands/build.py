"""``deckcheck build``: a text decklist in any language becomes a .ydk file, or nothing."""

from __future__ import annotations

import click

from deckcheck.commands.options import names_option, out_option
from deckcheck.errors import EXIT_ILLEGAL, EXIT_OK


@click.command(
    "build",
    epilog="""\b
Examples:
  deckcheck build list.txt --out deck.ydk
  deckcheck build 卡组.txt --out deck.ydk --lang zh-CN
  deckcheck build list.txt --out deck.ydk --no-names
  deckcheck build - --out deck.ydk < list.txt

\b
A list looks like:
  Main Deck
  3 Ash Blossom & Joyous Spring
  灰流丽 x3
  Extra Deck:
  1 Accesscode Talker

Exit codes: 0 written, 1 a line could not be read or a name is unknown or
ambiguous (candidates on stderr; no file written), 2 usage or input error.""",
)
@click.argument("list_file", metavar="LIST.txt")
@out_option(metavar="DECK.ydk")
@names_option(True, "Add a '# Card Name' comment line before each card (default: on).")
@click.option(
    "--lang",
    default="en",
    show_default=True,
    metavar="L",
    help="Language of the names in the .ydk comments and in messages (en, ja, zh-CN, ko …).",
)
def build(list_file: str, out: str | None, names: bool, lang: str) -> int:
    """Build a .ydk deck from LIST.txt (names in any language, passcodes, or - for stdin).

    Every line must resolve to exactly one card: unknown and ambiguous names are listed
    with candidates and no .ydk is written, so a deck never silently lacks a card.
    """
    from deckcheck.carddb import open_db
    from deckcheck.decks import write
    from deckcheck.decks.cli_support import check_ids, format_finding, read_input
    from deckcheck.decks.resolve import resolve_deck
    from deckcheck.lookup import Index

    deck = read_input(list_file, kind=None)
    db = open_db()
    index = Index.for_db(db)
    notes: list[str] = []
    deck = resolve_deck(deck, db, index, notes, lang)
    problems = sorted(
        [*deck.findings, *check_ids(deck, db)], key=lambda f: (f.line is None, f.line or 0)
    )
    for note in notes:
        click.echo(f"{deck.source}: note: {note}", err=True)
    if problems:
        for f in problems:
            click.echo(format_finding(deck.source, f), err=True)
        click.echo(f"deckcheck: {len(problems)} line(s) not resolved; no deck written", err=True)
        return EXIT_ILLEGAL
    text = write.to_ydk(deck, db if names else None, lang=lang)
    if out is None or out == "-":
        click.echo(text, nl=False)
    else:
        write.write_atomic(out, text)
    c = deck.counts()
    click.echo(
        f"{out or 'stdout'}: main {c['main']}, extra {c['extra']}, side {c['side']}", err=True
    )
    return EXIT_OK
