"""Hostile file, player and card names in every output kind (issue 32): a spreadsheet never
reads a CSV cell as a formula (OWASP: a cell starting with = + - @ tab or CR gets a leading
'), HTML never carries a name's markup, JUnit stays XML, GitHub annotations stay one command
each, text stays one line per deck, JSON keeps every name exactly."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from deckcheck.cli import main
from deckcheck.render.csv import cell

FORMULAS = ("=", "+", "-", "@", "\t", "\r")
FILE = '=HYPERLINK("evil.example?x=1","click").ydk'
PLAYER = "@SUM(1+1)*cmd|' /C calc'!A0"
CARD = '+cmd|"/C calc"!A0 <script>alert(1)</script>'
CARD_ID = 90000001
INPUTS = (FILE, "-2+3.ydk", "\tx.ydk")  # relative: each name starts its deck cell


@pytest.fixture
def hostile(tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home whose card database holds a card with a hostile name, and three decks: a
    formula file name, a formula player name and a deck that plays the hostile card 4 times
    (DC401 names it)."""
    cdb = tmp_path / "cards.cdb"
    conn = sqlite3.connect(cdb)
    conn.execute(
        "CREATE TABLE datas (id INTEGER PRIMARY KEY, ot, alias, setcode, type, atk, def, "
        "level, race, attribute, category)"
    )
    conn.execute("CREATE TABLE texts (id INTEGER PRIMARY KEY, name, desc)")
    conn.execute("INSERT INTO datas VALUES (?, 3, 0, 0, 17, 0, 0, 4, 1, 1, 0)", (CARD_ID,))
    conn.execute("INSERT INTO texts VALUES (?, ?, '')", (CARD_ID, CARD))
    conn.commit()
    conn.close()
    assert main(["db", "import", str(cdb)]) == 0
    lists = tmp_path / "house.lflist.conf"
    lists.write_text("!2026.01 TCG\n90000001 3 -- x\n", encoding="utf-8")
    assert main(["banlist", "import", str(lists)]) == 0
    decks = tmp_path / "decks"
    decks.mkdir()
    body = "#main\n" + f"{CARD_ID}\n" * 4 + "#extra\n!side\n"
    (decks / FILE).write_text(body, encoding="utf-8")
    (decks / "-2+3.ydk").write_text(f"#player {PLAYER}\n{body}", encoding="utf-8")
    (decks / "\tx.ydk").write_text(body, encoding="utf-8")
    monkeypatch.chdir(decks)  # relative inputs: the file name starts the deck cell
    return decks


def _run(capsys: pytest.CaptureFixture[str], kind: str) -> str:
    capsys.readouterr()
    code = main(["validate", "--date", "2026-06-01", "-o", kind, "--", *INPUTS])
    out, err = capsys.readouterr()
    assert code == 1, err
    return out


def test_csv_cells_never_start_a_formula(capsys: pytest.CaptureFixture[str], hostile: Path) -> None:
    out = _run(capsys, "csv")
    rows = list(csv.reader(io.StringIO(out)))
    cells = [c for row in rows[1:] for c in row]
    assert not [c for c in cells if c.startswith(FORMULAS)], rows
    assert {row[0] for row in rows[1:]} == {"'" + i for i in INPUTS}
    # the #player line, and a player named by the file: neutralised
    assert {row[1] for row in rows[1:]} == {"'" + PLAYER, "'" + FILE[:-4], "'\tx"}
    names = {row[9] for row in rows[1:] if row[3] == "DC401"}
    assert names == {"'" + CARD}
    # per-deck rows too
    capsys.readouterr()
    assert (
        main(["validate", "--date", "2026-06-01", "-o", "csv", "--csv-decks", "--", *INPUTS]) == 1
    )
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert not [c for row in rows[1:] for c in row if c.startswith(FORMULAS)], rows
    assert "'" + PLAYER in {row[1] for row in rows[1:]}


def test_cell_follows_owasp() -> None:
    for start in FORMULAS:
        assert cell(f"{start}x") == f"'{start}x"
    assert cell("Pot of Greed") == "Pot of Greed"
    assert cell("x=1") == "x=1"  # only the first character counts
    assert cell(-1) == -1 and cell(3) == 3  # numbers stay numbers
    assert cell("") == ""


def test_html_carries_no_markup_of_a_name(
    capsys: pytest.CaptureFixture[str], hostile: Path
) -> None:
    out = _run(capsys, "html")
    assert "<script>alert(1)</script>" not in out
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    assert "HYPERLINK" in out


def test_junit_stays_xml_with_the_names(capsys: pytest.CaptureFixture[str], hostile: Path) -> None:
    root = ET.fromstring(_run(capsys, "junit"))
    names = [c.get("name", "") for c in root.iter("testcase")]
    assert len(names) == 3 and any(FILE in n for n in names)
    assert CARD in ET.tostring(root, encoding="unicode").replace("&lt;", "<").replace("&gt;", ">")


def test_github_annotations_stay_one_command_each(
    capsys: pytest.CaptureFixture[str], hostile: Path
) -> None:
    out = _run(capsys, "github")
    lines = out.splitlines()
    assert lines and all(line.startswith("::error ") for line in lines), out
    files = {line.split("::", 2)[1].split(",", 1)[0] for line in lines}
    # the comma of the file name escaped: it cannot end the file property early
    assert 'error file==HYPERLINK("evil.example?x=1"%2C"click").ydk' in files, files


def test_text_is_one_line_per_deck(capsys: pytest.CaptureFixture[str], hostile: Path) -> None:
    out = _run(capsys, "text")
    heads = [line for line in out.splitlines() if not line.startswith(" ")]
    assert len(heads) == 3, out
    assert "\r" not in out and "\x1b" not in out


def test_json_keeps_every_name_exactly(capsys: pytest.CaptureFixture[str], hostile: Path) -> None:
    data = json.loads(_run(capsys, "json"))
    inputs = {d["input"] for d in data["decks"]}
    assert inputs == set(INPUTS)
    cards = {f["card"]["name"] for d in data["decks"] for f in d["findings"] if "card" in f}
    assert cards == {CARD}
