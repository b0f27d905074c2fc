"""Plain text for people: findings grouped per deck, colour only on a terminal."""

from __future__ import annotations

from deckcheck.model import Finding
from deckcheck.render.base import Renderer, checked_as, summary_line
from deckcheck.render.common import one_line
from deckcheck.report import DeckReport, Summary

_RED, _YELLOW, _GREEN, _DIM, _RESET = "\x1b[31m", "\x1b[33m", "\x1b[32m", "\x1b[2m", "\x1b[0m"


class TextRenderer(Renderer):
    text_per_deck = True

    def _c(self, code: str, text: str) -> str:
        return f"{code}{text}{_RESET}" if self.color else text

    def deck(self, report: DeckReport) -> None:
        c = report.counts
        sizes = f"main {c['main']}, extra {c['extra']}, side {c['side']}"
        if report.waived:
            sizes += f"; {report.waived} waived"
        if report.legal and not report.warnings:
            verdict = self._c(_GREEN, "legal")
        elif report.legal:
            verdict = self._c(_YELLOW, "legal, with warnings")
        else:
            verdict = self._c(_RED, "illegal")
        # The file name already says who a deck is from; a "#player" line is worth a mention.
        player = ""
        if report.player and report.player not in report.input:
            player = f" [player {report.player}]"
        against = checked_as(report, self.meta)  # a "#format" line: another format or list
        if against is not None:
            player += f" [checked as {against}]"
        self.out.write(f"{one_line(report.input)}{one_line(player)}: {verdict} ({sizes})\n")
        for f in report.findings:
            self.out.write("  " + self.line(f) + "\n")

    def line(self, f: Finding) -> str:
        where: str = f.section or "deck"
        if f.line is not None:
            where += f":{f.line}"
        if f.waived:
            sev = self._c(_DIM, f"waived {f.severity}")
        else:
            sev = self._c(_RED if f.severity == "error" else _YELLOW, f.severity)
        # One finding per line, whatever a message holds: grep and people read it that way.
        message = one_line(" ".join(f.message.splitlines()))
        return f"{self._c(_DIM, where)} {sev} {f.code} [{f.rule}] {message}"

    def finish(self, summary: Summary) -> None:
        self.err.write(summary_line(summary, self.meta) + "\n")
