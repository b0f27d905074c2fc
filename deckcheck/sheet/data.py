"""What goes on a decklist sheet: the player block and the deck sorted into its sections."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable
from typing import Any

from deckcheck.errors import InputError
from deckcheck.model import Card, Deck
from deckcheck.records import Record, field, record

MAIN_ROWS = 18  # rows of the Monster, Spell and Trap columns on Konami's sheet
SIDE_ROWS = 15  # rows of the Extra Deck and Side Deck boxes
KINDS = ("monster", "spell", "trap")
#: the sheet's total boxes, as Konami prints them (and names the fields of its fillable form)
TOTALS = {
    "monster": "Total Monster Cards",
    "spell": "Total Spell Cards",
    "trap": "Total Trap Cards",
    "extra": "Total Extra Deck",
    "side": "Total Side Deck",
}


@record
class Line(Record):
    """One row of the sheet: a card's name and its copies in that section."""

    name: str
    count: int


@record
class Player(Record):
    """The player block. Empty strings are printed as blank boxes to fill in by hand."""

    first_middle: str = ""
    last: str = ""
    card_game_id: str = ""
    country: str = ""
    event: str = ""
    date: dt.date | None = None

    @property
    def initial(self) -> str:
        return self.last[:1].upper()

    @property
    def full_name(self) -> str:
        return " ".join(p for p in (self.first_middle, self.last) if p)


def split_name(name: str | None) -> tuple[str, str]:
    """(first and middle names, last names) of ``--player``: "Last, First" or "First … Last"."""
    name = " ".join((name or "").split())
    if not name:
        return "", ""
    if "," in name:
        last, first = (p.strip() for p in name.split(",", 1))
        return first, last
    parts = name.rsplit(" ", 1)
    return (parts[0], parts[1]) if len(parts) == 2 else ("", parts[0])


@record
class Sheet(Record):
    """A deck in the sheet's sections, each card once per section with its copies."""

    source: str
    monster: tuple[Line, ...] = ()
    spell: tuple[Line, ...] = ()
    trap: tuple[Line, ...] = ()
    extra: tuple[Line, ...] = ()
    side: tuple[Line, ...] = ()
    lang: str = "en"
    notes: tuple[str, ...] = field(default=())

    def total(self, section: str) -> int:
        lines: tuple[Line, ...] = getattr(self, section)
        return sum(line.count for line in lines)

    @property
    def main_total(self) -> int:
        return sum(self.total(k) for k in KINDS)

    @property
    def pages(self) -> int:
        """Sheets needed so that no card is dropped (18 rows per kind, 15 per Extra/Side)."""
        need = [-(-len(getattr(self, k)) // MAIN_ROWS) for k in KINDS]
        need += [-(-len(getattr(self, k)) // SIDE_ROWS) for k in ("extra", "side")]
        return max(1, *need)


def sheet_deck(
    deck: Deck, get: Callable[[int], Card | None], name: Callable[[int], str], lang: str = "en"
) -> Sheet:
    """``deck`` sorted for the sheet: Main Deck cards by kind, Extra and Side Deck as they are.

    ``get`` looks a passcode up (the card database's ``get``), ``name(canonical)`` gives the
    name to print. Copies of one card (alternate artworks too) share a row, in the order the
    deck first lists them. A card the database does not know, an unresolved name or a skill
    card cannot be written on the sheet: that is an error naming the line, never a gap.
    """
    rows: dict[str, dict[int, list[Any]]] = {k: {} for k in (*KINDS, "extra", "side")}
    for entry in deck.entries():
        where = f"{deck.source}:{entry.line}" if entry.line else deck.source
        card = get(entry.card_id) if entry.card_id is not None else None
        if card is None:
            what = entry.query or (str(entry.card_id) if entry.card_id is not None else entry.raw)
            raise InputError(
                f"unknown card {what!r} (not in the card database, or an ambiguous name): a "
                "decklist names every card; fix the deck first (`deckcheck validate` lists "
                "the candidates)",
                where=where,
            )
        kind = card.kind
        if kind == "skill":
            raise InputError(
                f"{card.name!r} is a skill card: the TCG decklist has no place for it", where=where
            )
        section: str = entry.section
        if section == "main":
            section = kind if kind in KINDS else "monster"  # tokens: DC104 already flags them
        row = rows[section].get(card.canonical)
        if row is None:
            row = rows[section][card.canonical] = [name(card.canonical), 0]
        row[1] += entry.count
    made = {k: tuple(Line(n, c) for n, c in v.values()) for k, v in rows.items()}
    return Sheet(
        source=deck.source,
        monster=made["monster"],
        spell=made["spell"],
        trap=made["trap"],
        extra=made["extra"],
        side=made["side"],
        lang=lang,
    )


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write a sheet all or nothing: the one atomic writer for users' files."""
    from deckcheck.decks.write import write_atomic

    write_atomic(path, data)
