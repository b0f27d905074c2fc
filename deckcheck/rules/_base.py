"""The record a rule yields and the per-deck context every rule reads."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

from deckcheck.model import Banlist, Card, Deck, DeckEntry, Format, Section, Severity


class CardSource(Protocol):
    """Anything with ``get(id) -> Card | None``: the card database or a dict-backed stub."""

    def get(self, card_id: int) -> Card | None: ...


@dataclass(frozen=True, slots=True)
class Violation:
    """A plain violation; the engine stamps the rule name and severity from the code."""

    code: str
    message: str
    section: Section | None = None
    line: int | None = None
    card_id: int | None = None
    card_name: str | None = None
    count: int | None = None
    limit: int | None = None
    candidates: tuple[tuple[int, str], ...] = ()


@dataclass(slots=True)
class Tally:
    """Copies of one canonical card over main + extra + side, with where it first appears."""

    canonical: int
    name: str
    count: int = 0
    section: Section | None = None
    line: int | None = None
    card: Card | None = None

    def label(self) -> str:
        return f"{self.name} ({self.canonical})"


@dataclass(slots=True)
class Context:
    """What rules see: the deck, the format on the event date, the list and resolved cards."""

    deck: Deck
    fmt: Format
    banlist: Banlist | None
    date: dt.date
    points_cap: int | None
    entries: list[tuple[DeckEntry, Card | None]] = field(default_factory=list)
    tallies: dict[int, Tally] = field(default_factory=dict)  # by canonical card
    printings: dict[int, Tally] = field(default_factory=dict)  # by passcode (known cards)
    counts: dict[str, int] = field(default_factory=dict)  # per section, skill cards left out
    kinds: dict[int, str] = field(default_factory=dict)  # passcode -> Card.kind, computed once
    name_of: Callable[[int, Card | None], str] = lambda i, c: c.name if c else str(i)

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
