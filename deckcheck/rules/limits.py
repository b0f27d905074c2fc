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

from deckcheck.codes import finding
from deckcheck.model import STATUS_NAMES, Banlist, Card, Finding
from deckcheck.rules._base import Context, Counted, Tally, of_card, plural

NAME = "limits"
_CODE = {0: "DC402", 1: "DC403", 2: "DC404"}  # by the list's limit
# "Forbidden", "Limited (1)", "Semi-Limited (2)"
_STATUS = {n: STATUS_NAMES[n] + (f" ({n})" if n else "") for n in _CODE}


def listed_limit(banlist: Banlist, t: Tally, passcodes: Iterable[int] = ()) -> int | None:
    """The list's limit for a card the deck holds as ``passcodes`` (its printings).

    Each printing is read by its own passcode, then by the card it counts as (EDOPro's order:
    the OCG list forbids the pre-errata Mind Master but limits the card itself); the strictest
    applies to all copies. None: the list does not name the card.
    """
    return _limit(banlist.limits, t.card, t.canonical, passcodes)


def listed(banlist: Banlist, card: Card, passcode: int) -> int | None:
    """The list's limit for one copy of printing ``passcode`` (``card``), read as ``check``
    reads it (``deckcheck.cardstatus``, ``card show``); None: the list does not name it."""
    return _limit(banlist.limits, card, card.canonical, (passcode,))


def _limit(
    limits: dict[int, int], card: Card | None, canonical: int, passcodes: Iterable[int]
) -> int | None:
    """``listed_limit`` of the card whose tally holds ``card`` (its first printing's card)
    and ``canonical``."""
    if (
        card is not None
        and isinstance(passcodes, (list, tuple))
        and (not passcodes or (len(passcodes) == 1 and passcodes[0] == card.id))
    ):
        # One printing (nearly every card of a deck): the same answer without the set.
        got = limits.get(card.id)
        return got if got is not None else limits.get(canonical)
    ids = set(passcodes)
    if card is not None:
        ids.add(card.id)
    if not ids:
        ids.add(canonical)
    found = []
    for i in ids:
        got = limits.get(i)
        if got is None:
            got = limits.get(canonical)
        if got is not None:
            found.append(got)
    return min(found) if found else None


def check(ctx: Context) -> Iterator[Finding]:
    bl = ctx.banlist
    if bl is None:
        return
    limits, counted = bl.limits, ctx.counted
    # Only a card the list names (by a printing's passcode or by its canonical id) can get a
    # finding: two set intersections find them, most of a deck is not on the list.
    if counted is not None:
        by_canonical = counted.by_canonical
        listed = limits.keys() & by_canonical.keys()
        if by_canonical is counted.copies:  # no card counts as another: the common deck
            yield from _simple(ctx, bl, listed, by_canonical)
            return
        by_printing = limits.keys() & counted.copies.keys()
        listed |= {counted.canonical_of(i) for i in by_printing}
        if listed:
            yield from _aliased(ctx, bl, listed, counted)
        return
    printings = ctx.printings
    listed = limits.keys() & ctx.tallies.keys()
    by_printing = limits.keys() & printings.keys()
    if by_printing:
        listed |= {printings[i].card.canonical for i in by_printing}  # type: ignore[union-attr]
    if not listed:
        return
    where = None
    # In set order, not deck order: the engine sorts the findings by section, line, code and
    # card, which tell any two of this rule's findings apart (one per canonical card).
    for canonical in listed:
        t = ctx.tally(canonical)
        limit = listed_limit(bl, t, _held(ctx, t))
        if limit is None:
            continue
        if limit == 0 and ctx.fmt.forbidden_as_limited:
            limit = 1
        # A Forbidden card is reported at any count; Limited and Semi-Limited over the limit.
        if limit in _CODE and (limit == 0 or t.count > limit):
            where = where or ctx.list_label()
            yield of_card(
                _CODE[limit],
                f"{t.label()}: {plural(t.count)}, but it is {_STATUS[limit]} on {where}",
                t,
                limit=limit,
            )


def _simple(
    ctx: Context, bl: Banlist, listed: set[int], copies: dict[int, int]
) -> Iterator[Finding]:
    """``check`` for a deck whose every card is its own canonical card: each listed card is
    held by its own passcode alone, so its limit is the list's number for it (what
    ``listed_limit`` gives), and a tally is built only for a card that is reported."""
    limits = bl.limits
    as_limited = ctx.fmt.forbidden_as_limited
    where = None
    for canonical in listed:  # in set order: see ``check``
        limit = limits[canonical]
        if limit == 0 and as_limited:
            limit = 1
        n = copies[canonical]
        if limit in _CODE and (limit == 0 or n > limit):
            where = where or ctx.list_label()
            # what ``of_card(..., ctx.tally(canonical))`` gives, without the Tally
            counted = ctx.counted
            assert counted is not None
            section, line = counted.where(canonical)
            card = counted.cards[canonical]
            name = counted.name_of(canonical, card, canonical, bl)
            yield finding(
                _CODE[limit],
                f"{name} ({canonical}): {plural(n)}, but it is {_STATUS[limit]} on {where}",
                section=section,
                line=line,
                card_id=canonical,
                card_name=name,
                count=n,
                limit=limit,
            )


def _aliased(ctx: Context, bl: Banlist, listed: set[int], counted: Counted) -> Iterator[Finding]:
    """``check`` for a deck of which some card counts as another: each listed card's limit
    is read from its printings in the deck (what ``listed_limit(bl, ctx.tally(c),
    counted.held(c))`` gives, the printings found in one pass over the deck), and its
    ``Tally`` is built only when it is reported."""
    limits, cards = bl.limits, counted.cards
    printings: dict[int, list[int]] = {}  # listed canonical card -> its passcodes, in order
    for cid in counted.copies:
        card = cards[cid]
        c = card.canonical if card is not None else cid
        if c in listed:
            got = printings.get(c)
            if got is None:
                printings[c] = [cid]
            else:
                got.append(cid)
    as_limited = ctx.fmt.forbidden_as_limited
    by_canonical = counted.by_canonical
    where = None
    for canonical in listed:  # in set order: see ``check``
        held = printings[canonical]
        card = cards[held[0]]  # the tally's card: its first printing's
        if card is None:
            held = []
        elif len(held) > 1:
            held = [i for i in held if cards[i] is not None]
        limit = _limit(limits, card, canonical, held)
        if limit is None:
            continue
        if limit == 0 and as_limited:
            limit = 1
        n = by_canonical[canonical]
        if limit in _CODE and (limit == 0 or n > limit):
            where = where or ctx.list_label()
            t = ctx.tally(canonical)
            yield of_card(
                _CODE[limit],
                f"{t.label()}: {plural(t.count)}, but it is {_STATUS[limit]} on {where}",
                t,
                limit=limit,
            )


def _held(ctx: Context, t: Tally) -> list[int]:
    """The passcodes (printings) by which the deck holds the card of tally ``t``."""
    printings = ctx.printings
    if printings.get(t.canonical) is t:
        return [t.canonical]  # one tally serves as both: the card's only printing
    if t.card is None:
        return []
    c = t.canonical
    return [p.canonical for p in printings.values() if p.card is not None and p.card.canonical == c]
