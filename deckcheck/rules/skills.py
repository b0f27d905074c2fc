"""Skill cards (Speed Duel, Duel Links): allowed only where the format says, and how many.

* DC303 ``skills``: the number of skill cards is outside the format's ``skills`` range, or the
  deck holds a skill card in a format without skills (each such card is reported).
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.codes import finding
from deckcheck.model import Finding
from deckcheck.rules._base import Context, of_entry, plural

NAME = "skills"


def check(ctx: Context) -> Iterator[Finding]:
    found = [(e, c) for e, c in ctx.entries if c is not None and ctx.kind(c) == "skill"]
    rng = ctx.fmt.skills
    if rng is None:
        for entry, card in found:
            yield of_entry(
                "DC303",
                f"{card.name} ({card.id}) is a skill card; {ctx.fmt.name} has no skill cards",
                entry,
                card,
                limit=0,
            )
        return
    n = sum(e.count for e, _ in found)
    if not rng.contains(n):
        first = found[0][0] if found else None
        yield finding(
            "DC303",
            f"the deck has {plural(n, 'skill card', 'skill cards')}, "
            f"but {ctx.fmt.name} needs {rng}",
            section=first.section if first else None,
            line=first.line if first else None,
            count=n,
            limit=rng.max if rng.max is not None and n > rng.max else rng.min,
        )
