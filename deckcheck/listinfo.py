"""What the installed lists and formats say, as plain records for any output: the lists per
family, one list's content with card names, the formats with the list in force on a date, and
a card's status in the newest list of each family."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any

from deckcheck.errors import DataError, DeckcheckError
from deckcheck.model import STATUS_NAMES as STATUS_WORDS


def list_rows(store: Any, family: str | None = None) -> tuple[list[dict[str, Any]], list[str]]:
    """One row per installed list (oldest first per family), and the families shown."""
    fams = store.families()
    if family is not None:
        if family.lower() not in fams:
            raise DataError(f"no list family {family!r} installed (installed: {', '.join(fams)})")
        fams = [family.lower()]
    today = dt.date.today().isoformat()
    rows = []
    for f in fams:
        hidden = store.superseded(f) if hasattr(store, "superseded") else {}
        lists = store.lists(f, superseded=True) if hidden else store.lists(f)
        for b in lists:
            rows.append(
                {
                    "family": b.family,
                    "effective": b.effective.isoformat(),
                    "name": b.name,
                    "mode": b.mode,
                    "entries": len(b.limits),
                    "groups": len(b.groups),
                    "points": len(b.points),
                    "date_exact": b.date_exact,
                    "source": b.source,
                    "upcoming": b.effective.isoformat() > today,
                    "superseded_by": hidden.get(b.path),
                    "path": b.path,
                }
            )
    return rows, fams


def list_namer(b: Any, lang: str) -> Callable[[int], str]:
    """Card names for list ``b``: the database's in ``lang`` when there is one (or another
    language is asked for), else the names the list carries, else the passcode."""
    from deckcheck import paths

    db: Any = None
    if paths.database_path().is_file() or lang != "en":
        from deckcheck.carddb import open_db

        db = open_db()

    def name(card: int) -> str:
        if db is not None and card in db:
            return str(db.name(card, lang))
        return b.names.get(card) or str(card)

    return name


def list_content(b: Any, name: Callable[[int], str]) -> dict[str, Any]:
    """List ``b`` with card names: entries by status, groups, points (``banlist show``)."""
    return {
        "name": b.name,
        "family": b.family,
        "effective": b.effective.isoformat(),
        "date_exact": b.date_exact,
        "mode": b.mode,
        "source": b.source,
        "entries": [
            {"id": c, "name": name(c), "limit": lim}
            for c, lim in sorted(b.limits.items(), key=lambda kv: (kv[1], name(kv[0])))
        ],
        "groups": [
            {
                "name": g.name,
                "limit": g.limit,
                "cards": [{"id": c, "name": name(c)} for c in sorted(g.cards)],
            }
            for g in b.groups
        ],
        "points": [
            {"id": c, "name": name(c), "points": p}
            for c, p in sorted(b.points.items(), key=lambda kv: (-kv[1], name(kv[0])))
        ],
    }


def _size(r: Any) -> str:
    if r is None:
        return "-"
    return f"{r.min}-{r.max}" if r.max is not None else f"{r.min}+"


def format_rows(date: dt.date, format_files: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Every known format as on ``date``: sizes, copies, family and the list in force."""
    from deckcheck.formats.catalog import ListStore
    from deckcheck.formats.formatfiles import load_formats

    store = ListStore.default()
    rows: list[dict[str, Any]] = []
    for fid, f in load_formats(format_files).items():
        f = f.at(date)
        b = store.in_force(f.list_family, date) if f.list_family else None
        rows.append(
            {
                "id": fid,
                "name": f.name,
                "main": _size(f.main),
                "extra": _size(f.extra),
                "side": _size(f.side),
                "copies": f.copies,
                "list_family": f.list_family,
                "list": ({"name": b.name, "effective": b.effective.isoformat()} if b else None),
                "universe": sorted(f.universe),
                "game": f.game,
                "stale_after": f.stale_after,
            }
        )
    return rows


def card_statuses(
    canonical: int, passcode: int | None = None
) -> tuple[list[dict[str, Any]], str | None]:
    """The card's status in the newest installed list of each family (or why there is none).

    Lists keep a "treated as" card (a GOAT entry, a Rush reprint) under its own passcode, so
    that passcode is read first, then the canonical card (EDOPro's order).
    """
    try:
        from deckcheck.formats.catalog import ListStore
    except ImportError:
        return [], "list status unavailable: the list store is not installed"
    try:
        store = ListStore.default()
        out: list[dict[str, Any]] = []
        for family in store.families():
            lists = store.lists(family)
            if not lists:
                continue
            bl = lists[-1]
            key = passcode if passcode is not None and passcode in bl.limits else canonical
            limit = bl.limit_of(key)
            status = (
                "not listed (unlimited)"
                if limit is None
                else STATUS_WORDS.get(limit, f"limit {limit}")
            )
            if limit == 0 and bl.mode == "whitelist" and key not in bl.limits:
                status = "not in the pool (whitelist)"
            if bl.points and limit is None:
                # A points list (Genesys): an unlisted card costs nothing, a listed one its
                # points; "not listed (unlimited)" would hide the points.
                pts = bl.points.get(key, bl.points.get(canonical, 0))
                status = f"Unlimited, {pts} point(s)"
            out.append(
                {
                    "family": family,
                    "list": bl.name,
                    "effective": bl.effective.isoformat(),
                    "limit": limit,
                    "status": status,
                }
            )
        return out, None
    except DeckcheckError as exc:  # a broken list file must not hide the card itself
        return [], f"list status unavailable: {exc}"
