"""Points (Genesys): the points of every copy in Main + Extra + Side Deck may not pass the cap.

* DC407 ``points``: total points over the cap. The cap is ``--points-cap`` when given, else the
  format's ``points_cap``; with no cap nothing is checked. Points come from the list
  (``points:``), read for each copy by its passcode, then by the card it counts as; unlisted
  cards cost 0.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.codes import finding
from deckcheck.model import Finding
from deckcheck.rules._base import Context

NAME = "points"


def check(ctx: Context) -> Iterator[Finding]:
    cap = ctx.cap
    if cap is None or ctx.banlist is None or not ctx.banlist.points:
        return
    pts = ctx.banlist.points
    spent = []
    # Per printing: a list keeps a "treated as" card under its own passcode (Genesys prices
    # Fallen of the White Dragon, not Fallen of Albaz), read first, then the card it counts as.
    for t in ctx.printings.values():
        p = pts.get(t.canonical)  # a printing tally's "canonical" is its passcode
        if p is None and t.card is not None:
            p = pts.get(t.card.canonical)
        if p:
            spent.append((t, p))
    for t in ctx.tallies.values():
        if t.card is None and (p := pts.get(t.canonical)):  # unknown card the list prices
            spent.append((t, p))
    total = sum(p * t.count for t, p in spent)
    if total > cap:
        spent.sort(key=lambda tp: -tp[1] * tp[0].count)
        named = ", ".join(f"{t.name} {t.count}x{p}" for t, p in spent)
        yield finding(
            "DC407",
            f"the deck costs {total} points ({named}), but the cap is {cap} on {ctx.list_label()}",
            count=total,
            limit=cap,
        )
