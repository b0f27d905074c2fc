"""Sorting the cards of a search (``--sort``, ``order:``; docs/SEARCH.md): by name (the name
shown), ATK, DEF, Level/Rank/Link, first release or passcode, ascending or descending. Ties
go by name, then passcode; a card without the value (a Spell's ATK, a card without a release
date) comes last either way."""

from __future__ import annotations

import datetime as dt
from typing import Any

from deckcheck.model import TYPE_LINK
from deckcheck.search.query import Order


def _value(r: Any, key: str, release: Any) -> Any:
    if key == "id":
        return r.id
    if key == "released":
        return release(r)
    if not r.is_monster:
        return None
    if key == "atk":
        return r.atk if r.atk >= 0 else None
    if key == "def":
        return None if r.type_bits & TYPE_LINK or r.defense < 0 else r.defense
    return r.stars  # level: Level, Rank or Link Rating


def _release_of(db: Any) -> Any:
    first = getattr(db, "first_release", None)
    official = callable(first) and bool(getattr(db, "_official", True))

    def release(r: Any) -> dt.date | None:
        if official:
            got = [d for d in (first(r.id, "ocg"), first(r.id, "tcg")) if d]  # type: ignore[misc]
        else:
            from deckcheck.dates import parse_date

            got = [d for d in (parse_date(x) for x in (r.ocg_date, r.tcg_date) if x) if d]
        return min(got) if got else None

    return release


def sort_rows(rows: list[Any], order: Order, db: Any, index: Any, lang: str | None) -> list[Any]:
    """(display name, row) pairs of ``rows`` in ``order``."""
    named = [(index.display_name(r.id, lang), r) for r in rows]
    named.sort(key=lambda nr: (nr[0].casefold(), nr[1].id))  # the tie-break, and key "name"
    if order.key == "name":
        return named[::-1] if order.desc else named
    release = _release_of(db) if order.key == "released" else None
    keyed = [(_value(r, order.key, release), i) for i, (_n, r) in enumerate(named)]
    have = [k for k in keyed if k[0] is not None]
    have.sort(key=lambda k: k[0], reverse=order.desc)  # stable: ties stay in name order
    return [named[i] for _v, i in have] + [named[i] for v, i in keyed if v is None]
