"""A DECK argument is a ydke:// URL only when no file of that name exists, in every reader."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck import inputs
from deckcheck.decks import cli_support, ydke
from deckcheck.sheet import files as sheet_files

URL = "ydke://" + "!!!"


@pytest.fixture
def deck_named_like_a_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A real file reached by a path that starts with "ydke://" (folder "ydke:", then "/")."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ydke:").mkdir()
    (tmp_path / "ydke:" / "deck.ydk").write_text("#main\n89631139\n")
    return "ydke://deck.ydk"


def test_a_url_is_a_url() -> None:
    assert ydke.is_argument(URL)
    assert ydke.is_argument("  YDKE://!!!")
    assert not ydke.is_argument("deck.ydk")


def test_an_existing_file_wins_in_every_reader(deck_named_like_a_url: str) -> None:
    arg = deck_named_like_a_url
    assert not ydke.is_argument(arg)
    assert not inputs.is_inline(arg)
    for deck in (
        cli_support.read_input(arg),
        inputs.read_item(arg),
        sheet_files.load_deck(arg, None, []),
    ):
        assert [(e.card_id, e.count) for e in deck.section("main")] == [(89631139, 1)]
