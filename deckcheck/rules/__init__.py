"""Every rule family deckcheck checks, listed in one explicit tuple (``NAMES``, code family =
module name), and when the families most formats never need can find anything (``NEEDED``).

Each module's docstring is that rule's user documentation (``docs/RULES.md`` quotes them);
each defines ``NAME`` (its name here) and ``check(ctx)`` yielding ``model.Finding``s built with
``deckcheck.codes.finding``. Which codes a module may emit is said once, in ``deckcheck.codes``
(``owned_by(NAME)``); the engine refuses any other.

    module("limits")   # the module of a family, imported on first use
    RULES              # every family -> its module, in order (imports them all)
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from types import ModuleType
from typing import Any

from deckcheck.rules._base import HAS_SKILL, Context

#: the rule families, in the order the engine runs them (the report sorts afterwards)
NAMES: tuple[str, ...] = (
    "input",
    "sizes",
    "placement",
    "skills",
    "copies",
    "limits",
    "pool",
    "groups",
    "points",
    "legend",
    "types",
    "listdate",
    "upcoming",
)


#: For the families only some formats and lists need: what a deck's context must have for the
#: family to find anything (each module returns at once without it). The engine imports such a
#: module, and runs it, only for a context that has it: a one-deck ``validate`` of an Advanced
#: deck imports none of the five (1.7M of its 230M instructions, callgrind). Held to the plain
#: path (every family run on every deck) by tests/rules/test_rules.py.
NEEDED: dict[str, Callable[[Context], bool]] = {
    "skills": lambda ctx: ctx.fmt.skills is not None or bool(ctx.flags & HAS_SKILL),
    "groups": lambda ctx: ctx.banlist is not None and bool(ctx.banlist.groups),
    "points": lambda ctx: (
        ctx.cap is not None and ctx.banlist is not None and bool(ctx.banlist.points)
    ),
    "legend": lambda ctx: ctx.fmt.legend != "none",
    "types": lambda ctx: bool(ctx.fmt.banned_types),
}


def module(name: str) -> ModuleType:
    """The module of rule family ``name`` (one of ``NAMES``), imported on first use."""
    if name not in NAMES:
        raise KeyError(f"no rule family {name!r}")
    return import_module(f"{__name__}.{name}")


def __getattr__(name: str) -> Any:
    # ``RULES``: every family's module by name, in order; made when asked (it imports them all)
    if name == "RULES":
        return {n: module(n) for n in NAMES}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["NAMES", "NEEDED", "RULES", "Context", "module"]
