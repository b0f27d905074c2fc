"""Every call the service makes into the validation engine, in this one module: one installed
data state loaded once (card database, name index, lists), a deck checked as ``validate -o
json`` checks it, the report of a folder of decks, the formats and the card search.

An ``Engine`` serves one call at a time (``host.EngineHost`` holds the lock), and a new data
state gets a new ``Engine``.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import os
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from deckcheck import decks, paths
from deckcheck.batch import Checker, Job, Output, Request, Run, run_output
from deckcheck.decks.source import Limits
from deckcheck.errors import DeckcheckError
from deckcheck.inputs import DeckLoader
from deckcheck.model import Banlist, Deck, Format
from deckcheck.records import Record, record
from deckcheck.report import DeckReport, Waivers

#: how a deck sent in a request is named in its report ("input"), as ``-`` is "<stdin>"
SOURCE = "<request>"
#: the (format, date, list, language) combinations whose checkers an engine keeps
KEEP_RUNS = 32


class ParamError(DeckcheckError):
    """A request parameter that names no format, date or list (HTTP 422)."""


@record
class Checked(Record):
    """One deck's verdict: the report, and its JSON entry as ``validate -o json`` writes it
    plus the format, list and date it was checked against."""

    report: DeckReport
    entry: str


def state_key(home: str | None = None) -> tuple[str | None, tuple[int, int, int] | None]:
    """What identifies the installed data of ``home`` (the data home) now: the state the
    ``current`` link names and the database file's identity (the older layout has no link;
    an import replaces the file)."""
    home = home or paths.data_home_folder()
    try:
        link: str | None = os.readlink(home + "/" + paths.CURRENT)
    except OSError:
        link = None
    try:
        st = os.stat(f"{home}/{link}/{paths.DB_NAME}" if link else f"{home}/{paths.DB_NAME}")
        db: tuple[int, int, int] | None = (st.st_ino, st.st_mtime_ns, st.st_size)
    except OSError:
        db = None
    return link, db


class _Checker(Checker):
    """The batch engine's ``Checker`` over the engine's database and loader (one connection,
    one card cache per data state, whatever the format and date of a request)."""

    def __init__(self, job: Job, db: Any, loader: DeckLoader):
        self.job = job
        self.db = db
        self.loader = loader
        self._formats = {}

    def read(self, item: Any) -> Any:
        # a request's deck is read before it gets here (an unreadable body is a 400, not
        # a DC101 report); the report's items are files, read as ``validate`` reads them
        return item if isinstance(item, Deck) else super().read(item)


class _Run:
    """A format, date, list and language made ready: the job and meta ``validate`` builds
    for them, a checker, and the JSON of each (format, list) a deck's entry names."""

    def __init__(self, run: Run, job: Job, checker: _Checker):
        self.job = job
        self.meta = run.meta(False)
        self.checker = checker
        self._tails: dict[tuple[str, str | None, str | None], str] = {}

    def tail(self, fmt: Format, banlist: Banlist | None, date: dt.date) -> str:
        """``, "format": …, "banlist": …, "date": …}``: what closes a deck's entry."""
        key = (fmt.id, banlist.name if banlist else None, date.isoformat())
        got = self._tails.get(key)
        if got is None:
            lst = (
                {
                    "name": banlist.name,
                    "effective": banlist.effective.isoformat(),
                    "source": banlist.source or None,
                    "date_exact": banlist.date_exact,
                }
                if banlist is not None
                else None
            )
            fmt_json = {"id": fmt.id, "name": fmt.name}
            got = (
                f', "format": {json.dumps(fmt_json, ensure_ascii=False)}, '
                f'"banlist": {json.dumps(lst, ensure_ascii=False)}, "date": "{key[2]}"}}'
            )
            self._tails[key] = got
        return got


class Engine:
    """The installed data as one worker process reads it: opened once, one call at a time."""

    def __init__(
        self,
        *,
        event_format: str = "tcg",
        event_date: dt.date | None = None,
        limits: Limits | None = None,
    ):
        from deckcheck.carddb import open_db

        self.home = paths.data_home_folder()
        self.key = state_key(self.home)
        self.state = paths.state_folder()  # resolved (and held) now, for the engine's life
        self.event_format = event_format
        self.event_date = event_date
        self.limits = limits or Limits(256 * 1024, 1000)
        self.db = open_db()
        self.loader = DeckLoader(self.db)
        self.index = self.loader.index()  # text lists and card search: loaded now, not later
        self._runs: OrderedDict[tuple[Any, ...], _Run] = OrderedDict()
        self._formats: dict[dt.date, list[dict[str, Any]]] = {}
        self._lists: dict[str, dict[str, str]] | None = None
        self.run_for(None, None, None)  # the event's format and list: fail now, not later

    def current(self) -> bool:
        """The installed data is still the one this engine loaded."""
        return state_key(self.home) == self.key

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------------ checks

    def run_for(
        self,
        format_id: str | None,
        date: dt.date | None,
        banlist_ref: str | None,
        lang: str | None = None,
    ) -> _Run:
        """The run for a request's format (None: the event's, and a deck's own ``#format``
        line is honoured, as ``validate`` does without ``--format``), date, list and
        language; ParamError when one names nothing."""
        day = date or self.event_date or dt.date.today()
        key = (format_id, day, banlist_ref, lang)
        got = self._runs.get(key)
        if got is not None:
            self._runs.move_to_end(key)
            return got
        if banlist_ref is not None:
            _refuse_files(banlist_ref)
        try:
            run = Run(Request((), format_id or self.event_format, banlist_ref, day, lang=lang))
        except DeckcheckError as exc:
            raise ParamError(exc.message, where=exc.where) from None
        run.checker.db.close()  # the run's own connection: the engine's is shared
        job = run.job.replace(deck_formats=format_id is None, banlist_ref=banlist_ref)
        got = _Run(run, job, _Checker(job, self.db, self.loader))
        self._runs[key] = got
        if len(self._runs) > KEEP_RUNS:
            self._runs.popitem(last=False)
        return got

    def read(self, data: bytes | str) -> Deck:
        """The deck a request sends (``.ydk`` text, a ``ydke://`` link or a text list);
        InputError when it cannot be read at all."""
        if isinstance(data, str):
            return decks.read_string(data, SOURCE, self.limits)
        return decks.read_bytes(data, SOURCE, self.limits)

    def needs_names(self, deck: Deck) -> bool:
        """Whether checking ``deck`` looks names up (a text list): the slow part of a check."""
        if deck.packed() is not None:
            return False  # passcodes only (the .ydk reader's arrays)
        return any(e.card_id is None and e.query for e in deck.entries())

    def check(
        self,
        data: bytes | str | Deck,
        format_id: str | None = None,
        date: dt.date | None = None,
        banlist_ref: str | None = None,
        lang: str | None = None,
    ) -> Checked:
        """One deck checked as ``validate -o json`` checks it."""
        run = self.run_for(format_id, date, banlist_ref, lang)
        deck = data if isinstance(data, Deck) else self.read(data)
        fmt, banlist = run.checker.format_for(deck)  # the deck's own #format line, if used
        report = run.checker(deck)  # type: ignore[arg-type]  # (read: see _Checker)
        return Checked(report, _entry(report, run.tail(fmt, banlist, run.job.date)))

    def report(self, kind: str, items: Sequence[str], format_id: str | None = None) -> str:
        """The ``validate -o KIND`` output (html, csv) of the decks in ``items`` against the
        event's format and date (``--format`` given: a deck's ``#format`` line is not
        used), as the command writes it."""
        run = self.run_for(format_id or self.event_format, None, None)
        out, err = io.StringIO(), io.StringIO()
        spec = Output(kind, run.meta, Waivers())
        renderer = spec.renderer(out, err)
        renderer.start(run.meta)
        tally = run_output(list(items), run.job, 1, spec, renderer, checker=run.checker)
        renderer.finish(tally.summary)
        return out.getvalue()

    def event(self) -> tuple[str, str]:
        """The event's format name and date (today's, when the service has none)."""
        meta = self.run_for(self.event_format, None, None).meta
        return meta.format_name, meta.date

    # ------------------------------------------------------------------ the rest

    def formats(self, date: dt.date | None) -> list[dict[str, Any]]:
        """``deckcheck formats -o json`` on ``date`` (today when None)."""
        from deckcheck.listinfo import format_rows

        day = date or dt.date.today()
        got = self._formats.get(day)
        if got is None:
            got = self._formats[day] = format_rows(day)
            if len(self._formats) > 8:
                del self._formats[next(iter(self._formats))]
        return got

    def cards(
        self, query: str, lang: str | None, limit: int, date: dt.date | None
    ) -> dict[str, Any]:
        """``deckcheck card search QUERY -o json``: a name ranked, or a search-language
        query's cards (ParamError for a query that does not parse)."""
        from deckcheck.cardinfo import search_json
        from deckcheck.search import QueryError

        try:
            return search_json(query, self.db, self.index, lang, limit, date or dt.date.today())
        except QueryError as exc:
            raise ParamError(f"q: {exc}") from None

    def health(self) -> dict[str, Any]:
        """What data this engine serves: the state, the card database, the newest list of
        each family."""
        if self._lists is None:
            from deckcheck.formats.catalog import ListStore

            lists: dict[str, dict[str, str]] = {}
            store = ListStore.default()
            for family in store.families():
                newest = store.in_force(family, dt.date.max)
                if newest is not None:
                    lists[family] = {"name": newest.name, "effective": newest.effective.isoformat()}
            self._lists = lists
        db = self.db
        return {
            "state": os.path.basename(self.state) if self.key[0] else None,
            "cards": {
                "count": len(db),
                "fingerprint": db.fingerprint,
                "built_at": db.meta.get("built_at"),
                "sample": db.is_sample,
            },
            "lists": self._lists,
        }


def _entry(report: DeckReport, tail: str) -> str:
    """The deck's ``validate -o json`` entry with the format, list and date it was checked
    against (``tail``)."""
    from deckcheck.render.json import deck_text

    return deck_text(report, None)[:-1] + tail


def _refuse_files(ref: str) -> None:
    """A request names installed lists only: the service reads no file a client names."""
    part = ref.split("#", 1)[0]
    if (
        "/" in part
        or "\\" in part
        or part.lower().endswith((".yaml", ".yml", ".conf"))
        or (os.path.exists(part))
    ):
        raise ParamError(
            f"banlist {ref!r}: name an installed list (<family>@<YYYY-MM-DD>, a family or a "
            "list name, as `deckcheck banlist list` shows them); the service reads no files"
        )


def probe(event_format: str, event_date: dt.date | None) -> None:
    """What a worker needs is there (the database opens, the event's format has its list):
    DataError or InputError otherwise, before any worker starts."""
    Run(Request((), event_format, None, event_date or dt.date.today())).checker.db.close()


__all__ = ["Checked", "Engine", "ParamError", "SOURCE", "probe", "state_key"]
