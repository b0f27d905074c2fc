"""GitHub Actions: one ``::error``/``::warning`` annotation per finding (``::notice`` for a
waived one), and the Markdown table a job's step summary shows.

Data is escaped for ``%``, CR and LF, properties also for ``:`` and ``,`` (card names such as
"Maxx "C"" or "Sky Striker Mobilize - Engage!" and file names may hold them).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from deckcheck.render.base import Renderer, summary_line
from deckcheck.render.common import markup_text, one_line
from deckcheck.report import DeckReport, Row, Summary


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


class GithubRenderer(Renderer):
    text_per_deck = True

    def deck(self, report: DeckReport) -> None:
        for f in report.findings:
            props = [f"file={escape_property(one_line(report.input))}"]
            if f.line is not None:
                props.append(f"line={f.line}")
            title = f"{f.code} {f.rule}" + (" (waived)" if f.waived else "")
            props.append(f"title={escape_property(title)}")
            level = "notice" if f.waived else f.severity
            self.out.write(f"::{level} {','.join(props)}::{escape_data(markup_text(f.message))}\n")


def _cell(text: str) -> str:
    """Markdown table cell: one line, pipes escaped."""
    return one_line(" ".join(text.splitlines())).replace("|", "\\|")


def step_summary(rows: Iterable[Row], meta: Any, summary: Summary, strict: bool = False) -> str:
    """The Markdown a job's step summary shows: a heading, the run line, one row per deck."""
    marks = {"legal": "✅ legal", "warnings": "⚠️ warnings", "illegal": "❌ illegal"}
    out = ["## deckcheck", "", summary_line(summary, meta), ""]
    out.append("| deck | player | verdict | findings | first reason |")
    out.append("| --- | --- | --- | ---: | --- |")
    for deck, player, verdict, n, reason in rows:
        shown = marks.get(verdict, "❌ " + verdict)
        out.append(
            f"| {_cell(deck)} | {_cell(player or '')} | {shown} | {n} | {_cell(reason or '')} |"
        )
    return "\n".join(out) + "\n\n"


__all__ = ["GithubRenderer", "escape_data", "escape_property", "step_summary"]
