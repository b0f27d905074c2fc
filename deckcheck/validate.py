"""The validation engine: one deck, one format, one list, one date -> a ``DeckReport``.

Public API::

    validate_deck(deck, fmt, banlist, cards, *, date, points_cap=None, names=None) -> DeckReport

A pure function of its inputs: it opens no file and fetches nothing. ``cards`` is anything
with ``get(id) -> Card | None`` (the card database, or a dict-backed stub in tests).
Every rule in ``deckcheck.rules.RULES`` runs; checking never stops at the first problem.
"""

from __future__ import annotations

import datetime as dt
from collections import _count_elements  # type: ignore[attr-defined]
from collections.abc import Callable
from functools import lru_cache
from operator import attrgetter, is_
from typing import Any

from deckcheck.codes import REGISTRY, finding
from deckcheck.model import SECTIONS, Banlist, Card, Deck, Finding, Format
from deckcheck.report import DeckReport
from deckcheck.rules import RULES
from deckcheck.rules._base import (
    HAS_SKILL,
    HAS_TOKEN,
    HAS_UNKNOWN,
    CardSource,
    Context,
    Counted,
    Tally,
)

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

# What the engine has learnt about each passcode in this process, for C-level set and map
# operations over a deck's passcodes instead of Python work per card. Good only for the very
# card it was learnt from: every deck's cards are compared with ``_SEEN`` first (one list
# comparison, identity first), and a passcode that comes back as a different card is
# forgotten and moves ``_EPOCH`` on, which resets the rules' own per-card answers
# (``rules._base.Memo``). ``_SEEN`` is written last, so a card is never seen before what
# was learnt from it is in place.
_SEEN: dict[int, Card] = {}  # passcode -> the card learnt from
_ALIASED: dict[int, int] = {}  # passcode -> canonical, for cards that count as another
_SPECIAL: dict[int, int] = {}  # passcode -> HAS_TOKEN or HAS_SKILL
_BUCKETS: dict[int, str] = {}  # passcode -> its Main Deck composition bucket, or "skill"
_ORDINARY: set[int] = set()  # passcodes of neither _ALIASED nor _SPECIAL
_EPOCH = [0]


def _learn(ids: dict[int, int], cards: list[Card | None]) -> None:
    for cid, card in zip(ids, cards, strict=True):
        old = _SEEN.get(cid)
        if old is card:
            continue
        if old is not None and card is not None and old == card:
            _SEEN[cid] = card  # the same fields (another database object): what was learnt
            continue  # holds, and the next deck's comparison is by identity again
        if old is not None:  # another card for a passcode learnt before: forget it
            _EPOCH[0] += 1
            del _SEEN[cid]
            _ORDINARY.discard(cid)
            _ALIASED.pop(cid, None)
            _SPECIAL.pop(cid, None)
            _BUCKETS.pop(cid, None)
        if card is None:
            continue
        kind = card.kind
        if card.canonical != cid:
            _ALIASED[cid] = card.canonical
        if kind == "token":
            _SPECIAL[cid] = HAS_TOKEN
        elif kind == "skill":
            _SPECIAL[cid] = HAS_SKILL
        _BUCKETS[cid] = "skill" if kind == "skill" else _BUCKET.get(kind, "other")
        if card.canonical == cid and kind not in ("token", "skill"):
            _ORDINARY.add(cid)
        _SEEN[cid] = card


def _tally(ctx: Context, cards: CardSource, names: Callable[[int], str] | None) -> dict[str, int]:
    """Resolve every entry once and count copies by canonical card (shared by all rules);
    returns the deck's composition (see ``composition``), counted on the same pass.

    A deck of one copy per line (a ``.ydk`` or ydke deck) is counted with C loops over its
    passcodes (a packed deck's arrays are read as they are), each distinct card looked up
    once (``get_many`` when the source has it), and what is known of each card read from
    what the engine learnt (``_SEEN``): ``Context.counted``. The ``Tally`` objects are built
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
    # Counting by passcode into plain dicts (first-seen order): ``_count_elements`` is the C
    # loop of ``Counter``, without Counter's Python-level constructor.
    copies: dict[int, int] = {}
    _count_elements(copies, ids)
    many = getattr(cards, "get_many", None)
    card_of: dict[int, Card | None] = (
        many(copies) if many is not None else dict(zip(copies, map(cards.get, copies), strict=True))
    )
    # the very cards learnt (by identity: comparing records field by field costs more)
    if not all(map(is_, map(_SEEN.get, copies), card_of.values())):
        _learn(copies, list(card_of.values()))
    # (``keys() <=`` looks each key up; ``set.issuperset(dict)`` would build a set first)
    if copies.keys() <= _ORDINARY:  # known cards, each its own canonical card, no specials
        flags = 0
        by_canonical = copies
    else:
        # unknown cards are the passcodes not learnt (``None in found`` would call each
        # card's ``__eq__``)
        flags = 0 if _SEEN.keys() >= copies.keys() else HAS_UNKNOWN
        if not _SPECIAL.keys().isdisjoint(copies):
            for cid in copies:
                flags |= _SPECIAL.get(cid, 0)
        if _ALIASED.keys().isdisjoint(copies):
            by_canonical = copies  # every card is its own canonical card
        else:  # by canonical card (a passcode not in _ALIASED is its own), first-seen order
            by_canonical = {}
            _count_elements(by_canonical, map(_ALIASED.get, ids, ids))
    buckets: dict[str | None, int] = {}
    _count_elements(buckets, map(_BUCKETS.get, ids[:nm]))  # None: an unknown card
    comp = {
        "monster": buckets.get("monster", 0),
        "spell": buckets.get("spell", 0),
        "trap": buckets.get("trap", 0),
        "other": buckets.get("other", 0) + buckets.get(None, 0),
        "extra": ne,
    }
    counted = ctx.counted = Counted(
        ids, copies, card_of, by_canonical, nm, ne, rows, every, cards, names
    )
    ctx._tallies = ctx._printings = None  # built when first read
    ctx.flags = flags
    ctx.epoch = _EPOCH[0]
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


# (format, date) -> format.at(date): a batch checks every deck against the same pair.
_AT: list[tuple[Format, dt.date, Format]] = []
_RULES: list[tuple[str, Any, frozenset[str]]] = []


def _format_at(fmt: Format, date: dt.date) -> Format:
    for f, d, got in _AT:
        if f is fmt and d == date:
            return got
    got = fmt.at(date)
    _AT[:] = [(fmt, date, got)]  # the last pair only: Format objects are immutable
    return got


_RULES_OF: list[dict[str, Any]] = [{}]  # the RULES that _RULES was built from
#: (format, list, date, points cap, the rules not idle for them), the last used first
_ACTIVE: list[tuple[Format, Banlist | None, dt.date, int | None, list[Any]]] = []


def _rules() -> list[tuple[str, Any, frozenset[str]]]:
    """(name, module, codes it owns) per rule; rebuilt when ``RULES`` changes (tests)."""
    if _RULES_OF[0] != RULES:  # one C-level dict comparison per deck
        _RULES[:] = [(n, m, REGISTRY.owned_by(n)) for n, m in RULES.items()]
        _RULES_OF[0] = dict(RULES)
        _ACTIVE.clear()
    return _RULES


def _active(
    fmt: Format, banlist: Banlist | None, date: dt.date, points_cap: int | None
) -> list[tuple[str, Any, frozenset[str]]]:
    """``_rules()`` without the rules whose ``idle(fmt, banlist, date, points_cap)`` says
    they yield nothing for any deck (a Genesys points rule in TCG, a group rule for a list
    without groups): one generator fewer each, per deck."""
    every = _rules()
    for f, b, d, p, got in _ACTIVE:
        if f is fmt and b is banlist and d == date and p == points_cap:
            return got
    got = [
        r
        for r in every
        if not (hasattr(r[1], "idle") and r[1].idle(fmt, banlist, date, points_cap))
    ]
    _ACTIVE.insert(0, (fmt, banlist, date, points_cap, got))
    del _ACTIVE[4:]  # with an announced list, each legal deck is checked twice (two keys)
    return got


def validate_deck(
    deck: Deck,
    fmt: Format,
    banlist: Banlist | None,
    cards: CardSource,
    *,
    date: dt.date,
    points_cap: int | None = None,
    names: Callable[[int], str] | None = None,
) -> DeckReport:
    """Check ``deck`` against ``fmt`` (as in force on ``date``) and ``banlist``.

    ``banlist`` is the list in force (None for formats without a list); ``points_cap``
    overrides the format's cap; ``names(canonical_id)`` gives display names in another
    language. Read problems already in ``deck.findings`` are kept; findings come back sorted
    by section, line and code. The deck is legal when no finding is an error.
    """
    return check_deck(deck, fmt, banlist, cards, date, points_cap, names, created_by(deck))


def check_deck(
    deck: Deck,
    fmt: Format,
    banlist: Banlist | None,
    cards: CardSource,
    date: dt.date,
    points_cap: int | None,
    names: Callable[[int], str] | None,
    player: str | None,
) -> DeckReport:
    """``validate_deck`` with the report's ``player`` given (the batch names it from the file,
    and building the report once is cheaper than replacing a field afterwards)."""
    fmt_at = _format_at(fmt, date)
    ctx = Context(deck, fmt_at, banlist, date, points_cap)
    comp = _tally(ctx, cards, names)
    findings = list(deck.findings)
    for name, module, owned in _active(fmt_at, banlist, date, points_cap):
        for f in module.check(ctx):
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
        _iso(banlist.effective) if banlist else None,
        comp,
        player,
    )


@lru_cache(maxsize=64)
def _iso(day: dt.date) -> str:
    """``day.isoformat()``, remembered (a batch asks for its list's date on every deck)."""
    return day.isoformat()


def _legal(findings: list[Finding]) -> bool:
    """No finding is an error."""
    return all(f.severity != "error" for f in findings)


# --- composition and player for the HTML report (issue 17) ---------------------------------

_PLACEHOLDER_PLAYERS = {"", "player", "...", "…", "unknown"}


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


def created_by(deck: Deck) -> str | None:
    """The name of a ``#created by NAME`` header (YGOPro/EDOPro write it), unless a placeholder."""
    for line in deck.comments:
        if line[:12].lower() == "#created by ":
            name = line[12:].strip()
            return None if name.lower() in _PLACEHOLDER_PLAYERS else name
    return None


def unreadable(source: str, message: str, fmt: Format, banlist: Banlist | None) -> DeckReport:
    """The report for a deck that cannot be read at all: one DC101 finding, the run goes on."""
    return DeckReport(
        input=source,
        legal=False,
        counts={"main": 0, "extra": 0, "side": 0},
        findings=(finding("DC101", message),),
        format_id=fmt.id,
        list_name=banlist.name if banlist else None,
        list_effective=banlist.effective.isoformat() if banlist else None,
    )
