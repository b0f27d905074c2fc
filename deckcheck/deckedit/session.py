"""A deck-editing session: the card database, lookup index, date and format that the
``deck`` commands (or a library user) load, resolve, edit and check a deck file with."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any

from deckcheck.deckedit.cards import card_in_deck, resolve_card
from deckcheck.deckedit.check import Check, Checked, check, checked_edit
from deckcheck.deckedit.files import DeckFile, format_id_for, load
from deckcheck.deckedit.operations import Change
from deckcheck.records import Record, record


@record(frozen=False)
class Session(Record):
    """Loads deck files, resolves CARD arguments and runs checked edits in one format."""

    db: Any
    index: Any
    date: dt.date
    format_id: str | None = None
    _engine: Any = None  # made on first use (``engine``): not a field

    def fmt(self, df: DeckFile | None = None) -> Any:
        """The format asked for, else the file's "#format" line, else tcg."""
        from deckcheck.formats import get_format

        return get_format(format_id_for(df, self.format_id))

    def load(self, path: str | Path) -> DeckFile:
        return load(path, self.db, self.index)

    def card(self, query: str) -> int:
        """The passcode CARD names (``NotResolved`` with candidates when it names none)."""
        return resolve_card(query, self.db, self.index)

    def card_in(self, df: DeckFile, query: str) -> int:
        """The card an edit of ``df`` is about (a passcode in the deck is always itself)."""
        return card_in_deck(query, df.deck, self.db, self.index)

    def names(self, lang: str) -> Callable[[int], str] | None:
        """Card names in ``lang`` for findings (None: the report's own English names)."""
        return (lambda cid: self.db.name(cid, lang)) if lang != "en" else None

    @property
    def engine(self) -> Any:
        """The session's ``deckcheck.engine.Engine`` over its database (made on first use)."""
        got = self._engine
        if got is None:
            from deckcheck.engine import Engine

            got = self._engine = Engine(self.db)
        return got

    def check(self, df: DeckFile, fmt: Any, lang: str = "en") -> Check:
        return check(df.deck, fmt, self.db, self.date, lang=lang, engine=self.engine)

    def edit(
        self, df: DeckFile, fmt: Any, op: Callable[[Any], Change], lang: str = "en"
    ) -> Checked:
        """Run ``op(format on the date)`` on ``df`` between two checks; nothing is saved."""
        on = fmt.at(self.date)
        return checked_edit(
            lambda: df.deck, lambda: op(on), fmt, self.db, self.date, lang, self.engine
        )
