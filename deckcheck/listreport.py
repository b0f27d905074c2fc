"""The services behind ``banlist diff`` and ``banlist history``: card names in a language,
the format a list family is checked in, a diff's impact on deck files, and a card's status
through each family's installed lists."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck.errors import DataError
from deckcheck.records import Record, record

if TYPE_CHECKING:
    from deckcheck.listdiff import DeckImpact, HistoryEntry, ListDiff
    from deckcheck.model import Banlist, Format


class Namer:
    """Card names in one language, from the card database when there is one, else from the
    names written in the lists; the database is opened only when a name is asked for."""

    def __init__(self, lang: str, fallback: dict[int, str] | None = None):
        self.lang = lang
        self.fallback = dict(fallback or {})
        self._db: Any = None
        self._cache: dict[int, str] = {}

    @property
    def db(self) -> Any:
        if self._db is None:
            from deckcheck.carddb import open_db

            self._db = open_db()
        return self._db

    def __call__(self, card_id: int, hint: str = "") -> str:
        got = self._cache.get(card_id)
        if got is not None:
            return got
        name = str(self.db.name(card_id, self.lang))
        if name == str(card_id):  # the database does not know the card
            name = ""
        name = name or hint or self.fallback.get(card_id, "") or f"#{card_id}"
        self._cache[card_id] = name
        return name


def list_names(*lists: Banlist) -> dict[int, str]:
    """The card names the lists carry, earlier lists winning."""
    out: dict[int, str] = {}
    for b in reversed(lists):
        out.update(b.names)
    return out


def default_store() -> Any:
    from deckcheck.formats.catalog import ListStore

    return ListStore.default()


def format_for_lists(format_id: str | None, family: str, other_family: str) -> Format:
    """``format_id``'s format, else the plain format of the lists' family."""
    from deckcheck import formats

    if format_id:
        return formats.get_format(format_id)
    known = formats.load_formats()
    for fam in dict.fromkeys([family, other_family]):
        matching = [f for f in known.values() if f.list_family == fam]
        if matching:
            # A format named after its family (tcg, ocg) is the family's plain format.
            matching.sort(key=lambda f: (f.id != fam, f.id))
            return matching[0]
    raise DataError(f"no format uses the list family {family!r}; choose one with --format")


def check_decks(
    result: ListDiff, inputs: Iterable[Path], fmt: Format, db: Any, when: dt.date
) -> list[DeckImpact]:
    """The impact of ``result`` on every deck named by ``inputs`` (files or folders)."""
    from deckcheck import decks
    from deckcheck.inputs import DeckLoader, deck_paths
    from deckcheck.listdiff import deck_impact

    loader = DeckLoader(db)
    return [
        deck_impact(result, loader.resolve(decks.read_path(p)), fmt, db, date=when)
        for p in deck_paths(inputs)
    ]


@record
class FamilyHistory(Record):
    family: str
    lists: int  # list versions installed
    timeline: list[HistoryEntry]


def same_card(db: Any, card_id: int) -> list[int]:
    """The other passcodes of ``card_id`` (artworks, reprints) the database knows."""
    try:
        return [i for i in db.same_card(card_id) if i != card_id]
    except AttributeError:
        return []


def card_histories(
    store: Any, card_id: int, *, family: str | None = None, also: Sequence[int] = ()
) -> list[FamilyHistory]:
    """The card's timeline in ``family``, or in every family whose lists name it."""
    from deckcheck.listdiff import appears_in, card_history, timeline

    families = list(store.families())
    if family is not None:
        family = family.lower()
        if family not in families:
            known = ", ".join(sorted(families)) or "none installed"
            raise DataError(f"no list family {family!r} (installed: {known})", where="--family")
        families = [family]
    out: list[FamilyHistory] = []
    for fam in families:
        lists = list(store.lists(fam))
        if not lists or (family is None and not appears_in(lists, [card_id, *also])):
            continue
        full = card_history(lists, card_id, also=also)
        out.append(FamilyHistory(fam, len(lists), timeline(full)))
    return out


def name_in_lists(store: Any, card_id: int, histories: Sequence[FamilyHistory]) -> str:
    for h in histories:
        for b in reversed(store.lists(h.family)):
            got = b.names.get(card_id)
            if got:
                return str(got)
    return ""
