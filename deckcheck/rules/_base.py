"""The per-deck context every rule reads, and the finding shortcuts rules share."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Iterator
from operator import attrgetter
from typing import Any, Protocol

from deckcheck.codes import finding
from deckcheck.model import Banlist, Card, Deck, DeckEntry, Finding, Format, Section, Severity


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

    @classmethod
    def at(
        cls,
        canonical: int,
        name: str,
        section: Section,
        line: int | None,
        card: Card | None,
        count: int,
    ) -> Tally:
        """A tally from where the card first appears and its count (no ``DeckEntry``)."""
        t = cls.__new__(cls)
        t.canonical, t.name, t.card, t.count = canonical, name, card, count
        t.section, t.line = section, line
        return t

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


class Counted:
    """What the engine's tally of a deck of one copy per line holds (``Context.counted``):
    the cards by passcode, counted with C loops, and what the per-card ``Tally`` objects are
    built from when a rule asks for them (most decks need few or none).

    ``ids``: every passcode, Main, Extra then Side; ``copies``: passcode -> copies (first-seen
    order); ``cards``: passcode -> card (None: unknown), same order; ``by_canonical``:
    canonical card -> copies (the very ``copies`` dict when no card of the deck counts as
    another); ``in_main``: Main Deck passcode -> copies; ``nm``/``ne``: Main's and Extra's
    number of lines; ``rows``: each passcode's 0-based line (None: take ``entries``'s);
    ``entries``: the deck's entries in ``ids`` order (None while the deck is packed).
    """

    __slots__ = (
        "ids",
        "copies",
        "cards",
        "by_canonical",
        "nm",
        "ne",
        "rows",
        "entries",
        "source",
        "names",
        "_firsts",
    )

    def __init__(
        self,
        ids: list[int],
        copies: dict[int, int],
        cards: dict[int, Card | None],
        by_canonical: dict[int, int],
        nm: int,
        ne: int,
        rows: list[int] | None,
        entries: list[DeckEntry] | None,
        source: CardSource,
        names: Callable[[int], str] | None,
    ) -> None:
        self.ids, self.copies, self.cards, self.by_canonical = ids, copies, cards, by_canonical
        self.nm, self.ne, self.rows, self.entries = nm, ne, rows, entries
        self.source, self.names = source, names
        self._firsts: dict[int, int] | None = None  # canonical -> its first passcode

    @property
    def in_main(self) -> dict[int, int]:
        """Main Deck passcode -> copies (first-seen order)."""
        return Counter(self.ids[: self.nm])

    def where(self, cid: int) -> tuple[Section, int | None]:
        """Section and line of the first copy of passcode ``cid``."""
        i = self.ids.index(cid)
        if self.entries is not None:
            e = self.entries[i]
            return e.section, e.line
        sec: Section = "main" if i < self.nm else "extra" if i < self.nm + self.ne else "side"
        return sec, self.rows[i] + 1  # type: ignore[index]

    def canonical_of(self, cid: int) -> int:
        card = self.cards[cid]
        return card.canonical if card is not None else cid

    def name_of(self, cid: int, card: Card | None, canonical: int, banlist: Banlist | None) -> str:
        """The name a canonical tally shows, first held as passcode ``cid``."""
        if card is None:
            return banlist.names.get(cid, "unknown card") if banlist else "unknown card"
        if self.names is not None:
            return self.names(canonical)
        canon = card if canonical == cid else self.source.get(canonical)
        return canon.name if canon is not None else card.name

    def printing(self, cid: int) -> Tally:
        """The tally of one printing (a known passcode of the deck)."""
        card = self.cards[cid]
        assert card is not None
        sec, line = self.where(cid)
        return Tally.at(cid, card.name, sec, line, card, self.copies[cid])

    def first(self, canonical: int) -> int:
        """The passcode that first holds a canonical card in the deck."""
        if self.by_canonical is self.copies:
            return canonical
        firsts = self._firsts
        if firsts is None:
            firsts = self._firsts = {}
            for cid in reversed(self.copies):
                firsts[self.canonical_of(cid)] = cid
        return firsts[canonical]

    def tally(self, canonical: int, banlist: Banlist | None) -> Tally:
        """The tally of one canonical card, as ``build`` makes it."""
        first = self.first(canonical)
        card = self.cards[first]
        sec, line = self.where(first)
        name = self.name_of(first, card, canonical, banlist)
        return Tally.at(canonical, name, sec, line, card, self.by_canonical[canonical])

    def held(self, canonical: int) -> list[int]:
        """The passcodes (printings) by which the deck holds a canonical card: none when it
        is first held as an unknown passcode (as ``Tally.card`` is then None)."""
        cards = self.cards
        if cards[self.first(canonical)] is None:
            return []
        if self.by_canonical is self.copies:  # no card counts as another
            return [canonical]
        return [i for i, c in cards.items() if c is not None and c.canonical == canonical]

    def build(self, banlist: Banlist | None) -> tuple[dict[int, Tally], dict[int, Tally]]:
        """(tallies by canonical card, tallies by printing) of the whole deck, in first-seen
        order; one ``Tally`` serves as both when its fields are the same."""
        printings: dict[int, Tally] = {}
        tallies: dict[int, Tally] = {}
        cards, where = self.cards, self.where
        p: Tally | None = None
        for cid, n in self.copies.items():
            card = cards[cid]
            sec, line = where(cid)
            if card is None:
                canonical = cid
            else:
                p = printings[cid] = Tally.at(cid, card.name, sec, line, card, n)
                canonical = card.canonical
            t = tallies.get(canonical)
            if t is None:
                name = self.name_of(cid, card, canonical, banlist)
                if card is not None and canonical == cid and name == card.name:
                    tallies[canonical] = p  # type: ignore[assignment]
                    continue
                t = tallies[canonical] = Tally.at(canonical, name, sec, line, card, 0)
            elif printings.get(canonical) is t:  # shared with its printing: split before adding
                t = tallies[canonical] = t.copy()
            t.count += n
        return tallies, printings


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
        "_tallies",
        "_printings",
        "counts",
        "flags",
        "present",
        "counted",
        "epoch",
        "memos",
        "game",
        "newest",
    )

    def __init__(
        self,
        deck: Deck,
        fmt: Format,
        banlist: Banlist | None,
        date: dt.date,
        points_cap: int | None,
        memos: dict[str, Memo] | None = None,
    ):
        self.deck = deck
        self.fmt = fmt
        self.banlist = banlist
        self.date = date
        self.points_cap = points_cap
        self._entries: list[tuple[DeckEntry, Card | None]] | None = []
        #: what ``entries`` is built from on first use (the engine's tally leaves it so;
        #: most decks need no rule to read it)
        self._pending: Counted | None = None
        self._tallies: dict[int, Tally] | None = {}  # by canonical card
        self._printings: dict[int, Tally] | None = {}  # by passcode (known cards)
        self.counts: dict[str, int] = {}  # per section, skill cards left out
        #: HAS_UNKNOWN | HAS_TOKEN | HAS_SKILL: the deck holds such a card (set by the tally;
        #: all set, "look at every entry", until it runs)
        self.flags = HAS_UNKNOWN | HAS_TOKEN | HAS_SKILL
        #: "main"/"extra" -> the passcodes in that section, as keys (set by the tally; empty:
        #: not tallied, look at every entry)
        self.present: dict[str, dict[int | None, Any]] = {}
        #: the engine's tally of a deck of one copy per line (None: tallied line by line, or
        #: not yet); ``tallies``/``printings`` are built from it when first read
        self.counted: Counted | None = None
        #: the engine's card generation (``validate.Learnt``): per-card answers a rule keeps
        #: for a batch stay good while it is the same (``Memo``)
        self.epoch = 0
        #: the engine's memos by name (``memo``); a fresh set when none is given
        self.memos: dict[str, Memo] = {} if memos is None else memos
        #: what the run knows of the format's video game (``rules.pool.GamePool``; None: the
        #: cards' own data) and the newest installed list of the format's family (DC602;
        #: None: not known, or a list was named)
        self.game: Any = None
        self.newest: Banlist | None = None

    @property
    def cap(self) -> int | None:
        """The points cap in force: ``--points-cap`` when given, else the format's."""
        return self.points_cap if self.points_cap is not None else self.fmt.points_cap

    #: ``card.kind`` (computed once per card, then a plain attribute): a C-level getter,
    #: because rules ask it for every entry of every deck.
    kind: Callable[[Card], str] = staticmethod(attrgetter("kind"))  # type: ignore[assignment]

    @property
    def tallies(self) -> dict[int, Tally]:
        """Copies by canonical card (artworks and "treated as" cards together), first-seen
        order; each ``Tally`` names where the card first appears."""
        got = self._tallies
        if got is None:
            got = self._build()[0]
        return got

    @tallies.setter
    def tallies(self, value: dict[int, Tally]) -> None:
        self._tallies = value

    @property
    def printings(self) -> dict[int, Tally]:
        """Copies by passcode, known cards only (first-seen order)."""
        got = self._printings
        if got is None:
            got = self._build()[1]
        return got

    @printings.setter
    def printings(self, value: dict[int, Tally]) -> None:
        self._printings = value

    def _build(self) -> tuple[dict[int, Tally], dict[int, Tally]]:
        assert self.counted is not None
        self._tallies, self._printings = got = self.counted.build(self.banlist)
        return got

    def tally(self, canonical: int) -> Tally:
        """``tallies[canonical]``, without building every other card's tally."""
        if self._tallies is not None or self.counted is None:
            return self.tallies[canonical]
        return self.counted.tally(canonical, self.banlist)

    def printing(self, cid: int) -> Tally:
        """``printings[cid]``, without building every other card's tally."""
        if self._printings is not None or self.counted is None:
            return self.printings[cid]
        return self.counted.printing(cid)

    @property
    def entries(self) -> list[tuple[DeckEntry, Card | None]]:
        """Every entry of the deck (Main, Extra, Side in order) with its card (None: unknown)."""
        got = self._entries
        if got is None:
            counted = self._pending
            assert counted is not None
            every = counted.entries
            if every is None:  # a packed deck: its entries are built now
                d = self.deck
                every = [*d.main, *d.extra, *d.side]
            got = self._entries = list(
                zip(every, map(counted.cards.__getitem__, counted.ids), strict=True)
            )
            self._pending = None
        return got

    @entries.setter
    def entries(self, value: list[tuple[DeckEntry, Card | None]]) -> None:
        self._entries, self._pending = value, None

    def defer_entries(self, counted: Counted) -> None:
        """Let ``entries`` be built from ``counted`` when first read."""
        self._entries, self._pending = None, counted

    def memo(self, name: str, make: Callable[[], Any] = dict) -> Memo:
        """The engine's memo ``name`` (a rule's per-card answers), made on first use."""
        got = self.memos.get(name)
        if got is None:
            got = self.memos[name] = Memo(make)
        return got

    def list_label(self) -> str:
        return self.banlist.label if self.banlist is not None else "no list"


class Memo:
    """One rule's per-card answers for one (format, list, date): what a batch would otherwise
    work out again for every deck that holds the card (46% of a batch's per-deck cost,
    docs/ARCHITECTURE.md, performance paths). An engine owns its memos (``Context.memo``), so
    two engines share none. An answer is stored with the ``Card``
    it was worked out for and is only used for that very object (``table[id] = (card,
    answer)``; compare with ``is``), so a card source that answers differently gets fresh
    work. Formats, lists and cards are immutable records.

    ``state`` holds answers by passcode alone, for set operations over a deck's passcodes:
    they stay good while the engine's card generation (``Context.epoch``) is the same, which
    it changes whenever a passcode it has seen comes back as a different card."""

    __slots__ = ("_kept", "_make")

    #: how many (format, list, date) answer sets are kept: a run with an announced list
    #: checks each legal deck twice (``rules.upcoming``), with two lists and dates in turn
    KEEP = 4

    def __init__(self, make: Callable[[], Any] = dict) -> None:
        # [key, table, state] per (format, list, date, epoch), the last used first
        self._kept: list[list[Any]] = []
        self._make = make

    def _find(self, ctx: Context) -> list[Any]:
        kept = self._kept
        fmt, banlist, date, epoch = ctx.fmt, ctx.banlist, ctx.date, ctx.epoch
        for i, got in enumerate(kept):
            k = got[0]
            if k[0] is fmt and k[1] is banlist and k[2] == date and k[3] == epoch:
                if i:
                    kept.insert(0, kept.pop(i))
                return got
        got = [(fmt, banlist, date, epoch), {}, None]
        kept.insert(0, got)
        del kept[self.KEEP :]
        return got

    def table(self, ctx: Context) -> dict[int, tuple[Card, Any]]:
        """The answers for the context's format, list and date (a new table on a change)."""
        return self._find(ctx)[1]  # type: ignore[no-any-return]

    def state(self, ctx: Context) -> Any:
        """The rule's answers by passcode for the context (``make()`` anew on a change)."""
        got = self._find(ctx)
        if got[2] is None:
            got[2] = self._make()
        return got[2]


def plural(n: int, word: str = "copy", many: str = "copies") -> str:
    return f"{n} {word if n == 1 else many}"


def of_card(
    code: str,
    message: str,
    t: Tally,
    *,
    limit: int | None = None,
    severity: Severity | None = None,
) -> Finding:
    """A finding about one card of the deck, counted over every section (a ``Tally``);
    ``severity`` only to lower a code registered ``also_warning`` (a pool's DC502/DC504)."""
    return finding(
        code,
        message,
        section=t.section,
        line=t.line,
        card_id=t.canonical,
        card_name=t.name,
        count=t.count,
        limit=limit,
        severity=severity,
    )


def of_entry(
    code: str, message: str, entry: DeckEntry, card: Card | None, *, limit: int | None = None
) -> Finding:
    """A finding about one line of the deck (``card``: the card it holds, None when unknown)."""
    return finding(
        code,
        message,
        section=entry.section,
        line=entry.line,
        card_id=card.id if card is not None else entry.card_id,
        card_name=card.name if card is not None else None,
        count=entry.count,
        limit=limit,
    )


RuleCheck = Callable[[Context], Iterator[Finding]]
