"""The renderer interface and the run metadata every output kind may print."""

from __future__ import annotations

from typing import IO

from deckcheck.report import DeckReport, Summary


class Meta:
    """What the run checked against: shown once per output.

    A plain class rather than a dataclass: it is created on every start (start-up matters).
    """

    __slots__ = ("format_id", "format_name", "list_name", "list_effective", "date", "strict",
                 "list_source", "list_date_exact")  # fmt: skip

    def __init__(
        self,
        format_id: str,
        format_name: str,
        list_name: str | None,
        list_effective: str | None,
        date: str,
        strict: bool = False,
        list_source: str = "",
        list_date_exact: bool = True,
    ):
        self.format_id = format_id
        self.format_name = format_name
        self.list_name = list_name
        self.list_effective = list_effective
        self.date = date
        self.strict = strict
        self.list_source = list_source
        self.list_date_exact = list_date_exact

    @property
    def list_label(self) -> str:
        if self.list_name is None:
            return "no list"
        return f"{self.list_name} (effective {self.list_effective})"


class Renderer:
    """Base class: machine output to ``out``, a human summary line to ``err``."""

    def __init__(self, out: IO[str], err: IO[str], *, color: bool = False):
        self.out = out
        self.err = err
        self.color = color
        self.meta: Meta | None = None

    def start(self, meta: Meta) -> None:
        self.meta = meta

    def deck(self, report: DeckReport) -> None:
        raise NotImplementedError

    def finish(self, summary: Summary) -> None:
        self.err.write(summary_line(summary, self.meta) + "\n")


def summary_line(summary: Summary, meta: Meta | None) -> str:
    against = f" ({meta.format_name}, {meta.list_label}, {meta.date})" if meta else ""
    return (
        f"{summary.decks} deck{'s' if summary.decks != 1 else ''} checked{against}: "
        f"{summary.legal} legal, {summary.illegal} illegal"
        + (f", {summary.warnings} with warnings" if summary.warnings else "")
    )
