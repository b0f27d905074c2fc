"""Banned card types: kinds of card a format does not allow at all.

* DC409 ``banned-type``: the card has a type in the format's ``banned_types`` (e.g. Link and
  Pendulum monsters in Genesys). Type names are those of ``deckcheck card show``: monster,
  spell, trap, fusion, ritual, synchro, xyz, pendulum, link, …
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.model import SUBTYPE_BITS, Finding, Format
from deckcheck.rules._base import Context, of_card

NAME = "types"
_KINDS = ("monster", "spell", "trap", "token", "skill")


def banned(fmt: Format) -> list[str]:
    """The card types ``fmt`` bans, as ``card.has_type`` names them (``deckcheck.cardstatus``
    asks it too)."""
    return [t for t in sorted(fmt.banned_types) if t in SUBTYPE_BITS or t in _KINDS]


def check(ctx: Context) -> Iterator[Finding]:
    kinds = banned(ctx.fmt)
    if not kinds:
        return
    for t in ctx.tallies.values():
        if t.card is None:
            continue
        hit = [b for b in kinds if t.card.has_type(b)]
        if hit:
            yield of_card(
                "DC409",
                f"{t.label()}: {'/'.join(h.capitalize() for h in hit)} cards are not allowed "
                f"in {ctx.fmt.name}",
                t,
            )
