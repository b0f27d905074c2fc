"""The edit check: a deck validated against its format before and after an edit (the
list in force, or sizes/copies/placement only when none is installed), and what changed."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from deckcheck.model import Banlist, Deck, Finding, Format
from deckcheck.records import Record, record
from deckcheck.report import DeckReport


@record
class Check(Record):
    """A deck checked against a format: the report, and why the list was not used if so."""

    report: DeckReport
    banlist: Banlist | None
    skipped: str | None  # "no 'tcg' list in force on …": list rules were not checked


def check(
    deck: Deck,
    fmt: Format,
    db: Any,
    date: dt.date,
    store: Any = None,
    lang: str | None = None,
    engine: Any = None,
) -> Check:
    """Validate with the list in force; with none installed, sizes/copies/placement only.
    ``lang``: card names in messages; ``engine``: the ``deckcheck.engine.Engine`` over ``db``
    to check with (one kept for the session spares work; a fresh one when None)."""
    from deckcheck.engine import Engine
    from deckcheck.validate import Target, validate_deck

    banlist = None
    skipped = None
    on = fmt.at(date)
    if on.list_family is not None:
        if store is not None:
            banlist = store.in_force(on.list_family, date)
        else:
            from deckcheck.errors import DataError
            from deckcheck.formats import list_for

            try:
                banlist = list_for(on, date)
            except DataError:  # no list of the family in force: the edit still checks the rest
                banlist = None
        if banlist is None:
            skipped = (
                f"no {on.list_family!r} list is in force on {date.isoformat()}: the list was "
                "not checked (install lists with `deckcheck update`)"
            )
    engine = engine if engine is not None else Engine(db)
    report = validate_deck(engine, deck, Target(fmt, banlist, date, lang=lang))
    return Check(report, banlist, skipped)


def _key(f: Finding) -> tuple[Any, ...]:
    # Card findings are the same problem whatever the count; size findings per section.
    if f.card_id is not None and f.code not in ("DC301", "DC302", "DC104", "DC102"):
        return (f.code, f.card_id)
    return (f.code, f.section, f.card_id)


def new_findings(before: DeckReport, after: DeckReport) -> tuple[list[Finding], list[Finding]]:
    """(findings the edit brought, findings the edit fixed)."""
    old = {_key(f) for f in before.findings}
    now = {_key(f) for f in after.findings}
    added = [f for f in after.findings if _key(f) not in old]
    fixed_seen: set[tuple[Any, ...]] = set()
    fixed = []
    for f in before.findings:
        k = _key(f)
        if k not in now and k not in fixed_seen:
            fixed_seen.add(k)
            fixed.append(f)
    return added, fixed


@record
class Checked(Record):
    """An edit with the deck checked before and after it (what ``deck add`` reports)."""

    change: Any  # operations.Change
    before: Check
    after: Check
    added: list[Finding]  # findings the edit brought
    fixed: list[Finding]  # findings the edit fixed


def checked_edit(
    deck: Callable[[], Deck],
    edit: Callable[[], Any],
    fmt: Format,
    db: Any,
    date: dt.date,
    lang: str | None = None,
    engine: Any = None,
) -> Checked:
    """Check ``deck()``, run ``edit`` (it raises, nothing else happens), check again and
    compare; the caller saves the file (``files.save``)."""
    if engine is None:
        from deckcheck.engine import Engine

        engine = Engine(db)
    before = check(deck(), fmt, db, date, engine=engine)
    change = edit()
    after = check(deck(), fmt, db, date, lang=lang, engine=engine)
    added, fixed = new_findings(before.report, after.report)
    return Checked(change, before, after, added, fixed)
