"""Every question the app asks the validation engine and the card status service, in one
place: the findings of the deck being edited (``validate``'s own path: the same reader, the
same checker, the next announced list for DC601) and a card's status in a format on a date
(``card show``'s answer). When the engine or the status function change, only this module
follows them."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from deckcheck.model import Banlist, Format
from deckcheck.report import DeckReport


@dataclass(frozen=True)
class Status:
    """A card's standing in the chosen format on the date, as a word and a kind the app
    colours by (forbidden, limited, semi, unlimited, outside)."""

    word: str
    kind: str
    reason: str | None = None


@dataclass(frozen=True)
class Verdict:
    """One check of the deck: ``validate``'s report, and why the list was not used if so."""

    report: DeckReport
    skipped: str | None = None  # "no 'tcg' list is in force on …": list rules not checked


@dataclass
class Checking:
    """The format, list and date a deck is checked against, and the checker built once for
    them (``validate``'s ``batch.Checker``, fed the editor's text instead of a file)."""

    db: Any
    fmt: Format
    date: dt.date
    lang: str = "en"
    banlist: Banlist | None = None
    skipped: str | None = None
    _checker: Any = field(default=None, repr=False)
    _status: dict[int, Status] = field(default_factory=dict, repr=False)
    _shown: dict[int, dict[str, Any]] = field(default_factory=dict, repr=False)

    @classmethod
    def open(cls, db: Any, format_id: str, date: dt.date, lang: str = "en") -> Checking:
        """The check of ``format_id`` on ``date`` (DeckcheckError for an unknown format, as
        ``validate`` gives; a format whose list is not installed is checked without it, as
        the ``deck`` commands do, and ``skipped`` says so)."""
        from deckcheck.errors import DataError
        from deckcheck.formats import get_format, list_for

        fmt = get_format(format_id)
        on = fmt.at(date)
        store = None
        if on.list_family:
            from deckcheck.formats.catalog import ListStore

            store = ListStore.default()
        skipped = None
        try:
            banlist = list_for(on, date, None, store=store)
        except DataError:
            banlist = None
            skipped = (
                f"no {on.list_family!r} list is in force on {date.isoformat()}: the list was "
                "not checked (install lists with `deckcheck update`)"
            )
        upcoming = None
        if banlist is not None and on.list_family:
            from deckcheck.rules.upcoming import next_list

            upcoming = next_list(store, banlist.family, date)
        self = cls(db, fmt, date, lang, banlist, skipped)
        self._checker = _checker(db, fmt, banlist, date, lang, upcoming)
        return self

    @property
    def on(self) -> Format:
        """The format's rules in force on the date."""
        return self.fmt.at(self.date)

    def check_text(self, data: bytes, source: str) -> Verdict:
        """The deck ``data`` holds, checked as ``validate`` checks a file of these bytes."""
        self._checker.data = data
        return Verdict(self._checker(source), self.skipped)

    def check_file(self, path: str) -> Verdict:
        """The file as it is on disk (a deck the editor could not read)."""
        self._checker.data = None
        return Verdict(self._checker(path), self.skipped)

    def list_label(self) -> str:
        bl = self.banlist
        return f"{bl.name}, effective {bl.effective.isoformat()}" if bl is not None else "no list"

    # ------------------------------------------------------------------ card status

    def status(self, card_id: int) -> Status:
        """The card's status in this format on this date (the answer ``card show`` gives)."""
        got = self._status.get(card_id)
        if got is None:
            got = self._status[card_id] = self._status_of(card_id)
        return got

    def _status_of(self, card_id: int) -> Status:
        from deckcheck.search.status import format_status

        card = self.db.get(card_id)
        if card is None:
            return Status("unknown card", "outside", "not in the card database")
        row = format_status(card, self.on, self.banlist, self.date, card_id)
        if row["status"] == "not in the pool":
            return Status("not in pool", "outside", row.get("reason"))
        limit = row["limit"]
        kind = {0: "forbidden", 1: "limited", 2: "semi"}.get(limit, "unlimited")
        return Status(str(row["status"]), kind)

    def card_record(self, index: Any, card_id: int) -> dict[str, Any]:
        """What ``card show`` says about the card (names, kind, lists, status in every
        format on the date), as its JSON record."""
        got = self._shown.get(card_id)
        if got is None:
            got = self._shown[card_id] = _card_record(self.db, index, card_id, self.date, self.lang)
        return got


def _card_record(db: Any, index: Any, card_id: int, date: dt.date, lang: str) -> dict[str, Any]:
    """The parts of ``card show``'s record the card pane shows, from the functions that
    build it: names per language, kind, and ``search.status.statuses`` (its status in every
    format on the date). Not its "lists" part: that reads every installed list again,
    about 0.15 s with the real lists, for lines the pane does not show."""
    from deckcheck.cardinfo import LANG_ORDER
    from deckcheck.search.status import statuses

    card = db.get(card_id)
    names = db.names(card_id)
    ordered = {lg: names[lg] for lg in LANG_ORDER if lg in names}
    ordered.update({lg: v for lg, v in names.items() if lg not in ordered})
    info: dict[str, Any] = {
        "id": card_id,
        "name": db.name(card_id, lang),
        "kind": card.kind if card is not None else "?",
        "subtypes": card.subtypes if card is not None else [],
        "names": ordered,
        "date": date.isoformat(),
    }
    info["formats"], notes = statuses(db, card_id, date)
    if notes:
        info["formats_notes"] = notes
    return info


def _checker(
    db: Any, fmt: Format, banlist: Banlist | None, date: dt.date, lang: str, upcoming: Any
) -> Any:
    """``validate``'s checker for one format, list and date, reading the editor's bytes."""
    from deckcheck import decks
    from deckcheck.batch import Checker, Job
    from deckcheck.inputs import DeckLoader

    class _TextChecker(Checker):
        data: bytes | None = None

        def __init__(self, job: Job) -> None:  # the app's database, not a second one
            self.job = job
            self.db = db
            self.loader = DeckLoader(db)
            self._formats = {}

        def read(self, item: Any) -> Any:
            if self.data is None:
                return super().read(item)
            return decks.read_bytes(self.data, str(item))

    job = Job(fmt, banlist, date, None, lang if lang != "en" else None, None, upcoming=upcoming)
    return _TextChecker(job)
