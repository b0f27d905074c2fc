"""Copies: at most ``copies`` (3) of one card across Main + Extra + Side Deck.

* DC401 ``copies``.

Copies are counted by the card's canonical id: alternate artworks and cards that are "always
treated as" another card count together (SPEC.md §2).
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.model import Finding
from deckcheck.rules._base import Context, of_card, plural

NAME = "copies"


def check(ctx: Context) -> Iterator[Finding]:
    limit = ctx.fmt.copies
    counted = ctx.counted
    if counted is not None and max(counted.by_canonical.values(), default=0) <= limit:
        return  # no card over the limit (one C loop over the deck's counts)
    for t in ctx.tallies.values():
        if t.count > limit:
            yield of_card(
                "DC401",
                f"{t.label()}: {plural(t.count)} across Main, Extra and Side Deck, "
                f"but {ctx.fmt.name} allows at most {limit}",
                t,
                limit=limit,
            )
