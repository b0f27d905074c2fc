"""Where list sources disagree: an official list and the lflist-derived list it hides for the
same family and month, card by card (``deckcheck banlist conflicts``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from deckcheck.model import Banlist

__all__ = ["conflicts"]


def _status(b: Banlist, card: int) -> int | None:
    if b.points:
        return b.points.get(card)
    got = b.limits.get(card)
    if got is None and b.mode == "whitelist":
        return None  # a whitelist names its pool; an absent card is simply not compared
    return 3 if got is None else got


def conflicts(
    store: Any, family: str | None = None, name: Callable[[int], str] | None = None
) -> list[dict[str, Any]]:
    """One record per (official list, hidden list) pair that differ: the cards and the status
    each source gives (0-3, or points; None where a whitelist does not name the card)."""
    out: list[dict[str, Any]] = []
    fams = [family] if family else store.families()
    for fam in fams:
        hidden = store.superseded(fam)
        if not hidden:
            continue
        by_path = {b.path: b for b in store.lists(fam, superseded=True)}
        winners = {b.name: b for b in store.lists(fam)}
        for path, winner_name in hidden.items():
            other, official = by_path.get(path), winners.get(winner_name)
            if other is None or official is None:
                continue
            cards = []
            ids = sorted({*official.limits, *other.limits, *official.points, *other.points})
            for c in ids:
                a, b = _status(official, c), _status(other, c)
                if a != b and not (other.mode == "whitelist" and b is None):
                    cards.append(
                        {
                            "id": c,
                            "name": name(c) if name else other.names.get(c, str(c)),
                            "official": a,
                            "other": b,
                        }
                    )
            if cards:
                out.append(
                    {
                        "family": fam,
                        "official": {
                            "name": official.name,
                            "effective": official.effective.isoformat(),
                            "source": official.source,
                        },
                        "other": {
                            "name": other.name,
                            "effective": other.effective.isoformat(),
                            "source": other.source,
                            "date_exact": other.date_exact,
                        },
                        "cards": cards,
                    }
                )
    return out
