"""The card pool: which cards a format admits at all, by card universe, video game, list,
scope, region and date.

* DC503 ``unofficial``: a card that was never printed for play: a prerelease passcode, or a
  card with none of the official scopes (OCG, TCG, Rush, Speed) - anime, custom, illegal,
  video-game-only cards. An unofficial card gets only this finding from this rule.
* DC504 ``not-in-game-pool``: the card is outside the game the format is played in. Either
  outside its card universe (``universe``: Rush Duel cards are outside every non-Rush format
  and OCG/TCG cards outside Rush, whatever they are "treated as": the Rush "Blue-Eyes White
  Dragon" is not the OCG card; such a card gets only this finding from this rule), or, in a
  video-game format (``game: master-duel`` / ``duel-links``), not in that game: no source
  puts it there (the card data's Master Duel / Duel Links rarity or packs, or an official list
  of the game naming it). A card that none of the installed sources knows at all (newer than
  the data) is a warning; with no data on the game installed, the check is off with one note.
* DC405 ``not-in-pool``: the card is not on a whitelist list (Rush, Speed, GOAT style lists),
  or lacks every scope of the format's ``pool``.
* DC501 ``not-in-region``: an OCG/TCG card lacking the format's region scope, e.g. an
  OCG-only card in TCG (``pool: [tcg]``). Skill cards are left to DC303.
* DC502 ``not-released``: the card's release date in the format's ``release_region`` is after
  the event date, or after the format's ``release_cutoff`` (retro formats). Cards without a
  release date for the region are not judged by date (the database does not know it). In a
  video game (``release_region: masterduel`` / ``duellinks``) only a date that can be defended
  makes an error: the card's first paper printing, or the first official list of the game
  naming it when that is earlier (or a pack of the game, when earlier than both). A first
  pack of the game after the event date is a warning: the data dates only the game's packs,
  and a card may have been in the game before (Master Duel's undated Master Pack).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from collections.abc import Set as AbstractSet

from deckcheck.model import (
    SCOPES,
    Banlist,
    Card,
    Finding,
    Format,
    Record,
    Scope,
    Severity,
    field,
    record,
    scope_names,
)
from deckcheck.rules._base import Context, Counted, of_card

NAME = "pool"

OFFICIAL = Scope.OCG | Scope.TCG | Scope.RUSH | Scope.SPEED
REGIONS = {"ocg": Scope.OCG, "tcg": Scope.TCG}
REGION_BITS = Scope.OCG | Scope.TCG
_UNOFFICIAL_WHAT = [
    (Scope.PRERELEASE, "a prerelease card"),
    (Scope.ANIME, "an anime card"),
    (Scope.CUSTOM, "a custom card"),
    (Scope.ILLEGAL, "an illegal card"),
    (Scope.VIDEO_GAME, "a video-game-only card"),
]


def unofficial(card: Card) -> str | None:
    """Why a card is unofficial, or None."""
    scopes = card.scopes
    if scopes & Scope.PRERELEASE or not scopes & OFFICIAL:
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
        for code, message, severity in got[1]:
            yield of_card(code, message, t, severity=severity)


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
            for code, message, severity in hits[cid]:
                yield of_card(code, message, t, severity=severity)


def _judged() -> tuple[set[int], dict[int, tuple[Judged, ...]]]:
    """A fresh ``pool.counted`` state: the passcodes judged, the findings of those with any."""
    return set(), {}


def _pool_bits(pool: AbstractSet[str]) -> tuple[int, int]:
    """(scope bits of the pool, its OCG/TCG bits); a name that is no scope adds none."""
    scopes = 0
    for name in pool:
        scopes |= SCOPES.get(name.lower(), 0)
    return scopes, scopes & REGION_BITS


def _judge(ctx: Context, card: Card, passcode: int, bits: tuple[int, int]) -> Iterator[Judged]:
    """(code, message, severity) of each pool finding for one printing in the context;
    ``bits``: the format's ``_pool_bits``."""
    return iter(judge(card, passcode, ctx.fmt, ctx.banlist, ctx.date, _game_of(ctx), bits))


def _game_of(ctx: Context) -> GamePool | None:
    """The run's knowledge of the format's video game (None: the cards' own data only)."""
    return ctx.game  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- the one judge

#: (code, message, severity): severity None is the code's own (``codes``); "warning" where the
#: data cannot settle the question
Judged = tuple[str, str, "Severity | None"]

#: how a message names a format's game, by ``Format.game``
GAME_NAMES = {"master-duel": "Master Duel", "duel-links": "Duel Links"}
#: what a pack date may hide, per game: the cards it held before its first dated pack
_UNDATED = {
    "master-duel": "it may have been in the game's Master Pack (not dated in the data) earlier",
    "duel-links": "it may have come to the game earlier by a reward or an event, which the "
    "data does not date",
}
#: how a message names a card universe
UNIVERSE_NAMES = {"ocg-tcg": "OCG/TCG", "rush": "Rush Duel"}


@record
class GamePool(Record):
    """What this install knows of a video game's card pool (``deckcheck.gamepool`` builds it
    from the card database and the game's official lists)."""

    game: str  # the format's game: "master-duel" | "duel-links"
    #: the official card data says which cards of the format's universe are in the game
    installed: bool
    #: list key -> the first official list of the game that names the card
    named: dict[int, dt.date] = field(default_factory=dict)
    sources: str = ""  # the data the answer comes from, for messages


_ONLY_RUSH, _ONLY_OCG_TCG, _BOTH = (
    frozenset({"rush"}),
    frozenset({"ocg-tcg"}),
    frozenset({"rush", "ocg-tcg"}),
)


def _article(word: str) -> str:
    """ "a" or "an" before ``word`` (as read aloud: "an OCG/TCG card", "a Rush Duel card")."""
    return "an" if word[:1] in "AEIOU" else "a"


def universe_of(card: Card) -> frozenset[str]:
    """The card universe of an official card: ``rush`` (Rush Duel cards, Legends included),
    ``ocg-tcg`` (every other card: OCG, TCG, Speed Duel); both for a card that has both the
    Rush and an OCG/TCG scope (no real card does)."""
    scopes = card.scopes
    if not scopes & Scope.RUSH:
        return _ONLY_OCG_TCG
    return _BOTH if scopes & REGION_BITS else _ONLY_RUSH


def judge(
    card: Card,
    passcode: int,
    fmt: Format,
    bl: Banlist | None,
    date: dt.date,
    game: GamePool | None = None,
    bits: tuple[int, int] | None = None,
) -> list[Judged]:
    """Every pool finding of one printing in ``fmt`` (as in force on ``date``) under list
    ``bl``: the one answer ``validate`` (this rule) and ``card show`` give (named like the
    ``Tally.label`` of the printing: the card's name and the passcode as the deck has it).
    ``game``: what the run knows of the format's video game (None: the card's own data);
    ``bits``: the format's ``_pool_bits`` when the caller has them."""
    out: list[Judged] = []
    label = f"{card.name} ({passcode})"
    pool_bits, region_bits = bits if bits is not None else _pool_bits(fmt.pool)
    scopes = card.scopes
    whitelist = bl is not None and bl.mode == "whitelist"
    if whitelist and card.id in bl.limits:  # type: ignore[union-attr]
        # A whitelist naming this very passcode admits it whatever its scope: the GOAT
        # list's "(GOAT)" entries carry EDOPro's "illegal" scope, and they are the point.
        scopes |= OFFICIAL | pool_bits
    elif (why := unofficial(card)) is not None:
        if not (
            scopes & Scope.VIDEO_GAME
            and not scopes & Scope.PRERELEASE
            and _own_card(card, fmt, game)
        ):
            return [("DC503", f"{label}: {why}, not legal in {fmt.name}", None)]
        # a card of the video game itself (Duel Links' own cards), which the game puts in
        scopes |= OFFICIAL | pool_bits
    kind = card.kind
    universe = universe_of(card)
    if kind != "skill" and universe.isdisjoint(fmt.universe):
        # Outside the card universe whatever it is "treated as": a Rush reprint of an OCG
        # card is a Rush card, and the reverse.
        want = "/".join(UNIVERSE_NAMES.get(u, u) for u in sorted(fmt.universe))
        have = "/".join(UNIVERSE_NAMES[u] for u in sorted(universe))
        return [
            (
                "DC504",
                (
                    f"{label}: {_article(have)} {have} card, outside the card pool of "
                    f"{fmt.name} ({want} cards only)"
                ),
                None,
            )
        ]
    if whitelist and card.id not in bl.limits and card.canonical not in bl.limits:  # type: ignore[union-attr]
        list_label = bl.label  # type: ignore[union-attr]
        out.append(("DC405", f"{label}: not on the list of allowed cards {list_label}", None))
    if kind == "skill":
        return out  # skill cards sit outside the scope pool; DC303 says where they are allowed
    if pool_bits and not scopes & pool_bits:
        want = "/".join(s.upper() for s in sorted(fmt.pool))
        if region_bits and scopes & REGION_BITS:
            have = "/".join(n.upper() for n in scope_names(card.scopes) if n in REGIONS)
            out.append(("DC501", f"{label}: released only in {have}, not in {want}", None))
        else:
            out.append(
                ("DC405", f"{label}: not a {want} card, so not in the {fmt.name} card pool", None)
            )
    if fmt.game in GAME_NAMES:
        out.extend(_game_findings(card, label, fmt, date, game))
        return out
    region = fmt.release_region
    released = release_date(card, region) if region else None
    if released is not None and released > date:
        where = REGION_NAMES.get(region or "", (region or "").upper())
        out.append(
            (
                "DC502",
                (
                    f"{label}: released in {where} on {released.isoformat()}, after the event "
                    f"date {date.isoformat()}"
                ),
                None,
            )
        )
    elif fmt.release_cutoff is not None:
        released = release_date(card, fmt.release_region)
        if released is not None and released > fmt.release_cutoff:
            out.append(
                (
                    "DC502",
                    (
                        f"{label}: released on {released.isoformat()}, after the {fmt.name} card "
                        f"pool cut-off {fmt.release_cutoff.isoformat()}"
                    ),
                    None,
                )
            )
    return out


def _presence(
    card: Card, fmt: Format, game: GamePool | None
) -> tuple[bool | None, dt.date | None, dt.date | None]:
    """What the data says of ``card`` in ``fmt``'s video game: the card data's flag (None: no
    source knows the card), its first pack of the game, the first official list of the game
    naming it (None: none)."""
    md = fmt.game == "master-duel"
    flag = card.in_md if md else card.in_dl
    pack = card.md_date if md else card.dl_date
    named = None
    if game is not None:
        named = game.named.get(card.id)
        if named is None and card.alias_kind == "artwork":
            named = game.named.get(card.canonical)
    return flag, pack, named


def _own_card(card: Card, fmt: Format, game: GamePool | None) -> bool:
    """True for a video-game-only card that ``fmt``'s own game puts in its pool (Duel Links'
    own cards), or may (no data on the game installed: its pool is not checked)."""
    if fmt.game not in GAME_NAMES:
        return False
    if game is not None and not game.installed:
        return True
    flag, pack, named = _presence(card, fmt, game)
    return bool(flag) or pack is not None or named is not None


def _game_findings(
    card: Card, label: str, fmt: Format, date: dt.date, game: GamePool | None
) -> Iterator[Judged]:
    """DC504 (not in the video game) and DC502 (not in it yet on the date) for one card.

    In the game: any source says so (the card data's flag, a dated pack of the game, an
    official list of the game naming it). Dates: only a date that can be defended makes an
    error: the first paper printing, or the first official list of the game naming the card
    (or a pack of the game, when earlier than both); a first pack after the event date is a
    warning, since the game also has undated ways in (Master Duel's Master Pack).
    """
    name = GAME_NAMES[fmt.game]
    if game is not None and not game.installed:
        return  # no data on the game's pool: off, with one note for the run (gamepool)
    flag, pack, named = _presence(card, fmt, game)
    if not (flag or pack is not None or named is not None):
        sources = f" ({game.sources})" if game is not None and game.sources else ""
        if flag is False:
            yield (
                "DC504",
                f"{label}: not in {name}: no source puts it in the game{sources}",
                None,
            )
        elif game is not None:  # no source knows the card at all (newer than the data)
            yield (
                "DC504",
                (
                    f"{label}: not known to the installed {name} data{sources}: it may not be in "
                    "the game"
                ),
                "warning",
            )
        return
    if fmt.release_region is None:
        return  # the format does not date its cards
    paper = release_date(card, None)
    defended = [d for d in (paper, named) if d is not None]
    if defended:
        first = min(defended)
        what = "first printing" if first == paper else f"first official {name} list naming it"
        if pack is not None and pack < first:
            first, what = pack, f"first {name} pack holding it"
        if first > date:
            yield (
                "DC502",
                (
                    f"{label}: not in {name} on {date.isoformat()}: its {what} is dated "
                    f"{first.isoformat()}"
                ),
                None,
            )
            return
    if pack is not None and pack > date and (named is None or named > date):
        # (an official list of the game naming the card by the date settles it: no warning)
        yield (
            "DC502",
            (
                f"{label}: first seen in {name} in a pack of {pack.isoformat()}, after the event "
                f"date {date.isoformat()}; {_UNDATED[fmt.game]}"
            ),
            "warning",
        )
