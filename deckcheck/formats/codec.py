"""The compiled (JSON-ready) shapes of lists and formats, to and from ``model.Banlist`` and
``model.Format``: the cache format of ``formats.catalog``, read on every warm start."""

from __future__ import annotations

from typing import Any

from deckcheck import dates
from deckcheck.model import Banlist, Format, Group, SizeRange


def banlist_from_dict(d: dict[str, Any]) -> Banlist:
    """A compiled list (the cache's JSON shape) as a model.Banlist."""
    return Banlist(
        name=d["name"],
        family=d["family"],
        effective=dates.parse_date(d["effective"]),
        mode=d.get("mode", "blacklist"),
        limits={int(k): v for k, v in d.get("limits", {}).items()},
        names={int(k): v for k, v in d.get("names", {}).items()},
        groups=tuple(
            Group(g["name"], g["limit"], frozenset(g["cards"])) for g in d.get("groups", ())
        ),
        points={int(k): v for k, v in d.get("points", {}).items()},
        source=d.get("source", ""),
        path=d.get("path", ""),
        date_exact=d.get("date_exact", True),
        announced=dates.optional_date(d.get("announced")),
    )


def banlist_to_dict(b: Banlist) -> dict[str, Any]:
    """A model.Banlist in the cache's JSON shape (``banlist_from_dict`` reads it back)."""
    return {
        "name": b.name,
        "family": b.family,
        "effective": b.effective.isoformat(),
        "date_exact": b.date_exact,
        "announced": b.announced.isoformat() if b.announced is not None else None,
        "source": b.source,
        "mode": b.mode,
        "limits": {str(k): v for k, v in b.limits.items()},
        "names": {str(k): v for k, v in b.names.items()},
        "groups": [{"name": g.name, "limit": g.limit, "cards": sorted(g.cards)} for g in b.groups],
        "points": {str(k): v for k, v in b.points.items()},
        "path": b.path,
    }


def _size(v: Any) -> SizeRange | None:
    return None if v is None else SizeRange(v.get("min", 0), v.get("max"))


def _format_fields(d: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        if k in ("main", "extra", "side"):
            out[k] = _size(v) or SizeRange(0, None)
        elif k == "skills":
            out[k] = _size(v)
        elif k in ("pool", "universe", "extra_deck_types", "banned_types"):
            out[k] = frozenset(v or ())
        elif k == "release_cutoff":
            out[k] = dates.optional_date(v)
        elif k in ("description", "source"):
            out[k] = v or ""
        elif k in ("id", "extends", "changes", "path"):
            continue
        else:
            out[k] = v
    return out


def format_from_dict(d: dict[str, Any]) -> Format:
    """A merged format (``extends`` resolved; the cache's JSON shape) as a model.Format."""
    changes = tuple(
        (dates.parse_date(c["since"]), _format_fields(c["set"])) for c in d.get("changes", ())
    )
    return Format(id=d["id"], changes=changes, **_format_fields(d))
