"""The Rush Duel legend rule: few Legend cards per deck.

* DC408 ``legend``: with ``legend: one_total`` at most one Legend card in the deck (Main +
  Extra); with ``one_per_type`` at most one Legend monster, one Legend spell and one Legend
  trap. A Legend card is one with the Legend scope bit (EDOPro 0x400). Legend cards in the
  Side Deck do not count: the Rush Duel tournament rules limit the Legend cards of the deck
  played (Main + Extra); a player may side in a different Legend card between duels, as long
  as the deck in play keeps the limit (docs/RULES.md cites the source).
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
    played: dict[int, int] = {}  # canonical -> copies in Main + Extra
    for e, card in ctx.entries:
        if card is not None and e.section != "side" and card.scopes & Scope.LEGEND:
            played[card.canonical] = played.get(card.canonical, 0) + e.count
    legends = [t for t in ctx.tallies.values() if played.get(t.canonical)]
    buckets: dict[str, list[Tally]] = {}
    for t in legends:
        key = "card" if rule == "one_total" else (t.card.kind if t.card else "card")
        buckets.setdefault(key, []).append(t)
    for kind, ts in buckets.items():
        n = sum(played[t.canonical] for t in ts)
        if n <= 1:
            continue
        named = ", ".join(f"{t.label()} x{played[t.canonical]}" for t in ts)
        yield finding(
            "DC408",
            f"{plural(n, f'Legend {kind}', f'Legend {kind}s')} ({named}), but {ctx.fmt.name} "
            f"allows one Legend {kind} per deck",
            section=ts[0].section,
            line=ts[0].line,
            count=n,
            limit=1,
        )
