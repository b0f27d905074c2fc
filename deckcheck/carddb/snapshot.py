"""A card table held in memory: what a worker or a cluster node checks decks against without
a database file (every card read once, picklable, shipped once)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from deckcheck.model import Card, Record, record


@record
class CardSnapshot(Record):
    """``get(id) -> Card | None`` over every card of a database (no database needed).

    Made with ``CardSnapshot.of(db)``: the cards are the database's own (``CardDB.get``'s
    records, official release data applied), so a deck checks the same against either.
    Pickles as its cards (a few MB for the full database).
    """

    cards: dict[int, Card]
    fingerprint: str = ""

    def __post_init__(self) -> None:
        # a C-level lookup: rules call it for every distinct card
        self.__dict__["get"] = self.cards.get

    get: ClassVar[Callable[[int], Card | None]]  # set per snapshot (above)

    @classmethod
    def of(cls, db: Any) -> CardSnapshot:
        """The snapshot of an open ``CardDB`` (its card rows read in one query)."""
        return cls(db.all_cards(), db.fingerprint)

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards
