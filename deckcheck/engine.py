"""One engine per run: the card source, formats and lists a run checks decks with, and
everything checking learns on the way (``validate.Learnt``: what is known of each card, the
rules' memos; the lookup index a text list needs). Two engines share nothing learnt.

    engine = Engine.open()                            # the installed card database (or the sample)
    target = engine.target("tcg", date)               # format, list in force, next announced list
    report = engine.check(engine.read_text(text), target)   # a DeckReport
    engine.deck_entry(report)                         # the deck's object of `validate -o json`
    engine.finding_lines(report)                      # its findings as `validate` prints them

``engine.check`` is ``validate.validate_deck(engine, deck, target)``: pure given the engine.
Build the engine once per process (a service, a terminal app, a ``--jobs`` worker) and keep it:
what it learns makes every later deck cheaper, never different.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from typing import Any

from deckcheck.decks.header import player_of
from deckcheck.inputs import DeckLoader, Item, item_source, read_item
from deckcheck.model import Deck, Format
from deckcheck.report import DeckReport
from deckcheck.rules._base import CardSource
from deckcheck.validate import Learnt, Target, unreadable, validate_deck

__all__ = ["Engine", "Target"]


class Engine:
    """A run's card source, formats and lists, and what checking has learnt (``learnt``).

    ``cards``: anything with ``get(id) -> Card | None`` (``carddb.CardDB``, a
    ``carddb.snapshot.CardSnapshot``, a dict in tests); None: the installed card database
    (``db_path``: another one), opened when first needed, so that a bad format or list is
    said before the database is opened. ``lists``: a ``formats.catalog.ListStore`` (the
    default store, on first need, when None); ``format_files``: format definitions beyond the
    built-in and user ones (``--format-file``).
    """

    def __init__(
        self,
        cards: CardSource | None = None,
        lists: Any = None,
        format_files: Iterable[str] = (),
        *,
        db_path: str | None = None,
    ) -> None:
        self._cards = cards
        self._db_path = db_path
        self._lists = lists
        self.format_files = tuple(format_files)
        self.learnt = Learnt()
        #: passcode line -> its int, one object per passcode for every deck this engine
        #: reads (``decks.ydk.parse_lines``)
        self.ints: dict[str, int] = {}
        self._loader: DeckLoader | None = None
        self._names: dict[str, Callable[[int], str]] = {}
        self._games: dict[tuple[Any, ...], Any] = {}  # (game, family, universe) -> GamePool

    @classmethod
    def open(cls, db_path: str | None = None, format_files: Iterable[str] = ()) -> Engine:
        """An engine over the installed card database (``db_path``: another one), opened when
        first needed; the built-in sample when none is installed (said once on stderr)."""
        return cls(format_files=format_files, db_path=db_path)

    @property
    def cards(self) -> CardSource:
        """The card source (the database is opened on first use)."""
        got = self._cards
        if got is None:
            from deckcheck.carddb import open_db

            got = self._cards = open_db(self._db_path) if self._db_path else open_db()
        return got

    @property
    def loader(self) -> DeckLoader:
        """Reads decks and resolves the names of text lists (the lookup index, on first need)."""
        got = self._loader
        if got is None:
            got = self._loader = DeckLoader(self.cards)
        return got

    # -- what decks are checked against
    @property
    def lists(self) -> Any:
        """The list store (``formats.catalog.ListStore``)."""
        if self._lists is None:
            from deckcheck.formats.catalog import ListStore

            self._lists = ListStore.default()
        return self._lists

    def format(self, format_id: str) -> Format:
        """The format ``format_id`` (built-in, the user's, or one of ``format_files``)."""
        from deckcheck.formats import get_format

        return get_format(format_id, extra_files=self.format_files)

    def target(
        self,
        format_id: str = "tcg",
        date: dt.date | None = None,
        banlist_ref: str | None = None,
        *,
        points_cap: int | None = None,
        lang: str | None = None,
        upcoming: bool = True,
    ) -> Target:
        """What a deck is checked against: the format, the list ``banlist_ref`` names (a
        ``family@YYYY-MM-DD``, a list's name or a file) or else the format's list in force on
        ``date`` (default: today), and, when no list was named, the next announced list
        (DC601; ``upcoming=False``: none). A ``DataError`` or ``InputError`` when the format
        or the list does not exist, or none of the format's family is in force."""
        from deckcheck.formats import list_for

        day = date or dt.date.today()
        fmt = self.format(format_id)
        on = fmt.at(day)
        store = self.lists if banlist_ref is not None or on.list_family else None
        banlist = list_for(on, day, banlist_ref, store=store)
        nxt = newest = None
        if banlist_ref is None and banlist is not None and on.list_family:
            from deckcheck.rules.upcoming import next_list

            if upcoming:
                nxt = next_list(store, banlist.family, day)
            if on.stale_after is not None and self.lists.first_after(banlist.family, day) is None:
                newest = banlist  # no later list installed: the one in force is the newest
        return Target(fmt, banlist, day, points_cap, lang, nxt, self.game_pool(on), newest)

    def game_pool(self, fmt: Format) -> Any:
        """What this install knows of ``fmt``'s video game (``rules.pool.GamePool``; None for
        a paper format), built once per game and list family; when there is no data on the
        game, one note says that its pool is not checked."""
        if fmt.game == "paper":
            return None
        key = (fmt.game, fmt.list_family, fmt.universe)
        if key not in self._games:
            from deckcheck import gamepool, notes

            got = self._games[key] = gamepool.game_pool(fmt, self.cards, self.lists)
            text = gamepool.warning(fmt, got)
            if text:
                notes.note(text)
        return self._games[key]

    # -- decks
    def read(self, item: Item) -> Deck:
        """The deck an input names (a path, ``-``, a ``ydke://`` link), read and resolved
        (an ``InputError`` when it cannot be read at all)."""
        return self.resolve(read_item(item, self.ints))

    def read_text(self, text: str, source: str = "<text>") -> Deck:
        """A deck from text (``.ydk`` content, a ``ydke://`` link or a text list), resolved."""
        from deckcheck import decks

        return self.resolve(decks.read_string(text, source=source, ints=self.ints))

    def resolve(self, deck: Deck) -> Deck:
        """``deck`` with the names of a text list resolved (DC102/DC103 findings where they
        do not), and its cards read from the card source in one query where it can."""
        deck = self.loader.resolve(deck)
        prefetch = getattr(self.cards, "prefetch", None)
        if prefetch is not None and deck.packed() is None:
            # one query for the deck's cards, not one per card (the rules' ``get`` then finds
            # them cached); a packed deck's are read by the tally (``get_many``), one query too
            prefetch([e.card_id for e in (*deck.main, *deck.extra, *deck.side)])
        return deck

    def names(self, lang: str | None) -> Callable[[int], str] | None:
        """Card names in ``lang`` for messages (None for English: the cards' own names)."""
        if not lang or lang == "en":
            return None
        got = self._names.get(lang)
        if got is None:
            name = self.cards.name  # type: ignore[attr-defined]
            got = self._names[lang] = lambda cid: name(cid, lang)  # type: ignore[no-any-return]
        return got

    # -- checking
    def check(self, deck: Deck, target: Target) -> DeckReport:
        """``validate.validate_deck(self, deck, target)``, the player named as ``validate``
        names it (a "#player" line, else the file name, else a "#created by" line)."""
        return validate_deck(self, deck, target, player=player_of(deck))

    def check_item(
        self, item: Item, target: Target, target_for: Callable[[Deck], Target] | None = None
    ) -> DeckReport:
        """The report of the deck an input names, checked against ``target`` (or
        ``target_for(deck)``: a deck's own "#format" line); one that cannot be read at all is
        an illegal deck with one DC101 finding (the run goes on)."""
        return self._checked(self._load(item, target, target_for))

    def check_items(
        self,
        items: Iterable[Item],
        target: Target,
        target_for: Callable[[Deck], Target] | None = None,
    ) -> list[DeckReport]:
        """``check_item`` of each input, in order: the same reports. Every deck is read (and
        its target chosen) first, then all are checked: reading and checking each keep their
        own tables in the processor's caches, where one deck at a time each would evict the
        other's (12% of a batch's per-deck cost, docs/ARCHITECTURE.md, performance paths;
        tests/validate/test_services.py holds it to ``check_item``)."""
        loaded = [self._load(item, target, target_for) for item in items]
        return list(map(self._checked, loaded))

    def _load(
        self, item: Item, target: Target, target_for: Callable[[Deck], Target] | None
    ) -> tuple[Deck, Target, str | None] | DeckReport:
        """The deck an input names, the target it is checked against and its player; or the
        report of an input that cannot be read at all (DC101)."""
        from deckcheck.errors import InputError

        try:
            deck = self.read(item)
        except InputError as exc:
            source = item_source(item)
            player = player_of(Deck(source=source))
            return unreadable(source, f"cannot read the deck: {exc}", target, player)
        return deck, target_for(deck) if target_for else target, player_of(deck)

    def _checked(self, got: tuple[Deck, Target, str | None] | DeckReport) -> DeckReport:
        """The report of what ``_load`` gave."""
        if isinstance(got, DeckReport):
            return got
        deck, target, player = got
        return validate_deck(self, deck, target, player=player)

    # -- what the outputs say of one deck
    @staticmethod
    def deck_entry(report: DeckReport) -> dict[str, Any]:
        """The deck's object in ``validate -o json`` (SPEC.md §6), with the format and list
        it was checked against (``format``: id, name; ``banlist``: name, effective, source,
        date_exact, or None)."""
        from deckcheck.render.json import deck_json

        return deck_json(report)

    @staticmethod
    def finding_lines(report: DeckReport) -> list[str]:
        """The deck's findings as ``validate``'s text output prints them, one line each
        ("main:12 error DC403 [limited] …"), no colour."""
        import io

        from deckcheck.render.text import TextRenderer

        text = TextRenderer(io.StringIO(), io.StringIO())
        return [text.line(f) for f in report.findings]
