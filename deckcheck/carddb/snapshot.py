"""A card table held in memory: what a worker or a cluster node checks decks against without
a database file (every card read once, picklable, shipped once)."""

from __future__ import annotations

from typing import Any

from deckcheck.model import Card


class CardSnapshot:
    """``get(id) -> Card | None`` over every card of a database (no database needed).

    Made with ``CardSnapshot.of(db)``: the cards are the database's own (``CardDB.get``'s
    records, official release data applied), so a deck checks the same against either.
    Pickles as its cards (a few MB for the full database).
    """

    __slots__ = ("cards", "fingerprint", "get")

    def __init__(self, cards: dict[int, Card], fingerprint: str = ""):
        self.cards = cards
        self.fingerprint = fingerprint
        self.get = cards.get  # a C-level lookup: rules call it for every distinct card

    @classmethod
    def of(cls, db: Any) -> CardSnapshot:
        """The snapshot of an open ``CardDB`` (its card rows read in one query)."""
        return cls(db.all_cards(), db.fingerprint)

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards

    def __reduce__(self) -> tuple[Any, ...]:
        return (CardSnapshot, (self.cards, self.fingerprint))
