"""The card search language (docs/SEARCH.md): ``query`` parses, ``table`` evaluates over the
card table, ``status`` says where a card stands in a format."""

from __future__ import annotations

from deckcheck.search.query import QueryError, is_query, parse

__all__ = ["QueryError", "is_query", "parse", "run"]


def run(text: str, db: object, index: object, date: object, notes: object = None) -> list:  # type: ignore[type-arg]
    """The rows of the cards ``text`` admits, in passcode order."""
    from deckcheck.search.table import Context, evaluate, load_rows

    node = parse(text)
    ctx = Context(db, index, date, notes)  # type: ignore[arg-type]
    return evaluate(node, load_rows(db), ctx)
