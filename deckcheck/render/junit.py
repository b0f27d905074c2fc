"""JUnit XML: one testcase per deck, a failure listing its findings (CI test-report viewers)."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from deckcheck.render.base import Meta, Renderer
from deckcheck.render.common import markup_text, xml_text
from deckcheck.report import DeckReport, Summary


class JunitRenderer(Renderer):
    def start(self, meta: Meta) -> None:
        super().start(meta)
        # Totals are unknown until the end of the stream, so they go on the closing summary.
        name = quoteattr(xml_text(f"deckcheck {meta.format_id} {meta.list_label}"))
        self.out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        self.out.write(f"<testsuites>\n<testsuite name={name}>\n")

    def deck(self, report: DeckReport) -> None:
        fmt = self.meta.format_id if self.meta else report.format_id
        name = quoteattr(xml_text(report.input))
        head = f"<testcase classname={quoteattr('deckcheck.' + fmt)} name={name}"
        errors = [f for f in report.findings if f.severity == "error"]
        if not report.findings:
            self.out.write(head + "/>\n")
            return
        self.out.write(head + ">\n")
        body = "\n".join(
            f"{f.section or 'deck'}{':' + str(f.line) if f.line is not None else ''} "
            f"{f.severity} {f.code} [{f.rule}] {markup_text(f.message)}"
            for f in report.findings
        )
        if errors:
            msg = quoteattr(
                f"{len(errors)} error(s): " + ", ".join(sorted({f.code for f in errors}))
            )
            self.out.write(f'<failure message={msg} type="illegal">{escape(body)}</failure>\n')
        else:
            self.out.write(f"<system-out>{escape(body)}</system-out>\n")
        self.out.write("</testcase>\n")

    def finish(self, summary: Summary) -> None:
        self.out.write("</testsuite>\n</testsuites>\n")
        super().finish(summary)
