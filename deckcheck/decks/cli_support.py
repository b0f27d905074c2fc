"""Helpers the ``convert`` and ``build`` commands share: reading INPUT, reporting problems.

Kept in ``decks`` (not in the commands) because a library user converting decks needs the
same "read anything, resolve names, refuse to write what lost cards" steps.
"""

from __future__ import annotations

from typing import Any

from deckcheck import decks
from deckcheck.codes import finding
from deckcheck.model import Deck, Finding


def read_input(arg: str, kind: str | None = None) -> Deck:
    """A Deck from a command-line INPUT: a file path, a ydke:// URL or ``-`` (stdin)."""
    if arg == "-":
        return decks.read_stdin(kind=kind)
    if decks.ydke.is_argument(arg):
        return decks.ydke.parse(arg)
    return decks.read_path(arg, kind=kind)


def needs_names(deck: Deck) -> bool:
    """True when the deck has text entries still to resolve to passcodes."""
    return any(e.card_id is None for e in deck.entries())


def check_ids(deck: Deck, db: Any) -> list[Finding]:
    """DC102 findings for passcodes the database does not know (used before writing)."""
    return [
        finding(
            "DC102",
            f"unknown card: passcode {e.card_id} is not in the card database",
            section=e.section,
            line=e.line,
            card_id=e.card_id,
            count=e.count,
        )
        for e in deck.entries()
        if e.card_id is not None and db.get(e.card_id) is None
    ]


def format_finding(source: str, f: Finding) -> str:
    """One stderr line: ``file:line: CODE message`` (candidates are in the message)."""
    where = f"{source}:{f.line}" if f.line else source
    return f"{where}: {f.code} {f.message}"
