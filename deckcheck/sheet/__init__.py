"""Konami's TCG decklist registration sheet for a deck: a PDF of our own, or Konami's form filled.

``sheet_deck(deck, db, lang)`` sorts a resolved deck into the sheet's sections;
``pdf.render(sheet, player)`` draws the sheet (fpdf2); ``acroform.fill(template, sheet, player)``
fills Konami's fillable ``KDE_DeckList.pdf`` (pypdf). Both return PDF bytes.
"""

from __future__ import annotations

from deckcheck.sheet.data import (
    MAIN_ROWS,
    SIDE_ROWS,
    Line,
    Player,
    Sheet,
    sheet_deck,
    split_name,
    write_bytes_atomic,
)

__all__ = [
    "MAIN_ROWS",
    "SIDE_ROWS",
    "Line",
    "Player",
    "Sheet",
    "sheet_deck",
    "split_name",
    "write_bytes_atomic",
]
