"""``deckcheck deck missing``: the cards and copies a deck still needs beyond the cards owned
(logic in ``deckcheck.deckedit.collection``)."""

from __future__ import annotations

from typing import Any

import click

from deckcheck.commands.options import lang_option
from deckcheck.errors import EXIT_ILLEGAL, EXIT_OK
from deckcheck.render.common import one_line


@click.command(
    "missing",
    epilog="""\b
Examples:
  deckcheck deck missing my.ydk --have binder.txt
  deckcheck deck missing my.ydk --have binder.txt --have box.ydk --output json
  deckcheck deck missing "ydke://…" --have collection.txt --no-side

A collection is any deck file (.ydk, a file holding a ydke:// link) or text list
("3 Ash Blossom & Joyous Spring", names in any language) of cards owned; copies
add up across the files and their sections. Alternate artworks count as the
card. A line that does not read or a name that does not resolve is listed with
its file and line, and nothing is compared (exit 2): a count is never guessed.
Exit codes: 0 nothing missing, 1 cards missing, 2 usage or input error.""",
)
@click.argument("path", metavar="DECK")
@click.option(
    "--have",
    "collections",
    multiple=True,
    required=True,
    metavar="COLLECTION",
    help="A deck file or text list of cards owned; may be repeated.",
)
@click.option("--no-side", is_flag=True, help="Leave the Side Deck out of what is needed.")
@lang_option(
    short=False, metavar="L", help="Language of names (names in the files may be in any language)."
)
@click.option(
    "-o",
    "--output",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Output kind.",
)
def missing_cmd(
    path: str, collections: tuple[str, ...], no_side: bool, lang: str, output: str
) -> int:
    """The cards and copies of DECK still to get beyond the COLLECTIONs."""
    from collections import Counter

    from deckcheck.carddb import open_db
    from deckcheck.deckedit import collection as coll
    from deckcheck.lookup import Index
    from deckcheck.model import SECTIONS, Section
    from deckcheck.render import missing as render

    if collections.count("-") + (path == "-") > 1:
        raise click.UsageError("standard input (-) can be read only once")
    db = open_db()
    index: list[Any] = []

    def lookup() -> Any:  # built only when a text list has names to resolve
        if not index:
            index.append(Index.for_db(db))
        return index[0]

    def read(arg: str, collection: bool) -> Any:
        try:
            return coll.read(arg, db, lookup, lang=lang, collection=collection)
        except coll.Unreadable as exc:
            for line in exc.problems:
                click.echo(one_line(line), err=True)
            raise

    deck = read(path, False)
    have: Counter[int] = Counter()
    for c in collections:
        have.update(coll.copies(read(c, True), db))
    sections: tuple[Section, ...] = ("main", "extra") if no_side else SECTIONS
    got = coll.shortfall(coll.copies(deck, db, sections), have, db, lang)
    emit = render.missing_json if output == "json" else render.missing_text
    click.echo(emit(path, list(collections), got))
    return EXIT_ILLEGAL if got.missing else EXIT_OK
