"""The deck editor redraws only what changed (issue 29: keypress -> findings <= 50 ms); these
hold each shortcut to the plain path: what the panes show after edits is what drawing them
from scratch shows, and the garbage collector's freeze is undone when the app ends."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

from textual.widgets import OptionList, Static

from deckcheck.tui import panes
from tests.tui.conftest import KURIBOH, POT, drive, open_builder


def _rows(deck: OptionList) -> list[tuple[str | None, str, bool]]:
    return [(o.id, str(o.prompt), o.disabled) for o in deck.options]


def _shown(app: Any, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def test_after_edits_every_pane_shows_what_a_fresh_drawing_shows(deck_file: Path) -> None:
    async def script(app: Any, pilot: Any) -> None:
        screen = app.editor_screen
        deck = screen.query_one("#deck", OptionList)
        deck.focus()
        # moves that add and drop rows (a card's first copy in the Side Deck, its last out),
        # a removal that only changes a count, an undo and a redo
        for section, card, key in (
            ("main", KURIBOH, "m"),
            ("side", KURIBOH, "m"),
            ("main", POT, "minus"),
            ("main", POT, "m"),
        ):
            deck.highlighted = deck.get_option_index(f"{section}:{card}")
            await pilot.pause()
            await pilot.press(key)
            await pilot.pause(0.2)  # the card and stats panes follow a moment later
            fresh = panes.deck_options(app.builder, app.card_name)
            assert _rows(deck) == [(o.id, str(o.prompt), o.disabled) for o in fresh]
            assert _shown(app, "#findings") == str(panes.findings_text(app.builder))
            cid = panes.parse_option_id(deck.highlighted_option.id)
            assert cid is not None
            name = app.card_name(cid[1])
            assert _shown(app, "#stats") == str(panes.stats_text(app.builder, cid[1], name))
            assert name in _shown(app, "#card")
        await pilot.press("ctrl+z", "ctrl+z", "ctrl+y")
        await pilot.pause(0.2)
        fresh = panes.deck_options(app.builder, app.card_name)
        assert _rows(deck) == [(o.id, str(o.prompt), o.disabled) for o in fresh]
        assert _shown(app, "#findings") == str(panes.findings_text(app.builder))

    drive(open_builder(deck_file), script)


def test_the_app_freezes_what_lives_as_long_as_it_and_unfreezes_at_its_end(
    deck_file: Path,
) -> None:
    before = gc.get_freeze_count()
    seen: list[int] = []

    async def script(app: Any, pilot: Any) -> None:
        seen.append(gc.get_freeze_count())

    drive(open_builder(deck_file), script)
    assert seen and seen[0] > before  # the card database, the index, the widgets
    assert gc.get_freeze_count() == 0  # nothing stays pinned in a longer process
