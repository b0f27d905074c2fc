"""CSV: one row per deck (input, legal, main, extra, side, codes) for spreadsheets."""

from __future__ import annotations

import csv

from deckcheck.render.base import Meta, Renderer
from deckcheck.render.common import one_line
from deckcheck.report import DeckReport

HEADER = ["input", "legal", "main", "extra", "side", "codes"]


class CsvRenderer(Renderer):
    def start(self, meta: Meta) -> None:
        super().start(meta)
        self.writer = csv.writer(self.out, lineterminator="\n")
        self.writer.writerow(HEADER)

    def deck(self, report: DeckReport) -> None:
        c = report.counts
        codes = " ".join(sorted({f.code for f in report.findings}))
        self.writer.writerow(
            [
                # One row per line: a quoted newline is valid CSV, but line tools split it.
                one_line(report.input),
                "true" if report.legal else "false",
                c["main"],
                c["extra"],
                c["side"],
                codes,
            ]
        )
