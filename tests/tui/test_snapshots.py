"""Snapshots of the main screen (pytest-textual-snapshot): the built-in sample, a fixed
date and terminal size, the deck named by a relative path, so they are the same on every
machine. ``pytest --snapshot-update`` rewrites them after a deliberate change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.tui.conftest import open_builder


def _app(path: Path) -> Any:
    from deckcheck.tui.app import DeckEditor

    return DeckEditor(open_builder(path))


def test_main_screen_80x24(deck_file: Path, snap_compare: Any) -> None:
    async def searched(pilot: Any) -> None:
        await pilot.press("slash")
        box = pilot.app.screen.query_one("#search")
        box.cursor_blink = False  # a blinking cursor is drawn or not by the clock
        box.insert_text_at_cursor("pot of")
        await pilot.pause(0.3)
        await pilot.press("escape")  # to the results: the highlighted one in the card pane
        await pilot.pause(0.3)

    assert snap_compare(_app(deck_file), terminal_size=(80, 24), run_before=searched)


def test_main_screen_120x36(deck_file: Path, snap_compare: Any) -> None:
    async def settled(pilot: Any) -> None:
        await pilot.pause(0.3)  # the card pane follows the highlight a moment later

    assert snap_compare(_app(deck_file), terminal_size=(120, 36), run_before=settled)
