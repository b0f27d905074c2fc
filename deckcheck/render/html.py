"""The self-contained HTML report of a batch (``validate -o html``): one file, inline CSS and JS.

Rendered with jinja2 (autoescape on: file and card names are escaped wherever they appear).
Rows and per-deck sections are rendered as each report arrives and spooled (to memory, then a
temporary file past a few MiB), so memory stays flat; the page is written at ``finish``, when
the totals and the chart at its top are known, so a failed run never leaves half a page.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import IO, Any

from deckcheck.render.base import Meta, Renderer, checked_as
from deckcheck.render.common import environment
from deckcheck.report import DeckReport, Summary

TEMPLATE = "report.html.j2"
#: kinds of the composition bar, in drawing order, with their labels
KINDS = (("monster", "Monster"), ("spell", "Spell"), ("trap", "Trap"), ("other", "Other"))
_SPOOL = 4 * 1024 * 1024


def split_input(path: str) -> tuple[str, str]:
    """(folder, file name) of a deck's input for display; URLs and stdin stay whole."""
    if path.startswith("ydke://") or path == "<stdin>":
        return "", path
    head, tail = os.path.split(path)
    return head, tail or path


def first_reason(report: DeckReport) -> str:
    """The first error's message (else the first warning's): what the table shows."""
    live = [f for f in report.findings if not f.waived]
    for f in live:
        if f.severity == "error":
            return f.message
    return live[0].message if live else ""


def group_findings(report: DeckReport) -> list[dict[str, Any]]:
    """The deck's findings grouped by code, codes in order of first appearance."""
    groups: dict[str, dict[str, Any]] = {}
    for f in report.findings:
        g = groups.get(f.code)
        if g is None:
            g = groups[f.code] = {
                "code": f.code,
                "rule": f.rule,
                "severity": "waived" if f.waived else f.severity,
                "entries": [],
            }
        if f.severity == "error" and not f.waived:
            g["severity"] = "error"
        g["entries"].append(f)
    return list(groups.values())


def composition_parts(report: DeckReport) -> list[dict[str, Any]]:
    """Segments of the main-deck bar (kind, label, count, x, width in percent)."""
    comp = report.composition or {}
    total = sum(comp.get(k, 0) for k, _ in KINDS)
    parts, x = [], 0.0
    for kind, label in KINDS:
        n = comp.get(kind, 0)
        if not n:
            continue
        w = 100.0 * n / total
        parts.append({"kind": kind, "label": label, "count": n, "x": round(x, 3), "w": round(w, 3)})
        x += w
    return parts


def chart_bars(codes: dict[str, int], names: dict[str, tuple[str, str]]) -> list[dict[str, Any]]:
    """Bars of the findings-by-code chart, most frequent first."""
    if not codes:
        return []
    top = max(codes.values())
    order = sorted(codes.items(), key=lambda kv: (-kv[1], kv[0]))
    return [
        {
            "code": code,
            "count": n,
            "rule": names.get(code, ("", "error"))[0],
            "severity": names.get(code, ("", "error"))[1],
            "w": round(100.0 * n / top, 2),
        }
        for code, n in order
    ]


class HtmlRenderer(Renderer):
    """One HTML document for the whole run, written to ``out`` at ``finish``."""

    def __init__(self, out: IO[str], err: IO[str], *, color: bool = False):
        super().__init__(out, err, color=color)
        self._env = environment()
        self._macros = self._env.get_template(TEMPLATE).module
        self._rows: Any = None
        self._decks: Any = None
        self._n = 0
        self._codes: dict[str, tuple[str, str]] = {}  # code -> (rule, severity)
        #: the run's metagame breakdown (``metagame.Breakdown``), set before ``finish`` by the
        #: batch (issue 30): shown as a section, each archetype linking to its decks
        self.metagame: Any = None
        self._at: dict[str, int] = {}  # input -> its deck section's number

    def start(self, meta: Meta) -> None:
        super().start(meta)
        # kept open until finish() writes the page (which closes them)
        self._rows = tempfile.SpooledTemporaryFile(_SPOOL, mode="w+", encoding="utf-8")  # noqa: SIM115
        self._decks = tempfile.SpooledTemporaryFile(_SPOOL, mode="w+", encoding="utf-8")  # noqa: SIM115
        self._n = 0

    def deck(self, report: DeckReport) -> None:
        self._n += 1
        self._at.setdefault(report.input, self._n)
        folder, name = split_input(report.input)
        groups = group_findings(report)
        for g in groups:
            if self._codes.get(g["code"], ("", ""))[1] != "error":
                self._codes[g["code"]] = (g["rule"], g["severity"])
        d = {
            "n": self._n,
            "report": report,
            "folder": folder,
            "name": name,
            "groups": groups,
            "codes": " ".join(g["code"] for g in groups),
            "first_reason": first_reason(report),
            "parts": composition_parts(report),
            "comp": report.composition,
            "checked_as": checked_as(report, self.meta),  # a "#format" line's format and list
        }
        self._rows.write(str(self._macros.row(d)))
        self._decks.write(str(self._macros.deck(d)))

    def finish(self, summary: Summary) -> None:
        assert self.meta is not None
        page = {
            "meta": self.meta,
            "summary": summary,
            "bars": chart_bars(summary.codes, self._codes),
            "codes": sorted(summary.codes),
            "code_names": self._codes,
            "metagame": self._metagame(),
        }
        out = self.out
        out.write(str(self._macros.page_head(page)))
        _copy(self._rows, out)
        out.write(str(self._macros.page_middle(page)))
        _copy(self._decks, out)
        out.write(str(self._macros.page_tail(page)))
        for f in (self._rows, self._decks):
            f.close()
        super().finish(summary)

    def _metagame(self) -> dict[str, Any] | None:
        if self.metagame is None:
            return None
        from deckcheck.render.metagame import html_view

        at = self._at
        return html_view(self.metagame, lambda i: f"#deck-{at[i]}" if i in at else None)


def _copy(spool: Any, out: IO[str]) -> None:
    spool.seek(0)
    shutil.copyfileobj(spool, out, 1024 * 1024)
