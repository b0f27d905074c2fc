"""What one run of checks was asked, complete: the inputs and the decks they name, what each
deck is checked against, and how the run writes its output (``Request``, ``Output``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO, Any

from deckcheck.inputs import Item
from deckcheck.model import Record, field, record
from deckcheck.report import RunTally, Waivers
from deckcheck.validate import Target


@record
class Output(Record):
    """How a run writes its decks: the output kind and its options, waivers, ``--strict``,
    ``--only-illegal``, and what else it writes: a sheet per legal deck into ``sheets``, the
    GitHub step summary file ``step_summary``, the report into the file ``out`` (written all
    or nothing; the summary line then goes to stdout). Picklable: ``--jobs`` workers render
    with it."""

    kind: str = "text"
    color: bool = False
    per_deck: bool = False  # csv: one row per deck (--csv-decks)
    strict: bool = False
    only_illegal: bool = False
    waivers: Waivers = field(default_factory=Waivers)
    sheets: str | None = None
    step_summary: str | None = None
    out: str | None = None

    def renderer(self, out: IO[str], err: IO[str]) -> Any:
        """The renderer of this output writing to ``out`` and ``err`` (not started)."""
        from deckcheck import render

        renderer = render.make(self.kind, out, err, color=self.color)
        if self.per_deck and hasattr(renderer, "per_deck"):
            renderer.per_deck = True
        return renderer

    def tally(self) -> RunTally:
        return RunTally(
            self.waivers,
            self.strict,
            self.only_illegal,
            self.sheets is not None,
            self.step_summary is not None,
        )


@record
class Request(Record):
    """Everything one run was asked, complete: the inputs as named and the decks they name
    (``walk``), what each deck is checked against, the output (None: reports only,
    ``reports``), ``--jobs``, and what a deck's own "#format ID" line is checked with
    (``deck_formats``: no --format given)."""

    inputs: tuple[str, ...]
    items: Iterable[Item]
    target: Target
    output: Output | None = None
    jobs: int | str = "auto"  # a count, or "auto" (see runners.plan_workers)
    deck_formats: bool = False
    banlist_ref: str | None = None
    format_files: tuple[str, ...] = ()
    db_path: str | None = None

    def meta(self) -> Any:
        """What the run checks against, as every renderer prints it."""
        from deckcheck.render.base import Meta

        target = self.target
        fmt, banlist = target.fmt, target.banlist
        return Meta(
            format_id=fmt.id,
            format_name=fmt.name,
            list_name=banlist.name if banlist else None,
            list_effective=banlist.effective.isoformat() if banlist else None,
            date=target.date.isoformat(),
            strict=self.output.strict if self.output is not None else False,
            list_source=(banlist.source or None) if banlist else None,
            list_date_exact=banlist.date_exact if banlist else None,
        )
