"""Cards as list files name them: the card resolver that ``deckcheck.formats`` compiles lists
with, wired to the installed card database and lookup index (opened lazily, only when a list
is compiled)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from deckcheck import paths


def list_key(db: Any, card: int) -> int:
    """The id a list entry is kept under: an alternate artwork's card, else the passcode.

    Only artworks are merged. A card "treated as" another (a Rush reprint of an OCG card, a
    GOAT or pre-errata entry) keeps its own passcode, because EDOPro looks a list up by the
    passcode and then by its alias, never the other way: the GOAT list naming "Terraforming
    (GOAT)" does not admit the modern Terraforming, and a Rush list forbidding "Vanity's Fiend
    (Rush)" says nothing about the OCG card. Rules read the canonical id first, then the
    passcode, so the treated-as card still takes its alias's status.
    """
    return int(db.list_key(card))


class DbCardResolver:
    """A ``formats.compile.CardResolver`` over a card database.

    Without a database, ids are kept as written until a ``card:`` name needs resolving; that
    opens the installed database or the built-in sample, which then keys the later ids too.
    """

    def __init__(self, db: Any = None):
        self._db = db
        self._index: Any = None
        self.used_db = db is not None

    def _open(self) -> Any:
        if self._db is None:
            from deckcheck.carddb import open_db

            self._db = open_db()
            self.used_db = True
        return self._db

    def list_key(self, card: int) -> int:
        if self._db is None:
            return card
        return list_key(self._db, card)

    def resolve(self, name: str) -> Any:
        db = self._open()
        if self._index is None:
            from deckcheck.lookup import Index

            self._index = Index.for_db(db)
        return self._index.resolve(name)

    def name(self, card: int) -> str:
        return str(self._open().name(card))


def installed_db() -> Any:
    """The installed card database, or None (the built-in sample is not opened here)."""
    if not paths.database_path().is_file():
        return None
    from deckcheck.carddb import open_db

    return open_db(paths.database_path())


def database_near(lists_dir: Path) -> Any:
    """The card database that goes with a list folder: ``<home>/banlists`` goes with that
    home's database, else the installed one; None when there is none."""
    for cand in (lists_dir.parent / paths.database_path().name, paths.database_path()):
        if cand.is_file():
            from deckcheck.carddb import open_db

            return open_db(cand)
    return None


def installed_resolvers() -> Callable[[], DbCardResolver]:
    """A factory of resolvers, one per list file, sharing the installed database (opened on
    the first call; without one, each resolver opens the sample only if it meets a name)."""
    opened: list[Any] = []

    def make() -> DbCardResolver:
        if not opened:
            opened.append(installed_db())
        return DbCardResolver(opened[0])

    return make
