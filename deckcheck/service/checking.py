"""Every call the service makes into the validation engine, in this one module: one
``deckcheck.engine.Engine`` over one installed data state (card database, name index,
lists), a deck checked as ``validate -o json`` checks it (``engine.check``, its entry
``engine.deck_entry``), the report of a folder of decks (``batch.execute``, as ``validate``
writes it), the formats and the card search.

A ``Checks`` serves one call at a time (``host.EngineHost`` holds the lock), and a new data
state gets a new ``Checks`` (and so a new engine: two engines share nothing learnt).
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
from deckcheck.decks.source import Limits
from deckcheck.engine import Engine
from deckcheck.errors import DeckcheckError
from deckcheck.model import Deck
from deckcheck.records import Record, record
from deckcheck.report import DeckReport
from deckcheck.runners import Worker

#: how a deck sent in a request is named in its report ("input"), as ``-`` is "<stdin>"
SOURCE = "<request>"
#: the (format, date, list, language) combinations whose targets a ``Checks`` keeps
KEEP_RUNS = 32
#: ``json.dumps(obj, ensure_ascii=False)`` without building an encoder per answer
_dumps = json.JSONEncoder(ensure_ascii=False).encode


class ParamError(DeckcheckError):
    """A request parameter that names no format, date or list (HTTP 422)."""


@record
class Checked(Record):
    """One deck's verdict: the report, and its JSON entry as ``validate -o json`` writes it
    (``Engine.deck_entry``: its format and list) plus the date it was checked on."""

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


def _plan(
    engine: Engine, format_id: str, day: dt.date, items: Sequence[str] = (), **options: Any
) -> Any:
    """The ``validate`` request (in this process: ``--jobs 1``) for a format, date and list
    (a ParamError when one of them names nothing): what each deck is checked against."""
    from deckcheck.batch import plan

    try:
        got = plan(items, items, format_id=format_id, date=day, jobs=1, engine=engine, **options)
        return got[0]
    except DeckcheckError as exc:
        raise ParamError(exc.message, where=exc.where) from None


class Checks:
    """The installed data as one worker process reads it, through one engine: opened once,
    one call at a time."""

    def __init__(
        self,
        *,
        event_format: str = "tcg",
        event_date: dt.date | None = None,
        limits: Limits | None = None,
    ):
        self.home = paths.data_home_folder()
        self.key = state_key(self.home)
        self.state = paths.state_folder()  # resolved (and held) now, for the engine's life
        self.event_format = event_format
        self.event_date = event_date
        self.limits = limits or Limits(256 * 1024, 1000)
        self.engine = engine = Engine.open()
        self.db: Any = engine.cards  # opened now, not at the first request
        self.index = engine.loader.index()  # text lists and card search: loaded now too
        #: (format, date, list, language) -> the ``runners.Worker`` that picks a deck's
        #: target as ``validate`` does (its "#format" line when no format was asked)
        self._runs: OrderedDict[tuple[Any, ...], Worker] = OrderedDict()
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
    ) -> Worker:
        """What a request's decks are checked with: its format (None: the event's, and a
        deck's own ``#format`` line is honoured, as ``validate`` does without
        ``--format``), date, list and language; ParamError when one names nothing."""
        day = date or self.event_date or dt.date.today()
        key = (format_id, day, banlist_ref, lang)
        got = self._runs.get(key)
        if got is not None:
            self._runs.move_to_end(key)
            return got
        if banlist_ref is not None:
            _refuse_files(banlist_ref)
        request = _plan(
            self.engine,
            format_id or self.event_format,
            day,
            banlist_ref=banlist_ref,
            lang=lang,
            deck_formats=format_id is None,
        )
        # the notes of "#format" lines are kept (and dropped): a request has no stderr
        got = self._runs[key] = Worker(request, self.engine, keep_notes=True)
        if len(self._runs) > KEEP_RUNS:
            self._runs.popitem(last=False)
        return got

    def read(self, data: bytes | str) -> Deck:
        """The deck a request sends (``.ydk`` text, a ``ydke://`` link or a text list),
        not yet resolved; InputError when it cannot be read at all."""
        ints = self.engine.ints
        if isinstance(data, str):
            return decks.read_string(data, SOURCE, self.limits, ints=ints)
        return decks.read_bytes(data, SOURCE, self.limits, ints=ints)

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
        """One deck checked as ``validate -o json`` checks it: ``Engine.check`` against the
        request's target (or the deck's own "#format" line's), ``Engine.deck_entry``."""
        run = self.run_for(format_id, date, banlist_ref, lang)
        engine = self.engine
        deck = engine.resolve(data if isinstance(data, Deck) else self.read(data))
        target = run.target_for(deck)
        if run.kept:
            run.kept.clear()
        report = engine.check(deck, target)
        entry = engine.deck_entry(report)
        entry["date"] = target.date.isoformat()
        return Checked(report, _dumps(entry))

    def report(self, kind: str, items: Sequence[str], format_id: str | None = None) -> str:
        """The ``validate -o KIND`` output (html, csv) of the decks in ``items`` against the
        event's format and date (``--format`` given: a deck's ``#format`` line is not
        used), as the command writes it (``batch.execute`` in this process)."""
        from deckcheck.batch import execute
        from deckcheck.request import Output

        request = _plan(
            self.engine,
            format_id or self.event_format,
            self.event_date or dt.date.today(),
            tuple(items),
            output=Output(kind),
        )
        out, err = io.StringIO(), io.StringIO()
        execute(request, self.engine, out, err)
        return out.getvalue()

    def event(self) -> tuple[str, str]:
        """The event's format name and date (today's, when the service has none)."""
        target = self.run_for(self.event_format, None, None).request.target
        return target.fmt.name, target.date.isoformat()

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
            lists: dict[str, dict[str, str]] = {}
            store = self.engine.lists
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
    engine = Engine.open()
    engine.target(event_format, event_date or dt.date.today())
    engine.cards.close()  # type: ignore[attr-defined]


__all__ = ["SOURCE", "Checked", "Checks", "ParamError", "probe", "state_key"]
