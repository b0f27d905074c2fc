"""A deck's archetype, from its Main Deck (docs/META.md "How a deck's archetype is picked").

Each archetype a Main Deck card belongs to (``carddb.facts.archetypes_of``: EDOPro's
``strings.conf`` setcodes, yaml-yugi's series) scores the card's copies. The archetype with
the most copies is the deck's; a tie goes to the archetype with more different cards, then to
the more specific one (a sub-archetype such as Elemental HERO 0x3008 over HERO 0x8: it ties
with its parent only when every card of the parent in the deck is one of its own), then by
name. Below ``THRESHOLD`` of the Main Deck the deck is ``MIXED`` (the nearest archetype is
kept, to say how close it came).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from deckcheck.records import Record, record

__all__ = ["MIXED", "THRESHOLD", "Arch", "Pick", "Picker", "pick"]

#: The label of a deck no archetype holds enough of.
MIXED = "mixed / no archetype"
#: The share of the Main Deck's copies the picked archetype must hold (a fifth: 8 of 40).
#: Measured on the 209 staged decks with strings.conf (docs/META.md): a quarter leaves 107 of
#: them mixed, among them Windbot's Blue-Eyes, Red-Eyes, Orcust and Dogmatika decks (8 of 40
#: each); a fifth, 86.
THRESHOLD = 0.20


@record
class Arch(Record):
    """An archetype a card belongs to: a stable key, its name, its setcode (None: a series
    no strings.conf names)."""

    key: str
    name: str
    code: int | None = None


@record
class Pick(Record):
    """A deck's archetype: its name (``MIXED`` below the threshold), code ("0x3008"), the
    Main Deck copies of its cards and of the whole Main Deck; for a ``MIXED`` deck,
    ``nearest`` and ``copies`` are the archetype that came closest (None: no card of the
    deck has an archetype)."""

    name: str
    code: str | None
    copies: int
    main: int
    nearest: str | None = None

    @property
    def share(self) -> float:
        return self.copies / self.main if self.main else 0.0


def _specific(code: int | None) -> int:
    """How specific a setcode is: the bits above its low 12 (0x3008 → 2, 0x8 → 0)."""
    return (code >> 12).bit_count() if code is not None else 0


def pick(main: Counter[int], of: Callable[[int], list[Arch]], threshold: float = THRESHOLD) -> Pick:
    """The archetype of a Main Deck (``main``: copies per card; ``of(card)``: the archetypes
    of a card)."""
    total = sum(main.values())
    score: dict[str, list[int]] = {}  # key -> [copies, cards]
    arch: dict[str, Arch] = {}
    for cid, n in main.items():
        for a in of(cid):
            got = score.get(a.key)
            if got is None:
                got = score[a.key] = [0, 0]
                arch[a.key] = a
            got[0] += n
            got[1] += 1
    if not score:
        return Pick(MIXED, None, 0, total)
    best = min(
        score,
        key=lambda k: (
            -score[k][0],
            -score[k][1],
            -_specific(arch[k].code),
            arch[k].name.casefold(),
            k,
        ),
    )
    a, copies = arch[best], score[best][0]
    code = f"0x{a.code:x}" if a.code is not None else None
    if copies < threshold * total:
        return Pick(MIXED, None, copies, total, nearest=a.name)
    return Pick(a.name, code, copies, total)


class Picker:
    """Picks decks' archetypes from one card database (what each card belongs to is read
    once per card): ``Picker.for_db(db)(main_copies) -> Pick``."""

    def __init__(self, of: Callable[[int], list[Arch]], threshold: float = THRESHOLD) -> None:
        self._of = of
        self._memo: dict[int, list[Arch]] = {}
        self.threshold = threshold

    def of(self, card_id: int) -> list[Arch]:
        got = self._memo.get(card_id)
        if got is None:
            got = self._memo[card_id] = self._of(card_id)
        return got

    def __call__(self, main: Counter[int]) -> Pick:
        return pick(main, self.of, self.threshold)

    @classmethod
    def for_db(cls, db: Any, lang: str = "en", threshold: float = THRESHOLD) -> Picker:
        """A picker over the archetypes the database holds (``carddb.facts``); raises
        ``facts.Missing`` (a DataError naming the source to install) when it holds none."""
        from deckcheck.carddb import facts
        from deckcheck.errors import DataError

        try:  # says first whether archetype data is installed, then looks the name up
            facts.find_archetypes(db, MIXED)
        except facts.Missing:
            raise
        except DataError:
            pass  # installed (no archetype has that name)

        table = facts.archetype_table(db, lang)  # every card's at once: archetypes_of's answer

        def of(card_id: int) -> list[Arch]:
            return [
                Arch(
                    a["code"] or f"series:{a['name']}",
                    a["name"],
                    int(a["code"], 16) if a["code"] else None,
                )
                for a in table.get(db.name_key(card_id), ())
            ]

        return cls(of, threshold)
