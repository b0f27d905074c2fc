"""Placement: Extra Deck monsters belong in the Extra Deck, and nothing else does.

* DC301 ``extra-in-main``: an Extra Deck monster in the Main Deck.
* DC302 ``not-extra``: a card that is not an Extra Deck monster in the Extra Deck.

Which monsters go to the Extra Deck is the format's ``extra_deck_types`` on the event date:
Fusion, Synchro, Xyz and Link (their Pendulum forms too) in Advanced; in Rush Duel, Fusion,
and from 2025-04-26 also Ritual. Side Deck cards may be of any kind. Tokens, skill cards and
unknown cards are left to their own rules (DC104, DC303, DC102).
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.carddb import extra_deck_bits
from deckcheck.model import TYPE_MONSTER, Finding, Format
from deckcheck.rules._base import Context, Counted, of_entry

NAME = "placement"


def extra_bits(fmt: Format) -> int:
    return extra_deck_bits(fmt.extra_deck_types)


def _judged() -> tuple[set[int], set[int], set[int]]:
    """A fresh ``placement.counted`` state: the passcodes judged, those that go to the Extra
    Deck, those that do not."""
    return set(), set(), set()


def check(ctx: Context) -> Iterator[Finding]:
    counted = ctx.counted
    if counted is not None and not _misplaced_counted(ctx, counted):
        return  # the common deck: two set checks
    bits = extra_bits(ctx.fmt)
    if counted is None and not _misplaced(ctx, bits):
        return
    for entry, card in ctx.entries:
        if card is None or entry.section == "side" or card.kind in ("token", "skill"):
            continue
        # goes_to_extra(card, bits), inlined: this runs for every entry of every deck
        extra = bool(card.type_bits & TYPE_MONSTER and card.type_bits & bits)
        if entry.section == "main" and extra:
            yield of_entry(
                "DC301",
                f"{card.name} ({card.id}) is an Extra Deck monster; it cannot be in the Main Deck",
                entry,
                card,
            )
        elif entry.section == "extra" and not extra:
            yield of_entry(
                "DC302",
                f"{card.name} ({card.id}) is not an Extra Deck monster in {ctx.fmt.name}; "
                "it cannot be in the Extra Deck",
                entry,
                card,
            )


def _misplaced(ctx: Context, bits: int) -> bool:
    """Whether a card of the Main or Extra Deck may be in the wrong one: looked up once per
    passcode of each section (``ctx.present``) before the deck's lines are read one by one."""
    present = ctx.present
    if not present:  # not tallied by the engine: read every line
        return True
    table = ctx.memo("placement").table(ctx)
    printings = ctx.printings
    for section, wrong in (("main", True), ("extra", False)):
        for cid in present.get(section, ()):
            t = printings.get(cid)  # type: ignore[arg-type]
            if t is None:
                continue  # an unknown card (DC102)
            card = t.card
            got = table.get(cid)  # type: ignore[arg-type]
            if got is None or got[0] is not card:
                assert card is not None
                extra = (
                    None
                    if card.kind in ("token", "skill")
                    else bool(card.type_bits & TYPE_MONSTER and card.type_bits & bits)
                )
                got = table[cid] = (card, extra)  # type: ignore[index]
            if got[1] is wrong:
                return True
    return False


def _misplaced_counted(ctx: Context, counted: Counted) -> bool:
    """``_misplaced`` over the engine's counts: each passcode judged once for a batch, then
    two set checks a deck (tokens and skill cards are in neither set)."""
    judged, to_extra, not_extra = ctx.memo("placement.counted", _judged).state(ctx)
    if not counted.copies.keys() <= judged:
        new = counted.copies.keys() - judged
        bits = extra_bits(ctx.fmt)
        cards = counted.cards
        for cid in new:
            card = cards[cid]
            if card is None:
                continue  # an unknown card (DC102); never judged, it may be known later
            if card.kind not in ("token", "skill"):
                extra = card.type_bits & TYPE_MONSTER and card.type_bits & bits
                (to_extra if extra else not_extra).add(cid)
            judged.add(cid)
    ids, nm = counted.ids, counted.nm
    if not to_extra.isdisjoint(ids[:nm]):
        return True
    return not not_extra.isdisjoint(ids[nm : nm + counted.ne])
