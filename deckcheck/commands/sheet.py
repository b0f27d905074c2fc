"""``deckcheck sheet``: a deck's decklist registration sheet as a PDF (own layout or Konami's)."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click

from deckcheck.errors import InputError
from deckcheck.sheet.fonts import CJK, LANGS


def load_deck(item: str, db: Any, index_holder: list[Any]) -> Any:
    """The deck at ``item`` (path, ydke:// URL or -), names resolved through the database."""
    from deckcheck import decks

    if item == "-":
        deck = decks.read_stdin()
    elif item.startswith("ydke://"):
        deck = decks.read_string(item, source=item)
    else:
        if not os.path.exists(item):
            raise InputError("no such file or directory", where=item)
        deck = decks.read_path(item)
    if any(e.card_id is None and e.query for e in deck.entries()):
        from deckcheck.decks.resolve import resolve_deck
        from deckcheck.lookup import Index

        if not index_holder:
            index_holder.append(Index.for_db(db))
        deck = resolve_deck(deck, db, index_holder[0])
    return deck


def make_sheet(deck: Any, db: Any, lang: str) -> Any:
    from deckcheck.sheet import sheet_deck

    return sheet_deck(deck, db.get, lambda cid: db.name(cid, lang), lang)


def write_sheet(
    sheet: Any, player: Any, out: str | os.PathLike[str], template: str | None = None
) -> int:
    """Write the PDF (all or nothing); the number of pages of our own layout it needed."""
    from deckcheck.sheet import write_bytes_atomic

    if template is not None:
        from deckcheck.sheet.acroform import fill

        data = fill(template, sheet, player)
    else:
        from deckcheck.sheet.pdf import render

        data = render(sheet, player)
    write_bytes_atomic(out, data)
    return int(sheet.pages)


def summary(sheet: Any) -> str:
    return (
        f"Main Deck {sheet.main_total} (Monster {sheet.total('monster')}, "
        f"Spell {sheet.total('spell')}, Trap {sheet.total('trap')}), "
        f"Extra Deck {sheet.total('extra')}, Side Deck {sheet.total('side')}"
    )


def sheet_names(inputs: Iterable[str], folder: Path) -> list[Path]:
    """One ``<deck name>.pdf`` per input in ``folder``; a repeated name gets ``-2``, ``-3``…"""
    seen: dict[str, int] = {}
    out = []
    for i, item in enumerate(inputs, 1):
        if item.startswith("ydke://") or item in ("-", "<stdin>"):
            stem = f"deck-{i}"
        else:
            stem = Path(item).stem or f"deck-{i}"
        n = seen.get(stem.lower(), 0) + 1
        seen[stem.lower()] = n
        out.append(folder / (f"{stem}.pdf" if n == 1 else f"{stem}-{n}.pdf"))
    return out


@click.command(
    "sheet",
    epilog="""\b
Examples:
  deckcheck sheet deck.ydk --player "Seto Kaiba" --id 0123456789 --out decklist.pdf
  deckcheck sheet deck.ydk --lang ja --event "Regional" --date 2026-07-04 --out ja.pdf
  deckcheck sheet deck.ydk --template KDE_DeckList.pdf --out filled.pdf

\b
--player "First Middle Last" or "Last, First Middle". Japanese, Korean and Chinese
names need the font of the Debian package fonts-wqy-microhei.""",
)
@click.argument("deck_path", metavar="DECK")
@click.option("--out", "out_path", required=True, metavar="FILE.pdf", help="The PDF to write.")
@click.option("--player", metavar="NAME", help='Player name: "First Middle Last" or "Last, First".')
@click.option("--id", "card_game_id", metavar="ID", help="Konami Card Game ID.")
@click.option("--country", metavar="COUNTRY", help="Country of residency.")
@click.option("--event", metavar="NAME", help="Event name.")
@click.option("--date", "date_text", metavar="YYYY-MM-DD", help="Event date.")
@click.option(
    "--lang",
    type=click.Choice(LANGS),
    default="en",
    show_default=True,
    help="Language of the card names.",
)
@click.option(
    "--template",
    type=click.Path(dir_okay=False),
    metavar="PDF",
    help="Konami's fillable KDE_DeckList.pdf: fill its fields instead of drawing a sheet.",
)
def sheet(
    deck_path: str,
    out_path: str,
    player: str | None,
    card_game_id: str | None,
    country: str | None,
    event: str | None,
    date_text: str | None,
    lang: str,
    template: str | None,
) -> int:
    """Write a deck's decklist registration sheet (Konami's TCG layout) as a PDF."""
    from deckcheck.carddb import open_db
    from deckcheck.sheet import Player, split_name
    from deckcheck.sheet.fonts import find_font

    date = None
    if date_text is not None:
        try:
            date = dt.date.fromisoformat(date_text)
        except ValueError:
            raise click.BadParameter(
                f"{date_text!r} is not a date (YYYY-MM-DD)", param_hint="--date"
            ) from None
    if template is not None and not os.path.isfile(template):
        raise InputError("no such file", where=template)
    if lang in CJK and template is None:
        find_font(lang)  # a missing font is one clear error before any work
    db = open_db()
    deck = load_deck(deck_path, db, [])
    made = make_sheet(deck, db, lang)
    first, last = split_name(player)
    who = Player(first, last, card_game_id or "", country or "", event or "", date)
    pages = write_sheet(made, who, out_path, template)
    more = f", {pages} pages (more cards than rows continue)" if pages > 1 else ""
    click.echo(f"wrote {out_path}: {summary(made)}{more}", err=True)
    if deck.findings:
        click.echo(
            f"deckcheck: note: {deck.source} has {len(deck.findings)} reading problem(s); "
            "`deckcheck validate` shows them",
            err=True,
        )
    return 0


def write_batch_sheets(
    inputs: list[str], folder: str, db: Any, date: dt.date, lang: str | None
) -> tuple[int, list[str]]:
    """``validate --sheets``: a sheet per (legal) input in ``folder``; (written, notes)."""
    from deckcheck.errors import DeckcheckError
    from deckcheck.sheet import Player

    lang = lang if lang in LANGS else "en"
    written, notes = 0, []
    index: list[Any] = []
    for item, target in zip(inputs, sheet_names(inputs, Path(folder)), strict=True):
        try:
            if item == "<stdin>":
                raise InputError("standard input cannot be read a second time")
            made = make_sheet(load_deck(item, db, index), db, lang)
            write_sheet(made, Player(date=date), target)
            written += 1
        except DeckcheckError as exc:
            notes.append(f"deckcheck: note: no sheet for {item}: {exc}")
    return written, notes
