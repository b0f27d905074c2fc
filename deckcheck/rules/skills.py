"""Skill cards (Speed Duel, Duel Links): allowed only where the format says, and how many.

* DC303 ``skills``: the number of skill cards is outside the format's ``skills`` range, or the
  deck holds a skill card in a format without skills (each such card is reported).
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.rules._base import CodeInfo, Context, Violation, plural

CODES: dict[str, CodeInfo] = {"DC303": ("skills", "error")}
NAME = "skills"


def check(ctx: Context) -> Iterator[Violation]:
    found = [(e, c) for e, c in ctx.entries if c is not None and ctx.kind(c) == "skill"]
    rng = ctx.fmt.skills
    if rng is None:
        for entry, card in found:
            yield Violation(
                "DC303",
                f"{card.name} ({card.id}) is a skill card; {ctx.fmt.name} has no skill cards",
                entry.section,
                entry.line,
                card.id,
                card.name,
                entry.count,
                0,
            )
        return
    n = sum(e.count for e, _ in found)
    if not rng.contains(n):
        first = found[0][0] if found else None
        yield Violation(
            "DC303",
            f"the deck has {plural(n, 'skill card', 'skill cards')}, "
            f"but {ctx.fmt.name} needs {rng}",
            first.section if first else None,
            first.line if first else None,
            count=n,
            limit=rng.max if rng.max is not None and n > rng.max else rng.min,
        )
