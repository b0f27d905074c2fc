"""The per-format fixture decks and the example decks, run through `deckcheck validate`.

Fixture decks live in tests/fixtures/formats/<format>/{legal,illegal}/*.ydk. Their header says
what to expect: ``#expect: legal`` or ``#expect: DC201 DC401`` (codes the deck must produce),
then optionally ``#date: YYYY-MM-DD`` (the event date). A ``banlist.yaml`` beside the two
folders is passed with --banlist (for formats whose family has no shipped or imported list).
They run against the real card database and the real imported lists (``real_home``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from deckcheck.cli import main
from tests.conftest import FIXTURES, REPO

FORMATS = FIXTURES / "formats"
DECKS = sorted(FORMATS.glob("*/*/*.ydk"))


def test_every_fixture_deck_is_collected() -> None:
    # An empty glob would parametrize test_fixture_deck into nothing, silently.
    # test_format_data.py checks each format has both a legal and an illegal deck.
    assert len(DECKS) >= 70
    assert {p.parts[-2] for p in DECKS} == {"legal", "illegal"}


def _header(path: Path) -> tuple[set[str] | None, str | None]:
    """(expected codes, or None for a legal deck; event date) from the fixture's header."""
    lines = path.read_text(encoding="utf-8").splitlines()
    m = re.fullmatch(r"#expect: (.+)", lines[0])
    assert m, f"{path}: first line must be '#expect: legal' or '#expect: DCnnn ...'"
    codes = None if m.group(1).strip() == "legal" else set(m.group(1).split())
    date = next((ln.split(":", 1)[1].strip() for ln in lines[1:3] if ln.startswith("#date:")), None)
    return codes, date


def _run(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, dict[str, Any]]:
    capsys.readouterr()
    code = main(["validate", "--output", "json", *args])
    out = capsys.readouterr()
    assert code in (0, 1), f"exit {code}: {out.err.strip()}"
    return code, json.loads(out.out)


def _errors(report: dict[str, Any]) -> set[str]:
    return {f["code"] for d in report["decks"] for f in d["findings"] if f["severity"] == "error"}


@pytest.mark.realdata
@pytest.mark.parametrize("deck", DECKS, ids=lambda p: f"{p.parts[-3]}/{p.parts[-2]}/{p.name}")
def test_fixture_deck(deck: Path, real_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fid, kind = deck.parts[-3], deck.parts[-2]
    expected, date = _header(deck)
    assert (expected is None) == (kind == "legal"), f"{deck}: header does not match its folder"
    args = ["--format", fid]
    if date:
        args += ["--date", date]
    own_list = FORMATS / fid / "banlist.yaml"
    if own_list.is_file():
        args += ["--banlist", str(own_list)]
    code, report = _run(capsys, [*args, str(deck)])
    errors = _errors(report)
    if expected is None:
        assert (code, errors) == (0, set()), report["decks"][0]["findings"]
        assert report["decks"][0]["legal"] is True
    else:
        assert code == 1 and report["decks"][0]["legal"] is False
        assert expected <= errors, f"missing {sorted(expected - errors)}; got {sorted(errors)}"


def test_readme_example_runs_on_builtin_data(capsys: pytest.CaptureFixture[str]) -> None:
    """`deckcheck validate --format dm6 examples/dm6/` with no database installed."""
    code, report = _run(capsys, ["--format", "dm6", str(REPO / "examples" / "dm6")])
    assert code == 1
    by_name = {Path(d["input"]).name: d for d in report["decks"]}
    assert by_name["legal.ydk"]["legal"] is True
    illegal = by_name["illegal.ydk"]
    assert illegal["legal"] is False
    found = {(f["code"], f["card"]["name"]) for f in illegal["findings"] if "card" in f}
    assert ("DC403", "Pot of Greed") in found and ("DC402", "Obelisk the Tormentor") in found
    assert report["banlist"]["effective"] == "2002-07-01"


def test_speed_ocg_examples_on_builtin_data(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _run(capsys, ["--format", "speed-ocg", str(REPO / "examples" / "speed-ocg")])
    assert code == 1
    by_name = {Path(d["input"]).name: d for d in report["decks"]}
    assert by_name["legal.ydk"]["legal"] is True
    codes = {f["code"] for f in by_name["illegal.ydk"]["findings"]}
    assert {"DC201", "DC401"} <= codes
