"""``deckcheck sheet``: a deck's decklist registration sheet as a PDF (own layout or Konami's)."""

from __future__ import annotations

import datetime as dt
import os

import click

from deckcheck.errors import InputError
from deckcheck.sheet.files import load_deck, make_sheet, summary, write_sheet
from deckcheck.sheet.fonts import CJK, LANGS


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
    "-f",
    "--format",
    "format_id",
    metavar="FORMAT",
    help="Format the deck is checked in before the sheet is written (default: the "
    "configured format, else tcg); an illegal deck is warned about, the sheet still written.",
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
    format_id: str | None,
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
    warning = legality_warning(db, deck, format_id, date)
    if warning:
        click.echo(warning, err=True)
    return 0


def legality_warning(db: object, deck: object, format_id: str | None, date: object) -> str:
    """The one stderr line about a deck that ``validate`` calls illegal in ``format_id`` (else
    the configured format, else TCG) on ``date`` (else today): its error codes, most frequent
    first; "" for a legal deck. With no list installed for the format, a note says the sheet's
    deck was not checked."""
    from collections import Counter

    from deckcheck import config as config_mod
    from deckcheck.engine import Engine
    from deckcheck.errors import DataError

    fid = format_id or config_mod.load().get("format") or "tcg"
    engine = Engine(db)  # type: ignore[arg-type]
    try:
        target = engine.target(fid, date)  # type: ignore[arg-type]
    except DataError as exc:
        return f"deckcheck: note: the deck was not checked before the sheet: {exc}"
    report = engine.check(deck, target)  # type: ignore[arg-type]
    if report.legal:
        return ""
    codes = Counter(f.code for f in report.findings if f.severity == "error" and not f.waived)
    listed = ", ".join(c if n == 1 else f"{c} ×{n}" for c, n in codes.most_common())
    return (
        f"deckcheck: warning: {report.input} is not legal in {target.fmt.name} on "
        f"{target.date.isoformat()} ({listed}); the sheet was written anyway, "
        f"`deckcheck validate -f {fid}` gives the details"
    )
