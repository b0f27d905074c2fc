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
    """The list's limit for a card the deck holds as ``passcodes`` (its printings).

    Each printing is read by its own passcode, then by the card it counts as (EDOPro's order:
    the OCG list forbids the pre-errata Mind Master but limits the card itself); the strictest
    applies to all copies. None: the list does not name the card.
    """
    limits = banlist.limits
    ids = set(passcodes)
    if t.card is not None:
        ids.add(t.card.id)
    if not ids:
        ids.add(t.canonical)
    found = []
    for i in ids:
        got = limits.get(i)
        if got is None:
            got = limits.get(t.canonical)
        if got is not None:
            found.append(got)
    return min(found) if found else None


def check(ctx: Context) -> Iterator[Violation]:
    bl = ctx.banlist
    if bl is None:
        return
    where = ctx.list_label()
    held: dict[int, list[int]] = {}  # canonical -> its passcodes in the deck
    for p in ctx.printings.values():
        if p.card is not None:
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
