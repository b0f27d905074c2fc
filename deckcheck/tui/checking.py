"""Every question the app asks the validation engine and the card status service, in one
place: the findings of the deck being edited (``validate``'s own path: the run's one
``deckcheck.engine.Engine``, its reader, its checker, the next announced list for DC601)
and a card's status in a format on a date (``card show``'s answer). When the engine or the
status function change, only this module follows them."""

from __future__ import annotations

import datetime as dt
from typing import Any

from deckcheck.engine import Engine, Target
from deckcheck.model import Banlist, Format
from deckcheck.records import Record, field, record
from deckcheck.report import DeckReport


@record
class Status(Record):
    """A card's standing in the chosen format on the date, as a word and a kind the app
    colours by (forbidden, limited, semi, unlimited, outside)."""

    word: str
    kind: str
    reason: str | None = None


@record
class Verdict(Record):
    """One check of the deck: ``validate``'s report, and why the list was not used if so."""

    report: DeckReport
    skipped: str | None = None  # "no 'tcg' list is in force on …": list rules not checked


@record(frozen=False)
class Checking(Record):
    """What the deck is checked against (the engine's ``Target``: format, list in force,
    date, next announced list, the game's pool) and the engine that checks it, kept for the
    whole session: every check after the first reuses what the engine learnt."""

    engine: Engine
    target: Target
    lang: str = "en"
    skipped: str | None = None
    #: what the app already asked (the card status, the card pane's record), per passcode
    status_memo: dict[int, Status] = field(default_factory=dict, compare=False)
    shown_memo: dict[int, dict[str, Any]] = field(default_factory=dict, compare=False)

    @classmethod
    def open(cls, engine: Engine, format_id: str, date: dt.date, lang: str = "en") -> Checking:
        """The check of ``format_id`` on ``date`` (DeckcheckError for an unknown format, as
        ``validate`` gives; a format whose list is not installed is checked without it, as
        the ``deck`` commands do, and ``skipped`` says so)."""
        from deckcheck.errors import DataError

        names = lang if lang != "en" else None
        try:
            target = engine.target(format_id, date, lang=names)
        except DataError:
            fmt = engine.format(format_id)  # an unknown format: its error, not the list's
            on = fmt.at(date)
            if not on.list_family:
                raise
            target = Target(fmt, None, date, lang=names, game=engine.game_pool(on))
            skipped = (
                f"no {on.list_family!r} list is in force on {date.isoformat()}: the list was "
                "not checked (install lists with `deckcheck update`)"
            )
            return cls(engine, target, lang, skipped)
        return cls(engine, target, lang)

    @property
    def db(self) -> Any:
        return self.engine.cards

    @property
    def fmt(self) -> Format:
        return self.target.fmt

    @property
    def date(self) -> dt.date:
        return self.target.date

    @property
    def banlist(self) -> Banlist | None:
        return self.target.banlist

    @property
    def on(self) -> Format:
        """The format's rules in force on the date."""
        return self.fmt.at(self.date)

    def check_text(self, text: str, source: str) -> Verdict:
        """The deck ``text`` holds, checked as ``validate`` checks a file holding it (one
        that cannot be read at all: its DC101 report, as ``validate`` gives)."""
        from deckcheck.decks.header import player_of
        from deckcheck.errors import InputError
        from deckcheck.model import Deck
        from deckcheck.validate import unreadable

        try:
            deck = self.engine.read_text(text, source=source)
        except InputError as exc:
            player = player_of(Deck(source=source))
            report = unreadable(source, f"cannot read the deck: {exc}", self.target, player)
            return Verdict(report, self.skipped)
        return Verdict(self.engine.check(deck, self.target), self.skipped)

    def check_file(self, path: str) -> Verdict:
        """The file as it is on disk (a deck the editor could not read)."""
        return Verdict(self.engine.check_item(path, self.target), self.skipped)

    def finding_lines(self, report: DeckReport) -> list[str]:
        """The findings as ``validate``'s text output prints them."""
        return self.engine.finding_lines(report)

    def list_label(self) -> str:
        bl = self.banlist
        return f"{bl.name}, effective {bl.effective.isoformat()}" if bl is not None else "no list"

    # ------------------------------------------------------------------ card status

    def status(self, card_id: int) -> Status:
        """The card's status in this format on this date (the answer ``card show`` gives)."""
        got = self.status_memo.get(card_id)
        if got is None:
            got = self.status_memo[card_id] = self._status_of(card_id)
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
        got = self.shown_memo.get(card_id)
        if got is None:
            got = self.shown_memo[card_id] = _card_record(
                self.db, index, card_id, self.date, self.lang
            )
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
