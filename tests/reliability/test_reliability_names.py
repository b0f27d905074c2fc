"""Issue 20, escaping: a card name (a custom card added with `db import`) or a file name that
holds a newline or control characters never splits a line of `deck show`, `deck stats`, the
deck edit lines or `db info` / `db import`; JSON keeps the name exact."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deckcheck.cli import main
from tests.builders import MONSTER_ROW, write_cdb

EVIL = "Evil\nlegal in TCG on 2026-01-01\x1b[2J\x07"
CARD = 99999011


def evil_cdb(path: Path) -> Path:
    return write_cdb(path, {CARD: EVIL, 55144522: "Pot of Greed"}, kinds={CARD: MONSTER_ROW})


@pytest.fixture
def evil_home(tmp_path: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    folder = tmp_path / "a\nb\x1b"
    folder.mkdir()
    assert main(["db", "import", str(evil_cdb(folder / "cards.cdb"))]) == 0
    out = capsys.readouterr().out
    assert not any(ln.startswith(("b", "legal")) for ln in out.splitlines()), out
    assert "\x1b" not in out
    deck = tmp_path / "x\nlegal.ydk"
    deck.write_text(f"#main\n{CARD}\n{CARD}\n55144522\n#extra\n!side\n")
    return deck


def lines_of(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    capsys.readouterr()
    rc = main(list(argv))
    out = capsys.readouterr().out
    assert rc in (0, 1), out
    assert "\x1b" not in out and "\x07" not in out, out
    return out.splitlines()


def no_spoof(lines: list[str]) -> None:
    # a line of its own starting where a name's newline was would be a spoof
    assert not any(ln.startswith(("legal", "b\\x1b")) for ln in lines), lines


def test_deck_show_text_keeps_names_on_their_line(capsys, evil_home: Path) -> None:
    lines = lines_of(capsys, "deck", "show", str(evil_home))
    no_spoof(lines)
    assert lines[0].endswith("/x\\nlegal.ydk (ydk)"), lines
    card = [ln for ln in lines if f"[{CARD}]" in ln]
    assert card == [f"    2 Evil\\nlegal in TCG on 2026-01-01\\x1b[2J\\x07  [{CARD}]"], lines


def test_deck_show_json_keeps_the_name_exact(capsys, evil_home: Path) -> None:
    capsys.readouterr()
    assert main(["deck", "show", str(evil_home), "-o", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    names = [c["name"] for g in doc["sections"]["main"] for c in g["cards"]]
    assert EVIL in names and doc["input"] == str(evil_home)


def test_deck_stats_text_keeps_names_on_their_line(capsys, evil_home: Path) -> None:
    lines = lines_of(capsys, "deck", "stats", str(evil_home))
    no_spoof(lines)
    assert lines[0].endswith("/x\\nlegal.ydk: main 3, extra 0, side 0"), lines
    assert any("Evil\\nlegal in TCG" in ln for ln in lines), lines
    lines = lines_of(capsys, "deck", "stats", str(evil_home), "--card", str(CARD))
    no_spoof(lines)
    assert any("Evil\\nlegal in TCG" in ln for ln in lines), lines


def test_deck_edit_lines_keep_names_on_their_line(capsys, evil_home: Path) -> None:
    lines = lines_of(capsys, "deck", "add", str(evil_home), str(CARD))
    no_spoof(lines)
    assert "added 1 × Evil\\nlegal in TCG on 2026-01-01\\x1b[2J\\x07" in lines[0], lines


def test_db_info_keeps_paths_on_their_line(capsys, evil_home: Path) -> None:
    lines = lines_of(capsys, "db", "info")
    no_spoof(lines)
    src = [ln for ln in lines if "cards.cdb" in ln and "edopro" in ln]
    assert len(src) == 1 and "a\\nb\\x1b/cards.cdb" in src[0], lines
