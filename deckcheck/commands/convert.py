"""``deckcheck convert``: a deck between .ydk, ydke:// and text, without losing a card."""

from __future__ import annotations

import click

from deckcheck.commands.options import lang_option, names_option, out_option
from deckcheck.errors import EXIT_ILLEGAL, EXIT_OK, error_line


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
@lang_option(
    "en",
    short=False,
    metavar="L",
    help="Language of card names (BCP 47 tags such as ja-JP, zh-Hant work).",
)
def convert(input_: str, to: str, out: str | None, names: bool, lang: str) -> int:
    """Convert INPUT (a .ydk file, a text decklist, a ydke:// URL, or - for stdin).

    Text decklists are resolved to passcodes through the card database; a line that cannot
    be read or a name that is unknown or ambiguous is reported (with suggestions) and
    nothing is written.
    """
    from deckcheck.deckout import check_readable, deck_text, load_deck, save
    from deckcheck.decks.cli_support import format_finding

    got = load_deck(input_, lang=lang, want_db=names or to == "text", want_index=to == "text")
    for note in got.notes:
        click.echo(f"{got.deck.source}: note: {note}", err=True)
    if got.problems:
        for f in got.problems:
            click.echo(format_finding(got.deck.source, f), err=True)
        click.echo(error_line(f"{len(got.problems)} problem(s); nothing written"), err=True)
        return EXIT_ILLEGAL
    text = deck_text(got, to, names=names, lang=lang)
    check_readable(text, to, got.deck)
    if not save(text, out):
        click.echo(text, nl=False)
    c = got.deck.counts()
    click.echo(
        f"{out or 'stdout'}: {to}, main {c['main']}, extra {c['extra']}, side {c['side']}",
        err=True,
    )
    return EXIT_OK
