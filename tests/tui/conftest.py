"""What the deck editor's tests share: a deck copied into the test's folder (named by a
relative path, so what the app shows does not depend on the machine), the sample database,
and a way to drive the app with Textual's pilot from a plain test function."""

from __future__ import annotations

import asyncio
import datetime as dt
import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO

#: The event date of every app test: fixed, so nothing depends on today's lists.
DATE = dt.date(2002, 8, 1)
EXAMPLES = REPO / "examples" / "dm6"

POT = 55144522
OBELISK = 10000000
KURIBOH = 40640057
BLUE_EYES = 89631139
B_E_ULTIMATE = 23995346  # Fusion: goes to the Extra Deck
RAIGEKI = 12580477


@pytest.fixture(scope="session")
def sample_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One data home with nothing installed for every app test: the built-in sample's
    database and its lookup index are built in its cache once, not once per test."""
    return tmp_path_factory.mktemp("tui-home")


@pytest.fixture(autouse=True)
def _shared_sample_home(
    isolated_home: Path, sample_home: Path, monkeypatch: pytest.MonkeyPatch
) -> Path:
    monkeypatch.setenv("DECKCHECK_HOME", str(sample_home))
    return sample_home


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test's folder as the working directory: decks are named relatively."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def deck_file(workdir: Path) -> Path:
    """examples/dm6/illegal.ydk (3 findings in DM6) as ./deck.ydk."""
    shutil.copy(EXAMPLES / "illegal.ydk", workdir / "deck.ydk")
    return Path("deck.ydk")


@pytest.fixture
def legal_file(workdir: Path) -> Path:
    shutil.copy(EXAMPLES / "legal.ydk", workdir / "legal.ydk")
    return Path("legal.ydk")


def open_builder(path: Path | str, format_id: str | None = "dm6", date: dt.date = DATE) -> Any:
    from deckcheck.tui.start import open_builder as opener

    return opener(str(path), format_id, date)


def drive(
    builder: Any,
    script: Callable[[Any, Any], Awaitable[None]],
    size: tuple[int, int] = (100, 32),
) -> Any:
    """Run the app on ``builder`` headless and ``await script(app, pilot)``; the app."""
    from deckcheck.tui.app import DeckEditor

    app = DeckEditor(builder)

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(app, pilot)

    asyncio.run(main())
    return app
