"""A card's standing in a format on a date: in the pool or why not, and its list status
(Forbidden / Limited / Semi-Limited / Unlimited, or Genesys points), for ``card show`` and the
``f:``/``legal:`` search terms. The pool reasons are those of ``rules.pool``."""

from __future__ import annotations

import datetime as dt
from typing import Any

from deckcheck.model import STATUS_NAMES, SUBTYPE_BITS, Card, Scope
from deckcheck.rules.pool import OFFICIAL, REGION_BITS, release_date, unofficial

#: The formats ``card show`` reports, in this order (those installed).
SHOW_FORMATS = ("tcg", "ocg", "goat", "master-duel", "genesys", "duel-links", "speed", "rush")

_STATUS = STATUS_NAMES


def in_pool(card: Card, fmt: Any, bl: Any, date: dt.date) -> str | None:
    """Why ``card`` is outside ``fmt``'s pool on ``date`` (None: inside)."""
    scopes = int(card.scopes)
    listed = bl is not None and (card.id in bl.limits or card.canonical in bl.limits)
    if bl is not None and bl.mode == "whitelist":
        if not listed:
            return "not on the list of allowed cards"
        return None
    why = unofficial(card)
    if why is not None:
        return why
    if card.kind == "token":
        return "a token (in no deck)"
    if card.kind == "skill":
        return None if fmt.skills is not None else "skill card"
    pool_bits = 0
    for name in fmt.pool:
        pool_bits |= int(Scope.__members__.get(name.upper(), Scope(0)))
    if pool_bits and not scopes & pool_bits:
        want = "/".join(s.upper() for s in sorted(fmt.pool))
        if pool_bits & int(REGION_BITS) and scopes & int(REGION_BITS):
            have = "/".join(n.upper() for n in card.scopes.names() if n in ("ocg", "tcg"))
            return f"{have} only, not {want}"
        return f"not a {want} card"
    if not pool_bits and not scopes & int(OFFICIAL):
        return "not an official card"
    for t in fmt.banned_types:
        bit = SUBTYPE_BITS.get(t)
        if bit and card.type_bits & bit:
            return f"{t} cards are not allowed"
    region = fmt.release_region
    if region:
        released = release_date(card, region)
        if released is not None and released > date:
            return f"released in {region.upper()} on {released.isoformat()}"
        if (
            fmt.release_cutoff is not None
            and released is not None
            and released > fmt.release_cutoff
        ):
            return f"released after the cut-off {fmt.release_cutoff.isoformat()}"
    return None


def format_status(card: Card, fmt: Any, bl: Any, date: dt.date, passcode: int) -> dict[str, Any]:
    """One format's line of ``card show``: status word, limit, points, the list used."""
    out: dict[str, Any] = {
        "format": fmt.id,
        "name": fmt.name,
        "list": bl.name if bl is not None else None,
        "effective": bl.effective.isoformat() if bl is not None else None,
    }
    why = in_pool(card, fmt, bl, date)
    if why is not None:
        out.update(status="not in the pool", limit=0, reason=why)
        return out
    key = passcode if bl is not None and passcode in bl.limits else card.canonical
    limit = bl.limit_of(key) if bl is not None else None
    if limit is None:
        limit = fmt.copies
    if bl is not None and bl.points:
        pts = bl.points.get(key, bl.points.get(card.canonical, 0))
        out["points"] = pts
    word = "Unlimited" if limit >= fmt.copies else _STATUS.get(limit, f"limit {limit}")
    if "points" in out:
        word = f"{word}, {out['points']} point(s)"
    out.update(status=word, limit=min(limit, fmt.copies))
    return out


def statuses(db: Any, passcode: int, date: dt.date) -> tuple[list[dict[str, Any]], list[str]]:
    """``format_status`` of the card in every installed format of ``SHOW_FORMATS``, and
    notes (a format without a list in force on the date)."""
    from deckcheck.errors import DeckcheckError
    from deckcheck.formats import load_formats
    from deckcheck.formats.catalog import ListStore

    card = db.get(passcode)
    if card is None:
        return [], []
    try:
        return _statuses(card, passcode, date, load_formats(), ListStore.default())
    except (DeckcheckError, AttributeError) as exc:
        # A broken list store (or a partial one) must not hide the card itself.
        return [], [f"format status unavailable: {exc}"]


def _statuses(
    card: Card, passcode: int, date: dt.date, formats: dict[str, Any], store: Any
) -> tuple[list[dict[str, Any]], list[str]]:
    families = set(store.families())
    rows: list[dict[str, Any]] = []
    notes: list[str] = []
    for fid in SHOW_FORMATS:
        fmt = formats.get(fid)
        if fmt is None:
            continue
        fmt = fmt.at(date)
        bl = None
        if fmt.list_family:
            if fmt.list_family not in families:
                notes.append(f"{fmt.name}: no {fmt.list_family} lists installed")
                continue
            bl = store.in_force(fmt.list_family, date)
            if bl is None:
                notes.append(f"{fmt.name}: no list in force on {date.isoformat()}")
                continue
        rows.append(format_status(card, fmt, bl, date, passcode))
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
