"""The card pool: which cards a format admits at all, by list, scope, region and date.

* DC503 ``unofficial``: a card that was never printed for play: a prerelease passcode, or a
  card with none of the official scopes (OCG, TCG, Rush, Speed) - anime, custom, illegal,
  video-game-only cards. An unofficial card gets only this finding from this rule.
* DC405 ``not-in-pool``: the card is outside the format's pool: not on a whitelist list
  (Rush, Speed, GOAT style lists), or lacking every scope of the format's ``pool`` when it is
  not an OCG/TCG card at all (a Rush card in TCG, a TCG card in Rush).
* DC501 ``not-in-region``: an OCG/TCG card lacking the format's region scope, e.g. an
  OCG-only card in TCG (``pool: [tcg]``). Skill cards are left to DC303.
* DC502 ``not-released``: the card's release date in the format's ``release_region`` is after
  the event date, or after the format's ``release_cutoff`` (retro formats). Regions: ``ocg``,
  ``tcg``, and the video games ``masterduel`` and ``duellinks`` (the day the card was added to
  the game, from the official release data), whose message names the game. Cards without a
  release date for the region are not judged by date (the database does not know it).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from collections.abc import Set as AbstractSet

from deckcheck.model import Card, Finding, Scope
from deckcheck.rules._base import Context, Counted, of_card

NAME = "pool"

OFFICIAL = Scope.OCG | Scope.TCG | Scope.RUSH | Scope.SPEED
REGIONS = {"ocg": Scope.OCG, "tcg": Scope.TCG}
REGION_BITS = Scope.OCG | Scope.TCG
_OFFICIAL, _PRERELEASE, _REGION = int(OFFICIAL), int(Scope.PRERELEASE), int(REGION_BITS)
_UNOFFICIAL_WHAT = [
    (Scope.PRERELEASE, "a prerelease card"),
    (Scope.ANIME, "an anime card"),
    (Scope.CUSTOM, "a custom card"),
    (Scope.ILLEGAL, "an illegal card"),
    (Scope.VIDEO_GAME, "a video-game-only card"),
]


def unofficial(card: Card) -> str | None:
    """Why a card is unofficial, or None."""
    scopes = int(card.scopes)
    if scopes & _PRERELEASE or not scopes & _OFFICIAL:
        for bit, what in _UNOFFICIAL_WHAT:
            if scopes & bit:
                return what
        return "not an official card"
    return None


#: How a message names a release region.
REGION_NAMES = {"ocg": "OCG", "tcg": "TCG", "masterduel": "Master Duel", "duellinks": "Duel Links"}


def release_date(card: Card, region: str | None) -> dt.date | None:
    """The card's first release in ``region``; for no region (or another one), the earliest
    OCG/TCG release."""
    if region == "ocg":
        return card.ocg_date
    if region == "tcg":
        return card.tcg_date
    if region == "masterduel":
        return card.md_date
    if region == "duellinks":
        return card.dl_date
    dates = [d for d in (card.ocg_date, card.tcg_date) if d is not None]
    return min(dates) if dates else None


def check(ctx: Context) -> Iterator[Finding]:
    # Per passcode, not per canonical card: pool, region and dates belong to a printing, and
    # a Rush card "treated as" an Advanced card is not that card's printing. What a printing
    # gets depends only on the card, the format, the list and the date: worked out once per
    # card for a batch (the engine's memo ``pool``), then only the deck's line and count are
    # filled in.
    counted = ctx.counted
    if counted is not None:
        yield from _check_counted(ctx, counted)
        return
    printings = ctx.printings
    if not printings:
        return
    table = ctx.memo("pool").table(ctx)
    get = table.get
    bits = _pool_bits(ctx.fmt.pool)
    for cid, t in printings.items():
        card = t.card
        got = get(cid)
        if got is None or got[0] is not card:
            assert card is not None  # unknown cards are DC102, never in ctx.printings
            got = table[cid] = (card, tuple(_judge(ctx, card, cid, bits)))
        for code, message in got[1]:
            yield of_card(code, message, t)


def _check_counted(ctx: Context, counted: Counted) -> Iterator[Finding]:
    """``check`` over the engine's counts: each passcode judged once for a batch (memo
    ``pool.counted``: the passcodes judged, and the findings of those that have any), so a
    deck costs two set operations unless one of its cards has a finding."""
    judged, hits = ctx.memo("pool.counted", _judged).state(ctx)
    copies = counted.copies
    if not copies.keys() <= judged:
        new = copies.keys() - judged
        cards = counted.cards
        bits = _pool_bits(ctx.fmt.pool)
        for cid in new:
            card = cards[cid]
            if card is None:
                continue  # an unknown card (DC102); never judged, it may be known later
            got = tuple(_judge(ctx, card, cid, bits))
            if got:
                hits[cid] = got
            judged.add(cid)
    found = hits.keys() & copies.keys()
    if not found:
        return
    for cid in copies:  # first-seen order, as ``printings``
        if cid in found:
            t = ctx.printing(cid)
            for code, message in hits[cid]:
                yield of_card(code, message, t)


def _judged() -> tuple[set[int], dict[int, tuple[tuple[str, str], ...]]]:
    """A fresh ``pool.counted`` state: the passcodes judged, the findings of those with any."""
    return set(), {}


def _pool_bits(pool: AbstractSet[str]) -> tuple[int, int]:
    """(scope bits of the pool, its OCG/TCG bits) as plain ints (IntFlag operators are slow)."""
    scopes = Scope(0)
    for name in pool:
        scopes |= Scope.__members__.get(name.upper(), Scope(0))
    return int(scopes), int(scopes & REGION_BITS)


def _judge(
    ctx: Context, card: Card, passcode: int, bits: tuple[int, int]
) -> Iterator[tuple[str, str]]:
    """(code, message) of each pool finding for one printing (named like the ``Tally.label``
    of the printing: the card's name and the passcode as the deck has it); ``bits``: the
    format's ``_pool_bits``."""
    fmt, bl = ctx.fmt, ctx.banlist
    label = f"{card.name} ({passcode})"
    pool_bits, region_bits = bits
    scopes = int(card.scopes)  # plain ints: IntFlag operators are slow
    if bl is not None and bl.mode == "whitelist" and card.id in bl.limits:
        # A whitelist naming this very passcode admits it whatever its scope: the GOAT
        # list's "(GOAT)" entries carry EDOPro's "illegal" scope, and they are the point.
        scopes |= _OFFICIAL | pool_bits
    elif (why := unofficial(card)) is not None:
        yield "DC503", f"{label}: {why}, not legal in {fmt.name}"
        return
    if (
        bl is not None
        and bl.mode == "whitelist"
        and card.id not in bl.limits
        and card.canonical not in bl.limits
    ):
        yield "DC405", f"{label}: not on the list of allowed cards {ctx.list_label()}"
    if ctx.kind(card) == "skill":
        return  # skill cards sit outside the scope pool; DC303 says where they are allowed
    if pool_bits and not scopes & pool_bits:
        want = "/".join(s.upper() for s in sorted(fmt.pool))
        if region_bits and scopes & _REGION:
            have = "/".join(n.upper() for n in card.scopes.names() if n in REGIONS)
            yield "DC501", f"{label}: released only in {have}, not in {want}"
        else:
            yield "DC405", f"{label}: not a {want} card, so not in the {fmt.name} card pool"
    region = fmt.release_region
    released = release_date(card, region) if region else None
    if released is not None and released > ctx.date:
        where = REGION_NAMES.get(region or "", (region or "").upper())
        yield (
            "DC502",
            (
                f"{label}: released in {where} on {released.isoformat()}, after the event date "
                f"{ctx.date.isoformat()}"
            ),
        )
    elif fmt.release_cutoff is not None:
        released = release_date(card, fmt.release_region)
        if released is not None and released > fmt.release_cutoff:
            yield (
                "DC502",
                (
                    f"{label}: released on {released.isoformat()}, after the {fmt.name} card pool "
                    f"cut-off {fmt.release_cutoff.isoformat()}"
                ),
            )
