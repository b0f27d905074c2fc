"""How sure the list in force is: a list known only to the month, near the event date.

* DC602 ``approximate-list-date`` (warning): the list in force has an approximate effective
  date (``date_exact: false``: the source gave only the month, e.g. an lflist.conf header) and
  the event is within a few days of it, so the previous list may still be the one in force on
  the event date. ``--banlist`` names the list for sure; ``--strict`` makes this fail.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.codes import finding
from deckcheck.model import Finding
from deckcheck.rules._base import Context

NAME = "listdate"
#: how many days around an approximate effective date make the list in force uncertain
NEAR_DAYS = 7


def check(ctx: Context) -> Iterator[Finding]:
    b = ctx.banlist
    if b is None or b.date_exact:
        return
    days = (ctx.date - b.effective).days
    if abs(days) <= NEAR_DAYS:
        yield finding(
            "DC602",
            f"{b.name} is dated {b.effective.isoformat()} only approximately (the source gave "
            f"the month) and the event is {abs(days)} day{'s' if abs(days) != 1 else ''} "
            f"{'after' if days >= 0 else 'before'} it: check which list is in force, or name "
            "it with --banlist",
        )
