"""The Rush Duel legend rule: few Legend cards per deck.

* DC408 ``legend``: with ``legend: one_total`` at most one Legend card in the whole deck
  (Main + Extra + Side); with ``one_per_type`` at most one Legend monster, one Legend spell and
  one Legend trap. A Legend card is one with the Legend scope bit (EDOPro 0x400).
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.codes import finding
from deckcheck.model import Finding, Scope
from deckcheck.rules._base import Context, Tally, plural

NAME = "legend"


def check(ctx: Context) -> Iterator[Finding]:
    rule = ctx.fmt.legend
    if rule == "none":
        return
    legends = [
        t for t in ctx.tallies.values() if t.card is not None and t.card.scopes & Scope.LEGEND
    ]
    buckets: dict[str, list[Tally]] = {}
    for t in legends:
        key = "card" if rule == "one_total" else (t.card.kind if t.card else "card")
        buckets.setdefault(key, []).append(t)
    for kind, ts in buckets.items():
        n = sum(t.count for t in ts)
        if n <= 1:
            continue
        named = ", ".join(f"{t.label()} x{t.count}" for t in ts)
        yield finding(
            "DC408",
            f"{plural(n, f'Legend {kind}', f'Legend {kind}s')} ({named}), but {ctx.fmt.name} "
            f"allows one Legend {kind} per deck",
            section=ts[0].section,
            line=ts[0].line,
            count=n,
            limit=1,
        )
