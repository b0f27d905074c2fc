"""How sure the list in force is: a stale list, or a list known only to the month near the date.

* DC602 ``stale-list`` (warning): the format is maintained (its ``stale_after`` days: Master
  Duel and Duel Links 90, Genesys 120, TCG/OCG 200; frozen formats none) and the event date
  is later than the newest installed list of its family by more than that: a newer list has
  probably come out and is not installed. The message gives the list's date and how to update
  (``deckcheck update``, or ``deckcheck banlist import`` of the newer list). Not given when a
  list is named with ``--banlist``.
* DC603 ``approximate-list-date`` (warning): the list in force has an approximate effective
  date (``date_exact: false``: the source gave only the month, e.g. an lflist.conf header) and
  the event is within a few days of it, so the previous list may still be the one in force on
  the event date. ``--banlist`` names the list for sure; ``--strict`` makes this fail.
  (This warning was DC602 before SPEC.md §8 gave that code to stale lists.)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from deckcheck.codes import finding
from deckcheck.model import Banlist, Finding, Format
from deckcheck.rules._base import Context

NAME = "listdate"
#: how many days around an approximate effective date make the list in force uncertain
NEAR_DAYS = 7


def stale_days(fmt: Format, newest: Banlist | None, date: dt.date) -> int | None:
    """Days the event date is past ``newest`` (the family's newest installed list) when that
    is more than the format's ``stale_after``; None when the list is not stale."""
    if newest is None or fmt.stale_after is None:
        return None
    days = (date - newest.effective).days
    return days if days > fmt.stale_after else None


def stale(fmt: Format, newest: Banlist | None, date: dt.date) -> Finding | None:
    """The DC602 warning for a check on ``date`` whose newest installed list of the format's
    family is ``newest`` (None: not stale)."""
    days = stale_days(fmt, newest, date)
    if days is None or newest is None:
        return None
    return finding(
        "DC602",
        f"the newest installed {fmt.name} list, {newest.name} of "
        f"{newest.effective.isoformat()}, is {days} days older than the event date "
        f"{date.isoformat()} (a {fmt.name} list is expected within {fmt.stale_after} days): "
        "a newer list is probably missing; run 'deckcheck update' or 'deckcheck banlist "
        "import FILE' with the newer list, or name the list with --banlist",
    )


def check(ctx: Context) -> Iterator[Finding]:
    b = ctx.banlist
    if b is None:
        return
    if not b.date_exact:
        days = (ctx.date - b.effective).days
        if abs(days) <= NEAR_DAYS:
            yield finding(
                "DC603",
                f"{b.name} is dated {b.effective.isoformat()} only approximately (the source "
                f"gave the month) and the event is {abs(days)} "
                f"day{'s' if abs(days) != 1 else ''} {'after' if days >= 0 else 'before'} it: "
                "check which list is in force, or name it with --banlist",
            )
    got = stale(ctx.fmt, ctx.newest, ctx.date)
    if got is not None:
        yield got
