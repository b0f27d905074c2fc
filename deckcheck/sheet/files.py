"""Sheets for decks on disk: each deck read and resolved, its sheet built and written whole."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from deckcheck.errors import InputError
from deckcheck.sheet.fonts import LANGS


def load_deck(item: str, db: Any, index_holder: list[Any]) -> Any:
    """The deck at ``item`` (path, ydke:// URL or -), names resolved through the database."""
    from deckcheck import decks

    if item == "-":
        deck = decks.read_stdin()
    elif decks.ydke.is_argument(item):
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
