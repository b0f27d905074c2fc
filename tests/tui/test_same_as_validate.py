"""The findings pane is ``validate``'s answer: after each edit made with the app's keys, the
pane's findings (codes, messages, sections, lines, cards), list and date are those of
``deckcheck validate -o json`` on the saved file; on the sample and on the real data."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from textual.widgets import Input, OptionList, Static

from deckcheck.cli import cli
from tests.tui.conftest import DATE, OBELISK, POT, drive, open_builder


def validate_json(path: Path, fmt: str | None, date: dt.date) -> dict[str, Any]:
    """``deckcheck validate -o json`` of the file (its own streams: the app holds stdout)."""
    args = ["validate", "-o", "json", "-d", date.isoformat(), str(path)]
    result = CliRunner().invoke(cli, [*args, "-f", fmt] if fmt else args, catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    got: dict[str, Any] = json.loads(result.stdout)
    return got


def same(app: Any, report: dict[str, Any]) -> None:
    """The pane shows exactly the findings, list and date of ``report``."""
    b = app.builder
    r = b.verdict.report
    (deck,) = report["decks"]
    assert [f.to_json() for f in r.findings] == deck["findings"]
    assert r.legal == deck["legal"] and r.counts == deck["counts"]
    assert (r.list_name, r.list_effective) == (
        report["banlist"]["name"],
        report["banlist"]["effective"],
    )
    assert b.checking.fmt.id == report["format"]["id"]
    pane = str(app.screen.query_one("#findings", Static).render())
    for f in deck["findings"]:
        assert f"{f['code']} [{f['rule']}] {f['message']}" in pane
    if not deck["findings"]:
        assert pane.startswith("legal in ") and report["banlist"]["name"] in pane


async def _highlight(app: Any, pilot: Any, row: str) -> None:
    deck = app.screen.query_one("#deck", OptionList)
    deck.focus()
    deck.highlighted = deck.get_option_index(row)
    await pilot.pause()


def test_sample_deck_after_each_edit(deck_file: Path) -> None:
    async def script(app: Any, pilot: Any) -> None:
        same(app, validate_json(deck_file, "dm6", DATE))
        steps = [
            (f"main:{POT}", "minus"),  # the Limited card's second copy
            (f"main:{OBELISK}", "m"),  # Forbidden, moved to the Side Deck
            (f"side:{OBELISK}", "minus"),
            (f"main:{POT}", "s"),
        ]
        for row, key in steps:
            await _highlight(app, pilot, row)
            await pilot.press(key, "ctrl+s")
            assert not app.builder.dirty
            same(app, validate_json(deck_file, "dm6", DATE))
        await pilot.press("ctrl+z", "ctrl+z", "ctrl+s")
        same(app, validate_json(deck_file, "dm6", DATE))

    drive(open_builder(deck_file), script)


@pytest.mark.realdata
def test_real_deck_in_tcg(real_home: Path, workdir: Path, shared_data: Path) -> None:
    src = shared_data / "decks" / "ProjectIgnis__windbot" / "AI_Albaz.ydk"
    shutil.copy(src, workdir / "albaz.ydk")
    path = Path("albaz.ydk")
    date = dt.date(2025, 6, 1)

    async def script(app: Any, pilot: Any) -> None:
        same(app, validate_json(path, None, date))  # its format: tcg by default
        deck = app.screen.query_one("#deck", OptionList)
        rows = [o.id for o in deck._options if o.id and o.id[0] in "mes" and ":" in o.id]
        for row in rows[:3]:
            await _highlight(app, pilot, row)
            await pilot.press("m", "ctrl+s")
            same(app, validate_json(path, None, date))
        await pilot.press("slash")
        app.screen.query_one("#search", Input).insert_text_at_cursor("ash blossom")
        await pilot.pause(0.3)
        await pilot.press("enter", "ctrl+s")
        same(app, validate_json(path, None, date))

    drive(open_builder(path, None, date), script)
