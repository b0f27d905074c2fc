"""The Forbidden & Limited list: forbidden, limited and semi-limited cards.

* DC402 ``forbidden``: a card the list forbids (limit 0).
* DC403 ``limited``: more than one copy of a Limited card.
* DC404 ``semi-limited``: more than two copies of a Semi-Limited card.

Copies count over Main + Extra + Side Deck by canonical card (an alternate artwork takes the
list status of its original). In Traditional (``forbidden_as_limited``) a forbidden card is
read as Limited. The message names the card, the count, the limit and the list with its
effective date. Unlisted cards of a whitelist list are DC405 (see ``pool``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from deckcheck.model import Banlist
from deckcheck.rules._base import CodeInfo, Context, Tally, Violation, plural

CODES: dict[str, CodeInfo] = {
    "DC402": ("forbidden", "error"),
    "DC403": ("limited", "error"),
    "DC404": ("semi-limited", "error"),
}
NAME = "limits"


def listed_limit(banlist: Banlist, t: Tally, passcodes: Iterable[int] = ()) -> int | None:
    """The list's entry for a card: its canonical id first, else the strictest entry of the
    passcodes the deck holds it as (a GOAT entry or a Rush reprint is listed under its own
    passcode, as EDOPro reads it: the passcode, then its alias)."""
    got = banlist.limits.get(t.canonical)
    if got is not None:
        return got
    ids = set(passcodes)
    if t.card is not None:
        ids.add(t.card.id)
    found = [banlist.limits[i] for i in ids if i != t.canonical and i in banlist.limits]
    return min(found) if found else None


def check(ctx: Context) -> Iterator[Violation]:
    bl = ctx.banlist
    if bl is None:
        return
    where = ctx.list_label()
    held: dict[int, list[int]] = {}  # canonical -> passcodes in the deck, when not itself
    for p in ctx.printings.values():
        if p.card is not None and p.card.canonical != p.canonical:
            held.setdefault(p.card.canonical, []).append(p.canonical)
    for t in ctx.tallies.values():
        limit = listed_limit(bl, t, held.get(t.canonical, ()))
        if limit is None:
            continue
        if limit == 0 and ctx.fmt.forbidden_as_limited:
            limit = 1
        if limit == 0:
            yield Violation(
                "DC402",
                f"{t.label()}: {plural(t.count)}, but it is Forbidden on {where}",
                t.section,
                t.line,
                t.canonical,
                t.name,
                t.count,
                0,
            )
        elif limit == 1 and t.count > 1:
            yield Violation(
                "DC403",
                f"{t.label()}: {plural(t.count)}, but it is Limited (1) on {where}",
                t.section,
                t.line,
                t.canonical,
                t.name,
                t.count,
                1,
            )
        elif limit == 2 and t.count > 2:
            yield Violation(
                "DC404",
                f"{t.label()}: {plural(t.count)}, but it is Semi-Limited (2) on {where}",
                t.section,
                t.line,
                t.canonical,
                t.name,
                t.count,
                2,
            )
