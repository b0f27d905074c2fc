"""Which card an edit is about: resolving a CARD argument, artwork identity, where a card
belongs, copies in a deck, and the errors of deck editing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from deckcheck.carddb import goes_to_extra
from deckcheck.errors import DeckcheckError
from deckcheck.model import SECTIONS, Card, Deck, Format, Section

#: Section names as users write them in messages.
SECTION_LABEL = {"main": "Main Deck", "extra": "Extra Deck", "side": "Side Deck"}


class EditError(DeckcheckError):
    """An edit that cannot be made as asked (the file is left untouched)."""


class NotResolved(DeckcheckError):
    """A card name that names no card or several: the caller lists the candidates (exit 1)."""

    exit_code = 1

    def __init__(self, resolution: Any):
        what = "matches more than one card" if resolution.status == "ambiguous" else "is unknown"
        super().__init__(f'"{resolution.query}" {what}')
        self.resolution = resolution

    def candidates(self, limit: int = 8) -> list[tuple[int, str]]:
        seen: dict[int, str] = {}
        for m in self.resolution.candidates:
            seen.setdefault(m.card_id, m.name)
        return list(seen.items())[:limit]


def is_passcode(query: str) -> bool:
    """True when a CARD argument is written as a passcode (digits only)."""
    q = query.strip()
    return q.isascii() and q.isdigit()


def resolve_card(query: str, db: Any, index: Any, lang: str | None = None) -> int:
    """The passcode a CARD argument names: a passcode of the database as written (an
    alternate artwork stays itself), else a name in any language through the lookup index.
    Raises ``NotResolved`` (ambiguous or unknown, with candidates)."""
    q = query.strip()
    if q.isascii() and q.isdigit() and db.get(int(q)) is not None:
        return int(q)
    res = index.resolve(q, lang) if lang else index.resolve(q)
    if res.status != "found" or res.card_id is None:
        raise NotResolved(res)
    return int(res.card_id)


def card_in_deck(query: str, deck: Deck, db: Any, index: Any) -> int:
    """The card an edit of ``deck`` is about: a passcode present in the deck is that card
    even when the database does not know it (anime or custom cards, so they can still be
    removed or moved), else ``resolve_card``."""
    q = query.strip()
    if is_passcode(q) and any(e.card_id == int(q) for e in deck.entries()):
        return int(q)
    return resolve_card(query, db, index)


def art_root(card_id: int, db: Any) -> int:
    """The card a passcode is an artwork of (itself for "always treated as" cards: those are
    other cards that only count together)."""
    # Deck editing reads card identity from the card database (its list key), nowhere else.
    return int(db.list_key(card_id))


def home_section(card: Card, fmt: Format) -> Section:
    return "extra" if goes_to_extra(card, fmt) else "main"


def tally(deck: Deck) -> Counter[tuple[str, int]]:
    """Copies per (section, passcode) of resolved entries."""
    out: Counter[tuple[str, int]] = Counter()
    for e in deck.entries():
        if e.card_id is not None:
            out[(e.section, e.card_id)] += e.count
    return out


def copies_of(deck: Deck, root: int, db: Any, sections: Iterable[str] = SECTIONS) -> int:
    want = set(sections)
    return sum(
        e.count
        for e in deck.entries()
        if e.card_id is not None and e.section in want and art_root(e.card_id, db) == root
    )
