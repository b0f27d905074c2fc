"""The registry of finding codes (SPEC.md §5) and the one factory every finding is built with.

Each code has a short rule name, a severity and one owning rule module (a key of
``deckcheck.rules.RULES``); a retired code lives on as an alias of the code that replaced it and
is never reused. Readers, ``validate.unreadable`` and every rule build findings with
``finding(code, message, section=..., ...)``, so names and severities are written down once, here.

Public API::

    finding(code, message, *, section=None, line=None, card_id=None, card_name=None,
            count=None, limit=None, candidates=()) -> model.Finding
    get(code) -> Code                # an alias gives the code that replaced it
    owned_by(owner) -> frozenset[str]
    CODES: dict[str, Code]           # current codes in code order (aliases not included)
    REGISTRY: Registry               # the above, as methods; tests build their own Registry

``UnknownCode`` and ``CodeNotOwned`` (both ``CodeError``) are internal errors: a bug in
deckcheck, never something a user can cause or fix.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from deckcheck.model import Finding, Record, Section, Severity, record


def _is_code(name: str) -> bool:
    """DCnnn: three ASCII digits, the first not 0 (a regex would cost start-up time)."""
    digits = name[2:]
    return (
        name[:2] == "DC"
        and len(digits) == 3
        and digits.isascii()
        and digits.isdigit()
        and digits[0] != "0"
    )


class CodeError(Exception):
    """Internal error: a finding code the registry does not know, or a rule does not own."""


class UnknownCode(CodeError):
    """A code (or alias) that is not in the registry."""


class CodeNotOwned(CodeError):
    """A rule emitted a code that the registry gives to another rule module (or to none)."""


@record
class Code(Record):
    """One finding code: its short rule name, severity, owning rule module and retired aliases.

    ``also_warning``: an error code whose rule may also give it as a warning, where the data
    cannot settle the question (DC502: a card first seen in a video game's pack after the event
    date may have been in the game earlier); the rule says so with ``finding(severity=...)``.
    """

    code: str
    rule: str  # e.g. "limited"
    severity: Severity
    owner: str  # key of deckcheck.rules.RULES, e.g. "limits"
    aliases: tuple[str, ...] = ()  # retired codes that now mean this one
    also_warning: bool = False

    @property
    def module(self) -> str:
        """The dotted name of the owning rule module."""
        return f"deckcheck.rules.{self.owner}"


class Registry:
    """Codes by code and by alias, checked once when built: one code, one owner, no reuse."""

    __slots__ = ("codes", "_lookup", "_owned")

    def __init__(self, entries: Iterable[Code]):
        self.codes: dict[str, Code] = {}
        self._lookup: dict[str, Code] = {}  # codes and aliases
        owned: dict[str, set[str]] = {}
        for c in entries:
            for name in (c.code, *c.aliases):
                if not _is_code(name):
                    raise CodeError(f"{name!r} is not a code of the form DCnnn")
                if name in self._lookup:
                    raise CodeError(f"{name} is registered twice (a retired code is never reused)")
                self._lookup[name] = c
            if c.severity not in ("error", "warning"):
                raise CodeError(f"{c.code}: severity {c.severity!r} is not error or warning")
            if not c.rule or not c.owner:
                raise CodeError(f"{c.code}: a code needs a rule name and an owning module")
            self.codes[c.code] = c
            owned.setdefault(c.owner, set()).add(c.code)
        self._owned = {owner: frozenset(cs) for owner, cs in owned.items()}

    def __iter__(self) -> Iterator[Code]:
        return iter(self.codes.values())

    def __contains__(self, code: object) -> bool:
        return code in self._lookup

    def get(self, code: str) -> Code:
        """The entry for ``code``; a retired code gives the entry of the code that replaced it."""
        got = self._lookup.get(code)
        if got is None:
            raise UnknownCode(f"unknown finding code {code!r} (not in deckcheck.codes)")
        return got

    def owned_by(self, owner: str) -> frozenset[str]:
        """The codes the rule module ``owner`` may emit (empty for a module that owns none)."""
        return self._owned.get(owner, frozenset())

    def owners(self) -> frozenset[str]:
        return frozenset(self._owned)

    def not_owned(self, owner: str, code: str) -> CodeNotOwned:
        """The error the engine raises when rule module ``owner`` emits ``code`` it does not own."""
        c = self._lookup.get(code)
        whose = f"it belongs to rules.{c.owner}" if c is not None else "it is not registered"
        return CodeNotOwned(f"rule module {owner!r} emitted {code}, but {whose}")

    def finding(
        self,
        code: str,
        message: str,
        *,
        section: Section | None = None,
        line: int | None = None,
        card_id: int | None = None,
        card_name: str | None = None,
        count: int | None = None,
        limit: int | None = None,
        candidates: tuple[tuple[int, str], ...] = (),
        severity: Severity | None = None,
    ) -> Finding:
        """A finding stamped with the rule name and severity of ``code`` (an alias: its heir).
        ``severity="warning"`` only for a code registered ``also_warning``."""
        c = self._lookup.get(code)
        if c is None:
            raise UnknownCode(f"unknown finding code {code!r} (not in deckcheck.codes)")
        if severity is None or severity == c.severity:
            severity = c.severity
        elif not (severity == "warning" and c.also_warning):
            raise CodeError(f"{c.code} is registered as {c.severity!r}, not as {severity!r}")
        # Positional, in Finding's field order: this is the one place a Finding is built.
        return Finding(
            c.code,
            c.rule,
            severity,
            message,
            section,
            line,
            card_id,
            card_name,
            count,
            limit,
            candidates,
        )


# The one table (README and docs/RULES.md list the same codes; tests/rules/test_codes.py checks).
# Retiring a code: keep its number out of use and add it to the aliases of its successor.
REGISTRY = Registry(
    [
        Code("DC101", "unreadable-line", "error", "input"),
        Code("DC102", "unknown-card", "error", "input"),
        Code("DC103", "ambiguous-card", "error", "input"),
        Code("DC104", "token", "error", "input"),
        Code("DC201", "main-size", "error", "sizes"),
        Code("DC202", "extra-size", "error", "sizes"),
        Code("DC203", "side-size", "error", "sizes"),
        Code("DC301", "extra-in-main", "error", "placement"),
        Code("DC302", "not-extra", "error", "placement"),
        Code("DC303", "skills", "error", "skills"),
        Code("DC304", "no-skill", "warning", "skills"),
        Code("DC401", "copies", "error", "copies"),
        Code("DC402", "forbidden", "error", "limits"),
        Code("DC403", "limited", "error", "limits"),
        Code("DC404", "semi-limited", "error", "limits"),
        Code("DC405", "not-in-pool", "error", "pool"),
        Code("DC406", "group-limit", "error", "groups"),
        Code("DC407", "points", "error", "points"),
        Code("DC408", "legend", "error", "legend"),
        Code("DC409", "banned-type", "error", "types"),
        Code("DC501", "not-in-region", "error", "pool"),
        Code("DC502", "not-released", "error", "pool", also_warning=True),
        Code("DC503", "unofficial", "error", "pool"),
        Code("DC504", "not-in-game-pool", "error", "pool", also_warning=True),
        Code("DC601", "upcoming-list", "warning", "upcoming"),
        Code("DC602", "stale-list", "warning", "listdate"),
        Code("DC603", "approximate-list-date", "warning", "listdate"),
    ]
)

CODES: dict[str, Code] = dict(sorted(REGISTRY.codes.items()))
finding = REGISTRY.finding
get = REGISTRY.get
owned_by = REGISTRY.owned_by

__all__ = [
    "CODES",
    "REGISTRY",
    "Code",
    "CodeError",
    "CodeNotOwned",
    "Registry",
    "UnknownCode",
    "finding",
    "get",
    "owned_by",
]
