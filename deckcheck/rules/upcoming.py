"""Announced lists: a deck legal on the event date that the next announced list makes illegal.

* DC601 ``upcoming-list``: a warning, not an error. A list of the format's family dated after
  the event date is "upcoming" (not yet in force; ``banlist list`` marks it), and it is
  *announced* on the event date when its announcement date (``announced:`` in the list file)
  is known and not after the event date; when only its effective date is known, it counts as
  announced from 21 days before it takes effect (Konami's usual notice), never earlier. When
  a deck that is legal on the event date breaks the next list announced by then (a card
  Forbidden, Limited or Semi-Limited over its copies, a group over its total, points over the
  cap, a card off a whitelist), one warning names the cards, their new status and the day the
  list takes effect. Only the next list is compared, and only when no list was named with
  ``--banlist``. The deck's verdict (exit code) does not change, except under ``--strict``.

The comparison needs the next list, so the engine runs it after the deck is judged
(``compare``, from ``validate.validate_deck``); ``check`` yields nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

from deckcheck.codes import finding
from deckcheck.model import Banlist, Finding
from deckcheck.report import DeckReport
from deckcheck.rules._base import Context

NAME = "upcoming"
#: codes of the list rules: what a new list can change
_LIST_CODES = frozenset({"DC402", "DC403", "DC404", "DC405", "DC406", "DC407"})


def check(ctx: Context) -> Iterator[Finding]:
    return iter(())


#: days before its effective date from which a list counts as announced when its
#: announcement date is not known (Konami announces TCG/OCG lists about two to three weeks
#: ahead)
NOTICE_DAYS = 21


def announced_on(b: Banlist) -> dt.date:
    """The day list ``b`` counts as announced: its ``announced`` date when known, else
    ``NOTICE_DAYS`` before it takes effect."""
    if b.announced is not None:
        return b.announced
    return b.effective - dt.timedelta(days=NOTICE_DAYS)


def next_list(store: Any, family: str, date: dt.date) -> Banlist | None:
    """The first list of ``family`` that takes effect after ``date``, when it is announced
    on ``date`` (``announced_on``); else None."""
    first_after = getattr(store, "first_after", None)
    if first_after is not None:  # a ListStore: loads that one list, not the family's history
        got: Banlist | None = first_after(family, date)
    else:
        got = next((b for b in store.lists(family) if b.effective > date), None)
    if got is None or announced_on(got) > date:
        return None
    return got


def compare(report: DeckReport, later: DeckReport, upcoming: Banlist) -> DeckReport:
    """``report`` (the deck on the event date) with a DC601 warning when it is legal but
    ``later`` (the same deck checked against ``upcoming`` on its day) breaks the list."""
    if not report.legal:
        return report
    broken = [f for f in later.findings if f.code in _LIST_CODES and f.severity == "error"]
    if not broken:
        return report
    what = "; ".join(f.message for f in broken[:10])
    more = f"; and {len(broken) - 10} more" if len(broken) > 10 else ""
    first = broken[0]
    note = finding(
        "DC601",
        f"legal today, but illegal under the announced list {upcoming.name} from "
        f"{upcoming.effective.isoformat()}: {what}{more}",
        section=first.section,
        line=first.line,
    )
    return report.replace(findings=(*report.findings, note))
