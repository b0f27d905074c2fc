"""The Duel Links change history ``prisma/dev.db`` (falsepopsky/forbidden-duel-links), replayed
into dated ``model.Banlist``s with their Limited 1/2/3 groups, names mapped to passcodes."""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from deckcheck.datafile import shown_number
from deckcheck.errors import InputError
from deckcheck.formats.official import LIST_NAMES, NameMap, OfficialList, name_key
from deckcheck.model import Banlist, Group

_REPO_DL = "falsepopsky/forbidden-duel-links"

_DL_TABLES = {"Speed": "duel-links", "Rush": "duel-links-rush"}


def read_devdb(path: Path, names: NameMap) -> list[OfficialList]:
    """Every Duel Links list of a forbidden-duel-links ``dev.db``, replayed in date order.

    A list row holds only the changes announced that day; the list in force is the replay
    of every change up to it ("No Longer on List" removes a card). "Limited N" is a group:
    at most N cards in total from that category.
    """
    where = str(path)
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise InputError(f"cannot open SQLite database: {exc}", where=where) from None
    out: list[OfficialList] = []
    try:
        types = dict(conn.execute("SELECT id, name FROM RestrictionType").fetchall())
        for prefix, fam in _DL_TABLES.items():
            rows = conn.execute(
                f"SELECT b.date, c.name, r.typeId FROM {prefix}Restriction r "
                f"JOIN {prefix}Banlist b ON b.id = r.banlistId "
                f"JOIN {prefix}Card c ON c.id = r.cardId ORDER BY b.date, r.rowid"
            ).fetchall()
            out.extend(_replay(rows, types, fam, names, where))
    except sqlite3.DatabaseError as exc:
        raise InputError(f"not a forbidden-duel-links dev.db: {exc}", where=where) from None
    finally:
        conn.close()
    return out


def _epoch_day(value: Any, where: str) -> dt.date:
    try:
        if isinstance(value, (int, float)):
            return dt.datetime.fromtimestamp(value / 1000, dt.UTC).date()
        return dt.date.fromisoformat(str(value)[:10])  # Prisma may also store ISO text
    except (ValueError, OverflowError, OSError):  # a hostile number: year 10**20, NaN
        shown = shown_number(value) if isinstance(value, int) else repr(value)[:40]
        raise InputError(f"list date {shown} is not a date", where=where) from None


def _replay(
    rows: Sequence[tuple[Any, str, int]],
    types: dict[int, str],
    fam: str,
    names: NameMap,
    where: str,
) -> list[OfficialList]:
    status: dict[str, str] = {}
    days: list[tuple[dt.date, dict[str, str]]] = []
    for raw_day, name, tid in rows:
        day = _epoch_day(raw_day, where)
        if not isinstance(name, str):
            raise InputError(f"card name {repr(name)[:40]} is not text", where=where)
        what = types.get(tid, "")
        if what == "No Longer on List":
            status.pop(name, None)
        else:
            status[name] = what
        if days and days[-1][0] == day:
            days[-1] = (day, dict(status))
        else:
            days.append((day, dict(status)))
    rush = fam == "duel-links-rush"
    out = []
    src = f"{_REPO_DL} prisma/dev.db ({'Rush' if rush else 'Speed'})"
    for day, state in days:
        limits: dict[int, int] = {}
        groups: dict[int, set[int]] = {}
        unmapped: list[str] = []
        for name, what in sorted(state.items()):
            ids = names(name_key(name), rush)
            if not ids:
                unmapped.append(name)
                continue
            if what == "Forbidden":
                for c in ids:
                    limits[c] = 0
            else:
                m = re.fullmatch(r"Limited (\d)", what)
                if m is None:
                    raise InputError(f"unknown restriction {what!r} for {name!r}", where=where)
                groups.setdefault(int(m.group(1)), set()).update(ids)
        b = Banlist(
            name=f"{day.isoformat()} {LIST_NAMES[fam]}",
            family=fam,
            effective=day,
            limits=limits,
            groups=tuple(
                Group(f"Limited {n}", n, frozenset(cs)) for n, cs in sorted(groups.items())
            ),
            source=src,
            path=where,
            date_exact=True,
        )
        out.append(OfficialList(b, "devdb", len(state), unmapped))
    return out
