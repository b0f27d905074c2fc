"""The per-deck report record, the run summary and the one function that picks the exit code."""

from __future__ import annotations

from collections.abc import Iterable

from deckcheck.errors import EXIT_ERROR, EXIT_ILLEGAL, EXIT_OK
from deckcheck.model import Finding, Record, record

__all__ = [
    "DeckReport",
    "Summary",
    "Waivers",
    "exit_code",
    "EXIT_OK",
    "EXIT_ILLEGAL",
    "EXIT_ERROR",
]


@record
class DeckReport(Record):
    """The verdict on one deck: every renderer and the exit code read only this."""

    input: str  # file path, "ydke://…" or "<stdin>"
    legal: bool  # no error findings
    counts: dict[str, int]  # main/extra/side card counts (skill cards not in main)
    findings: tuple[Finding, ...]  # sorted by section, line, code
    format_id: str
    list_name: str | None = None
    list_effective: str | None = None  # ISO date
    # --- for the HTML report and sheets (issue 17): what the deck is made of
    #: main-deck copies by kind ("monster", "spell", "trap", "other") plus "extra" (Extra Deck)
    composition: dict[str, int] | None = None
    player: str | None = None  # a "#player NAME" line, else "#created by NAME", else the file stem

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == "error" and not f.waived)

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity == "warning" and not f.waived)

    @property
    def waived(self) -> int:
        return sum(1 for f in self.findings if f.waived)

    def verdict(self, strict: bool = False) -> str:
        """One word for tables: legal, warnings (legal, warns), illegal (fails)."""
        if not self.legal:
            return "illegal"
        if self.warnings:
            return "illegal (strict)" if strict else "warnings"
        return "legal"

    def first_reason(self) -> str | None:
        """The first finding that counts (errors before warnings), as "CODE message"."""
        live = [f for f in self.findings if not f.waived]
        for f in sorted(live, key=lambda f: f.severity != "error"):
            return f"{f.code} {' '.join(f.message.splitlines())}"
        return None

    @property
    def list_label(self) -> str | None:
        if self.list_name is None:
            return None
        return f"{self.list_name} (effective {self.list_effective})"

    def passes(self, strict: bool = False) -> bool:
        return self.legal and not (strict and self.warnings)


class Summary:
    """Running totals over a stream of reports (reports are not kept: memory stays flat)."""

    __slots__ = ("decks", "legal", "illegal", "warnings", "failed", "codes")

    def __init__(self) -> None:
        self.decks = 0
        self.legal = 0
        self.illegal = 0
        self.warnings = 0
        self.failed = 0  # decks that do not pass (illegal, or with warnings under --strict)
        self.codes: dict[str, int] = {}

    def add(self, report: DeckReport, strict: bool = False) -> None:
        self.decks += 1
        legal = report.legal
        if legal:
            self.legal += 1
        else:
            self.illegal += 1
        warned = False
        if report.findings:  # a deck without findings has no warnings and no codes to count
            codes = self.codes
            for f in report.findings:
                codes[f.code] = codes.get(f.code, 0) + 1
            warned = bool(report.warnings)
        if warned:
            self.warnings += 1
        if not (legal and not (strict and warned)):  # ``report.passes(strict)``
            self.failed += 1

    def to_json(self) -> dict[str, int]:
        return {"decks": self.decks, "legal": self.legal, "illegal": self.illegal}


class Waivers:
    """Which finding codes a run waives: ``--ignore CODE`` and ``--select CODE``.

    A code may be given whole (``DC501``) or as a prefix (``DC5``: every DC5nn). With
    ``select`` given, only selected codes count and every other finding is waived; ``ignore``
    waives on top of that. A waived finding stays in the report, marked ``waived``, and makes
    no deck illegal (nor fail under --strict).
    """

    __slots__ = ("ignore", "select")

    def __init__(self, ignore: Iterable[str] = (), select: Iterable[str] = ()):
        self.ignore = tuple(c.strip().upper() for c in ignore if c.strip())
        self.select = tuple(c.strip().upper() for c in select if c.strip())

    def __bool__(self) -> bool:
        return bool(self.ignore or self.select)

    def waives(self, code: str) -> bool:
        if self.select and not code.startswith(self.select):
            return True
        return bool(self.ignore) and code.startswith(self.ignore)

    def unknown(self, known: Iterable[str]) -> list[str]:
        """The given codes that name no known code (not even as a prefix)."""
        known = list(known)
        return [c for c in (*self.ignore, *self.select) if not any(k.startswith(c) for k in known)]

    def apply(self, report: DeckReport) -> DeckReport:
        """``report`` with the waived findings marked and the verdict taken again."""
        if not self or not report.findings:
            return report
        findings = tuple(
            f.replace(waived=True) if not f.waived and self.waives(f.code) else f
            for f in report.findings
        )
        legal = not any(f.severity == "error" and not f.waived for f in findings)
        return report.replace(findings=findings, legal=legal)


def exit_code(reports: Iterable[DeckReport] | Summary, strict: bool = False) -> int:
    """EXIT_OK when every deck passes; EXIT_ILLEGAL when one is illegal (or warns under strict).

    EXIT_ERROR (usage or data errors) never comes from reports: those raise before a verdict.
    """
    if isinstance(reports, Summary):
        return EXIT_ILLEGAL if reports.failed else EXIT_OK
    return EXIT_OK if all(r.passes(strict) for r in reports) else EXIT_ILLEGAL
