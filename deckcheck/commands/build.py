"""``deckcheck build``: a text decklist in any language becomes a .ydk file, or nothing."""

from __future__ import annotations

import click

from deckcheck.commands.options import lang_option, names_option, out_option
from deckcheck.errors import EXIT_ILLEGAL, EXIT_OK, error_line


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
# `build LIST.txt -o DECK.ydk` is the documented spelling (SPEC §4, examples/README.md):
# -o is --out here, not a deprecated one (build has no output kind); --output still is.
@out_option(metavar="DECK.ydk", old=("--output",), short="-o")
@names_option(True, "Add a '# Card Name' comment line before each card (default: on).")
@lang_option(
    short=False,
    metavar="L",
    help="Language of the names in the .ydk comments and in messages (en, ja, zh-CN, ko …; "
    "BCP 47 tags such as ja-JP too).",
)
def build(list_file: str, out: str | None, names: bool, lang: str) -> int:
    """Build a .ydk deck from LIST.txt (names in any language, passcodes, or - for stdin).

    Every line must resolve to exactly one card: unknown and ambiguous names are listed
    with candidates and no .ydk is written, so a deck never silently lacks a card.
    """
    from deckcheck.deckout import check_readable, deck_text, load_deck, save
    from deckcheck.decks.cli_support import format_finding

    got = load_deck(list_file, lang=lang, resolve_always=True, check_passcodes=True)
    for note in got.notes:
        click.echo(f"{got.deck.source}: note: {note}", err=True)
    if got.problems:
        for f in got.problems:
            click.echo(format_finding(got.deck.source, f), err=True)
        n = len(got.problems)
        click.echo(error_line(f"{n} line(s) not resolved; no deck written"), err=True)
        return EXIT_ILLEGAL
    text = deck_text(got, "ydk", names=names, lang=lang)
    check_readable(text, "ydk", got.deck)
    if not save(text, out):
        click.echo(text, nl=False)
    c = got.deck.counts()
    click.echo(
        f"{out or 'stdout'}: main {c['main']}, extra {c['extra']}, side {c['side']}", err=True
    )
    return EXIT_OK
