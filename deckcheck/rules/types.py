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


def _banned(fmt: Format) -> list[str]:
    return [t for t in sorted(fmt.banned_types) if t in SUBTYPE_BITS or t in _KINDS]


def check(ctx: Context) -> Iterator[Finding]:
    banned = _banned(ctx.fmt)
    if not banned:
        return
    for t in ctx.tallies.values():
        if t.card is None:
            continue
        hit = [b for b in banned if t.card.has_type(b)]
        if hit:
            yield of_card(
                "DC409",
                f"{t.label()}: {'/'.join(h.capitalize() for h in hit)} cards are not allowed "
                f"in {ctx.fmt.name}",
                t,
            )
