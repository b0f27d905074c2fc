"""A deck read by the ``.ydk`` fast reader, held as passcode arrays until its entries are read.

A batch checks thousands of decks whose lines are bare passcodes; building a ``DeckEntry``
per line is most of what reading one costs, and the engine's tally needs only the passcodes
and, for a card it reports, the line it is first on. ``PackedDeck`` is a ``Deck`` (same
fields, equality, repr, ``replace``, pickling as a plain ``Deck``) whose ``main``/``extra``/
``side`` lists are built on first use, all three at once; from then on they are the truth
(edits to them count) and the arrays are dropped (``packed()`` returns None).
"""

from __future__ import annotations

from itertools import repeat
from typing import Any

from deckcheck.model import Deck, DeckEntry, Packed

_SLOTS = {n: Deck.__dict__[n] for n in ("main", "extra", "side")}  # Deck's own slot storage
_MAIN, _EXTRA, _SIDE = _SLOTS["main"], _SLOTS["extra"], _SLOTS["side"]


def _section_property(slot: Any) -> property:
    def get(self: Any) -> list[DeckEntry]:
        if self._arrays is not None:
            self._unpack()
        return slot.__get__(self, Deck)  # type: ignore[no-any-return]

    def put(self: Any, value: list[DeckEntry]) -> None:
        if self._arrays is not None:
            self._unpack()  # the other sections keep what the arrays held
        slot.__set__(self, value)

    return property(get, put)


class PackedDeck(Deck):
    """A ``Deck`` of one copy per passcode line, its entries built when first read."""

    __slots__ = ("_arrays",)
    _record_class = Deck
    # Deck's slots, read through: built from the arrays on first use
    main = _section_property(_MAIN)  # type: ignore[assignment]
    extra = _section_property(_EXTRA)  # type: ignore[assignment]
    side = _section_property(_SIDE)  # type: ignore[assignment]

    def __init__(
        self,
        source: str,
        lines: list[str],
        sections: tuple[tuple[list[int], list[int]], ...],
        comments: list[str],
    ):
        """``sections``: (passcodes, 0-based rows in ``lines``) for Main, Extra and Side."""
        self.source = source
        self.findings = []
        self.kind = "ydk"
        self.comments = comments
        (m, mr), (e, er), (s, sr) = sections
        self._arrays: tuple[Packed, list[str]] | None = (
            (m + e + s, len(m), len(e), mr + er + sr),
            lines,
        )

    def packed(self) -> Packed | None:
        got = self._arrays
        return got[0] if got is not None else None

    def _unpack(self) -> None:
        got = self._arrays
        if got is None:
            return
        (ids, nm, ne, rows), lines = got
        bounds = ((0, nm), (nm, nm + ne), (nm + ne, len(ids)))
        for slot, name, (a, b) in zip(
            (_MAIN, _EXTRA, _SIDE), ("main", "extra", "side"), bounds, strict=True
        ):
            n = b - a
            part = rows[a:b]
            slot.__set__(
                self,
                list(
                    map(
                        DeckEntry,
                        repeat(name, n),
                        ids[a:b],
                        [r + 1 for r in part],
                        repeat(1, n),
                        repeat(None, n),
                        map(lines.__getitem__, part),
                    )
                ),
            )
        self._arrays = None

    def __reduce__(self) -> tuple[Any, ...]:
        return (Deck, self._astuple())
