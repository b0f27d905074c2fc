"""What a deck still needs from a collection (``deck missing``): a collection is any deck file
or text list of owned cards, copies adding up across files and sections; a card is what
lookup shows as one card (its name key: an alternate artwork, or a passcode of the very same
name, counts as the card; a "treated as" card with another name stays its own card)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from deckcheck.decks.source import MIB, Limits
from deckcheck.errors import InputError
from deckcheck.model import SECTIONS, Deck, Finding, Section
from deckcheck.records import Record, record

#: Collections are bigger than decks: a collector's list of every card owned, one line a card.
COLLECTION_LIMITS = Limits(max_bytes=16 * MIB, max_lines=200_000)


@record
class Need(Record):
    """One card the deck needs more copies of than the collections hold."""

    card_id: int  # the card (its name key)
    name: str | None  # None: a passcode the card database does not know
    need: int  # copies in the deck
    have: int  # copies in the collections

    @property
    def count(self) -> int:
        return self.need - self.have


@record
class Shortfall(Record):
    """The deck against the collections: every card still to get, in deck order."""

    missing: tuple[Need, ...]
    cards: int  # different cards in the deck
    copies: int  # copies in the deck

    @property
    def copies_missing(self) -> int:
        return sum(n.count for n in self.missing)


class Unreadable(InputError):
    """A deck or collection with lines that did not read or names that did not resolve: the
    problems (``file:line: CODE message``) are in ``problems``; nothing was compared."""

    def __init__(self, source: str, problems: list[str]):
        n = len(problems)
        super().__init__(
            f"{n} line{'s' * (n != 1)} not read or not resolved (listed above); nothing compared",
            where=source,
        )
        self.problems = problems


def card_key(db: Any, card_id: int) -> int:
    """The card a passcode counts as (name key; the passcode itself where unknown)."""
    key = getattr(db, "name_key", None)
    return int(key(card_id)) if key is not None else card_id


def read(
    arg: str, db: Any, index: Callable[[], Any], *, lang: str = "en", collection: bool = False
) -> Deck:
    """The deck ``arg`` names (a path, a ``ydke://`` link, ``-``), names resolved in any
    language; ``collection``: read with the collection limits. Raises ``Unreadable`` when a
    line did not read or a name did not resolve (a count of owned cards is never guessed),
    ``InputError`` when the file cannot be read at all."""
    from deckcheck import decks, notes
    from deckcheck.decks.cli_support import format_finding, needs_names
    from deckcheck.decks.resolve import resolve_deck
    from deckcheck.decks.source import DEFAULT_LIMITS

    limits = COLLECTION_LIMITS if collection else DEFAULT_LIMITS
    if arg == "-":
        deck = decks.read_stdin(limits)
    elif decks.ydke.is_argument(arg):
        deck = decks.ydke.parse(arg)
    else:
        deck = decks.read_path(arg, limits)
    if needs_names(deck):
        guessed: list[str] = []
        deck = resolve_deck(deck, db, index(), guessed, lang)
        for line in guessed:  # a name read by a prefix or a close spelling: said, not hidden
            notes.note(f"deckcheck: note: {deck.source}: {line}")
    bad: list[Finding] = [f for f in deck.findings if f.severity == "error"]
    if bad:
        raise Unreadable(deck.source, [format_finding(deck.source, f) for f in bad])
    return deck


def copies(deck: Deck, db: Any, sections: tuple[Section, ...] = SECTIONS) -> Counter[int]:
    """Copies per card (``card_key``) in ``sections`` of ``deck``, in deck order."""
    out: Counter[int] = Counter()
    for s in sections:
        for e in deck.section(s):
            if e.card_id is not None:
                out[card_key(db, e.card_id)] += e.count
    return out


def shortfall(need: Counter[int], have: Counter[int], db: Any, lang: str = "en") -> Shortfall:
    """The cards of ``need`` (copies per card) that ``have`` holds fewer copies of."""
    missing = []
    for cid, n in need.items():
        got = have.get(cid, 0)
        if got < n:
            name = db.name(cid, lang) if db.get(cid) is not None else None
            missing.append(Need(cid, name, n, got))
    return Shortfall(tuple(missing), len(need), sum(need.values()))


__all__ = [
    "COLLECTION_LIMITS",
    "Need",
    "Shortfall",
    "Unreadable",
    "card_key",
    "copies",
    "read",
    "shortfall",
]
