"""Skill cards (Speed Duel, Duel Links): allowed only where the format says, and how many.

* DC303 ``skills``: the number of skill cards is outside the format's ``skills`` range, or the
  deck holds a skill card in a format without skills (each such card is reported).
* DC304 ``no-skill`` (warning): a TCG Speed Duel deck without a Skill card. The official rule
  is exactly one Skill, but deck exports (.ydk, ydke) usually leave it out, so deckcheck warns
  rather than fails (``--strict`` makes it fail).
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.codes import finding
from deckcheck.model import Finding
from deckcheck.rules._base import HAS_SKILL, Context, of_entry, plural

NAME = "skills"
#: formats whose official rule is one Skill per deck, a Skill that exports omit
ONE_SKILL_EXPECTED = frozenset({"speed"})


def check(ctx: Context) -> Iterator[Finding]:
    found = (
        [(e, c) for e, c in ctx.entries if c is not None and ctx.kind(c) == "skill"]
        if ctx.flags & HAS_SKILL
        else []
    )
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
    if n == 0 and ctx.fmt.id in ONE_SKILL_EXPECTED:
        yield finding(
            "DC304",
            f"the deck has no Skill card; {ctx.fmt.name} decks play exactly one "
            "(exports often leave it out: check the submission has one)",
            count=0,
            limit=1,
        )
        return
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
