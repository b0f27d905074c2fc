"""The search box's results: a card name in any language (typos welcome: the lookup index's
ranking, as ``card search`` ranks) or a query of the search language (docs/SEARCH.md,
``search/``), each card with its kind, ATK/DEF or Spell/Trap type, and status."""

from __future__ import annotations

import datetime as dt
from typing import Any

from deckcheck.model import Card
from deckcheck.records import Record, record
from deckcheck.tui.checking import Checking, Status

_EXTRA_KINDS = ("fusion", "synchro", "xyz", "link")
_SPELL_TRAP = ("quick-play", "continuous", "equip", "field", "ritual", "counter")


@record
class Result(Record):
    """One row of the results table."""

    card_id: int
    name: str
    kind: str  # Monster, Fusion, …, Spell, Trap, Skill, Token
    detail: str  # "2500/2100", "2300/L4", "Quick-Play", "Normal"
    status: Status


def kind_label(card: Card | None) -> str:
    if card is None:
        return "?"
    kind = str(card.kind)
    if kind == "monster":
        for t in _EXTRA_KINDS:
            if card.has_type(t):
                return t.capitalize()
    return kind.capitalize()


def detail(card: Card | None) -> str:
    """ATK/DEF of a monster (Link rating for a Link monster), the type of a Spell/Trap."""
    if card is None:
        return ""
    if card.kind == "monster":
        atk = "?" if card.atk < 0 else str(card.atk)
        if card.has_type("link"):
            return f"{atk}/L{card.level & 0xFF}"
        return f"{atk}/{'?' if card.defense < 0 else card.defense}"
    if card.kind in ("spell", "trap"):
        for t in _SPELL_TRAP:
            if card.has_type(t):
                return t.title()
        return "Normal"
    return ""


class Searcher:
    """Runs the search box's text; the card table of the search language is read once."""

    def __init__(self, db: Any, index: Any, lang: str = "en"):
        self.db = db
        self.index = index
        self.lang = lang
        self._rows: list[Any] | None = None
        self._context: Any = None
        self._date: dt.date | None = None

    def search(self, text: str, checking: Checking, limit: int = 40) -> tuple[list[Result], str]:
        """The cards ``text`` finds (at most ``limit``) and a line about them (how many, or
        why a query cannot be read)."""
        from deckcheck.errors import DeckcheckError
        from deckcheck.search import is_query

        text = text.strip()
        if not text:
            return [], "type a card name (any language) or a query such as t:spell"
        lang = self.lang if self.lang != "en" else None  # as `card search` without --lang
        try:
            if is_query(text):
                found, total = self._query(text, checking.date, limit, lang)
            else:
                found = [(m.card_id, m.name) for m in self.index.search(text, lang, limit)]
                total = len(found)
        except DeckcheckError as exc:
            return [], exc.message
        out = [self.result(cid, checking, name) for cid, name in found]
        shown = f"{total} card(s)" if total == len(out) else f"{len(out)} of {total} cards"
        return out, shown if out else f"no card for {text!r}"

    def result(self, card_id: int, checking: Checking, name: str | None = None) -> Result:
        card = self.db.get(card_id)
        return Result(
            card_id,
            name if name is not None else self.name(card_id),
            kind_label(card),
            detail(card),
            checking.status(card_id),
        )

    def name(self, card_id: int) -> str:
        return str(self.db.name(card_id, self.lang))

    def _query(
        self, text: str, date: dt.date, limit: int, lang: str | None
    ) -> tuple[list[tuple[int, str]], int]:
        from deckcheck.search import parse
        from deckcheck.search.table import Context, evaluate, load_rows

        node = parse(text)
        if self._rows is None:
            self._rows = load_rows(self.db)
        if self._context is None or self._date != date:
            self._context = Context(self.db, self.index, date)
            self._date = date
        rows = evaluate(node, self._rows, self._context)
        named = sorted(
            ((r.id, self.index.display_name(r.id, lang)) for r in rows),
            key=lambda r: (r[1].casefold(), r[0]),
        )
        return named[:limit], len(named)


__all__ = ["Result", "Searcher", "detail", "kind_label"]
