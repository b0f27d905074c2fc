"""NO_COLOR (no-color.org): with it set and not empty the app draws no colour at all: every
character in the terminal's default foreground on its default background, the highlight and
the focused pane shown by style (reverse, bold, a double border) instead."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from rich.terminal_theme import SVG_EXPORT_THEME

from tests.tui.conftest import drive, open_builder

FG = SVG_EXPORT_THEME.foreground_color.hex  # what export_svg writes for "default"
BG = SVG_EXPORT_THEME.background_color.hex


def _screen_colours(app_svg: str) -> tuple[set[str], set[str]]:
    """The colours of the screen's text (its style classes) and of its cell backgrounds
    (its rects), without the window's frame (title-bar circles)."""
    text = set(re.findall(r"\.terminal-[\w-]+ \{ fill: (#[0-9a-f]{6})", app_svg))
    back = set(re.findall(r'<rect fill="(#[0-9a-f]{6})"', app_svg))
    return text, back


def _svg(deck_file: Path) -> str:
    got: dict[str, Any] = {}

    async def script(app: Any, pilot: Any) -> None:
        await pilot.pause(0.2)  # the card pane drawn too
        got["svg"] = app.export_screenshot()

    drive(open_builder(deck_file), script)
    return str(got["svg"])


def test_no_color_draws_only_the_terminals_default_colours(
    deck_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    svg = _svg(deck_file)
    text, back = _screen_colours(svg)
    assert text <= {FG, BG}, text  # BG as a text colour: the reversed highlight
    assert back <= {FG, BG}, back
    assert "illegal: 3 problems" in svg.replace("&#160;", " ")  # drawn, not blank
    assert "font-weight: bold" in svg
    assert BG in text  # the deck's highlighted row, reversed: still visible


def test_without_no_color_or_with_an_empty_one_the_status_is_coloured(
    deck_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    text, back = _screen_colours(_svg(deck_file))
    assert len(text) > 4 and len(back) > 2  # the test above would see colour if there was
    monkeypatch.setenv("NO_COLOR", "")  # no-color.org: an empty NO_COLOR is not set
    text_empty, _ = _screen_colours(_svg(deck_file))
    assert len(text_empty) > 4
