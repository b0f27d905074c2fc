"""The per-deck context every rule reads, and the finding shortcuts rules share."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from operator import attrgetter
from typing import Any, Protocol

from deckcheck.codes import finding
from deckcheck.model import Banlist, Card, Deck, DeckEntry, Finding, Format


class CardSource(Protocol):
    """Anything with ``get(id) -> Card | None``: the card database or a dict-backed stub."""

    def get(self, card_id: int) -> Card | None: ...


# Plain classes with __slots__, not dataclasses: they are built on every `deckcheck validate`
# start, and dataclass creation costs about a millisecond each (start-up is a feature).


class Tally:
    """Copies of one card over main + extra + side, with where it first appears."""

    __slots__ = ("canonical", "name", "count", "section", "line", "card")

    def __init__(self, canonical: int, name: str, first: DeckEntry, card: Card | None):
        self.canonical = canonical
        self.name = name
        self.card = card
        self.count = 0  # the engine adds each entry's count, the first one included
        self.section, self.line = first.section, first.line  # where the card first appears

    def label(self) -> str:
        return f"{self.name} ({self.canonical})"

    def copy(self) -> Tally:
        """A separate tally with the same fields (the engine splits a shared one)."""
        t = Tally.__new__(Tally)
        t.canonical, t.name, t.card, t.count = self.canonical, self.name, self.card, self.count
        t.section, t.line = self.section, self.line
        return t


#: ``Context.flags`` bits, set by the engine's tally: what rules can skip a deck for quickly
HAS_UNKNOWN, HAS_TOKEN, HAS_SKILL = 1, 2, 4


class Context:
    """What rules see: the deck, the format on the event date, the list and resolved cards."""

    __slots__ = (
        "deck",
        "fmt",
        "banlist",
        "date",
        "points_cap",
        "_entries",
        "_pending",
        "tallies",
        "printings",
        "counts",
        "flags",
        "present",
    )

    def __init__(
        self,
        deck: Deck,
        fmt: Format,
        banlist: Banlist | None,
        date: dt.date,
        points_cap: int | None,
    ):
        self.deck = deck
        self.fmt = fmt
        self.banlist = banlist
        self.date = date
        self.points_cap = points_cap
        self._entries: list[tuple[DeckEntry, Card | None]] | None = []
        #: (entries, passcode -> card, their passcodes): what ``entries`` is built from on
        #: first use (the engine's tally leaves it so; most decks need no rule to read it)
        self._pending: tuple[list[DeckEntry], dict[Any, Card | None], list[Any]] | None = None
        self.tallies: dict[int, Tally] = {}  # by canonical card
        self.printings: dict[int, Tally] = {}  # by passcode (known cards)
        self.counts: dict[str, int] = {}  # per section, skill cards left out
        #: HAS_UNKNOWN | HAS_TOKEN | HAS_SKILL: the deck holds such a card (set by the tally;
        #: all set, "look at every entry", until it runs)
        self.flags = HAS_UNKNOWN | HAS_TOKEN | HAS_SKILL
        #: "main"/"extra" -> the passcodes in that section, as keys (set by the tally; empty:
        #: not tallied, look at every entry)
        self.present: dict[str, dict[int | None, Any]] = {}

    #: ``card.kind`` (computed once per card, then a plain attribute): a C-level getter,
    #: because rules ask it for every entry of every deck.
    kind: Callable[[Card], str] = staticmethod(attrgetter("kind"))  # type: ignore[assignment]

    @property
    def entries(self) -> list[tuple[DeckEntry, Card | None]]:
        """Every entry of the deck (Main, Extra, Side in order) with its card (None: unknown)."""
        got = self._entries
        if got is None:
            every, card_of, ids = self._pending  # type: ignore[misc]
            got = self._entries = list(zip(every, map(card_of.__getitem__, ids), strict=True))
            self._pending = None
        return got

    @entries.setter
    def entries(self, value: list[tuple[DeckEntry, Card | None]]) -> None:
        self._entries, self._pending = value, None

    def defer_entries(
        self, every: list[DeckEntry], card_of: dict[Any, Card | None], ids: list[Any]
    ) -> None:
        """Let ``entries`` be built from ``every`` and the cards of ``ids`` when first read."""
        self._entries, self._pending = None, (every, card_of, ids)

    def list_label(self) -> str:
        return self.banlist.label if self.banlist is not None else "no list"


class Memo:
    """One rule's per-card answers for one (format, list, date): what a batch would otherwise
    work out again for every deck that holds the card. An answer is stored with the ``Card``
    it was worked out for and is only used for that very object (``table[id] = (card,
    answer)``; compare with ``is``), so a card source that answers differently gets fresh
    work. Formats, lists and cards are immutable records."""

    __slots__ = ("_key", "_table")

    def __init__(self) -> None:
        self._key: tuple[Any, ...] | None = None
        self._table: dict[int, tuple[Card, Any]] = {}

    def table(self, ctx: Context) -> dict[int, tuple[Card, Any]]:
        """The answers for the context's format, list and date (a new table on a change)."""
        k = self._key
        if k is None or k[0] is not ctx.fmt or k[1] is not ctx.banlist or k[2] != ctx.date:
            self._key = (ctx.fmt, ctx.banlist, ctx.date)
            self._table = {}
        return self._table


def plural(n: int, word: str = "copy", many: str = "copies") -> str:
    return f"{n} {word if n == 1 else many}"


def of_card(code: str, message: str, t: Tally, *, limit: int | None = None) -> Finding:
    """A finding about one card of the deck, counted over every section (a ``Tally``)."""
    return finding(code, message, section=t.section, line=t.line, card_id=t.canonical,
                   card_name=t.name, count=t.count, limit=limit)


def of_entry(
    code: str, message: str, entry: DeckEntry, card: Card | None, *, limit: int | None = None
) -> Finding:
    """A finding about one line of the deck (``card``: the card it holds, None when unknown)."""
    return finding(code, message, section=entry.section, line=entry.line,
                   card_id=card.id if card is not None else entry.card_id,
                   card_name=card.name if card is not None else None, count=entry.count,
                   limit=limit)


RuleCheck = Callable[[Context], Iterator[Finding]]
