"""Every rule family deckcheck checks, listed in one explicit dict (code family -> module).

Each module's docstring is that rule's user documentation (``docs/RULES.md`` quotes them);
each defines ``NAME`` (its key here) and ``check(ctx)`` yielding ``model.Finding``s built with
``deckcheck.codes.finding``. Which codes a module may emit is said once, in ``deckcheck.codes``
(``owned_by(NAME)``); the engine refuses any other.
"""

from __future__ import annotations

from types import ModuleType

from deckcheck.rules import (
    copies,
    groups,
    input,
    legend,
    limits,
    listdate,
    placement,
    points,
    pool,
    sizes,
    skills,
    types,
    upcoming,
)
from deckcheck.rules._base import Context

#: rule family -> module, in the order the engine runs them (the report sorts afterwards).
RULES: dict[str, ModuleType] = {
    "input": input,
    "sizes": sizes,
    "placement": placement,
    "skills": skills,
    "copies": copies,
    "limits": limits,
    "pool": pool,
    "groups": groups,
    "points": points,
    "legend": legend,
    "types": types,
    "listdate": listdate,
    "upcoming": upcoming,
}

__all__ = ["RULES", "Context"]
