"""The per-deck report record, the run summary and the one function that picks the exit code."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from deckcheck.errors import EXIT_ERROR, EXIT_ILLEGAL, EXIT_OK
from deckcheck.model import Finding

__all__ = ["DeckReport", "Summary", "exit_code", "EXIT_OK", "EXIT_ILLEGAL", "EXIT_ERROR"]


@dataclass(frozen=True, slots=True)
class DeckReport:
    """The verdict on one deck: every renderer and the exit code read only this."""

    input: str  # file path, "ydke://…" or "<stdin>"
    legal: bool  # no error findings
    counts: dict[str, int]  # main/extra/side card counts (skill cards not in main)
    findings: tuple[Finding, ...]  # sorted by section, line, code
    format_id: str
    list_name: str | None = None
    list_effective: str | None = None  # ISO date
    # --- for the HTML report and sheets (issue 17): what the deck is made of, who made it
    #: main-deck copies by kind ("monster", "spell", "trap", "other") plus "extra" (Extra Deck)
    composition: dict[str, int] | None = None
    player: str | None = None  # from a ``#created by NAME`` header line, when it names someone

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity == "warning")

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
        if report.legal:
            self.legal += 1
        else:
            self.illegal += 1
        if report.warnings:
            self.warnings += 1
        if not report.passes(strict):
            self.failed += 1
        for f in report.findings:
            self.codes[f.code] = self.codes.get(f.code, 0) + 1

    def to_json(self) -> dict[str, int]:
        return {"decks": self.decks, "legal": self.legal, "illegal": self.illegal}


def exit_code(reports: Iterable[DeckReport] | Summary, strict: bool = False) -> int:
    """EXIT_OK when every deck passes; EXIT_ILLEGAL when one is illegal (or warns under strict).

    EXIT_ERROR (usage or data errors) never comes from reports: those raise before a verdict.
    """
    if isinstance(reports, Summary):
        return EXIT_ILLEGAL if reports.failed else EXIT_OK
    return EXIT_OK if all(r.passes(strict) for r in reports) else EXIT_ILLEGAL
