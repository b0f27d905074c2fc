"""JUnit XML: one testcase per deck, a failure listing its findings (CI test-report viewers).

The suite's ``tests``/``failures``/``errors``/``skipped``/``time`` are only known at the end,
so the testcases are kept as text until ``finish`` (a few hundred bytes per deck). A deck that
cannot be read at all is an ``<error>``; an illegal one (or one that warns under --strict) a
``<failure>``; waived findings and warnings of a passing deck go to ``<system-out>``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from xml.sax.saxutils import escape, quoteattr

from deckcheck.model import Finding
from deckcheck.render.base import Meta, Renderer
from deckcheck.render.common import xml_text
from deckcheck.report import DeckReport, Summary


def _line(f: Finding) -> str:
    where = f"{f.section or 'deck'}{':' + str(f.line) if f.line is not None else ''}"
    sev = f"waived {f.severity}" if f.waived else f.severity
    message = xml_text(" ".join(f.message.splitlines()))
    return f"{where} {sev} {f.code} [{f.rule}] {message}"


def _unreadable(report: DeckReport) -> bool:
    return any(f.code == "DC101" and f.line is None and not f.waived for f in report.findings)


class JunitRenderer(Renderer):
    #: the clock testcase times are read from (tests give a fixed one)
    clock: Callable[[], float] = staticmethod(time.perf_counter)

    def start(self, meta: Meta) -> None:
        super().start(meta)
        self._cases: list[str] = []
        self._tests = self._failures = self._errors = 0
        self._t0 = self._last = self.clock()

    def deck(self, report: DeckReport) -> None:
        now = self.clock()
        took, self._last = now - self._last, now
        strict = self.meta.strict if self.meta else False
        self._tests += 1
        props = f"classname={quoteattr('deckcheck.' + report.format_id)} "
        props += f'name={quoteattr(xml_text(report.input))} time="{took:.3f}"'
        body = "\n".join(_line(f) for f in report.findings)
        parts = []
        if not report.passes(strict):
            live = [f for f in report.findings if not f.waived]
            failing = [f for f in live if f.severity == "error"] or live
            codes = ", ".join(sorted({f.code for f in failing}))
            if _unreadable(report):
                self._errors += 1
                tag, kind = "error", "unreadable"
            else:
                self._failures += 1
                tag, kind = "failure", "illegal"
            msg = quoteattr(f"{len(failing)} finding(s): {codes}")
            parts.append(f"<{tag} message={msg} type={quoteattr(kind)}>{escape(body)}</{tag}>")
        elif body:
            parts.append(f"<system-out>{escape(body)}</system-out>")
        if report.player:
            parts.insert(
                0,
                '<properties><property name="player" '
                f"value={quoteattr(xml_text(report.player))}/></properties>",
            )
        if not parts:
            self._cases.append(f"<testcase {props}/>")
        else:
            self._cases.append(f"<testcase {props}>\n" + "\n".join(parts) + "\n</testcase>")

    def finish(self, summary: Summary) -> None:
        meta = self.meta
        label = f"deckcheck {meta.format_id} {meta.list_label}" if meta else "deckcheck"
        name = quoteattr(xml_text(label))
        total = self.clock() - self._t0
        counts = (
            f'tests="{self._tests}" failures="{self._failures}" errors="{self._errors}" '
            f'skipped="0" time="{total:.3f}"'
        )
        self.out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        self.out.write(f"<testsuites {counts}>\n<testsuite name={name} {counts}>\n")
        for case in self._cases:
            self.out.write(case + "\n")
        self.out.write("</testsuite>\n</testsuites>\n")
        super().finish(summary)
