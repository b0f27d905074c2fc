"""The card search language (docs/SEARCH.md): ``query`` parses, ``table`` evaluates over the
card table, ``order`` sorts the result, ``status`` says where a card stands in a format."""

from __future__ import annotations

from deckcheck.search.query import QueryError, is_query, parse

__all__ = ["QueryError", "is_query", "parse", "run", "run_sorted"]


def run(text: str, db: object, index: object, date: object, notes: object = None) -> list:  # type: ignore[type-arg]
    """The rows of the cards ``text`` admits, in passcode order (an ``order:`` term is
    ignored here: ``run_sorted`` applies it)."""
    from deckcheck.search.table import Context, evaluate, load_rows

    node = parse(text)
    ctx = Context(db, index, date, notes)  # type: ignore[arg-type]
    return evaluate(node, load_rows(db), ctx)


def run_sorted(
    text: str,
    db: object,
    index: object,
    date: object,
    notes: object = None,
    *,
    sort: str | None = None,
    lang: str | None = None,
) -> list[tuple[str, object]]:
    """(display name, row) of the cards ``text`` admits, sorted by ``sort`` (``--sort``:
    ``name``, ``-atk``, ``level desc`` …), else the query's ``order:`` term, else by name.
    Both given and different is a QueryError."""
    from deckcheck.search.order import sort_rows
    from deckcheck.search.query import Order, parse_order, split_order
    from deckcheck.search.table import Context, evaluate, load_rows

    node, order = split_order(parse(text))
    if sort is not None:
        wanted = parse_order(sort)
        if order is not None and order != wanted:
            raise QueryError(sort, "--sort and the query's order: disagree (give one)")
        order = wanted
    ctx = Context(db, index, date, notes)  # type: ignore[arg-type]
    rows = load_rows(db)
    got = rows if node is None else evaluate(node, rows, ctx)
    return sort_rows(got, order or Order(), db, index, lang)  # type: ignore[return-value]
