"""Tournament submissions on disk: one deck file per submission in one folder, named from the
player's name made safe plus a unique id, written all or nothing (a killed server leaves a
whole file or none, never a part).

A submission is stored as UTF-8 text with a ``#player NAME`` line first, so the report (and
``deckcheck validate`` over the folder) names the player: ``.ydk`` text and ``ydke://``
links as ``.ydk`` (a link written out as its passcodes), text decklists as ``.txt``.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import unicodedata
import uuid

from deckcheck import decks, fsio
from deckcheck.decks.source import Limits, decode, split_lines
from deckcheck.errors import InputError
from deckcheck.model import Deck

#: the files of a submissions folder the report reads (hidden files are temp files)
SUFFIXES = (".ydk", ".txt")
MAX_PLAYER = 100
#: the longest part of a file name taken from the player's name
MAX_STEM = 40
#: temp files a killed server left (``fsio.replacing``'s), removed at start-up when older
STALE_SECONDS = 60.0


class BadPlayer(ValueError):
    """A player name that cannot be used (empty, too long)."""


def player_name(raw: str) -> str:
    """The player's name as shown: whitespace runs (line breaks included) as one space,
    control characters dropped; BadPlayer when nothing is left or it is too long."""
    text = " ".join(raw.split())
    text = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cs"))
    if not text:
        raise BadPlayer("player: a name is needed")
    if len(text) > MAX_PLAYER:
        raise BadPlayer(f"player: at most {MAX_PLAYER} characters")
    return text


def safe_stem(player: str) -> str:
    """The file name part made of a player's name: letters and digits of any script, ``-``
    and ``_``; anything else (``/``, ``.``, ``<``, spaces) becomes ``_``. It cannot name a
    folder, a parent or a hidden file; "player" when nothing is left."""
    text = unicodedata.normalize("NFKC", player)
    text = "".join(c if c.isalnum() or c in "-_" else "_" for c in text)
    text = re.sub(r"_+", "_", text).strip("_-")
    return text[:MAX_STEM].rstrip("_-") or "player"


class Stored:
    """A deck ready to store: the deck as sent (``deck``), the file's text (a ``#player``
    line, then the deck) and its suffix."""

    __slots__ = ("player", "deck", "text", "suffix")

    def __init__(self, player: str, deck: str, suffix: str):
        self.player = player
        self.deck = deck
        self.suffix = suffix
        newline = "\r\n" if "\r\n" in deck else "\n"
        self.text = f"#player {player}{newline}{deck}"


def prepare(player: str, data: bytes, upload_name: str, limits: Limits) -> Stored:
    """The stored form of an uploaded deck; InputError when it cannot be read at all."""
    where = "the uploaded deck"
    text = decode(data, where, limits)
    if not text.strip():
        raise InputError("the deck file is empty", where=where)
    if decks.ydke.is_ydke(text):
        from deckcheck.decks.write import to_ydk

        return Stored(player, to_ydk(decks.read_string(text, where, limits)), ".ydk")
    lines = split_lines(text, where, limits)
    suffix = ".ydk" if decks.sniff(lines, os.path.basename(upload_name)) == "ydk" else ".txt"
    return Stored(player, text, suffix)


class Submissions:
    """The submissions folder."""

    def __init__(self, folder: str):
        self.folder = folder

    def open(self) -> None:
        """Make the folder when missing and remove the temp files killed runs left (an
        ``OSError`` naming the folder when it cannot be used)."""
        os.makedirs(self.folder, exist_ok=True)
        if not os.access(self.folder, os.W_OK | os.X_OK):
            raise InputError("the submissions folder is not writable", where=self.folder)
        from pathlib import Path

        from deckcheck.staging import clean_stale

        clean_stale(Path(self.folder), [".dc-*"], older_than=STALE_SECONDS, recursive=False)

    def new_id(self, player: str) -> str:
        """``<name>-<UTC time>-<random>``: sorted by player, then by time; never repeated."""
        now = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
        return f"{safe_stem(player)}-{now}-{uuid.uuid4().hex[:12]}"

    def path(self, sid: str, suffix: str) -> str:
        path = os.path.join(self.folder, sid + suffix)
        # the id is made of safe characters, and this holds it to the folder all the same
        if os.path.dirname(os.path.abspath(path)) != os.path.abspath(self.folder):
            raise InputError("a submission must stay in its folder", where=path)
        return path

    def read(self, stored: Stored, sid: str, limits: Limits) -> Deck:
        """The deck as the report reads it from its file, but without the ``#player`` line:
        the lines of the verdict are those of the player's own file."""
        return decks.read_string(stored.deck, sid + stored.suffix, limits)

    def save(self, stored: Stored, sid: str) -> str:
        """Write the submission all or nothing (fsync'ed, then renamed into place, and the
        folder fsync'ed: once this returns it is on disk, whole)."""
        path = self.path(sid, stored.suffix)
        fsio.write_atomic(path, stored.text.encode("utf-8"))
        fd = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        return path

    def items(self) -> list[str]:
        """Every stored submission, as a folder walk of ``validate`` orders them (by name)."""
        try:
            names = sorted(
                e.name
                for e in os.scandir(self.folder)
                if not e.name.startswith(".") and e.name.endswith(SUFFIXES) and e.is_file()
            )
        except FileNotFoundError:
            return []
        return [os.path.join(self.folder, n) for n in names]


__all__ = ["BadPlayer", "Stored", "Submissions", "player_name", "prepare", "safe_stem"]
