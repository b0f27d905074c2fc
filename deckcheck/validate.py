"""The validation engine: one deck against one target (format, list, date) -> a ``DeckReport``.

Public API::

    validate_deck(engine, deck, target) -> DeckReport

``engine`` is a ``deckcheck.engine.Engine`` (one per run: its card source, and what checking
has learnt so far, ``Learnt``); ``target`` a ``Target`` (``Engine.target`` builds one).
A pure function given the engine: it opens no file and fetches nothing. Every rule family of
``deckcheck.rules.NAMES`` runs (those of ``rules.NEEDED`` when the deck's context has what
they need); checking never stops at the first problem.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable
from operator import attrgetter, is_
from typing import Any, Protocol

from deckcheck.codes import REGISTRY, finding
from deckcheck.decks.header import created_by
from deckcheck.model import SECTIONS, Banlist, Card, Deck, Finding, Format, Record, record
from deckcheck.report import DeckReport
from deckcheck.rules import NAMES, NEEDED, module
from deckcheck.rules._base import (
    HAS_SKILL,
    HAS_TOKEN,
    HAS_UNKNOWN,
    CardSource,
    Context,
    Counted,
    Memo,
    Tally,
)
from deckcheck.rules.upcoming import compare

_SECTION_ORDER = {None: 0, "main": 1, "extra": 2, "side": 3}


def _sort_key(f: Finding) -> tuple[int, int, str, int]:
    return (
        _SECTION_ORDER.get(f.section, 4),
        f.line if f.line is not None else -1,
        f.code,
        f.card_id or 0,
    )


#: Card.kind -> the composition bucket of a Main Deck copy (skills are not counted there)
_BUCKET = {
    "monster": "monster",
    "spell": "spell",
    "trap": "trap",
    "token": "other",
    "other": "other",
}


_card_id = attrgetter("card_id")
_count = attrgetter("count")


@record
class Target(Record):
    """What a deck is checked against: the format (as defined; checked as it is on ``date``),
    its list in force (None: the format has none), the event date, a points cap overriding
    the format's, the language of card names in messages (None or "en": the cards' own
    English names) and the next announced list (a legal deck is checked against it too,
    DC601; None: no list announced, or a list was named)."""

    fmt: Format
    banlist: Banlist | None
    date: dt.date
    points_cap: int | None = None
    lang: str | None = None
    upcoming: Banlist | None = None
    #: what the run knows of the format's video game (``rules.pool.GamePool``, DC504/DC502;
    #: None: the cards' own data) and the newest installed list of the format's family
    #: (DC602; None: a list was named, or none)
    game: Any = None
    newest: Banlist | None = None


class EngineLike(Protocol):
    """What ``validate_deck`` reads of its engine (``deckcheck.engine.Engine``): the card
    source, what the engine has learnt, and card names in a language."""

    @property
    def cards(self) -> CardSource: ...

    @property
    def learnt(self) -> Learnt: ...

    def names(self, lang: str | None) -> Callable[[int], str] | None: ...


class Learnt:
    """What one engine has learnt while checking decks, kept for the next deck: per passcode,
    the card it was learnt from and what the tally needs of it (for C-level set and map
    operations over a deck's passcodes instead of Python work per card); the rules' per-card
    answers (``rules._base.Memo``, by rule); the format as it is on a date (one object per
    format and date: the memos know their format by identity); the rule table.

    What is known of a passcode is good only for the very card it was learnt from: every
    deck's cards are compared with ``seen`` first (identity first), and a passcode that comes
    back as a different card is forgotten and moves ``epoch`` on, which resets the rules'
    per-passcode answers. ``seen`` is written last, so a card is never seen before what was
    learnt from it is in place.
    """

    __slots__ = (
        "seen",
        "aliased",
        "special",
        "buckets",
        "ordinary",
        "epoch",
        "memos",
        "rules",
        "_at",
    )

    def __init__(self) -> None:
        self.seen: dict[int, Card] = {}  # passcode -> the card learnt from
        self.aliased: dict[int, int] = {}  # passcode -> canonical, for cards that count as another
        self.special: dict[int, int] = {}  # passcode -> HAS_TOKEN or HAS_SKILL
        self.buckets: dict[
            int, str
        ] = {}  # passcode -> its Main Deck composition bucket, or "skill"
        self.ordinary: set[int] = set()  # passcodes of neither ``aliased`` nor ``special``
        self.epoch = 0
        self.memos: dict[str, Memo] = {}  # a rule's memo by its name (``Context.memo``)
        #: [name, its ``check`` (None until a deck needs the family: ``rules.NEEDED``), when
        #: it is needed (None: always), the codes it owns] per family of ``rules.NAMES``
        self.rules: list[list[Any]] = [
            [n, None if n in NEEDED else module(n).check, NEEDED.get(n), REGISTRY.owned_by(n)]
            for n in NAMES
        ]
        self._at: list[tuple[Format, dt.date, Format]] = []

    def format_at(self, fmt: Format, date: dt.date) -> Format:
        """``fmt.at(date)``, the same object for the same format and date (the rules' memos
        are kept per format object, ``rules._base.Memo``); the last four pairs are kept (a
        legal deck is checked on the event date and on the announced list's)."""
        for f, d, got in self._at:
            if f is fmt and d == date:
                return got
        at = fmt.at(date)
        self._at.insert(0, (fmt, date, at))
        del self._at[4:]
        return at

    def learn(self, ids: dict[int, int], cards: list[Card | None]) -> None:
        """Learn the cards of a deck's passcodes (``ids``' keys, in order) not seen as such."""
        seen = self.seen
        for cid, card in zip(ids, cards, strict=True):
            old = seen.get(cid)
            if old is card:
                continue
            if old is not None and card is not None and old == card:
                seen[cid] = card  # the same fields (another database object): what was learnt
                continue  # holds, and the next deck's comparison is by identity again
            if old is not None:  # another card for a passcode learnt before: forget it
                self.epoch += 1
                del seen[cid]
                self.ordinary.discard(cid)
                self.aliased.pop(cid, None)
                self.special.pop(cid, None)
                self.buckets.pop(cid, None)
            if card is None:
                continue
            kind = card.kind
            if card.canonical != cid:
                self.aliased[cid] = card.canonical
            if kind == "token":
                self.special[cid] = HAS_TOKEN
            elif kind == "skill":
                self.special[cid] = HAS_SKILL
            self.buckets[cid] = "skill" if kind == "skill" else _BUCKET.get(kind, "other")
            if card.canonical == cid and kind not in ("token", "skill"):
                self.ordinary.add(cid)
            seen[cid] = card


def _tally(
    ctx: Context, cards: CardSource, names: Callable[[int], str] | None, learnt: Learnt
) -> dict[str, int]:
    """Resolve every entry once and count copies by canonical card (shared by all rules);
    the counted path below pays 57% of a batch's per-deck cost (docs/ARCHITECTURE.md,
    performance paths);
    returns the deck's composition (see ``composition``), counted on the same pass.

    A deck of one copy per line (a ``.ydk`` or ydke deck) is counted with C loops over its
    passcodes (a packed deck's arrays are read as they are), each distinct card looked up
    once (``get_many`` when the source has it), and what is known of each card read from
    what the engine learnt (``learnt``): ``Context.counted``. The ``Tally`` objects are built
    only when a rule reads ``ctx.tallies``/``printings`` (or one by one: ``ctx.tally``).
    A deck with a line of several copies or an unresolved name (text lists) is tallied line
    by line (``_tally_lines``).
    """
    deck = ctx.deck
    packed = deck.packed()
    every: list[Any] | None
    if packed is not None:
        ids, nm, ne, rows = packed
        every = None
    else:
        main, extra, side = deck.main, deck.extra, deck.side
        every = [*main, *extra, *side]
        ids = list(map(_card_id, every))
        if None in ids or not set(map(_count, every)) <= _ONE:
            return _tally_lines(ctx, cards, names)
        nm, ne, rows = len(main), len(extra), None
    copies: dict[int, int] = Counter(ids)  # passcode -> copies, first-seen order
    many = getattr(cards, "get_many", None)
    card_of: dict[int, Card | None] = (
        many(copies) if many is not None else dict(zip(copies, map(cards.get, copies), strict=True))
    )
    seen = learnt.seen
    # the very cards learnt (by identity: comparing records field by field costs more)
    if not all(map(is_, map(seen.get, copies), card_of.values())):
        learnt.learn(copies, list(card_of.values()))
    # (``keys() <=`` looks each key up; ``set.issuperset(dict)`` would build a set first)
    if copies.keys() <= learnt.ordinary:  # known cards, each its own canonical card, no specials
        flags = 0
        by_canonical = copies
    else:
        # unknown cards are the passcodes not learnt (``None in found`` would call each
        # card's ``__eq__``)
        flags = 0 if seen.keys() >= copies.keys() else HAS_UNKNOWN
        special = learnt.special
        if not special.keys().isdisjoint(copies):
            for cid in copies:
                flags |= special.get(cid, 0)
        aliased = learnt.aliased
        if aliased.keys().isdisjoint(copies):
            by_canonical = copies  # every card is its own canonical card
        else:  # by canonical card (a passcode not in ``aliased`` is its own), first-seen order
            by_canonical = Counter(map(aliased.get, ids, ids))
    kinds = list(map(learnt.buckets.get, ids[:nm]))  # the Main Deck's (None: unknown card)
    monsters, spells, traps = kinds.count("monster"), kinds.count("spell"), kinds.count("trap")
    skills = kinds.count("skill") if flags & HAS_SKILL else 0
    comp = {
        "monster": monsters,
        "spell": spells,
        "trap": traps,
        "other": nm - monsters - spells - traps - skills,  # tokens, unknown cards, others
        "extra": ne,
    }
    counted = ctx.counted = Counted(
        ids, copies, card_of, by_canonical, nm, ne, rows, every, cards, names
    )
    ctx._tallies = ctx._printings = None  # built when first read
    ctx.flags = flags
    ctx.epoch = learnt.epoch
    ctx.defer_entries(counted)  # built only if a rule reads ctx.entries
    counts = ctx.counts = {"main": nm, "extra": ne, "side": len(ids) - nm - ne}
    if flags & HAS_SKILL:  # skill cards are not counted in any section
        for sec, part in (
            ("main", ids[:nm]),
            ("extra", ids[nm : nm + ne]),
            ("side", ids[nm + ne :]),
        ):
            counts[sec] -= sum(1 for cid in part if _kind(card_of[cid]) == "skill")
    return comp


_ONE = {1}


def _kind(card: Card | None) -> str:
    return card.kind if card is not None else "other"


def _tally_lines(
    ctx: Context, cards: CardSource, names: Callable[[int], str] | None
) -> dict[str, int]:
    """``_tally`` line by line: for decks with counted lines ("3 Ash Blossom") or names."""
    deck, banlist = ctx.deck, ctx.banlist
    cache: dict[int, Card | None] = {}
    counts = ctx.counts = dict.fromkeys(SECTIONS, 0)
    comp = {"monster": 0, "spell": 0, "trap": 0, "other": 0, "extra": 0}
    entries, printings, tallies = ctx.entries, ctx.printings, ctx.tallies
    add = entries.append
    get = cards.get
    bucket = _BUCKET.get
    for entry in (*deck.main, *deck.extra, *deck.side):
        cid = entry.card_id
        n = entry.count
        sec = entry.section
        p = printings.get(cid)  # type: ignore[arg-type]
        if p is not None:  # a known card already seen in this deck
            card = p.card
        else:
            card = None
            if cid is not None:
                if cid not in cache:
                    cache[cid] = get(cid)
                card = cache[cid]
        add((entry, card))
        kind = card.kind if card is not None else "other"
        if kind != "skill":
            counts[sec] += n
            if sec == "main":
                comp[bucket(kind, "other")] += n
        if sec == "extra":
            comp["extra"] += n
        if p is not None:  # its printing and canonical tallies exist: only the count grows
            p.count += n
            tallies[card.canonical].count += n  # type: ignore[union-attr]
            continue
        if cid is None:
            continue
        if card is not None:
            p = printings[cid] = Tally(cid, card.name, entry, card)
            p.count += n
        canonical = card.canonical if card is not None else cid
        t = tallies.get(canonical)
        if t is None:
            if names is not None and card is not None:
                name = names(canonical)
            elif card is not None:
                canon = cache.get(canonical) if canonical in cache else get(canonical)
                name = canon.name if canon is not None else card.name
            else:
                name = banlist.names.get(cid, "unknown card") if banlist else "unknown card"
            t = tallies[canonical] = Tally(canonical, name, entry, card)
        t.count += n
    flags = 0
    for _entry, card in entries:
        if card is None:
            flags |= HAS_UNKNOWN
        elif card.kind == "token":
            flags |= HAS_TOKEN
        elif card.kind == "skill":
            flags |= HAS_SKILL
    ctx.flags = flags
    ctx.present = {s: dict.fromkeys(map(_card_id, deck.section(s))) for s in SECTIONS}
    return comp


def validate_deck(
    engine: EngineLike, deck: Deck, target: Target, *, player: str | None = None
) -> DeckReport:
    """Check ``deck`` against ``target``: its format as in force on its date, its list, its
    points cap; a legal deck against the next announced list too (DC601, a warning).

    A pure function given the engine: it opens no file and fetches nothing, and what the
    engine has learnt only spares work (another engine gives the same report). Read problems
    already in ``deck.findings`` are kept; findings come back sorted by section, line and
    code. The deck is legal when no finding is an error. ``player`` names who the deck is
    from (None: its "#created by" line; ``validate`` names it with ``decks.header.player_of``).
    """
    if player is None:
        player = created_by(deck)
    names = engine.names(target.lang)
    report = _check(engine, deck, target, target.banlist, target.date, names, player)
    upcoming = target.upcoming
    if upcoming is not None and report.legal:
        later = _check(engine, deck, target, upcoming, upcoming.effective, names, player)
        report = compare(report, later, upcoming)
    return report


def _check(
    engine: EngineLike,
    deck: Deck,
    target: Target,
    banlist: Banlist | None,
    date: dt.date,
    names: Callable[[int], str] | None,
    player: str | None,
) -> DeckReport:
    """The report of ``deck`` against ``target``'s format on ``date`` with ``banlist``."""
    learnt = engine.learnt
    fmt = target.fmt
    fmt_at = learnt.format_at(fmt, date)
    points_cap = target.points_cap
    ctx = Context(deck, fmt_at, banlist, date, points_cap, learnt.memos)
    ctx.game = target.game
    if banlist is target.banlist:  # not for the check against the next announced list
        ctx.newest = target.newest
    comp = _tally(ctx, engine.cards, names, learnt)
    findings = list(deck.findings)
    for rule in learnt.rules:
        name, check, needed, owned = rule
        if needed is not None:
            if not needed(ctx):
                continue  # the family can find nothing here (its module returns at once)
            if check is None:
                check = rule[1] = module(name).check
        for f in check(ctx):
            if f.code not in owned:  # a bug in a rule: refuse it rather than report it
                raise REGISTRY.not_owned(name, f.code)
            findings.append(f)
    if len(findings) > 1:
        findings.sort(key=_sort_key)
    return DeckReport(
        deck.source,
        _legal(findings),
        ctx.counts,  # a fresh dict per deck (made by _tally)
        tuple(findings),
        fmt.id,
        banlist.name if banlist else None,
        banlist.effective.isoformat() if banlist else None,
        comp,
        player,
        fmt.name,
        (banlist.source or None) if banlist else None,
        banlist.date_exact if banlist else None,
    )


def _legal(findings: list[Finding]) -> bool:
    """No finding is an error."""
    return all(f.severity != "error" for f in findings)


# --- composition and player for the HTML report (issue 17) ---------------------------------


def composition(ctx: Context) -> dict[str, int]:
    """Main-deck copies by kind (monster/spell/trap/other) and the Extra Deck's size.

    (The engine counts the same on its tally pass; this reads it back from ``ctx.entries``.)
    """
    out = {"monster": 0, "spell": 0, "trap": 0, "other": 0, "extra": 0}
    for entry, card in ctx.entries:
        if entry.section == "extra":
            out["extra"] += entry.count
        elif entry.section == "main":
            kind = ctx.kind(card) if card is not None else "other"
            if kind == "skill":
                continue  # skills are not counted in the Main Deck (as in ``counts``)
            out[kind if kind in ("monster", "spell", "trap") else "other"] += entry.count
    return out


def unreadable(source: str, message: str, target: Target, player: str | None = None) -> DeckReport:
    """The report for a deck that cannot be read at all: one DC101 finding, the run goes on."""
    banlist = target.banlist
    return DeckReport(
        input=source,
        legal=False,
        counts={"main": 0, "extra": 0, "side": 0},
        findings=(finding("DC101", message),),
        format_id=target.fmt.id,
        list_name=banlist.name if banlist else None,
        list_effective=banlist.effective.isoformat() if banlist else None,
        player=player,
        format_name=target.fmt.name,
        list_source=(banlist.source or None) if banlist else None,
        list_date_exact=banlist.date_exact if banlist else None,
    )
