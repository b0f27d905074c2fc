"""The per-deck report record, the run summary and the one function that picks the exit code."""

from __future__ import annotations

from collections.abc import Iterable

from deckcheck.errors import EXIT_ERROR, EXIT_ILLEGAL, EXIT_OK
from deckcheck.model import Finding, Record, record

__all__ = [
    "EXIT_ERROR",
    "EXIT_ILLEGAL",
    "EXIT_OK",
    "DeckReport",
    "RunTally",
    "Summary",
    "Waivers",
    "exit_code",
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
    # --- what the deck was checked against, for the outputs (a "#format" line may change it)
    format_name: str | None = None
    list_source: str | None = None
    list_date_exact: bool | None = None

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
                code = f.code
                codes[code] = codes.get(code, 0) + 1
                if f.severity == "warning" and not f.waived:  # (``report.warnings``)
                    warned = True
        if warned:
            self.warnings += 1
        if not (legal and not (strict and warned)):  # ``report.passes(strict)``
            self.failed += 1

    def merge(self, other: Summary) -> None:
        """Add ``other``'s totals, taken over the decks that follow this summary's (a code
        first seen there comes after the codes seen here, as if one summary saw them all)."""
        self.decks += other.decks
        self.legal += other.legal
        self.illegal += other.illegal
        self.warnings += other.warnings
        self.failed += other.failed
        codes = self.codes
        for code, n in other.codes.items():
            codes[code] = codes.get(code, 0) + n

    def __getstate__(self) -> tuple[int, int, int, int, int, dict[str, int]]:
        return (self.decks, self.legal, self.illegal, self.warnings, self.failed, self.codes)

    def __setstate__(self, state: tuple[int, int, int, int, int, dict[str, int]]) -> None:
        self.decks, self.legal, self.illegal, self.warnings, self.failed, self.codes = state

    def to_json(self) -> dict[str, int]:
        return {"decks": self.decks, "legal": self.legal, "illegal": self.illegal}


#: a deck's row of the GitHub step summary: (input, player, verdict, findings that count,
#: first reason)
Row = tuple[str, "str | None", str, int, "str | None"]


class RunTally:
    """What a ``validate`` run keeps of each report as it passes: waivers applied, the
    summary, the inputs of passing decks (``--sheets``) and the step summary's rows.

    The same code for reports checked in this process and in ``--jobs`` workers (each
    worker tallies its chunk; the parent ``merge``s the chunks in input order).
    """

    __slots__ = ("waivers", "strict", "only_illegal", "summary", "passed", "rows")

    def __init__(
        self,
        waivers: Waivers,
        strict: bool = False,
        only_illegal: bool = False,
        sheets: bool = False,
        rows: bool = False,
    ) -> None:
        self.waivers = waivers
        self.strict = strict
        self.only_illegal = only_illegal
        self.summary = Summary()
        self.passed: list[str] | None = [] if sheets else None
        self.rows: list[Row] | None = [] if rows else None

    def take(self, report: DeckReport) -> DeckReport | None:
        """``report`` with the waivers applied, counted; None when it is not to be shown
        (``--only-illegal`` and it passes)."""
        strict = self.strict
        report = self.waivers.apply(report)
        self.summary.add(report, strict)
        if self.passed is not None and report.passes(strict):
            self.passed.append(report.input)
        if self.rows is not None:
            live = len(report.findings) - report.waived
            self.rows.append(
                (report.input, report.player, report.verdict(strict), live, report.first_reason())
            )
        if self.only_illegal and report.passes(strict):
            return None
        return report

    def part(self) -> tuple[Summary, list[str] | None, list[Row] | None]:
        """What ``merge`` needs of this tally (picklable), and a fresh start for the next."""
        got = (self.summary, self.passed, self.rows)
        self.summary = Summary()
        self.passed = None if self.passed is None else []
        self.rows = None if self.rows is None else []
        return got

    def merge(self, part: tuple[Summary, list[str] | None, list[Row] | None]) -> None:
        """Add a ``part`` of the decks that follow those tallied so far."""
        summary, passed, rows = part
        self.summary.merge(summary)
        if self.passed is not None and passed:
            self.passed.extend(passed)
        if self.rows is not None and rows:
            self.rows.extend(rows)


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

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Waivers):
            return NotImplemented
        return (self.ignore, self.select) == (other.ignore, other.select)

    def __hash__(self) -> int:
        return hash((self.ignore, self.select))

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
