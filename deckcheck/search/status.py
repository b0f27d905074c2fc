"""A card's standing in a format on a date for ``card show`` and the ``f:``/``legal:`` search
terms: in the pool or why not, and its list status (Forbidden / Limited / Semi-Limited /
Unlimited, or Genesys points). The answer is ``validate``'s: ``deckcheck.cardstatus``, over
the format, list and game pool that ``Engine.target`` picks for ``validate``."""

from __future__ import annotations

import datetime as dt
from typing import Any

from deckcheck.cardstatus import CardStatus, card_status, status_in
from deckcheck.model import Card

#: The formats ``card show`` reports, in this order (those installed).
SHOW_FORMATS = ("tcg", "ocg", "goat", "master-duel", "genesys", "duel-links", "speed", "rush")


def in_pool(card: Card, fmt: Any, bl: Any, date: dt.date, game: Any = None) -> str | None:
    """Why ``card`` is outside ``fmt``'s pool on ``date`` under list ``bl`` (None: inside;
    a Forbidden card is inside, its list status says the rest): ``validate``'s message.
    ``fmt`` as in force on the date (``Format.at``); ``game``: ``Engine.game_pool(fmt)``
    (None: the card's own data on the game)."""
    return card_status(card, card.id, fmt, bl, date, game).reason


def status_row(fmt: Any, bl: Any, status: CardStatus) -> dict[str, Any]:
    """One format's line of ``card show``: status word, limit, points, the list used, the
    reason and the codes ``validate`` gives a copy of the card."""
    out: dict[str, Any] = {
        "format": fmt.id,
        "name": fmt.name,
        "list": bl.name if bl is not None else None,
        "effective": bl.effective.isoformat() if bl is not None else None,
        "status": status.word,
        "limit": status.limit,
    }
    if status.points is not None:
        out["points"] = status.points
    if status.reason is not None:
        out["reason"] = status.reason
    if status.findings:
        out["codes"] = [f[0] for f in status.findings]
    return out


def format_status(card: Card, fmt: Any, bl: Any, date: dt.date, passcode: int) -> dict[str, Any]:
    """``status_row`` of the card in ``fmt`` on ``date`` under ``bl`` (the card's own data)."""
    return status_row(fmt, bl, card_status(card, passcode, fmt.at(date), bl, date))


def statuses(db: Any, passcode: int, date: dt.date) -> tuple[list[dict[str, Any]], list[str]]:
    """``status_row`` of the card in every installed format of ``SHOW_FORMATS``, as
    ``validate`` would check a deck there on ``date``, and notes (a format without a list in
    force on the date)."""
    from deckcheck.engine import Engine
    from deckcheck.errors import DeckcheckError
    from deckcheck.formats.catalog import ListStore

    card = db.get(passcode)
    if card is None:
        return [], []
    try:
        engine = Engine(db, ListStore.default())
        return _statuses(card, passcode, date, engine)
    except (DeckcheckError, AttributeError) as exc:
        # A broken list store (or a partial one) must not hide the card itself.
        return [], [f"format status unavailable: {exc}"]


def _statuses(
    card: Card, passcode: int, date: dt.date, engine: Any
) -> tuple[list[dict[str, Any]], list[str]]:
    from deckcheck.errors import DataError

    families = set(engine.lists.families())
    rows: list[dict[str, Any]] = []
    notes: list[str] = []
    for fid in SHOW_FORMATS:
        try:
            fmt = engine.format(fid)
        except DataError:
            continue
        family = fmt.at(date).list_family
        if family and family not in families:
            notes.append(f"{fmt.name}: no {family} lists installed")
            continue
        try:
            target = engine.target(fid, date, upcoming=False)
        except DataError:
            notes.append(f"{fmt.name}: no list in force on {date.isoformat()}")
            continue
        rows.append(status_row(fmt, target.banlist, status_in(card, passcode, target)))
    return rows, notes


#: Release regions ``card show`` lists (when the database has official release data).
RELEASE_REGIONS = ("ocg", "tcg", "kr", "ae", "sc", "tc", "masterduel", "duellinks")


def releases(db: Any, passcode: int) -> tuple[list[dict[str, Any]], str | None]:
    """The card's first release per region, and a note when the data is not installed."""
    first = getattr(db, "first_release", None)
    out: list[dict[str, Any]] = []
    if callable(first):
        regions = getattr(db, "release_regions", None)
        wanted = regions(passcode) if callable(regions) else list(RELEASE_REGIONS)
        set_of = getattr(db, "first_release_set", None)
        for region in wanted:
            day = first(passcode, region)
            if day is not None:
                row: dict[str, Any] = {"region": region, "date": day.isoformat()}
                if callable(set_of):
                    row["set"] = set_of(passcode, region)
                out.append(row)
        if out:
            return out, None
    card = db.get(passcode)
    for region, day in (
        ("ocg", getattr(card, "ocg_date", None)),
        ("tcg", getattr(card, "tcg_date", None)),
    ):
        if day is not None:
            out.append({"region": region, "date": day.isoformat()})
    if out:
        return out, None
    if getattr(db, "has_releases", False):
        return [], "none in the installed release data (a card newer than it, or never printed)"
    return [], "no release dates installed (official release data: `deckcheck db import`)"


def extend_info(db: Any, index: Any, info: dict[str, Any], date: dt.date, lang: str | None) -> None:
    """Add to ``card show``'s record: the status in every format on ``date``, release dates
    per region, and the "treated as" cards that count as this one."""
    cid = int(info["id"])
    info["date"] = date.isoformat()
    info["formats"], notes = statuses(db, cid, date)
    if notes:
        info["formats_notes"] = notes
    info["releases"], note = releases(db, cid)
    if note:
        info["releases_note"] = note
    canonical = int(info["canonical"])
    alternates = set(info.get("alternates") or [])
    treated = []
    for other in db.same_card(canonical) if hasattr(db, "same_card") else []:
        c = db.get(other)
        if other == cid or other in alternates or c is None or c.alias_kind != "treated_as":
            continue
        treated.append({"id": other, "name": db.name(other, lang or "en")})
    info["treated_as"] = treated
