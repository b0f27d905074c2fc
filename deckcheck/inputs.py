"""Deck inputs as the commands name them: paths, folders, ydke:// URLs, ``-`` (stdin), text
lists; one walker that turns them into items and one loader that reads and resolves them."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from deckcheck.errors import InputError
from deckcheck.model import Deck

#: what a folder walk picks up for ``validate``
DECK_SUFFIXES = (".ydk", ".txt", ".ydke")
#: what ``banlist diff --deck`` picks up in a folder (ydke files are not decks there)
FILE_SUFFIXES = (".ydk", ".txt")
#: an item to read: a path, "-", a ydke:// URL, or ("-", stdin bytes) read by a parent process
#: (("!", message) when that read failed)
Item = str | tuple[str, bytes]


def is_inline(item: str) -> bool:
    """True for an INPUT that is not a path: ``-`` (stdin) or a ydke:// URL."""
    return item == "-" or item.startswith("ydke://")


def check_paths(inputs: Iterable[str]) -> None:
    """Fail on the first path that does not exist, before any output starts."""
    for item in inputs:
        if not is_inline(item) and not os.path.exists(item):
            raise InputError("no such file or directory", where=item)


def walk_folder(folder: str | Path, suffixes: tuple[str, ...] = DECK_SUFFIXES) -> Iterator[str]:
    """Deck files under ``folder``, recursively, in sorted order (the same on every run).

    A sub-folder that cannot be listed (permissions, I/O error) is yielded as itself, in its
    place: the reader reports it (``read_item``), so its decks are never skipped unsaid.
    """
    failed: list[str] = []

    def _failed(exc: OSError) -> None:
        failed.append(str(exc.filename) if exc.filename else str(folder))

    for root, dirs, files in os.walk(folder, onerror=_failed):
        while failed:
            yield failed.pop(0)
        dirs.sort()
        for name in sorted(files):
            if name.lower().endswith(suffixes):
                yield os.path.join(root, name)
    yield from failed


def expand_inputs(
    inputs: Iterable[str], suffixes: tuple[str, ...] = DECK_SUFFIXES
) -> Iterator[str]:
    """Each INPUT as an item to read: "-", a ydke:// URL, or a deck file (folders recursed).

    Paths are checked by the caller first (``check_paths``), so a missing path stops the
    run before any output.
    """
    for item in inputs:
        if not is_inline(item) and os.path.isdir(item):
            yield from walk_folder(item, suffixes)
        else:
            yield item


def deck_paths(inputs: Iterable[Path], suffixes: tuple[str, ...] = FILE_SUFFIXES) -> list[Path]:
    """Deck files named by ``inputs``: files as given, folders searched recursively (sorted
    by path); a missing path or a folder without decks is an ``InputError``."""
    out: list[Path] = []
    for p in inputs:
        if p.is_dir():
            found = []
            for q in walk_folder(p, suffixes):
                if os.path.isdir(q):
                    raise InputError(_unlisted(q), where=q)
                if Path(q).suffix.lower() in suffixes and Path(q).is_file():
                    found.append(Path(q))
            found.sort()
            if not found:
                names = ", ".join(suffixes)
                raise InputError(f"no deck files ({names}) in this folder", where=str(p))
            out.extend(found)
        elif p.is_file():
            out.append(p)
        else:
            raise InputError("no such file or folder", where=str(p))
    return out


def read_item(item: Item) -> Deck:
    """The deck ``item`` names, as read (text entries not resolved yet)."""
    from deckcheck import decks

    if isinstance(item, tuple):  # stdin read by the parent process (--jobs)
        if item[0] == "!":
            raise InputError(item[1].decode())
        return decks.read_bytes(item[1], "<stdin>")
    if item == "-":
        return decks.read_stdin()
    if item.startswith("ydke://"):
        return decks.read_string(item, source=item)
    if os.path.isdir(item):  # a sub-folder the walker could not list
        raise InputError(_unlisted(item), where=item)
    return decks.read_path(item)


def _unlisted(folder: str) -> str:
    try:
        os.listdir(folder)
        reason = "it could not be listed"
    except OSError as exc:
        reason = exc.strerror or str(exc)
    return f"cannot read this folder ({reason}): the decks in it were not checked"


def item_source(item: Item) -> str:
    """How a report names ``item`` when it could not be read."""
    return item if isinstance(item, str) and item != "-" else "<stdin>"


class DeckLoader:
    """Reads and resolves decks against one card database; the lookup index is built only
    when a text list needs names turned into passcodes."""

    def __init__(self, db: Any):
        self.db = db
        self._index: Any = None

    def index(self) -> Any:
        if self._index is None:
            from deckcheck.lookup import Index

            self._index = Index.for_db(self.db)
        return self._index

    def resolve(self, deck: Deck) -> Deck:
        """``deck`` with its names resolved (or DC102/DC103 findings); as is without names."""
        if not any(e.card_id is None and e.query for e in deck.entries()):
            return deck
        # Name lookup (rapidfuzz, the index) is paid only by text decklists.
        from deckcheck.decks.resolve import resolve_deck

        resolved: Deck = resolve_deck(deck, self.db, self.index())
        return resolved

    def load(self, item: Item) -> Deck:
        return self.resolve(read_item(item))
