"""The deck editor app (SPEC.md §8 fixes its keys and focus rules).

``DeckEditor`` holds the ``Builder`` (the deck being edited) and the ``Searcher``; its one
screen, ``EditorScreen``, lays out the panes (search box and results, deck, card, findings)
and binds the single-letter keys, which act from the results and the deck: while the search
box has focus, letters type into it (Textual gives a focused input the printable keys).
"""

from __future__ import annotations

import datetime as dt
import gc
import os
import time
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import DataTable, Footer, Input, OptionList, Static

from deckcheck.errors import DeckcheckError
from deckcheck.render.common import one_line
from deckcheck.tui import panes
from deckcheck.tui.builder import Builder, Conflict
from deckcheck.tui.searching import Result, Searcher, detail, kind_label

CSS = """
#status { height: 1; background: $primary-background; color: $text; padding: 0 1; }
#message { height: 1; padding: 0 1; color: $text-muted; }
#top { height: 3fr; }
#bottom { height: 2fr; min-height: 6; }
#cardbox { width: 2fr; }
#findingsbox { width: 3fr; }
.pane { border: round $panel-lighten-2; border-title-color: $text; }
.pane:focus-within { border: round $accent; }
#searchbox { width: 1fr; }
#deckbox { width: 1fr; }
#search { height: 1; border: none; padding: 0 0; background: $boost; }
#search:focus { border: none; background: $accent 20%; }
#results { height: 1fr; scrollbar-size-vertical: 1; }
#deck { height: 1fr; border: none; padding: 0; scrollbar-size-vertical: 1; }
#deck:focus { border: none; }
#deck > .option-list--option-disabled { color: $text; }
#stats { height: auto; max-height: 3; color: $text-muted; }
#card, #findings { width: 100%; }
/* NO_COLOR: no colour at all (see DeckEditor), so what colour showed is shown by style */
.pane:nocolor:focus-within { border: double; }
DeckList:nocolor > .option-list--option-highlighted { text-style: reverse bold; }
ResultsTable:nocolor > .datatable--cursor { text-style: reverse bold; }
SearchInput:nocolor:focus { text-style: underline; }
"""


def _subtitle(pane: Any, text: str) -> None:
    """Set a pane's border subtitle when it changed (setting it redraws the whole pane)."""
    if pane.border_subtitle != text:
        pane.border_subtitle = text


class EditorScreen(Screen[None]):
    """The panes, and the keys that act from the results and the deck."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_search", "Search"),
        Binding("tab", "switch", "Results/Deck", show=False),
        Binding("shift+tab", "switch", "Results/Deck", show=False),
        Binding("escape", "leave_search", "Leave search", show=False),
        Binding("s", "add_side", "Side"),
        Binding("minus", "remove", "Remove"),
        Binding("m", "move", "Main/Side"),
        Binding("f", "format", "Format"),
        Binding("q", "app.quit", "Quit"),
    ]

    #: a change of the search box this long after the previous one searches at once (once the
    #: box is drawn); changes closer together (a burst: key repeat, a fast typist) wait until
    #: the box has been still this long, then search once
    DEBOUNCE = 0.05

    def __init__(self) -> None:
        super().__init__()
        self._search_timer: Timer | None = None
        self._search_soon = False  # a search queued for after the next refresh
        self._last_typed = float("-inf")  # time.monotonic() of the box's last change
        self._card_timer: Timer | None = None
        self.results: list[Result] = []
        self.searches = 0  # searches shown (the benchmark and tests wait on it)
        self.checks = 0  # findings panes drawn
        self._status_line: Text | None = None
        self._shown: dict[str | None, tuple[str, Text]] = {}  # what the card and stats panes show

    @property
    def editor(self) -> DeckEditor:
        app = self.app
        assert isinstance(app, DeckEditor)
        return app

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="top"):
            with Vertical(id="searchbox", classes="pane"):
                yield panes.SearchInput(
                    placeholder="/ name (any language) or query: t:spell atk>=2000",
                    id="search",
                )
                yield panes.ResultsTable(id="results")
            with Vertical(id="deckbox", classes="pane"):
                yield panes.DeckList(id="deck")
                yield Static(id="stats")
        with Horizontal(id="bottom"):
            with VerticalScroll(id="cardbox", classes="pane", can_focus=False):
                yield Static(id="card")
            with VerticalScroll(id="findingsbox", classes="pane", can_focus=False):
                yield Static(id="findings")
        yield Static(id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#searchbox").border_title = "Search (/)"
        self.query_one("#deckbox").border_title = "Deck"
        self.query_one("#cardbox").border_title = "Card"
        self.query_one("#findingsbox").border_title = "Findings"
        self.query_one("#results", panes.ResultsTable).fill([], self._status)
        self.refresh_deck()
        self.say(
            "read-only: " + self.editor.builder.read_only
            if self.editor.builder.read_only
            else "/ search · enter add · s side · - remove · m main/side · ctrl+s save · q quit"
        )
        self.query_one("#deck", OptionList).focus()
        for text in self.editor.builder.notes:
            self.say(text)

    # ------------------------------------------------------------------ drawing

    def say(self, text: str, error: bool = False) -> None:
        # one line of fixed height: no layout of the screen needed
        self.query_one("#message", Static).update(
            Text(one_line(text), style="bold red" if error else ""), layout=False
        )

    def refresh_deck(self, follow: str | None = None, restatus: bool = True) -> None:
        """Redraw what an edit changes: the status line, the deck, findings and stats. The
        deck's highlight stays on its card (or goes to ``follow``, a row id). ``restatus``:
        the results' status column too (the format or date changed; an edit of the deck
        changes no card's status).

        Only what changed is redrawn (issue 29: keystroke -> findings <= 50 ms): the deck's
        rows in place when the rows are the same ones, the findings without a layout of the
        screen when their height stays."""
        b = self.editor.builder
        with self.app.batch_update():
            deck = self.query_one("#deck", panes.DeckList)
            keep = deck.highlighted_option.id if deck.highlighted_option is not None else None
            keep = follow or keep
            at = deck.highlighted
            options = panes.deck_options(b, self.editor.card_name)
            deck.update_options(options)
            ids = [o.id for o in options]
            pick = None
            if keep in ids:
                pick = ids.index(keep)
            else:
                cards = [i for i, o in enumerate(options) if not o.disabled]
                if cards:
                    near = [i for i in cards if at is None or i >= at]
                    pick = near[0] if near else cards[-1]
            if deck.highlighted != pick:
                deck.highlighted = pick
            c = b.df.deck.counts()
            _subtitle(
                self.query_one("#deckbox"),
                f"main {c['main']} · extra {c['extra']} · side {c['side']}",
            )
            panes.update_keeping_height(self.query_one("#findings", Static), panes.findings_text(b))
            r = b.verdict.report
            _subtitle(
                self.query_one("#findingsbox"),
                "legal" if r.legal else f"{r.errors} problem{'s' * (r.errors != 1)}",
            )
            self.refresh_status()
            if restatus:
                self.refresh_results_status()
            self.refresh_card()
            self.checks += 1

    def refresh_status(self) -> None:
        b = self.editor.builder
        chk = b.checking
        parts = [
            f"{one_line(str(b.path))} ({b.df.kind})",
            chk.fmt.name,
            chk.date.isoformat(),
            chk.banlist.name if chk.banlist is not None else "no list",
        ]
        line = Text(" · ".join(parts))
        if b.read_only:
            line.append("  read-only", style="bold red")
        elif b.dirty:
            line.append("  ● unsaved", style="bold yellow")
        elif b.is_new:
            line.append("  new file", style="dim")
        status = self.query_one("#status", Static)
        if line != self._status_line:  # unchanged (the usual edit): nothing to redraw
            self._status_line = line
            status.update(line, layout=False)  # one line, fixed

    def _status(self, card_id: int) -> Any:
        return self.editor.builder.checking.status(card_id)

    def refresh_results_status(self) -> None:
        """The status column again (the format or date changed)."""
        self.query_one("#results", panes.ResultsTable).restatus()

    def show_results(self, results: list[Result], note: str) -> None:
        self.results = results
        self.query_one("#results", panes.ResultsTable).fill(results, self._status)
        self.query_one("#searchbox").border_subtitle = one_line(note)
        self.searches += 1
        self.refresh_card()

    def highlighted(self) -> tuple[str, int, str | None] | None:
        """("results" | "deck", passcode, section) of the card the keys act on."""
        focused = self.focused
        if isinstance(focused, OptionList):
            got = panes.parse_option_id(
                focused.highlighted_option.id if focused.highlighted_option is not None else None
            )
            return ("deck", got[1], got[0]) if got else None
        r = self.highlighted_result()
        return ("results", r.card_id, None) if r is not None else None

    def highlighted_result(self) -> Result | None:
        table = self.query_one("#results", DataTable)
        if not self.results or table.cursor_row is None:
            return None
        row = table.cursor_row
        return self.results[row] if 0 <= row < len(self.results) else None

    def refresh_card(self) -> None:
        """The card pane follows the highlight, a moment later (``card show``'s record of
        every format costs a few milliseconds: not on every key of a fast scroll)."""
        if self._card_timer is not None:
            self._card_timer.stop()
        self._card_timer = self.set_timer(0.08, self._draw_card)

    def _show(self, widget: Static, content: Text) -> None:
        """``widget.update(content)`` unless it shows that already (an update lays out the
        screen again: issue 29, the card pane's redraw after every edit and search)."""
        shown = (str(content.style), content)  # rich Text's == leaves out its base style
        if self._shown.get(widget.id) != shown:
            self._shown[widget.id] = shown
            widget.update(content)

    def _draw_card(self) -> None:
        self._card_timer = None
        b = self.editor.builder
        got = self.highlighted()
        card = self.query_one("#card", Static)
        stats = self.query_one("#stats", Static)
        if got is None:
            self._show(card, Text("no card highlighted", style="dim"))
            self._show(stats, panes.stats_text(b, None, None))
            return
        _, cid, _ = got
        name = self.editor.card_name(cid)
        self._show(stats, panes.stats_text(b, cid, name))
        if b.db.get(cid) is None:
            self._show(card, Text(f"{cid}: not in the card database", style="red"))
            return
        record = b.checking.card_record(b.index, cid)
        c = b.db.get(cid)
        kind = " · ".join(x for x in (kind_label(c), detail(c)) if x)
        self._show(card, panes.card_text(record, b.checking.status(cid), kind))

    # ------------------------------------------------------------------ search box

    @on(Input.Changed, "#search")
    def _typed(self, event: Input.Changed) -> None:
        if self._search_timer is not None:
            self._search_timer.stop()
            self._search_timer = None
        now = time.monotonic()
        burst = now - self._last_typed < self.DEBOUNCE
        self._last_typed = now
        if burst:
            self._search_timer = self.set_timer(self.DEBOUNCE, self._debounced)
        elif not self._search_soon:
            self._search_soon = True
            self.call_after_refresh(self._soon)

    @property
    def search_pending(self) -> bool:
        """A change of the search box has not been searched yet."""
        return self._search_timer is not None or self._search_soon

    def _debounced(self) -> None:
        self._search_timer = None
        self.run_search()

    def _soon(self) -> None:
        self._search_soon = False
        if self._search_timer is None:  # else a burst began: its timer searches
            self.run_search()

    def run_search(self) -> None:
        text = self.query_one("#search", Input).value
        results, note = self.editor.searcher.search(text, self.editor.builder.checking)
        self.show_results(results, note)

    @on(Input.Submitted, "#search")
    def _submitted(self, event: Input.Submitted) -> None:
        if self.search_pending:  # enter before the search ran: search first
            if self._search_timer is not None:
                self._search_timer.stop()
                self._search_timer = None
            self._search_soon = False
            self.run_search()
        r = self.highlighted_result()
        if r is None:
            self.say("no result to add", error=True)
            return
        self.edit(lambda b: b.add(r.card_id))

    @on(DataTable.RowSelected, "#results")
    def _chosen(self, event: DataTable.RowSelected) -> None:
        r = self.highlighted_result()
        if r is not None:
            self.edit(lambda b: b.add(r.card_id))

    @on(DataTable.RowHighlighted, "#results")
    @on(OptionList.OptionHighlighted, "#deck")
    def _moved(self, event: Any) -> None:
        self.refresh_card()

    def on_descendant_focus(self, event: Any) -> None:
        self.refresh_card()

    def action_results_cursor(self, step: int) -> None:
        table = self.query_one("#results", DataTable)
        if self.results:
            table.move_cursor(row=max(0, min(len(self.results) - 1, table.cursor_row + step)))

    # ------------------------------------------------------------------ focus

    def action_focus_search(self) -> None:
        self.query_one("#search", Input).focus()

    def action_leave_search(self) -> None:
        if isinstance(self.focused, Input):
            self.query_one("#results", DataTable).focus()

    def action_switch(self) -> None:
        """``tab``: search box -> results; results <-> deck."""
        if isinstance(self.focused, (OptionList, Input)):
            self.query_one("#results", DataTable).focus()
        else:
            self.query_one("#deck", OptionList).focus()

    # ------------------------------------------------------------------ edits

    def edit(self, op: Any, follow: Any = None) -> None:
        """Run one edit of the builder; redraw, or say why it was refused. ``follow(b)``:
        the deck row the highlight goes to after it."""
        b = self.editor.builder
        try:
            said = op(b)
        except DeckcheckError as exc:
            self.say(str(exc), error=True)
            return
        self.refresh_deck(follow(b) if follow is not None else None, restatus=False)
        if said:
            self.say(said)

    def action_add_side(self) -> None:
        got = self.highlighted()
        if got is None:
            self.say("no card highlighted", error=True)
            return
        self.edit(lambda b: b.add(got[1], side=True))

    def action_more(self) -> None:
        got = self.highlighted()
        if got is not None and got[0] == "deck":
            sec: Any = got[2]
            self.edit(lambda b: b.add(got[1], section=sec))

    def action_remove(self) -> None:
        got = self.highlighted()
        if got is None:
            self.say("no card highlighted", error=True)
            return
        sec: Any = got[2]
        self.edit(lambda b: b.remove(got[1], sec))

    def action_move(self) -> None:
        got = self.highlighted()
        if got is None or got[0] != "deck":
            self.say("m moves the highlighted deck card: tab to the deck first", error=True)
            return
        sec: Any = got[2]
        self.edit(lambda b: b.move(got[1], sec), follow=lambda b: b.last_moved)

    def action_format(self) -> None:
        from deckcheck.formats import load_formats
        from deckcheck.tui.screens import FormatScreen

        chk = self.editor.builder.checking

        def chosen(got: tuple[str, dt.date] | None) -> None:
            if got is None:
                return
            try:
                self.editor.builder.set_format(*got)
            except DeckcheckError as exc:
                self.say(str(exc), error=True)
                return
            self.refresh_deck()
            b = self.editor.builder.checking
            self.say(f"checking in {b.fmt.name} on {b.date.isoformat()} ({b.list_label()})")

        self.app.push_screen(FormatScreen(load_formats(), chk.fmt.id, chk.date), chosen)


class DeckEditor(App[None]):
    """``deckcheck deck edit DECK``: build a deck with its legality shown live."""

    TITLE = "deckcheck deck edit"
    CSS = CSS
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+z", "undo", "Undo", priority=True),
        Binding("ctrl+y", "redo", "Redo", priority=True),
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("ctrl+r", "reload", "Reload", show=False, priority=True),
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
    ]

    def __init__(self, builder: Builder, searcher: Searcher | None = None):
        super().__init__()
        # NO_COLOR (no-color.org: set and not empty) means no colour, not Textual's grey
        # scale (its Monochrome filter, for any NO_COLOR, even an empty one): every colour
        # becomes the terminal's default; bold, reverse and underline still mark things.
        from textual.filter import Monochrome, NoColor

        self.no_color = bool(os.environ.get("NO_COLOR"))
        self._filters = [f for f in self._filters if not isinstance(f, (Monochrome, NoColor))]
        if self.no_color:
            self._filters.append(NoColor())
        self.builder = builder
        self.searcher = searcher or Searcher(builder.db, builder.index, builder.lang)
        self._names: dict[int, str] = {}
        self.notes: list[str] = []  # library notes while the app runs (``notes`` sink)

    def note(self, text: str) -> None:
        """The ``deckcheck.notes`` sink while the app runs: the message line, not stderr."""
        self.notes.append(text)
        if self.screen_stack and isinstance(self.screen_stack[0], EditorScreen):
            self.editor_screen.say(text.removeprefix("deckcheck: "))

    def on_ready(self) -> None:
        # The card database, its lookup index and the app's widgets live as long as the app:
        # frozen, no garbage collection walks them again (issue 29: a full collection took
        # 50-130 ms in the middle of a keypress, the edit p95 went 74 -> 41 ms without it).
        gc.collect()
        gc.freeze()

    def on_unmount(self) -> None:
        gc.unfreeze()  # an app run inside a longer process (tests) leaves nothing pinned

    def get_default_screen(self) -> Screen[Any]:
        return EditorScreen()

    @property
    def editor_screen(self) -> EditorScreen:
        screen = self.screen_stack[0]
        assert isinstance(screen, EditorScreen)
        return screen

    def card_name(self, card_id: int) -> str:
        got = self._names.get(card_id)
        if got is None:
            got = self._names[card_id] = str(self.builder.db.name(card_id, self.builder.lang))
        return got

    def _on_editor(self) -> bool:
        return self.screen is self.editor_screen

    def action_undo(self) -> None:
        if self._on_editor():
            s = self.editor_screen
            s.edit(lambda b: b.undo() or "nothing to undo")

    def action_redo(self) -> None:
        if self._on_editor():
            s = self.editor_screen
            s.edit(lambda b: b.redo() or "nothing to redo")

    def action_save(self, overwrite: bool = False, then_quit: bool = False) -> None:
        if not self._on_editor():
            return
        s = self.editor_screen
        b = self.builder
        try:
            b.save(overwrite=overwrite)
        except Conflict as exc:
            from deckcheck.tui.screens import ConflictScreen

            def chosen(choice: str | None) -> None:
                if choice == "overwrite":
                    self.action_save(overwrite=True, then_quit=then_quit)
                elif choice == "reload":
                    failed = b.reload(keep_edits=True)
                    s.refresh_deck()
                    s.say(
                        "; ".join(failed)
                        if failed
                        else "reloaded; your edits are applied again: ctrl+s saves them",
                        error=bool(failed),
                    )
                else:
                    s.say("not saved", error=True)

            self.push_screen(ConflictScreen(str(exc)), chosen)
            return
        except DeckcheckError as exc:
            s.say(str(exc), error=True)
            return
        s.refresh_status()
        s.say(f"saved {one_line(str(b.path))}")
        if then_quit:
            self.exit()

    def action_reload(self) -> None:
        if not self._on_editor():
            return
        b = self.builder
        failed = b.reload(keep_edits=b.dirty)
        s = self.editor_screen
        s.refresh_deck()
        s.say(
            "; ".join(failed) if failed else f"reloaded {one_line(str(b.path))}", error=bool(failed)
        )

    async def action_quit(self) -> None:
        if not self._on_editor():
            return
        b = self.builder
        if not b.dirty:
            self.exit()
            return
        from deckcheck.tui.screens import QuitScreen

        def chosen(choice: str | None) -> None:
            if choice == "save":
                self.action_save(then_quit=True)
            elif choice == "quit":
                self.exit()

        self.push_screen(QuitScreen(one_line(str(b.path))), chosen)


__all__ = ["DeckEditor", "EditorScreen"]
