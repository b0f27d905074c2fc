"""The record a rule yields and the per-deck context every rule reads."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Protocol

from deckcheck.model import Banlist, Card, Deck, DeckEntry, Format, Section, Severity


class CardSource(Protocol):
    """Anything with ``get(id) -> Card | None``: the card database or a dict-backed stub."""

    def get(self, card_id: int) -> Card | None: ...


# Plain classes with __slots__, not dataclasses: they are built on every `deckcheck validate`
# start, and dataclass creation costs about a millisecond each (start-up is a feature).


class Violation:
    """A plain violation; the engine stamps the rule name and severity from the code."""

    __slots__ = (
        "code",
        "message",
        "section",
        "line",
        "card_id",
        "card_name",
        "count",
        "limit",
        "candidates",
    )

    def __init__(
        self,
        code: str,
        message: str,
        section: Section | None = None,
        line: int | None = None,
        card_id: int | None = None,
        card_name: str | None = None,
        count: int | None = None,
        limit: int | None = None,
        candidates: tuple[tuple[int, str], ...] = (),
    ):
        self.code = code
        self.message = message
        self.section = section
        self.line = line
        self.card_id = card_id
        self.card_name = card_name
        self.count = count
        self.limit = limit
        self.candidates = candidates

    def __repr__(self) -> str:
        return f"Violation({self.code!r}, {self.message!r}, {self.section!r}, {self.line!r})"


class Tally:
    """Copies of one card over main + extra + side, with where it first appears."""

    __slots__ = ("canonical", "name", "count", "section", "line", "card")

    def __init__(
        self,
        canonical: int,
        name: str,
        count: int = 0,
        section: Section | None = None,
        line: int | None = None,
        card: Card | None = None,
    ):
        self.canonical = canonical
        self.name = name
        self.count = count
        self.section = section
        self.line = line
        self.card = card

    def label(self) -> str:
        return f"{self.name} ({self.canonical})"


class Context:
    """What rules see: the deck, the format on the event date, the list and resolved cards."""

    __slots__ = (
        "deck",
        "fmt",
        "banlist",
        "date",
        "points_cap",
        "entries",
        "tallies",
        "printings",
        "counts",
        "kinds",
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
        self.entries: list[tuple[DeckEntry, Card | None]] = []
        self.tallies: dict[int, Tally] = {}  # by canonical card
        self.printings: dict[int, Tally] = {}  # by passcode (known cards)
        self.counts: dict[str, int] = {}  # per section, skill cards left out
        self.kinds: dict[int, str] = {}  # passcode -> Card.kind, computed once

    def kind(self, card: Card) -> str:
        """``card.kind``, cached: rules ask it for every entry of every deck."""
        got = self.kinds.get(card.id)
        if got is None:
            got = self.kinds[card.id] = card.kind
        return got

    def list_label(self) -> str:
        if self.banlist is None:
            return "no list"
        return f"{self.banlist.name} (effective {self.banlist.effective.isoformat()})"


def plural(n: int, word: str = "copy", many: str = "copies") -> str:
    return f"{n} {word if n == 1 else many}"


RuleCheck = Callable[[Context], Iterator[Violation]]
CodeInfo = tuple[str, Severity]  # (rule name, severity)
