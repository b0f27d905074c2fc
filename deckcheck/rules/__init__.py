"""Every rule family deckcheck checks, listed in one explicit dict (code family -> module).

Each module's docstring is that rule's user documentation (``docs/RULES.md`` quotes them);
each defines ``CODES`` (code -> (name, severity)) and ``check(ctx)`` yielding ``Violation``s.
"""

from __future__ import annotations

from types import ModuleType

from deckcheck.rules import (
    copies,
    groups,
    input,
    legend,
    limits,
    placement,
    points,
    pool,
    sizes,
    skills,
    types,
)
from deckcheck.rules._base import CodeInfo, Context, Violation

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
}

#: every code -> (rule name, severity), built from the modules so it cannot drift.
CODES: dict[str, CodeInfo] = {
    code: info for mod in RULES.values() for code, info in mod.CODES.items()
}

__all__ = ["RULES", "CODES", "Context", "Violation"]
