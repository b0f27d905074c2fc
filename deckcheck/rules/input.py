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

from deckcheck.rules._base import CodeInfo, Context, Violation

CODES: dict[str, CodeInfo] = {
    "DC101": ("unreadable-line", "error"),
    "DC102": ("unknown-card", "error"),
    "DC103": ("ambiguous-card", "error"),
    "DC104": ("token", "error"),
}
NAME = "input"


def check(ctx: Context) -> Iterator[Violation]:
    # Lines the reader already reported (DC102/DC103 on text lists) are not reported twice.
    reported = {(f.section, f.line) for f in ctx.deck.findings}
    for entry, card in ctx.entries:
        if card is None:
            if (entry.section, entry.line) in reported and entry.line is not None:
                continue
            what = (
                str(entry.card_id) if entry.card_id is not None else f'"{entry.query or entry.raw}"'
            )
            yield Violation(
                "DC102",
                f"unknown card {what}: not in the card database",
                entry.section,
                entry.line,
                card_id=entry.card_id,
                count=entry.count,
            )
        elif ctx.kind(card) == "token":
            yield Violation(
                "DC104",
                f"{card.name} ({card.id}) is a token; tokens cannot be put in a deck",
                entry.section,
                entry.line,
                card_id=card.id,
                card_name=card.name,
                count=entry.count,
            )
