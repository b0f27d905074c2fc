"""Deck sizes: the Main, Extra and Side Deck must hold a number of cards in the format's range.

* DC201 ``main-size``, DC202 ``extra-size``, DC203 ``side-size``.

Every card in a section counts, unknown cards and tokens included (they are reported by their
own rules, but they still take a slot). Skill cards (Speed Duel, Duel Links) sit outside the
three decks and do not count toward the Main Deck. deckcheck never truncates a deck to 60/15/15
as YGOPro does: an oversized deck is reported, with every card still checked.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.codes import finding
from deckcheck.model import SECTIONS, Finding, SizeRange
from deckcheck.rules._base import Context, plural

NAME = "sizes"
_CODE = {"main": "DC201", "extra": "DC202", "side": "DC203"}


def check(ctx: Context) -> Iterator[Finding]:
    counts = ctx.counts  # counted once by the engine, skill cards left out
    for section in SECTIONS:
        rng: SizeRange = getattr(ctx.fmt, section)
        n = counts[section]
        if rng.contains(n):
            continue
        title = f"{section.capitalize()} Deck"
        has = f"{title} has {plural(n, 'card', 'cards')}"
        if rng.max == 0:
            msg = f"{has}, but {ctx.fmt.name} has no {title}"
        else:
            msg = f"{has}, but {ctx.fmt.name} needs {rng}"
        limit = rng.max if rng.max is not None and n > rng.max else rng.min
        yield finding(_CODE[section], msg, section=section, count=n, limit=limit)
