"""Deck files as read for editing: kind detection, loading with the file's encoding and
layout (``DeckFile``), empty files of each kind, and the all-or-nothing save."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from deckcheck.model import Deck
from deckcheck.records import Record, field, record

#: The file kinds deck editing knows.
KINDS = ("ydk", "ydke", "text")

_FORMAT_COMMENT = re.compile(r"\s*#\s*format\s*[:=]?\s*([A-Za-z0-9_.-]+)\s*$", re.IGNORECASE)


@record(frozen=False)
class DeckFile(Record):
    """A deck file as read for editing: its text, how it was encoded, and the parsed deck
    (text-list names resolved to passcodes)."""

    path: Path
    kind: str  # ydk | ydke | text
    lines: list[str]
    newline: str = "\n"
    trailing_newline: bool = True
    encoding: str = "utf-8"
    bom: bool = False
    deck: Deck = field(default_factory=lambda: Deck(source=""))
    format_hint: str | None = None  # from a "#format tcg" header comment
    #: the bytes read: ``save`` refuses to write when the file changed since
    original: bytes | None = field(default=None, compare=False)
    #: the edit lock held from ``load`` until ``save`` (or until released / collected)
    lock: EditLock | None = field(default=None, compare=False)

    @property
    def text(self) -> str:
        body = self.newline.join(self.lines)
        if self.trailing_newline and self.lines:
            body += self.newline
        return ("\ufeff" if self.bom else "") + body


class EditLock:
    """Exclusive ``flock``s that serialise edits of one deck file, in the cache folder (not
    beside the deck: the user's folder gets no litter): one per name (the real path, so a
    symlink is its target) and one per file identity (device + inode), so two hard-link names
    of one deck wait for each other too (issue 32: per name only, 8 of 49 edits through two
    names were lost). The second edit reads the file only after the first has written it.
    Without a writable cache folder there is no lock; ``save`` still refuses a file that
    changed since it was read."""

    def __init__(self, path: Path):
        import hashlib
        import os
        import weakref

        from deckcheck import paths

        folder = paths.cache_dir() / "locks"
        self.fd: int | None = None
        self._fds: list[int] = []
        self._finalizer = weakref.finalize(self, _close_all, self._fds)
        real = os.path.realpath(path)
        key = hashlib.sha256(os.fsencode(real)).hexdigest()[:32]
        try:
            folder.mkdir(parents=True, exist_ok=True)
            self.fd = _flock(folder / f"deck-{key}.lock")
        except OSError:
            return  # read-only cache: the changed-file check in save() remains
        self._fds.append(self.fd)
        # The name's lock first, then the file's: one order, no deadlock. A single-link file
        # gets a new inode from each save (temp file + rename): the identity is read again
        # once its lock is held, until it holds still.
        for _ in range(20):
            try:
                st = os.stat(real)
            except OSError:
                return
            ident = f"file-{st.st_dev}-{st.st_ino}.lock"
            try:
                fd = _flock(folder / ident)
            except OSError:
                return
            try:
                again = os.stat(real)
            except OSError:
                again = None
            if again is not None and (again.st_dev, again.st_ino) == (st.st_dev, st.st_ino):
                self._fds.append(fd)
                return
            os.close(fd)

    def release(self) -> None:
        if self.fd is not None:
            self._finalizer()  # closing the descriptors drops the flocks
            self.fd = None


def _flock(path: Path) -> int:
    import fcntl
    import os

    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _close_all(fds: list[int]) -> None:
    import os

    while fds:
        try:
            os.close(fds.pop())
        except OSError:
            pass


def format_hint(lines: Iterable[str]) -> str | None:
    """The format a "#format tcg" comment before the first card names, if any."""
    for line in lines:
        s = line.strip()
        if not s:
            continue
        m = _FORMAT_COMMENT.match(s)
        if m:
            return m.group(1).lower()
        if not s.startswith(("#", "!")):
            return None
    return None


def format_id_for(df: DeckFile | None, asked: str | None) -> str:
    """The format a deck command works in: the one asked for, else the file's "#format"
    line, else tcg."""
    return asked or (df.format_hint if df is not None else None) or "tcg"


def parse_text(path: Path, text: str, kind: str | None, index: Any, db: Any) -> Deck:
    from deckcheck import decks
    from deckcheck.decks.resolve import resolve_deck

    deck = decks.read_string(text, source=str(path), kind=kind)
    if deck.kind == "text" and any(e.card_id is None and e.query for e in deck.entries()):
        deck = resolve_deck(deck, db, index)
    return deck


def load(path: str | Path, db: Any, index: Any) -> DeckFile:
    """Read a deck file for editing (InputError when it cannot be read at all)."""
    from deckcheck import fsio
    from deckcheck.decks.source import decode_with, read_path_bytes, split_lines
    from deckcheck.errors import InputError

    p = Path(path)
    try:
        fsio.resolve_target(p)  # a FIFO or device is refused before it is read, not after
    except fsio.NotRegularFile as exc:
        raise InputError(str(exc.strerror), where=str(p)) from None
    lock = EditLock(p) if p.exists() else None
    try:
        _interrupted_rewrite(p)
    except BaseException:
        if lock is not None:
            lock.release()
        raise
    data = read_path_bytes(p)
    bom = data.startswith(b"\xef\xbb\xbf")
    # An edit writes the file back in the encoding it was read in (Shift-JIS stays Shift-JIS).
    import deckcheck.inputs  # noqa: F401  (several encodings decode it: names decide)

    text, encoding = decode_with(data, str(p))
    deck = parse_text(p, text, None, index, db)
    newline = "\r\n" if "\r\n" in text else ("\r" if "\r" in text else "\n")
    lines = split_lines(text, str(p))
    return DeckFile(
        path=p,
        kind=deck.kind,
        lines=lines if deck.kind != "ydke" else [text.strip()],
        newline=newline,
        trailing_newline=text.endswith(("\n", "\r")) or deck.kind == "ydke",
        encoding=encoding,
        bom=bom,
        deck=deck,
        format_hint=format_hint(lines),
        original=data,
        lock=lock,
    )


def _interrupted_rewrite(p: Path) -> None:
    """A deck with several hard links is rewritten in place after its new text is saved as
    ``fsio.backup_path``; that file still there means the rewrite was cut short (a kill).
    The marker ``save`` wrote (``_marker``) says which text the file held before and which
    the backup holds: the file already equal to the backup (the rewrite had finished) or
    still the old text (it never began), the backup goes; a torn file is completed from the
    backup, with a note. Without the marker only the user can tell: one clear error."""
    import os

    from deckcheck import fsio, notes
    from deckcheck.errors import InputError

    real = Path(os.path.realpath(p))
    backup = fsio.backup_path(real)
    marker = _marker(real)
    record = _read_marker(marker)
    if not backup.is_file() and record.get("backup"):
        backup = Path(record["backup"])  # edited through another of its names
    if not backup.is_file():
        if marker is not None:
            marker.unlink(missing_ok=True)
        return
    try:
        now, saved = real.read_bytes(), backup.read_bytes()
    except OSError:
        now, saved = b"", None
    if (saved is not None and now == saved) or record.get("old") == fsio.sha256_bytes(now):
        backup.unlink(missing_ok=True)  # finished, or never begun: the file is whole
        if marker is not None:
            marker.unlink(missing_ok=True)
        return
    if saved is not None and record.get("new") == fsio.sha256_bytes(saved):
        from deckcheck.decks.write import write_atomic

        write_atomic(real, saved)  # in place again (every link sees it)
        backup.unlink(missing_ok=True)  # (named after the link the interrupted edit used)
        if marker is not None:
            marker.unlink(missing_ok=True)
        notes.note(
            f"deckcheck: note: {p}: an earlier edit was interrupted while the file was "
            f"rewritten in place; finished it from {backup}"
        )
        return
    raise InputError(
        f"an earlier edit of this file was interrupted while it was rewritten in place (it "
        f"has several hard links), so it may be half old, half new; the complete edited "
        f"text is in {backup}: check the deck, then copy that file over it (every link sees "
        f"it: cat backup > deck) or delete it to keep the deck as it is",
        where=str(p),
    )


def _read_marker(marker: Path | None) -> dict[str, str]:
    """What ``save`` wrote in the marker: backup path, sha256 of the old and new text (an
    older deckcheck wrote the path alone)."""
    import json

    if marker is None or not marker.is_file():
        return {}
    try:
        text = marker.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    try:
        got = json.loads(text)
    except ValueError:
        return {"backup": text}
    return {k: str(v) for k, v in got.items()} if isinstance(got, dict) else {}


def _marker(real: Path) -> Path | None:
    """For a file with several hard links: ``<cache>/locks/rewrite-<dev>-<inode>``, naming
    the backup of a rewrite in place while it runs, so an edit through any of the file's
    names finds it."""
    import os

    from deckcheck import paths

    try:
        st = os.stat(real)
    except OSError:
        return None
    if st.st_nlink < 2:
        return None
    return paths.cache_dir() / "locks" / f"rewrite-{st.st_dev}-{st.st_ino}"


def new_text(kind: str, format_id: str | None = None) -> str:
    """The text of an empty deck file of ``kind`` (ydk, ydke, text)."""
    note = [f"#format {format_id}"] if format_id else []
    if kind == "ydke":
        return "ydke://!!!\n"
    if kind == "text":
        return "\n".join([*note, "Main Deck", "", "Extra Deck", "", "Side Deck"]) + "\n"
    return "\n".join(["#created by deckcheck", *note, "#main", "#extra", "!side"]) + "\n"


def kind_for_path(path: str | Path) -> str:
    suffix = Path(path).suffix.lower()
    return {".txt": "text", ".ydke": "ydke"}.get(suffix, "ydk")


def create(
    path: str | Path,
    format_id: str | None = None,
    *,
    force: bool = False,
    note: Callable[[str], None] | None = None,
) -> tuple[str, str | None]:
    """Write an empty deck file, its kind following the name (.txt text, .ydke link, else
    .ydk); returns (kind, format written). A ydke:// link cannot hold the format: ``note``
    is told and none is written. InputError when the file exists (unless ``force``)."""
    import os

    from deckcheck.decks.write import write_atomic
    from deckcheck.errors import InputError

    if os.path.exists(path) and not force:
        raise InputError("already exists (use --force to overwrite it)", where=str(path))
    kind = kind_for_path(path)
    if kind == "ydke" and format_id:
        if note is not None:
            note("a ydke:// file cannot hold the format; not written")
        format_id = None
    write_atomic(path, new_text(kind, format_id))
    return kind, format_id


def save(df: DeckFile) -> None:
    """Write the edited file all or nothing (temp file + ``os.replace``), then release the
    edit lock. InputError, nothing written, when the file changed since ``load`` read it (an
    edit by a program that does not take the lock): an edit is never reported done when it
    is not in the file."""
    import os

    from deckcheck import fsio
    from deckcheck.decks.source import read_path_bytes
    from deckcheck.decks.write import write_atomic
    from deckcheck.errors import InputError

    try:
        if df.original is not None and read_path_bytes(df.path) != df.original:
            raise InputError(
                "the file changed while it was being edited; nothing written (run the edit again)",
                where=str(df.path),
            )
        marker = _marker(Path(os.path.realpath(df.path)))
        if marker is not None:  # a rewrite in place (hard links): say where its backup is
            import json

            record = {
                "backup": str(fsio.backup_path(os.path.realpath(df.path))),
                "old": fsio.sha256_bytes(df.original or b""),
                "new": fsio.sha256_bytes(new) if (new := _encoded(df)) is not None else "",
            }
            try:
                marker.parent.mkdir(parents=True, exist_ok=True)
                marker.write_text(json.dumps(record), encoding="utf-8")
            except OSError:
                marker = None
        write_atomic(df.path, df.text, encoding=df.encoding)
        if marker is not None:
            marker.unlink(missing_ok=True)
        df.original = read_path_bytes(df.path)  # a library user may edit and save again
    finally:
        if df.lock is not None:
            df.lock.release()


def _encoded(df: DeckFile) -> bytes | None:
    """The bytes ``write_atomic`` writes for ``df`` (its text in its encoding, no newline
    translation); None when the encoding cannot hold the text (``write_atomic`` says so)."""
    try:
        return df.text.encode(df.encoding)
    except UnicodeEncodeError:
        return None
