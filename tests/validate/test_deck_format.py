"""Each deck's own format and list in every output (issue 27, SPEC.md §8): the JSON deck entry
carries the ``format`` and ``banlist`` it was checked against (the top-level ones stay the
run's), and text and HTML name them where a "#format" line made them differ from the run's."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from deckcheck.engine import Engine
from tests.conftest import REPO
from tests.validate.test_jobs import run

EXAMPLES = REPO / "examples"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "decks"
    root.mkdir()
    legal = (EXAMPLES / "dm6" / "legal.ydk").read_text(encoding="utf-8")
    shutil.copy(EXAMPLES / "dm6" / "legal.ydk", root / "a.ydk")
    (root / "b.ydk").write_text("#format dm5\n" + legal, encoding="utf-8")
    # no --format: the run's format from a config file, so the decks' own lines count
    (tmp_path / "deckcheck.toml").write_text('format = "dm6"\n', encoding="utf-8")
    return root


def _run(folder: Path, kind: str, *more: str) -> str:
    config = folder.parent / "deckcheck.toml"
    code, out, err = run(
        "--config", str(config), "--date", "2026-06-01", "-o", kind, *more, str(folder)
    )
    assert code in (0, 1) and "b.ydk: checked as Duel Monsters 5" in err
    return out


def test_json_deck_entries_carry_their_format_and_list(folder: Path) -> None:
    data = json.loads(_run(folder, "json"))
    assert data["format"]["id"] == "dm6" and data["banlist"]["name"] == "2002.07 DM6"
    a, b = data["decks"]
    assert a["format"] == data["format"] and a["banlist"] == data["banlist"]
    assert b["format"] == {"id": "dm5", "name": "Duel Monsters 5 Expert 1 (GBA)"}
    assert b["banlist"]["name"] != data["banlist"]["name"]
    assert set(b["banlist"]) == {"name", "effective", "source", "date_exact"}
    assert _run(folder, "json", "--jobs", "2") == _run(folder, "json")


def test_text_names_a_deck_checked_as_another_format(folder: Path) -> None:
    lines = _run(folder, "text").splitlines()
    a = next(x for x in lines if x.startswith(str(folder / "a.ydk")))
    b = next(x for x in lines if x.startswith(str(folder / "b.ydk")))
    assert "checked as" not in a
    assert "[checked as Duel Monsters 5 Expert 1 (GBA), " in b and "(effective " in b


def test_html_names_a_deck_checked_as_another_format(folder: Path) -> None:
    page = _run(folder, "html")
    assert page.count("as Duel Monsters 5 Expert 1 (GBA), ") == 2  # its row and its section
    assert page.count("checked as Duel Monsters 5") == 1


def test_the_engine_entry_is_the_json_entry(folder: Path) -> None:
    engine = Engine.open()
    target = engine.target("dm6", None, None)
    report = engine.check_item(str(folder / "a.ydk"), target)
    entry = engine.deck_entry(report)
    assert entry["format"]["id"] == "dm6" and entry["banlist"]["name"] == "2002.07 DM6"
    assert list(entry)[:4] == ["input", "legal", "counts", "findings"]
    assert engine.finding_lines(report) == []
