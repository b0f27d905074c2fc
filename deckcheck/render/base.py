"""The renderer interface and the run metadata every output kind may print."""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import IO

from deckcheck.report import DeckReport, Summary


class Meta:
    """What the run checked against: shown once per output.

    A plain class rather than a dataclass: it is created on every start (start-up matters).
    """

    __slots__ = (
        "format_id",
        "format_name",
        "list_name",
        "list_effective",
        "date",
        "strict",
        "list_source",
        "list_date_exact",
    )

    def __init__(
        self,
        format_id: str,
        format_name: str,
        list_name: str | None,
        list_effective: str | None,
        date: str,
        strict: bool = False,
        list_source: str | None = None,
        list_date_exact: bool | None = None,
    ):
        self.format_id = format_id
        self.format_name = format_name
        self.list_name = list_name
        self.list_effective = list_effective
        self.date = date
        self.strict = strict
        # Shown by the HTML report (issue 17): where the list comes from, and whether its
        # effective date is exact (False: only the month was known).
        self.list_source = list_source
        self.list_date_exact = list_date_exact

    @property
    def list_label(self) -> str:
        if self.list_name is None:
            return "no list"
        return f"{self.list_name} (effective {self.list_effective})"


class Renderer:
    """Base class: machine output to ``out``, a human summary line to ``err``."""

    #: ``deck`` writes only to ``out``, what it writes depends only on the report, ``meta``
    #: and the renderer's options (not on the decks before it, nor the time): ``--jobs``
    #: workers then write the text of their decks (``decks_text``) and the parent writes it
    #: as it comes (``write_decks``), the same bytes as ``deck`` one deck at a time
    text_per_deck = False

    def __init__(self, out: IO[str], err: IO[str], *, color: bool = False):
        self.out = out
        self.err = err
        self.color = color
        self.meta: Meta | None = None

    def start(self, meta: Meta) -> None:
        self.meta = meta

    def deck(self, report: DeckReport) -> None:
        raise NotImplementedError

    def decks_text(self, reports: Iterable[DeckReport]) -> str:
        """What ``deck`` writes for ``reports``, one after another, as one text (for a
        renderer that is ``text_per_deck``; the parent then ``write_decks`` it)."""
        out, buf = self.out, io.StringIO()
        self.out = buf
        try:
            for report in reports:
                self.deck(report)
        finally:
            self.out = out
        return buf.getvalue()

    def write_decks(self, text: str) -> None:
        """Write the ``decks_text`` of the next decks (made by this kind of renderer, with
        the same options and ``meta``, maybe in another process)."""
        self.out.write(text)

    def finish(self, summary: Summary) -> None:
        self.err.write(summary_line(summary, self.meta) + "\n")


def checked_as(report: DeckReport, meta: Meta | None) -> str | None:
    """What a deck was checked against when it is not the run's format and list (its own
    "#format" line): "OCG Advanced, 2026.04 OCG (effective 2026-04-01)"; None otherwise."""
    if meta is None or (report.format_id == meta.format_id and report.list_name == meta.list_name):
        return None
    return f"{report.format_name or report.format_id}, {report.list_label or 'no list'}"


def summary_line(summary: Summary, meta: Meta | None) -> str:
    against = f" ({meta.format_name}, {meta.list_label}, {meta.date})" if meta else ""
    from deckcheck.render.common import one_line

    return one_line(
        f"{summary.decks} deck{'s' if summary.decks != 1 else ''} checked{against}: "
        f"{summary.legal} legal, {summary.illegal} illegal"
        + (f", {summary.warnings} with warnings" if summary.warnings else "")
    )
