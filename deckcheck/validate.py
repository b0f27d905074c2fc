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
from operator import attrgetter
from typing import Any

from deckcheck.codes import REGISTRY, finding
from deckcheck.model import SECTIONS, Banlist, Card, Deck, Finding, Format
from deckcheck.report import DeckReport
from deckcheck.rules import RULES
from deckcheck.rules._base import HAS_SKILL, HAS_TOKEN, HAS_UNKNOWN, CardSource, Context, Tally

_SECTION_ORDER = {None: 0, "main": 1, "extra": 2, "side": 3}


def _sort_key(f: Finding) -> tuple[int, int, str, int]:
    return (
        _SECTION_ORDER.get(f.section, 4),
        f.line if f.line is not None else -1,
        f.code,
        f.card_id or 0,
    )


#: Card.kind -> the composition bucket of a Main Deck copy (skills are not counted there)
_BUCKET = {"monster": "monster", "spell": "spell", "trap": "trap", "token": "other",
           "other": "other"}  # fmt: skip


_card_id = attrgetter("card_id")
_count = attrgetter("count")


def _tally(
    ctx: Context, cards: CardSource, names: Callable[[int], str] | None
) -> dict[str, int]:
    """Resolve every entry once and count copies by canonical card (shared by all rules);
    returns the deck's composition (see ``composition``), counted on the same pass.

    Work per distinct card is done once per deck: the entries are counted by passcode in C
    (``Counter``'s loop), then each passcode seen is looked up once. A deck with a line of
    several copies or an unresolved name (text lists) is tallied line by line
    (``_tally_lines``).
    """
    deck, banlist = ctx.deck, ctx.banlist
    main, extra, side = deck.main, deck.extra, deck.side
    every = [*main, *extra, *side]
    cids = list(map(_card_id, every))
    if None in cids or not set(map(_count, every)) <= _ONE:
        return _tally_lines(ctx, cards, names)
    nm, ne = len(main), len(extra)
    # Counting by passcode into plain dicts (first-seen order): ``_count_elements`` is the C
    # loop of ``Counter``, without Counter's Python-level constructor (twice per deck).
    in_main: dict[Any, int] = {}
    _count_elements(in_main, cids[:nm])
    total: dict[int, int] = {}
    _count_elements(total, cids)
    ctx.present = {"main": in_main, "extra": dict.fromkeys(cids[nm : nm + ne])}
    first = dict(zip(reversed(cids), reversed(every), strict=True))  # passcode -> 1st line
    printings, tallies = ctx.printings, ctx.tallies
    card_of: dict[int, Card | None] = {}
    get, main_copies, bucket = cards.get, in_main.get, _BUCKET.get
    comp = {"monster": 0, "spell": 0, "trap": 0, "other": 0, "extra": ne}
    flags = 0
    for cid, n in total.items():  # first-seen order, as the lines come
        card = card_of[cid] = get(cid)
        entry = first[cid]
        if card is None:
            flags |= HAS_UNKNOWN
            canonical = cid
            if cid in in_main:
                comp["other"] += in_main[cid]
        else:
            kind = card.kind
            if kind == "token":
                flags |= HAS_TOKEN
            elif kind == "skill":
                flags |= HAS_SKILL
            if (m := main_copies(cid)) and kind != "skill":  # skills are not counted
                comp[bucket(kind, "other")] += m
            p = printings[cid] = Tally(cid, card.name, entry, card)
            p.count = n
            canonical = card.canonical
        t = tallies.get(canonical)
        if t is None:
            if card is None:
                name = banlist.names.get(cid, "unknown card") if banlist else "unknown card"
            elif names is not None:
                name = names(canonical)
            else:
                canon = card if canonical == cid else get(canonical)
                name = canon.name if canon is not None else card.name
            if card is not None and canonical == cid and name == card.name:
                tallies[canonical] = p  # the same fields: one object serves as both tallies
                continue
            t = tallies[canonical] = Tally(canonical, name, entry, card)
        elif printings.get(canonical) is t:  # shared with its printing: split before adding
            t = tallies[canonical] = t.copy()
        t.count += n
    ctx.flags = flags
    ctx.defer_entries(every, card_of, cids)  # built only if a rule reads ctx.entries
    counts = ctx.counts = {"main": nm, "extra": ne, "side": len(side)}
    if flags & HAS_SKILL:  # skill cards are not counted in any section
        for sec, ids in (("main", cids[:nm]), ("extra", cids[nm : nm + ne]),
                         ("side", cids[nm + ne :])):  # fmt: skip
            counts[sec] -= sum(1 for cid in ids if _kind(card_of[cid]) == "skill")
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


def _rules() -> list[tuple[str, Any, frozenset[str]]]:
    """(name, module, codes it owns) per rule; rebuilt when ``RULES`` changes (tests)."""
    if RULES != _RULES_OF[0]:  # one C-level dict comparison per deck
        _RULES[:] = [(n, m, REGISTRY.owned_by(n)) for n, m in RULES.items()]
        _RULES_OF[0] = dict(RULES)
    return _RULES


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
    ctx = Context(deck, _format_at(fmt, date), banlist, date, points_cap)
    comp = _tally(ctx, cards, names)
    findings = list(deck.findings)
    for name, module, owned in _rules():
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
        banlist.effective.isoformat() if banlist else None,
        comp,
        player,
    )


def _legal(findings: list[Finding]) -> bool:
    """No finding is an error."""
    for f in findings:
        if f.severity == "error":
            return False
    return True


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
