"""CSV for spreadsheets: one row per finding (a deck without findings gets one row of its
own), or with ``per_deck`` (``--csv-decks``) one row per deck."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

from deckcheck.render.base import Meta, Renderer
from deckcheck.render.common import one_line
from deckcheck.report import DeckReport

HEADER = [
    "deck",
    "player",
    "verdict",
    "code",
    "severity",
    "waived",
    "section",
    "line",
    "card_id",
    "card_name",
    "message",
]
DECK_HEADER = [
    "input",
    "player",
    "legal",
    "verdict",
    "main",
    "extra",
    "side",
    "errors",
    "warnings",
    "waived",
    "codes",
]


def _text(value: object) -> str:
    return "" if value is None else str(value)


#: What makes a spreadsheet read a cell as a formula (OWASP, "CSV Injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> object:
    """A CSV cell a spreadsheet shows as text: a string that starts like a formula
    (``=HYPERLINK(…)`` as a deck file or player name) gets a leading ``'`` (OWASP's rule);
    numbers stay numbers."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


class _SafeWriter:
    """``csv.writer`` whose every row goes through ``cell``."""

    def __init__(self, out: Any):
        self._writer = csv.writer(out, lineterminator="\n")

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([cell(v) for v in row])


class CsvRenderer(Renderer):
    per_deck = False
    text_per_deck = True

    def start(self, meta: Meta) -> None:
        super().start(meta)
        self.writer = _SafeWriter(self.out)
        self.writer.writerow(DECK_HEADER if self.per_deck else HEADER)

    def decks_text(self, reports: Iterable[DeckReport]) -> str:
        writer, buf = self.writer, io.StringIO()
        self.writer = _SafeWriter(buf)  # the rows ``deck`` writes
        try:
            for report in reports:
                self.deck(report)
        finally:
            self.writer = writer
        return buf.getvalue()

    def _verdict(self, report: DeckReport) -> str:
        return report.verdict(self.meta.strict if self.meta else False)

    def deck(self, report: DeckReport) -> None:
        verdict = self._verdict(report)
        player = one_line(_text(report.player))
        if self.per_deck:
            c = report.counts
            codes = " ".join(sorted({f.code for f in report.findings if not f.waived}))
            self.writer.writerow(
                [
                    one_line(report.input),
                    player,
                    "true" if report.legal else "false",
                    verdict,
                    c["main"],
                    c["extra"],
                    c["side"],
                    report.errors,
                    report.warnings,
                    report.waived,
                    codes,
                ]
            )
            return
        if not report.findings:
            self.writer.writerow([one_line(report.input), player, verdict, *[""] * 8])
            return
        for f in report.findings:
            message = one_line(" ".join(f.message.splitlines()))
            self.writer.writerow(
                [
                    one_line(report.input),
                    player,
                    verdict,
                    f.code,
                    f.severity,
                    "true" if f.waived else "false",
                    _text(f.section),
                    _text(f.line),
                    _text(f.card_id),
                    one_line(_text(f.card_name)),
                    message,
                ]
            )
