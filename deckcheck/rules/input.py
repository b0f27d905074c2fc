"""Input rules: lines that cannot be read, unknown and ambiguous cards, tokens.

* DC101 ``unreadable-line``: a line of the deck cannot be read (reported by the reader; a
  deck file that cannot be read at all is one DC101 finding and the run goes on).
* DC102 ``unknown-card``: a passcode (or a name in a text list) that is not in the card
  database. The card is reported, never dropped: it still counts toward the deck size.
* DC103 ``ambiguous-card``: a name in a text list matches several cards; the candidates are
  listed in the finding.
* DC104 ``token``: a token in any deck section. Tokens are not cards a deck may hold.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.codes import finding
from deckcheck.model import Finding, Section
from deckcheck.rules._base import HAS_TOKEN, HAS_UNKNOWN, Context, Counted, of_entry

NAME = "input"


def check(ctx: Context) -> Iterator[Finding]:
    if not ctx.flags & (HAS_UNKNOWN | HAS_TOKEN):
        return
    counted = ctx.counted
    if counted is not None and counted.rows is not None and not ctx.deck.findings:
        yield from _packed(ctx, counted)
        return
    # Lines the reader already reported (DC102/DC103 on text lists) are not reported twice.
    reported = {(f.section, f.line) for f in ctx.deck.findings}
    for entry, card in ctx.entries:
        if card is None:
            if (entry.section, entry.line) in reported and entry.line is not None:
                continue
            what = (
                str(entry.card_id) if entry.card_id is not None else f'"{entry.query or entry.raw}"'
            )
            yield of_entry("DC102", f"unknown card {what}: not in the card database", entry, None)
        elif ctx.kind(card) == "token":
            why = "is a token; tokens cannot be put in a deck"
            yield of_entry("DC104", f"{card.name} ({card.id}) {why}", entry, card)


def _packed(ctx: Context, counted: Counted) -> Iterator[Finding]:
    """``check`` for a packed deck, without building its entries: the lines of its unknown
    cards and tokens found by passcode (a packed deck has no read findings and no names;
    each line holds one copy)."""
    cards, ids, nm, ne, rows = counted.cards, counted.ids, counted.nm, counted.ne, counted.rows
    assert rows is not None
    kind = ctx.kind
    bad = [cid for cid, card in cards.items() if card is None or kind(card) == "token"]
    at: list[int] = []
    for cid in bad:  # every position of the passcode (C-level searches)
        i = -1
        while True:
            try:
                i = ids.index(cid, i + 1)
            except ValueError:
                break
            at.append(i)
    at.sort()  # the deck's order, as ``entries``
    for i in at:
        cid = ids[i]
        card = cards[cid]
        section: Section = "main" if i < nm else "extra" if i < nm + ne else "side"
        line = rows[i] + 1
        if card is None:
            yield finding(
                "DC102",
                f"unknown card {cid}: not in the card database",
                section=section,
                line=line,
                card_id=cid,
                count=1,
            )
        else:
            yield finding(
                "DC104",
                f"{card.name} ({card.id}) is a token; tokens cannot be put in a deck",
                section=section,
                line=line,
                card_id=card.id,
                card_name=card.name,
                count=1,
            )
