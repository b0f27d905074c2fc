"""Deck output: canonical ``.ydk``, ``ydke://`` and text decklists, plus atomic file writes.

Writers keep the order of entries. They refuse a deck with unresolved text entries instead of
writing a file that silently lacks cards.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Protocol

from deckcheck import fsio
from deckcheck.decks import ydke
from deckcheck.errors import InputError
from deckcheck.model import SECTIONS, Deck, DeckEntry

CREATED_BY = "#created by deckcheck"

# Section headers of the text writer; the text reader reads them back.
TEXT_HEADERS = {"main": "Main Deck", "extra": "Extra Deck", "side": "Side Deck"}


class NameSource(Protocol):
    """What the writers need from the card database (``carddb.CardDB`` fits)."""

    def name(self, card_id: int, lang: str = "en") -> str: ...


def _require_ids(deck: Deck, what: str) -> None:
    missing = [e for e in deck.entries() if e.card_id is None]
    if missing:
        e = missing[0]
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        raise InputError(
            f'cannot write {what}: "{e.query}" is not resolved to a card{more}',
            where=f"{deck.source}:{e.line}" if e.line else deck.source,
        )


def _one_line(text: str) -> str:
    # Names go into comment lines: a stray line break would end the comment.
    return " ".join(text.split())


def to_ydk(deck: Deck, db: NameSource | None = None, *, lang: str = "en") -> str:
    """``.ydk`` text: ``#created by``, ``#main``, ``#extra``, ``!side``, one passcode a line.

    With ``db``, each run of copies is preceded by a ``# Card Name`` comment line, which
    YGOPro and EDOPro skip (they would misread a name after the passcode on some versions).
    """
    _require_ids(deck, ".ydk")
    out: list[str] = []
    comments = [c for c in deck.comments if c.startswith("#")]
    if not any(c.lower().startswith("#created by") for c in comments):
        out.append(CREATED_BY)
    out.extend(comments)
    for name in SECTIONS:
        out.append("!side" if name == "side" else f"#{name}")
        prev: int | None = None
        for e in deck.section(name):
            assert e.card_id is not None
            if db is not None and e.card_id != prev:
                out.append("# " + _one_line(db.name(e.card_id, lang)))
            out.extend([str(e.card_id)] * e.count)
            prev = e.card_id
    return "\n".join(out) + "\n"


def to_ydke(deck: Deck) -> str:
    """The ``ydke://`` URL of the deck."""
    _require_ids(deck, "ydke://")
    return ydke.encode(deck)


def _runs(entries: list[DeckEntry]) -> list[tuple[int, int]]:
    """(card_id, copies) of each card of a section, at its first place: every copy of a
    card in one line, also when the deck writes it in two places (issue 32)."""
    runs: dict[int, int] = {}
    for e in entries:
        assert e.card_id is not None
        runs[e.card_id] = runs.get(e.card_id, 0) + e.count
    return list(runs.items())


def to_text(
    deck: Deck, db: NameSource, *, lang: str = "en", ids: bool = False, index: Any = None
) -> str:
    """A text decklist: "Main Deck (40)" headers and "3 Card Name" lines.

    Every copy of a card in a section is one line, where the card first appears (a .ydk
    that lists a card in two places gives one "3 Card" line; the order of first appearance
    is kept).
    A passcode the database does not know is written as the passcode (the text reader takes
    it back as an id); ``ids=True`` writes every card as its passcode ("3 89631139").
    With ``index`` (``lookup.Index``), a name that would not resolve back to the same
    passcode (an alternate artwork, a name two cards share) is followed by its passcode,
    "1 Dark Magician (46986415)", so reading the list back gives exactly the same deck.
    """
    from deckcheck.decks.text import format_line  # the reader's own grammar, written back

    _require_ids(deck, "a text decklist")
    out: list[str] = []
    cache: dict[str, int | None] = {}
    for name in SECTIONS:
        runs = _runs(deck.section(name))
        if not runs and name != "main":
            continue
        if out:
            out.append("")
        out.append(f"{TEXT_HEADERS[name]} ({sum(n for _, n in runs)})")
        for card_id, n in runs:
            label = db.name(card_id, lang)
            if ids or label == str(card_id) or not label.strip():
                # Zero-padded to 8 digits: the text reader takes 5+ digits as a passcode.
                out.append(format_line(n, "", card_id))
                continue
            label = _one_line(label)
            pin = not _reads_back(n, label) or (
                index is not None and not _gives_back(index, label, card_id, cache)
            )
            out.append(format_line(n, label, card_id if pin else None))
    return "\n".join(out) + "\n"


def _reads_back(n: int, label: str) -> bool:
    """True when the line "n label" reads back as n copies of "label" (names such as "7"
    or "Battle x 2" do not, and get their passcode beside them)."""
    from deckcheck.decks.text import fold, parse_lines

    d = parse_lines([f"{n} {label}"], "")
    es = d.entries()
    return not d.findings and len(es) == 1 and es[0].count == n and es[0].query == fold(label)


def _gives_back(index: Any, label: str, card_id: int, cache: dict[str, int | None]) -> bool:
    if label not in cache:
        res = index.resolve(label)
        cache[label] = res.card_id if res.status == "found" else None
    return cache[label] == card_id


def write_atomic(
    path: str | os.PathLike[str], text: str | bytes, *, encoding: str = "utf-8"
) -> None:
    """Write a user's file all or nothing (``fsio.write_atomic``); the folder must exist.

    Raises InputError naming the file when it cannot be written."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise InputError("is a directory", where=str(target))
    if not folder.is_dir():
        raise InputError(
            f"folder {folder} does not exist (deckcheck creates no folders)", where=str(target)
        )
    try:
        fsio.write_atomic(target, text, encoding=encoding)
    except fsio.NotRegularFile as exc:
        raise InputError(str(exc.strerror), where=str(target)) from None
    except UnicodeEncodeError as exc:
        raise InputError(
            f"cannot write {exc.object[exc.start : exc.end]!r} in the file's "
            f"encoding {encoding}; save the deck as UTF-8 first",
            where=str(target),
        ) from None
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror or exc}", where=str(target)) from None
