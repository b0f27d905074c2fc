"""One card's standing in a format on a date: the one answer ``validate`` and ``card show``
give (SPEC.md §8), and the ``f:``/``legal:`` search terms and the deck editor's status column.

    status = card_status(card, passcode, target)      # a validate.Target (engine.target)
    status.allowed                                    # no error: a deck may hold a copy
    status.findings                                   # (code, message, severity) per finding
    status.limit, status.points                       # copies the list allows, Genesys points

The findings are those ``validate`` gives one copy of the printing ``passcode`` in its own
section (Main Deck, or the Extra Deck for an Extra Deck monster), and only those about the card
itself: a token (DC104, rule ``input``), a skill in a format without skills (DC303,
``skills``), the card pool (DC503/DC504/DC405/DC501/DC502: ``rules.pool.judge``, the very
function the pool rule runs), a banned card type (DC409, ``types``) and a Forbidden card
(DC402, ``limits``). Deck-wide findings (sizes, copies over a limit, groups, points over the
cap, the Legend rule, the list's date) depend on the rest of the deck and are not a card's.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from deckcheck.model import STATUS_NAMES, Banlist, Card, Format, Record, record
from deckcheck.rules import limits, pool, types

__all__ = ["CardStatus", "card_status", "status_in"]


@record
class CardStatus(Record):
    """What ``validate`` says of one copy of a card in a format on a date (``card_status``)."""

    #: (code, message, severity) of each finding, severity None being the code's own
    findings: tuple[pool.Judged, ...]
    #: copies a deck may hold (0: none: outside the pool or Forbidden)
    limit: int
    #: ``card show``'s word: "not in the pool", "Forbidden", "Limited", "Semi-Limited",
    #: "Unlimited" (with the points on a points list: "Unlimited, 4 point(s)")
    word: str
    #: the card's points on a points list (Genesys), else None
    points: int | None = None
    #: how the messages name the printing ("Name (passcode)")
    label: str = ""

    @property
    def errors(self) -> tuple[pool.Judged, ...]:
        """The findings that make a deck holding the card illegal."""
        return tuple(f for f in self.findings if _severity(f) == "error")

    @property
    def allowed(self) -> bool:
        """True when a deck may hold a copy: no error finding."""
        return not self.errors

    @property
    def reason(self) -> str | None:
        """Why the card is outside the pool (the first such error's message, without the
        card's name in front), else None."""
        why = next((f[1] for f in self.errors if f[0] != "DC402"), None)
        if why is not None and self.label and why.startswith(self.label):
            why = why[len(self.label) :].lstrip(":").strip()
        return why


def _severity(f: pool.Judged) -> str:
    from deckcheck.codes import REGISTRY

    return f[2] or REGISTRY.get(f[0]).severity


def status_in(card: Card, passcode: int, target: Any) -> CardStatus:
    """``card_status`` for a ``validate.Target`` (format, list, date and game pool as
    ``Engine.target`` chose them for ``validate``)."""
    fmt = target.fmt.at(target.date)
    return card_status(card, passcode, fmt, target.banlist, target.date, target.game)


def card_status(
    card: Card,
    passcode: int,
    fmt: Format,
    bl: Banlist | None,
    date: dt.date,
    game: Any = None,
) -> CardStatus:
    """What ``validate`` says of one copy of printing ``passcode`` (``card``) in ``fmt`` as in
    force on ``date`` (``fmt.at(date)``) under list ``bl``; ``game``: the run's
    ``rules.pool.GamePool`` of the format's video game (``Engine.game_pool``; None: the
    card's own data)."""
    label = f"{card.name} ({passcode})"
    kind = card.kind
    found: list[pool.Judged] = []
    if kind == "token":
        found.append(("DC104", f"{label} is a token; tokens cannot be put in a deck", None))
    if kind == "skill" and fmt.skills is None:
        found.append(("DC303", f"{label} is a skill card; {fmt.name} has no skill cards", None))
    found += pool.judge(card, passcode, fmt, bl, date, game)
    banned = [b for b in types.banned(fmt) if card.has_type(b)]
    if banned:
        what = "/".join(b.capitalize() for b in banned)
        found.append(("DC409", f"{label}: {what} cards are not allowed in {fmt.name}", None))
    limit, points = fmt.copies, None
    if bl is not None:
        listed = limits.listed(bl, card, passcode)
        if listed is not None:
            if listed == 0 and fmt.forbidden_as_limited:
                listed = 1
            limit = min(limit, listed)
            if listed == 0:
                found.append(("DC402", f"{label}: Forbidden on {bl.label}", None))
        if bl.points:
            points = bl.points.get(passcode, bl.points.get(card.canonical, 0))
    out = tuple(found)
    if any(_severity(f) == "error" and f[0] != "DC402" for f in out):
        return CardStatus(out, 0, "not in the pool", points, label)
    word = "Unlimited" if limit >= fmt.copies else STATUS_NAMES.get(limit, f"limit {limit}")
    if points is not None:
        word = f"{word}, {points} point(s)"
    return CardStatus(out, limit, word, points, label)
