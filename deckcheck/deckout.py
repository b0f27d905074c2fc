"""One deck input turned into deck text for ``build`` and ``convert``: read it, resolve its
names, collect every problem (so nothing is written that lost a card), write .ydk/ydke/text."""

from __future__ import annotations

from typing import Any

from deckcheck.model import Deck, Finding
from deckcheck.records import Record, field, record


@record(frozen=False)
class Loaded(Record):
    """A deck read from one input, with what resolving it needed and found."""

    deck: Deck
    db: Any = None
    index: Any = None
    notes: list[str] = field(default_factory=list)
    problems: list[Finding] = field(default_factory=list)


def load_deck(
    arg: str,
    *,
    lang: str = "en",
    want_db: bool = False,
    want_index: bool = False,
    resolve_always: bool = False,
    check_passcodes: bool = False,
) -> Loaded:
    """The deck ``arg`` names (a path, a ydke:// URL, ``-``), its names resolved.

    The card database and the lookup index are opened only when names need resolving or
    the caller wants them (``want_db``, ``want_index``); ``check_passcodes`` also reports
    passcodes the database does not know, sorted by line with the other problems.
    """
    import deckcheck.inputs  # noqa: F401  (legacy encodings ranked by how names resolve)
    from deckcheck.decks.cli_support import check_ids, needs_names, read_input

    deck = read_input(arg, kind=None)
    resolve = resolve_always or needs_names(deck)
    got = Loaded(deck)
    if resolve or want_db or want_index or check_passcodes:
        from deckcheck.carddb import open_db

        got.db = open_db()
    if resolve or want_index:
        from deckcheck.lookup import Index

        got.index = Index.for_db(got.db)
    if resolve:
        from deckcheck.decks.resolve import resolve_deck

        got.deck = resolve_deck(deck, got.db, got.index, got.notes, lang)
    got.problems = list(got.deck.findings)
    if check_passcodes:
        got.problems = sorted(
            [*got.problems, *check_ids(got.deck, got.db)],
            key=lambda f: (f.line is None, f.line or 0),
        )
    return got


def deck_text(got: Loaded, to: str, *, names: bool, lang: str) -> str:
    """The deck as ``to`` (ydk, ydke, text); ydk carries '# Name' comments with ``names``."""
    from deckcheck.decks import write

    if to == "ydk":
        return write.to_ydk(got.deck, got.db if names else None, lang=lang)
    if to == "ydke":
        return write.to_ydke(got.deck) + "\n"
    return write.to_text(got.deck, got.db, lang=lang, index=got.index)


def save(text: str, out: str | None) -> bool:
    """Write ``text`` to ``out`` atomically; False when ``out`` means stdout (None or -)."""
    if out is None or out == "-":
        return False
    from deckcheck.decks import write

    write.write_atomic(out, text)
    return True


def check_readable(text: str, to: str, deck: Deck) -> None:
    """Refuse output that deckcheck (and the clients) could not read back whole: over the
    reader's byte or line limit, or holding other counts than ``deck`` (a text line of 1000+
    copies). InputError, so nothing is written."""
    from deckcheck import decks
    from deckcheck.decks.source import DEFAULT_LIMITS
    from deckcheck.errors import InputError

    size, lines = len(text.encode("utf-8")), text.count("\n")
    if size > DEFAULT_LIMITS.max_bytes or lines > DEFAULT_LIMITS.max_lines:
        raise InputError(
            f"the {to} output would be {lines} lines / {size} bytes, over the "
            f"{DEFAULT_LIMITS.max_lines}-line / {DEFAULT_LIMITS.max_bytes}-byte limit a deck "
            "file is read with; nothing written",
            where=deck.source,
        )
    back = decks.read_string(text, source="<output>", kind=to)
    if back.counts() != deck.counts() or back.findings:
        raise InputError(
            f"the {to} output would not read back as the same deck (main/extra/side "
            f"{'/'.join(str(v) for v in deck.counts().values())} vs "
            f"{'/'.join(str(v) for v in back.counts().values())}); nothing written",
            where=deck.source,
        )
