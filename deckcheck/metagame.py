"""The metagame of a folder of decks (``deckcheck meta``, and the section of ``validate -o
html``): per deck its archetype, decks per archetype and their share, and card usage — decks
playing each card, their share, the average copies when played, per section — with legal and
illegal counts when a format is given.

    engine = Engine.open()
    got = breakdown(walk(["submissions/"]), engine, target=engine.target("tcg"))

A card is what lookup shows as one card (``CardDB.name_key``: alternate artworks folded into
their card). Usage counts the whole deck (Main + Extra + Side); ``sections`` the same per
section. How an archetype is picked is ``deckcheck.archetype`` (docs/META.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from deckcheck.archetype import MIXED, Pick
from deckcheck.engine import Engine
from deckcheck.errors import DataError, InputError
from deckcheck.inputs import Item, item_source
from deckcheck.model import SECTIONS, Deck
from deckcheck.records import Record, record
from deckcheck.validate import Target

__all__ = [
    "MIXED",
    "ArchetypeRow",
    "Breakdown",
    "CardRow",
    "DeckRow",
    "Tally",
    "Use",
    "breakdown",
]


@record
class Use(Record):
    """How many decks play a card (in a section, or anywhere), their share of the decks
    counted (percent), and the average copies in the decks that play it."""

    decks: int
    share: float
    average: float | None  # None: no deck plays it there


@record
class CardRow(Record):
    card_id: int  # the card (its name key)
    name: str | None  # None: a passcode the card database does not know
    use: Use  # Main + Extra + Side
    sections: dict[str, Use]  # "main", "extra", "side"


@record
class DeckRow(Record):
    """One deck counted: its archetype (``MIXED`` below the threshold; None when no
    archetype data is installed) and what it is made of."""

    input: str
    counts: dict[str, int]  # copies per section
    pick: Pick | None
    unresolved: int = 0  # copies of lines that did not read or names that did not resolve
    legal: bool | None = None  # None: no format given
    errors: int = 0

    @property
    def archetype(self) -> str | None:
        return self.pick.name if self.pick is not None else None


@record
class ArchetypeRow(Record):
    name: str
    code: str | None  # "0x3008" for an archetype strings.conf names; None: a series / MIXED
    decks: int
    share: float  # percent of the decks counted
    inputs: tuple[str, ...]  # its decks, in input order
    legal: int | None = None  # with a format: its legal and illegal decks
    illegal: int | None = None


@record
class Breakdown(Record):
    """The whole breakdown; ``archetypes_missing``: why there are no archetypes (the source
    to install), None when archetype data is installed."""

    decks: tuple[DeckRow, ...]
    unreadable: tuple[tuple[str, str], ...]  # (input, reason): not counted
    archetypes: tuple[ArchetypeRow, ...]
    cards: tuple[CardRow, ...]
    archetypes_missing: str | None
    target: Target | None = None

    @property
    def counted(self) -> int:
        return len(self.decks)

    @property
    def legal(self) -> int | None:
        if self.target is None:
            return None
        return sum(1 for d in self.decks if d.legal)

    @property
    def illegal(self) -> int | None:
        if self.target is None:
            return None
        return sum(1 for d in self.decks if d.legal is False)


def _share(n: int, of: int) -> float:
    return round(100.0 * n / of, 2) if of else 0.0


class Tally:
    """Copies per card and section over decks added one by one (``add``); the card rows
    (``cards``) once every deck is in."""

    def __init__(self, key: Callable[[int], int]) -> None:
        self.key = key
        self.decks = 0
        #: card -> section -> [decks playing it there, copies there]
        self._use: dict[int, dict[str, list[int]]] = {}
        #: card -> [decks playing it anywhere, copies anywhere]
        self._all: dict[int, list[int]] = {}

    def copies(self, deck: Deck) -> dict[str, Counter[int]]:
        """Copies per card in each section of ``deck`` (entries without a card left out)."""
        key = self.key
        out: dict[str, Counter[int]] = {}
        for s in SECTIONS:
            got: Counter[int] = Counter()
            for e in deck.section(s):
                if e.card_id is not None:
                    got[key(e.card_id)] += e.count
            out[s] = got
        return out

    def add(self, per_section: dict[str, Counter[int]]) -> None:
        self.decks += 1
        anywhere: Counter[int] = Counter()
        for s, got in per_section.items():
            for cid, n in got.items():
                cell = self._use.setdefault(cid, {}).setdefault(s, [0, 0])
                cell[0] += 1
                cell[1] += n
                anywhere[cid] += n
        for cid, n in anywhere.items():
            cell = self._all.setdefault(cid, [0, 0])
            cell[0] += 1
            cell[1] += n

    def _use_of(self, cell: list[int] | None) -> Use:
        if not cell:
            return Use(0, 0.0, None)
        return Use(cell[0], _share(cell[0], self.decks), round(cell[1] / cell[0], 2))

    def cards(self, name: Callable[[int], str | None]) -> list[CardRow]:
        """Every card played, most decks first (then more copies, then name, passcode)."""
        rows = [
            CardRow(
                cid,
                name(cid),
                self._use_of(cell),
                {s: self._use_of(self._use[cid].get(s)) for s in SECTIONS},
            )
            for cid, cell in self._all.items()
        ]
        rows.sort(
            key=lambda r: (
                -r.use.decks,
                -(r.use.average or 0),
                (r.name or "~").casefold(),
                r.card_id,
            )
        )
        return rows


def _name_of(db: Any, lang: str) -> Callable[[int], str | None]:
    get = getattr(db, "get", None)
    name = getattr(db, "name", None)

    def of(cid: int) -> str | None:
        if get is None or name is None or get(cid) is None:
            return None
        return str(name(cid, lang))

    return of


def _key_of(db: Any) -> Callable[[int], int]:
    key = getattr(db, "name_key", None)
    if key is None:
        return lambda cid: cid
    return lambda cid: int(key(cid))


def breakdown(
    items: Iterable[Item],
    engine: Engine,
    *,
    target: Target | None = None,
    lang: str = "en",
    archetypes: Callable[[Counter[int]], Pick] | bool | None = True,
) -> Breakdown:
    """The breakdown of the decks ``items`` name (read with ``engine``; one that cannot be
    read at all, or holds no card, is listed in ``unreadable`` and not counted). With
    ``target``, each deck is checked (``engine.check``). ``archetypes``: True picks each
    deck's archetype from the installed archetype data (``archetype.Picker``); a callable
    picks it from the deck's Main Deck copies per card; False/None: no archetypes."""
    db = engine.cards
    tally = Tally(_key_of(db))
    missing: str | None = None
    picker: Callable[[Counter[int]], Pick] | None
    if archetypes is True:
        from deckcheck.archetype import Picker

        try:
            picker = Picker.for_db(db, lang)
        except DataError as exc:  # no archetype data installed: says which source
            picker, missing = None, exc.message
    else:
        picker = archetypes or None
    rows: list[DeckRow] = []
    unreadable: list[tuple[str, str]] = []
    for item in items:
        source = item_source(item)
        try:
            deck = engine.read(item)
        except InputError as exc:
            unreadable.append((source, str(exc.message)))
            continue
        per = tally.copies(deck)
        if not any(per.values()):
            unreadable.append((deck.source, "no card could be read"))
            continue
        tally.add(per)
        lost = sum(e.count for e in deck.entries() if e.card_id is None)
        row = DeckRow(
            deck.source,
            {s: sum(per[s].values()) for s in SECTIONS},
            picker(per["main"]) if picker is not None else None,
            lost,
        )
        if target is not None:
            report = engine.check(deck, target)
            row = row.replace(legal=report.legal, errors=report.errors)
        rows.append(row)
    return Breakdown(
        tuple(rows),
        tuple(unreadable),
        tuple(_archetype_rows(rows, target is not None)) if picker is not None else (),
        tuple(tally.cards(_name_of(db, lang))),
        missing,
        target,
    )


def readable_twice(items: Iterable[Item]) -> tuple[Item, ...] | None:
    """``items`` as a tuple a run can read twice (the check, then the breakdown of
    ``validate -o html``): standard input read now, once, as the ``--jobs`` workers get it;
    None for a stream of inputs (read once, by the check: no breakdown)."""
    if not isinstance(items, (tuple, list)):
        return None
    if "-" not in items:
        return tuple(items)
    import sys

    from deckcheck.decks.source import read_stream_bytes

    try:
        got: Item = ("-", read_stream_bytes(sys.stdin.buffer, "<stdin>"))
    except InputError as exc:
        got = ("!", str(exc).encode())  # reported as an unreadable deck (inputs.read_item)
    return tuple(got if i == "-" else i for i in items)


def _archetype_rows(rows: list[DeckRow], legality: bool) -> list[ArchetypeRow]:
    """Decks per archetype, most decks first (then name); ``MIXED`` last."""
    by: dict[str, list[DeckRow]] = {}
    codes: dict[str, str | None] = {}
    for r in rows:
        if r.pick is not None:
            by.setdefault(r.pick.name, []).append(r)
            codes.setdefault(r.pick.name, r.pick.code)
    n = len(rows)
    out = [
        ArchetypeRow(
            name,
            codes[name],
            len(decks),
            _share(len(decks), n),
            tuple(d.input for d in decks),
            sum(1 for d in decks if d.legal) if legality else None,
            sum(1 for d in decks if d.legal is False) if legality else None,
        )
        for name, decks in by.items()
    ]
    out.sort(key=lambda a: (a.name == MIXED, -a.decks, a.name.casefold()))
    return out
