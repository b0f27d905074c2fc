"""The validation engine: one deck, one format, one list, one date -> a ``DeckReport``.

Public API::

    validate_deck(deck, fmt, banlist, cards, *, date, points_cap=None, names=None) -> DeckReport

A pure function of its inputs: it opens no file and fetches nothing. ``cards`` is anything
with ``get(id) -> Card | None`` (the card database, or a dict-backed stub in tests).
Every rule in ``deckcheck.rules.RULES`` runs; checking never stops at the first problem.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from deckcheck.codes import REGISTRY, finding
from deckcheck.model import SECTIONS, Banlist, Card, Deck, Finding, Format
from deckcheck.report import DeckReport
from deckcheck.rules import RULES
from deckcheck.rules._base import CardSource, Context, Tally

_SECTION_ORDER = {None: 0, "main": 1, "extra": 2, "side": 3}


def _sort_key(f: Finding) -> tuple[int, int, str, int]:
    return (
        _SECTION_ORDER.get(f.section, 4),
        f.line if f.line is not None else -1,
        f.code,
        f.card_id or 0,
    )


def _tally(ctx: Context, cards: CardSource, names: Callable[[int], str] | None) -> None:
    """Resolve every entry once and count copies by canonical card (shared by all rules)."""
    deck, banlist = ctx.deck, ctx.banlist
    cache: dict[int, Card | None] = {}
    counts = ctx.counts = dict.fromkeys(SECTIONS, 0)
    for entry in deck.entries():
        cid = entry.card_id
        card: Card | None = None
        if cid is not None:
            if cid not in cache:
                cache[cid] = cards.get(cid)
            card = cache[cid]
        ctx.entries.append((entry, card))
        if card is None or ctx.kind(card) != "skill":
            counts[entry.section] += entry.count
        if cid is None:
            continue
        if card is not None:
            p = ctx.printings.get(cid)
            if p is None:
                p = ctx.printings[cid] = Tally(cid, card.name, entry, card)
            p.count += entry.count
        canonical = card.canonical if card is not None else cid
        t = ctx.tallies.get(canonical)
        if t is None:
            if names is not None and card is not None:
                name = names(canonical)
            elif card is not None:
                canon = cache.get(canonical) if canonical in cache else cards.get(canonical)
                name = canon.name if canon is not None else card.name
            else:
                name = banlist.names.get(cid, "unknown card") if banlist else "unknown card"
            t = ctx.tallies[canonical] = Tally(canonical, name, entry, card)
        t.count += entry.count


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
    ctx = Context(deck=deck, fmt=fmt.at(date), banlist=banlist, date=date, points_cap=points_cap)
    _tally(ctx, cards, names)
    findings = list(deck.findings)
    for name, module in RULES.items():
        owned = REGISTRY.owned_by(name)
        for f in module.check(ctx):
            if f.code not in owned:  # a bug in a rule: refuse it rather than report it
                raise REGISTRY.not_owned(name, f.code)
            findings.append(f)
    findings.sort(key=_sort_key)
    return DeckReport(
        input=deck.source,
        legal=not any(f.severity == "error" for f in findings),
        counts=dict(ctx.counts),
        findings=tuple(findings),
        format_id=fmt.id,
        list_name=banlist.name if banlist else None,
        list_effective=banlist.effective.isoformat() if banlist else None,
        composition=composition(ctx),
        player=created_by(deck),
    )


# --- composition and player for the HTML report (issue 17) ---------------------------------

_PLACEHOLDER_PLAYERS = {"", "player", "...", "…", "unknown"}


def composition(ctx: Context) -> dict[str, int]:
    """Main-deck copies by kind (monster/spell/trap/other) and the Extra Deck's size."""
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
