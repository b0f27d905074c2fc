"""`deckcheck meta` as a user meets it, on real decks and the real database: unreadable decks
counted apart and said so, bad arguments, no archetype data, CSV cells neutralised, --out
written, and the HTML section (of `meta -o html` and of `validate -o html`) parsed: a
self-contained bar chart, each archetype linking to its decks."""

from __future__ import annotations

import csv
import io
import json
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tests.builders import run_cli

pytestmark = pytest.mark.realdata

Cap = pytest.CaptureFixture[str]
WINDBOT = ("AI_Dragunity.ydk", "AI_Altergeist.ydk", "AI_Altergeist@2018-08-20_0448ed76.ydk")


@pytest.fixture
def folder(decks_dir: Path, tmp_path: Path) -> Path:
    """Three real Windbot decks (Dragunity, Altergeist twice) and one binary file."""
    d = tmp_path / "submissions"
    d.mkdir()
    for name in WINDBOT:
        shutil.copy2(decks_dir / "ProjectIgnis__windbot" / name, d / name)
    (d / "broken.ydk").write_bytes(b"\x00\x01not a deck")
    return d


def test_unreadable_decks_are_counted_apart_and_said_so(
    meta_home: Path, folder: Path, capsys: Cap
) -> None:
    rc, out, err = run_cli(capsys, "meta", folder, "-o", "json")
    assert rc == 0, err
    assert "1 input could not be read and is not counted" in err
    doc = json.loads(out)
    assert doc["summary"] == {
        "inputs": 4,
        "decks": 3,
        "unreadable": 1,
        "legal": None,
        "illegal": None,
    }
    assert [u["input"] for u in doc["unreadable"]] == [str(folder / "broken.ydk")]
    assert [(a["name"], a["decks"], a["share"]) for a in doc["archetypes"]] == [
        ("Altergeist", 2, 66.67),
        ("Dragunity", 1, 33.33),
    ]
    # the text output says so too
    rc, out, _ = run_cli(capsys, "meta", folder)
    assert "3 decks counted, 1 unreadable (not counted, listed below)" in out
    assert f"{folder / 'broken.ydk'}: binary file" in out


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--date", "2024-01-01"], "give --format too"),
        (["--format", "nosuchformat"], "nosuchformat"),
        (["-o", "xml"], "xml"),
    ],
)
def test_bad_arguments_are_exit_2(
    meta_home: Path, folder: Path, capsys: Cap, args: list[str], says: str
) -> None:
    rc, out, err = run_cli(capsys, "meta", folder, *args)
    assert rc == 2 and out == ""
    assert says in err and err.startswith("deckcheck: error:")


def test_no_deck_found_or_none_readable_is_exit_2(
    meta_home: Path, tmp_path: Path, capsys: Cap
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    rc, out, err = run_cli(capsys, "meta", empty)
    assert (rc, out) == (2, "") and "no decks found" in err
    (empty / "bad.ydk").write_bytes(b"\x00")
    rc, out, err = run_cli(capsys, "meta", empty)
    assert (rc, out) == (2, "") and "no deck could be read" in err and "bad.ydk" in err
    rc, _, err = run_cli(capsys, "meta", tmp_path / "nothing-here")
    assert rc == 2


def test_without_archetype_data_card_usage_is_still_reported(
    real_home: Path, folder: Path, capsys: Cap
) -> None:
    # the real cards.cdb without strings.conf or yaml-yugi: archetypes say which source
    rc, out, err = run_cli(capsys, "meta", folder, "-o", "json")
    assert rc == 0
    doc = json.loads(out)
    assert doc["archetypes"] == []
    assert "strings.conf" in doc["archetypes_missing"]
    assert "no archetypes" in err and "strings.conf" in err
    assert doc["cards"] and all(d["archetype"] is None for d in doc["decks"])


def test_csv_cells_are_neutralised_and_out_is_written(
    meta_home: Path, folder: Path, tmp_path: Path, capsys: Cap
) -> None:
    hostile = folder / "=HYPERLINK(1).ydk"
    shutil.copy2(folder / WINDBOT[0], hostile)
    out_file = tmp_path / "meta.csv"
    rc, out, err = run_cli(capsys, "meta", folder, "-o", "csv", "--out", out_file)
    assert rc == 0, err
    assert "4 decks counted" in out and str(out_file) in out
    rows = list(csv.DictReader(io.StringIO(out_file.read_text(encoding="utf-8"))))
    kinds = {r["kind"] for r in rows}
    assert kinds == {"archetype", "card", "deck", "unreadable"}
    inputs = [r["input"] for r in rows if r["kind"] == "deck"]
    assert f"'{hostile}" not in inputs  # a path starting with / is no formula
    assert not any(v.startswith(("=", "+", "-", "@")) for r in rows for v in r.values() if v)
    cards = [r for r in rows if r["kind"] == "card"]
    assert int(cards[0]["decks"]) >= int(cards[-1]["decks"])
    # no temporary file left beside it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["meta.csv", "submissions"]


def test_a_formula_named_card_cell_in_csv(meta_home: Path, tmp_path: Path, capsys: Cap) -> None:
    # a relative path that starts like a formula: neutralised with a leading '
    d = tmp_path / "x"
    d.mkdir()
    deck = d / "=cmd.ydk"
    deck.write_text("#main\n89631139\n89631139\n#extra\n!side\n", encoding="utf-8")
    import os

    cwd = os.getcwd()
    os.chdir(d)
    try:
        rc, out, err = run_cli(capsys, "meta", "=cmd.ydk", "-o", "csv")
    finally:
        os.chdir(cwd)
    assert rc == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["input"] for r in rows if r["kind"] == "deck"] == ["'=cmd.ydk"]


class _Page(HTMLParser):
    """What the tests look at in a report: ids, links, the chart's bars, external refs."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.bars: list[dict[str, str]] = []
        self.rows: list[str] = []  # data-archetype of the chart's rows
        self.external: list[str] = []
        self.sections: list[str] = []
        self._arch: str | None = None
        self.arch_links: dict[str, list[str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "section":
            self.sections.append(a.get("id", ""))
        if tag == "tr" and a.get("id", "").startswith("mg-arch-"):
            self._arch = a["data-archetype"]
            self.arch_links[self._arch] = []
        elif tag == "tr":
            self._arch = None
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
            if self._arch is not None:
                self.arch_links[self._arch].append(a["href"])
        if tag == "g" and "mg-row" in a.get("class", ""):
            self.rows.append(a["data-archetype"])
        if tag == "rect" and "mg-bar" in a.get("class", ""):
            self.bars.append(a)
        for k in ("src", "href"):
            v = a.get(k, "")
            if v and not v.startswith("#"):
                self.external.append(v)
        if tag == "link":
            self.external.append(str(a))


def _parse(text: str) -> _Page:
    p = _Page()
    p.feed(text)
    return p


def _check_section(page: _Page, doc: dict[str, Any]) -> None:
    assert "metagame" in page.sections and "mg-chart" in page.ids
    assert page.external == []  # self-contained: no URL, no external file
    assert page.rows == [a["name"] for a in doc["archetypes"]]
    widths = [float(b["width"]) for b in page.bars]
    decks = [a["decks"] for a in doc["archetypes"]]
    assert widths[0] == 400 and all(w > 0 for w in widths)
    assert [round(w / widths[0] * decks[0], 6) for w in widths] == [
        pytest.approx(d, abs=0.01) for d in decks
    ]
    for a in doc["archetypes"]:
        links = page.arch_links[a["name"]]
        assert len(links) == a["decks"]
        for href in links:
            assert href[1:] in page.ids  # each archetype links to its decks


def test_meta_html_page(meta_home: Path, folder: Path, tmp_path: Path, capsys: Cap) -> None:
    rc, out, _ = run_cli(capsys, "meta", folder, "-o", "json")
    doc = json.loads(out)
    page_file = tmp_path / "meta.html"
    rc, out, err = run_cli(capsys, "meta", folder, "-o", "html", "--out", page_file)
    assert rc == 0, err
    text = page_file.read_text(encoding="utf-8")
    page = _parse(text)
    _check_section(page, doc)
    assert "mg-unreadable" in page.ids
    assert len([i for i in page.ids if i.startswith("mg-deck-")]) == 3


def test_validate_html_has_the_section_linking_archetypes_to_deck_details(
    meta_home: Path, folder: Path, capsys: Cap
) -> None:
    rc, out, _ = run_cli(capsys, "meta", folder, "-o", "json")
    doc = json.loads(out)
    rc, out, err = run_cli(
        capsys, "validate", folder, "--format", "tcg", "--date", "2024-01-01", "-o", "html"
    )
    assert rc == 1, err  # broken.ydk is DC101
    page = _parse(out)
    _check_section(page, doc)
    # the links go to validate's own deck sections (#deck-N), one per deck of the archetype
    for a in doc["archetypes"]:
        assert all(h.startswith("#deck-") for h in page.arch_links[a["name"]])
    assert out.index('id="metagame"') < out.index("Deck details")


def test_validate_html_of_one_deck_from_stdin(meta_home: Path, folder: Path) -> None:
    import os
    import subprocess
    import sys

    got = subprocess.run(
        [sys.executable, "-m", "deckcheck", "validate", "-", "-o", "html", "--format", "tcg"],
        input=(folder / WINDBOT[0]).read_bytes(),
        capture_output=True,
        env={**os.environ, "DECKCHECK_HOME": str(meta_home)},
        check=False,
    )
    assert got.returncode in (0, 1), got.stderr
    page = _parse(got.stdout.decode())
    assert page.rows == ["Dragunity"]
