"""Group limits (Duel Links "Limited 1/2/3" style): at most N cards in total from a group.

* DC406 ``group-limit``: the deck holds more cards from one of the list's groups than the
  group allows. Each copy counts, over Main + Extra + Side Deck, by canonical card.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.codes import finding
from deckcheck.model import Finding
from deckcheck.rules._base import Context, plural

NAME = "groups"


def check(ctx: Context) -> Iterator[Finding]:
    if ctx.banlist is None or not ctx.banlist.groups:
        return
    for group in ctx.banlist.groups:
        members = [
            t
            for t in ctx.tallies.values()
            if t.canonical in group.cards or (t.card is not None and t.card.id in group.cards)
        ]
        total = sum(t.count for t in members)
        if total <= group.limit:
            continue
        named = ", ".join(f"{t.label()} x{t.count}" for t in members)
        first = members[0]
        yield finding(
            "DC406",
            f"{plural(total, 'card', 'cards')} from {group.name} ({named}), but at most "
            f"{group.limit} allowed on {ctx.list_label()}",
            section=first.section,
            line=first.line,
            count=total,
            limit=group.limit,
        )
