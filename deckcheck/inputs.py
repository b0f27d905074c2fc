"""Deck inputs as the commands name them: paths, folders, ydke:// URLs, ``-`` (stdin), text
lists; one walker that turns them into items and one loader that reads and resolves them."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from itertools import chain
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from deckcheck import decks
from deckcheck.errors import InputError
from deckcheck.model import Deck

if TYPE_CHECKING:
    from pathlib import Path

#: what a folder walk picks up for ``validate`` by default (text decklists only when
#: configured with ``include`` or named on the command line: a folder holds other .txt files)
DECK_SUFFIXES = (".ydk", ".ydke")
#: what ``banlist diff --deck`` picks up in a folder (ydke files are not decks there)
FILE_SUFFIXES = (".ydk", ".txt")
#: folders a walk never enters besides hidden ones (.git, .hg, .venv, …)
SKIP_DIRS = frozenset({"__pycache__", "node_modules", "CVS", "_darcs"})
#: an item to read: a path, "-", a ydke:// URL, or ("-", stdin bytes) read by a parent process
#: (("!", message) when that read failed)
Item = str | tuple[str, bytes]
_card_id = attrgetter("card_id")


def is_inline(item: str) -> bool:
    """True for an INPUT that is not a path: ``-`` (stdin) or a ydke:// URL."""
    from deckcheck.decks.ydke import is_argument

    return item == "-" or is_argument(item)


def check_paths(inputs: Iterable[str]) -> None:
    """Fail on the first path that does not exist, before any output starts."""
    for item in inputs:
        if not is_inline(item) and not os.path.exists(item):
            raise InputError("no such file or directory", where=item)


class Discovery:
    """What a folder walk checks, the way linters decide (ruff, black): deck suffixes, plus
    files matching ``include``, minus ``exclude``, hidden and VCS folders and what
    ``.gitignore`` files ignore. Patterns are gitwildmatch (``decks/**/*.txt``), relative
    to ``base`` (the config file's folder; the working folder when None)."""

    def __init__(
        self,
        include: Iterable[str] = (),
        exclude: Iterable[str] = (),
        *,
        base: str | Path | None = None,
        suffixes: tuple[str, ...] = DECK_SUFFIXES,
        gitignore: bool = True,
    ):
        self.include = tuple(include)
        self.exclude = tuple(exclude)
        self.base = os.path.abspath(base if base is not None else os.getcwd())
        self.suffixes = suffixes
        self.gitignore = gitignore
        self._include = _spec(self.include)
        self._exclude = _spec(self.exclude)
        self._ignores: dict[str, Any] = {}  # folder -> its .gitignore spec (None: none)
        self._tops: dict[str, str] = {}
        self._chains: dict[tuple[str, str], list[tuple[str, Any]]] = {}

    # -- matching
    def _rel(self, path: str, root: str) -> str:
        rel = os.path.relpath(path, self.base)
        if rel.startswith(".."):  # outside the config's folder: relative to the walk root
            rel = os.path.relpath(path, root)
        return rel.replace(os.sep, "/")

    def excluded(self, path: str, root: str, is_dir: bool = False) -> bool:
        if self._exclude is None:
            return False
        rel = self._rel(path, root)
        return bool(self._exclude.match_file(rel + "/" if is_dir else rel))

    def is_deck(self, path: str, root: str) -> bool:
        """True for a file a walk checks (by suffix or an ``include`` pattern)."""
        if path.lower().endswith(self.suffixes):
            return True
        return self._include is not None and bool(self._include.match_file(self._rel(path, root)))

    def _git_top(self, folder: str) -> str:
        """The work tree top above ``folder`` (where ``.git`` is), else ``folder``."""
        got = self._tops.get(folder)
        if got is None:
            got = folder
            d = folder
            while True:
                if os.path.exists(os.path.join(d, ".git")):
                    got = d
                    break
                parent = os.path.dirname(d)
                if parent == d:
                    break
                d = parent
            self._tops[folder] = got
        return got

    def _ignore_spec(self, folder: str) -> Any:
        if folder not in self._ignores:
            spec = None
            f = os.path.join(folder, ".gitignore")
            if os.path.isfile(f):
                try:
                    with open(f, encoding="utf-8", errors="replace") as fh:
                        spec = _spec(fh.read().splitlines(), gitignore=True)
                except OSError:
                    spec = None  # unreadable .gitignore: ignore nothing (git does the same)
            self._ignores[folder] = spec
        return self._ignores[folder]

    def _chain(self, folder: str, top: str) -> list[tuple[str, Any]]:
        """The .gitignore specs that apply in ``folder``: from ``top`` down, (folder, spec)."""
        key = (folder, top)
        got = self._chains.get(key)
        if got is None:
            if folder == top or len(folder) <= len(top):
                got = []
            else:
                got = list(self._chain(os.path.dirname(folder), top))
            spec = self._ignore_spec(folder)
            if spec is not None:
                got.append((folder, spec))
            self._chains[key] = got
        return got

    def ignored(self, path: str, top: str, is_dir: bool = False) -> bool:
        """Whether the .gitignore files from ``top`` down to ``path``'s folder ignore it
        (a deeper file's match, negations included, wins)."""
        if not self.gitignore:
            return False
        verdict: bool | None = None
        for folder, spec in self._chain(os.path.dirname(path), top):
            rel = path[len(folder) + 1 :].replace(os.sep, "/")
            got = spec.check_file(rel + "/" if is_dir else rel).include
            if got is not None:
                verdict = got
        return bool(verdict)

    # -- walking
    def walk(self, folder: str | Path) -> Iterator[str]:
        """Deck files under ``folder``, recursively, in sorted order (the same on every run).

        A sub-folder that cannot be listed (permissions, I/O error) is yielded as itself, in
        its place: the reader reports it (``read_item``), so its decks are never skipped unsaid.
        """
        root = os.path.abspath(folder)
        top = self._git_top(root) if self.gitignore else root
        shown = str(folder)
        failed: list[str] = []

        def _failed(exc: OSError) -> None:
            bad = str(exc.filename) if exc.filename else root
            failed.append(os.path.join(shown, bad[len(root) + 1 :]) if bad != root else shown)

        for cur, dirs, files in os.walk(root, onerror=_failed):
            while failed:
                yield failed.pop(0)
            keep = []
            for d in sorted(dirs):
                full = os.path.join(cur, d)
                if d.startswith(".") or d in SKIP_DIRS:
                    continue
                if self.excluded(full, root, True) or self.ignored(full, top, True):
                    continue
                keep.append(d)
            dirs[:] = keep
            # The .gitignore files that apply here, once per folder: most folders have none,
            # and then no file of it needs asking (``ignored`` would find the same chain).
            chain = self._chain(cur, top) if self.gitignore else []
            exclude = self._exclude is not None
            for name in sorted(files):
                full = os.path.join(cur, name)
                if name.startswith(".") or not self.is_deck(full, root):
                    continue
                if (exclude and self.excluded(full, root)) or (chain and self.ignored(full, top)):
                    continue
                # Report paths the way the user named the folder.
                yield os.path.join(shown, full[len(root) + 1 :] if root != "/" else full[1:])
        yield from failed

    def wanted(self, path: str) -> bool:
        """For a named file under a filter (pre-commit passes every staged file): would a
        walk of its folder check it?"""
        full = os.path.abspath(path)
        parts = os.path.relpath(full, self.base).replace(os.sep, "/").split("/")
        if any(p.startswith(".") and p not in (".", "..") for p in parts[:-1]):
            return False
        root = os.path.dirname(full)
        if not self.is_deck(full, root):
            return False
        return not (self.excluded(full, root) or self.ignored(full, self._git_top(root)))

    def expand(self, inputs: Iterable[str], *, filter_files: bool = False) -> Iterator[str]:
        """Each INPUT as an item to read: "-", a ydke:// URL, a named file (always, unless
        ``filter_files``), or the deck files of a named folder."""
        for item in inputs:
            if is_inline(item):
                yield item
            elif os.path.isdir(item):
                yield from self.walk(item)
            elif not filter_files or self.wanted(item):
                yield item


def _spec(lines: Iterable[str], gitignore: bool = False) -> Any:
    lines = [ln for ln in lines if ln.strip()]
    if not lines:
        return None
    import pathspec  # only a walk pays for it

    # Git's own wildmatch rules for include/exclude too (what ruff and black use).
    return pathspec.GitIgnoreSpec.from_lines(lines)


def walk_folder(folder: str | Path, suffixes: tuple[str, ...] = DECK_SUFFIXES) -> Iterator[str]:
    """Deck files under ``folder``, recursively, in sorted order (the same on every run)."""
    return Discovery(suffixes=suffixes).walk(folder)


def deck_paths(inputs: Iterable[Path], suffixes: tuple[str, ...] = FILE_SUFFIXES) -> list[Path]:
    """Deck files named by ``inputs``: files as given, folders searched recursively (sorted
    by path); a missing path or a folder without decks is an ``InputError``."""
    from pathlib import Path  # ``banlist diff --deck`` only: the validate path makes no Path

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
        elif p.exists():  # /dev/null, a FIFO: there, but no deck file (issue 32)
            raise InputError("not a regular file (a deck file or folder is)", where=str(p))
        else:
            raise InputError("no such file or folder", where=str(p))
    return out


def read_item(item: Item, ints: dict[str, int] | None = None) -> Deck:
    """The deck ``item`` names, as read (text entries not resolved yet); ``ints``: the run's
    passcode table (``decks.ydk.parse_lines``)."""
    if isinstance(item, tuple):  # stdin read by the parent process (--jobs)
        if item[0] == "!":
            raise InputError(item[1].decode())
        return decks.read_bytes(item[1], "<stdin>", ints=ints)
    if item == "-":
        return decks.read_stdin(ints=ints)
    if decks.ydke.is_argument(item):
        return decks.read_string(item, source=item)
    try:
        return decks.read_path(item, ints=ints)
    except InputError:
        # A sub-folder the walker could not list: said as such (checked only on failure, no
        # stat per deck).
        if os.path.isdir(item):
            raise InputError(_unlisted(item), where=item) from None
        raise


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
        if deck.packed() is not None:
            return deck  # passcodes only (the .ydk fast reader)
        if None not in map(_card_id, chain(deck.main, deck.extra, deck.side)):
            return deck  # every entry has its passcode (a C loop: the common case)
        if not any(e.card_id is None and e.query for e in deck.entries()):
            return deck
        # Name lookup (rapidfuzz, the index) is paid only by text decklists.
        from deckcheck.decks.resolve import resolve_deck

        resolved: Deck = resolve_deck(deck, self.db, self.index())
        return resolved

    def load(self, item: Item) -> Deck:
        return self.resolve(read_item(item))


# --------------------------------------------------------------------------- encodings


def deck_score(deck: Deck) -> tuple[int, int]:
    """How badly a reading of a deck resolves: copies left without a card, then lines that
    did not read (fewer is better)."""
    unknown = sum(e.count for e in deck.entries() if e.card_id is None)
    return unknown, sum(1 for f in deck.findings if f.code == "DC101")


_scoring: list[Any] = []  # (database path, db, index) of this process, opened on first need


def name_score(text: str) -> tuple[int, int]:
    """``deck_score`` of ``text`` read as a deck and resolved through the installed card
    database: what picks among legacy encodings that all decode a file (``--encoding``
    still names one). Installed into ``decks.source`` when this module is imported."""
    from deckcheck import decks, paths
    from deckcheck.decks.resolve import resolve_deck

    try:
        deck = decks.read_string(text, source="<encoding>")
    except InputError:
        return (1 << 30, 1 << 30)
    where = paths.database_file()
    if not _scoring or _scoring[0] != where:
        from deckcheck.carddb import open_db
        from deckcheck.lookup import Index

        db = open_db()
        _scoring[:] = [where, db, Index.for_db(db)]
    return deck_score(resolve_deck(deck, _scoring[1], _scoring[2]))


def _install_scorer() -> None:
    from deckcheck.decks import source

    source.set_scorer(name_score)


_install_scorer()
