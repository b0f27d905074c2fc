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

from deckcheck.model import Finding
from deckcheck.rules._base import HAS_TOKEN, HAS_UNKNOWN, Context, of_entry

NAME = "input"


def check(ctx: Context) -> Iterator[Finding]:
    if not ctx.flags & (HAS_UNKNOWN | HAS_TOKEN):
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
