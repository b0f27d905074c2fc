"""The deck being edited in the app, without any Textual: the file (through the deck
editor, so every edit keeps the file's own format), its edits with undo and redo, the check
after each edit, and a save that never overwrites what another program wrote meanwhile."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from deckcheck import deckedit
from deckcheck.deckedit import SECTION_LABEL, DeckFile, EditError
from deckcheck.engine import Engine
from deckcheck.errors import DeckcheckError, InputError
from deckcheck.model import Section
from deckcheck.records import Record, record
from deckcheck.tui.checking import Checking, Verdict


@record
class Edit(Record):
    """One edit as the history keeps it: what it did, and the file's lines around it."""

    label: str  # "added Ash Blossom & Joyous Spring to the Main Deck"
    before: tuple[str, ...]
    after: tuple[str, ...]


class ReadOnly(DeckcheckError):
    """An edit or a save of a deck that opened read-only (it could not be read)."""


class Conflict(DeckcheckError):
    """The file changed on disk since it was read: the caller reloads or overwrites."""


class Builder:
    """One deck file open for editing in one format on one date.

    ``deckedit`` does the edits (its line editors keep .ydk comments, text-list wording and
    ydke:// links); the history keeps each edit's lines before and after, so undo and redo
    are exact. The file is not locked while it is open: a concurrent ``deck add`` goes
    through, and ``save`` sees it (``Conflict``) instead of writing over it.
    """

    def __init__(
        self,
        path: str | Path,
        engine: Engine,
        date: dt.date,
        format_id: str | None = None,
        lang: str = "en",
    ):
        self.path = Path(path)
        self.engine = engine  # the session's one engine: every check reuses what it learnt
        self.db: Any = engine.cards
        self.index = engine.loader.index()  # the lookup index text lists resolve with
        self.lang = lang
        self.asked_format = format_id
        self.undo_stack: list[Edit] = []
        self.redo_stack: list[Edit] = []
        self.read_only: str | None = None  # why, when the deck could not be read
        self.is_new = False
        self.notes: list[str] = []  # said once the app is up
        self.last_moved: str | None = None  # "section:passcode" the last move put a copy in
        self._load()
        hint = self.df.format_hint if self.read_only is None and format_id is None else None
        try:
            self.checking = Checking.open(engine, format_id or hint or "tcg", date, lang)
        except DeckcheckError as exc:
            if hint is None:
                raise  # the format asked for: exit 2 before the app starts
            # as `validate` does with a deck's own "#format" line it cannot use
            self.notes.append(f"'#format {hint}' line not used ({exc}); checked as tcg")
            self.checking = Checking.open(engine, "tcg", date, lang)
        self.verdict = self.check()

    # ------------------------------------------------------------------ reading

    def _load(self) -> None:
        p = self.path
        self.read_only = None
        self.is_new = not p.exists() and not p.is_symlink()
        if self.is_new:
            self.df = _blank(p, self.asked_format, self.db, self.index)
            self.base: bytes | None = None
        else:
            try:
                df = deckedit.load(p, self.db, self.index)
            except DeckcheckError as exc:
                self.read_only = str(exc)
                self.df = _blank(p, None, self.db, self.index)
                self.base = None
                return
            if df.lock is not None:  # held only while saving: a `deck add` may run meanwhile
                df.lock.release()
                df.lock = None
            self.df = df
            self.base = df.original
            unread = [f for f in df.deck.findings if f.code == "DC101"]
            if unread:
                lines = ", ".join(str(f.line) for f in unread[:5] if f.line is not None)
                self.read_only = (
                    f"{len(unread)} line(s) of the file cannot be read"
                    + (f" (line {lines})" if lines else "")
                    + ": fix them in the file, then reload (ctrl+r)"
                )
        self.saved_text = self.df.text

    def reload(self, keep_edits: bool = False) -> list[str]:
        """Read the file again. ``keep_edits``: then apply this session's unsaved changes to
        it card by card (what could not be applied is returned, one line each). The history
        starts again: its lines were those of the older file."""
        delta = self._delta() if keep_edits and self.read_only is None else Counter()
        self._load()
        self.undo_stack.clear()
        self.redo_stack.clear()
        failed = self._apply(delta) if delta else []
        self.verdict = self.check()
        return failed

    def _delta(self) -> Counter[tuple[str, int]]:
        """Copies per (section, passcode) this session added (> 0) or took out (< 0)."""
        base = deckedit.tally(
            deckedit.parse_text(
                self.path, self.saved_text.lstrip("\ufeff"), self.df.kind, self.index, self.db
            )
        )
        now = deckedit.tally(self.df.deck)
        out: Counter[tuple[str, int]] = Counter()
        for key in base.keys() | now.keys():
            d = now[key] - base[key]
            if d:
                out[key] = d
        return out

    def _apply(self, delta: Counter[tuple[str, int]]) -> list[str]:
        if self.read_only is not None:
            return [f"not applied (the file is read-only now): {self.read_only}"]
        failed = []
        before = tuple(self.df.lines)
        on = self.checking.on
        # Removals first: a move is a removal and an addition.
        for (section, cid), d in sorted(delta.items(), key=lambda kv: kv[1]):
            sec: Section = section  # type: ignore[assignment]
            name = self.db.name(cid, self.lang)
            kept = list(self.df.lines)
            try:
                if d < 0:
                    deckedit.remove(
                        self.df, cid, -d, sec, on, self.db, self.index, exact=True, lang=self.lang
                    )
                else:
                    deckedit.add(
                        self.df, cid, d, sec, on, self.db, self.index, force=True, lang=self.lang
                    )
            except EditError as exc:
                self._set_lines(kept)
                verb = "take out" if d < 0 else "add"
                failed.append(
                    f"could not {verb} {abs(d)} × {name} ({SECTION_LABEL[section]}): {exc.message}"
                )
        if tuple(self.df.lines) != before:
            self.undo_stack.append(
                Edit("your unsaved changes, applied again", before, tuple(self.df.lines))
            )
        return failed

    def _set_lines(self, lines: list[str] | tuple[str, ...]) -> None:
        df = self.df
        df.lines = list(lines)
        df.deck = deckedit.parse_text(
            df.path, df.text.lstrip("\ufeff"), df.kind, self.index, self.db
        )

    # ------------------------------------------------------------------ state

    @property
    def dirty(self) -> bool:
        """Edits not in the file yet."""
        return self.read_only is None and self.df.text != self.saved_text

    def check(self) -> Verdict:
        """The deck checked as ``validate`` checks it."""
        if self.read_only is not None and not self.is_new:
            return self.checking.check_file(str(self.path))  # no edits: the file as it is
        return self.checking.check_text(self.df.text, str(self.path))

    def set_format(self, format_id: str, date: dt.date) -> None:
        """Check in another format or on another date (DeckcheckError when unknown)."""
        self.checking = Checking.open(self.engine, format_id, date, self.lang)
        self.asked_format = format_id
        self.verdict = self.check()

    # ------------------------------------------------------------------ edits

    def _edit(self, label: Callable[[Any], str], op: Callable[[], Any]) -> str:
        if self.read_only is not None:
            raise ReadOnly(f"read-only: {self.read_only}")
        before = tuple(self.df.lines)
        try:
            change = op()
        except EditError:
            self._set_lines(before)  # an editor that refused may have changed lines first
            raise
        text = label(change)
        self.undo_stack.append(Edit(text, before, tuple(self.df.lines)))
        self.redo_stack.clear()
        self.verdict = self.check()
        return text

    def add(self, card_id: int, side: bool = False, section: Section | None = None) -> str:
        """One copy of ``card_id``: to the Side Deck, to ``section``, or where the format
        puts it (an Extra Deck monster to the Extra Deck)."""
        to: Section | None = "side" if side else section
        return self._edit(
            lambda c: f"added {c.name} to the {SECTION_LABEL[c.section]} (now {c.now})",
            lambda: deckedit.add(
                self.df, card_id, 1, to, self.checking.on, self.db, self.index, lang=self.lang
            ),
        )

    def remove(self, card_id: int, section: Section | None = None) -> str:
        """One copy of this very passcode, the last in ``section`` (default: where the card
        belongs, or the one section holding it)."""
        return self._edit(
            lambda c: f"removed {c.name} from the {SECTION_LABEL[c.section]} (now {c.now})",
            lambda: deckedit.remove(
                self.df,
                card_id,
                1,
                section,
                self.checking.on,
                self.db,
                self.index,
                exact=True,
                lang=self.lang,
            ),
        )

    def move(self, card_id: int, section: Section) -> str:
        """One copy from ``section`` to the Side Deck, or from the Side Deck back to where
        the card belongs (Main or Extra)."""
        on = self.checking.on
        if section == "side":
            card = self.db.get(card_id)
            to: Section = deckedit.home_section(card, on) if card is not None else "main"
        else:
            to = "side"
        self.last_moved = f"{to}:{card_id}"
        return self._edit(
            lambda c: f"moved {c.name} to the {SECTION_LABEL[c.section]}",
            lambda: deckedit.move(
                self.df,
                card_id,
                1,
                to,
                section,
                on,
                self.db,
                self.index,
                exact=True,
                lang=self.lang,
            ),
        )

    def undo(self) -> str | None:
        if not self.undo_stack:
            return None
        e = self.undo_stack.pop()
        self._set_lines(e.before)
        self.redo_stack.append(e)
        self.verdict = self.check()
        return f"undone: {e.label}"

    def redo(self) -> str | None:
        if not self.redo_stack:
            return None
        e = self.redo_stack.pop()
        self._set_lines(e.after)
        self.undo_stack.append(e)
        self.verdict = self.check()
        return f"redone: {e.label}"

    # ------------------------------------------------------------------ saving

    def save(self, overwrite: bool = False) -> None:
        """Write the deck all or nothing through the deck editor's writer, under the edit
        lock the ``deck`` commands take. ``Conflict`` (nothing written) when the file is not
        what was read (another program wrote it, or created it) unless ``overwrite``;
        ``ReadOnly`` for a deck that could not be read; InputError when it cannot be written."""
        if self.read_only is not None:
            raise ReadOnly(f"not saved: {self.read_only}")
        from deckcheck.deckedit.files import EditLock
        from deckcheck.decks.source import read_path_bytes

        lock = EditLock(self.path)  # waits for a `deck add` that holds it
        try:
            try:
                now: bytes | None = read_path_bytes(self.path)
            except InputError:
                if self.path.exists():
                    raise
                now = None
            if now != self.base and not overwrite:
                what = "was created" if self.base is None else "changed"
                raise Conflict(
                    f"the file {what} on disk since it was read (another program or a "
                    "`deckcheck deck` command wrote it)",
                    where=str(self.path),
                )
            self.df.original = now
            self.df.lock = lock
            deckedit.save(self.df)  # checks `now` again under the lock, writes, unlocks
        finally:
            self.df.lock = None
            lock.release()
        self.base = self.df.original
        self.saved_text = self.df.text
        self.is_new = False


def _blank(path: Path, format_id: str | None, db: Any, index: Any) -> DeckFile:
    """An empty deck of the kind ``path``'s name says, not written yet (``deck new``'s text)."""
    kind = deckedit.kind_for_path(path)
    text = deckedit.new_text(kind, format_id if kind != "ydke" else None)
    lines = text.splitlines()
    deck = deckedit.parse_text(path, text, kind, index, db)
    return DeckFile(path=path, kind=kind, lines=lines, deck=deck, format_hint=format_id)


__all__ = ["Builder", "Conflict", "Edit", "ReadOnly"]
