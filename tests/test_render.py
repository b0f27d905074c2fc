"""Renderers: golden output per kind from one set of reports, escaping, JSON shape, exit codes.

Regenerate the golden files after a deliberate output change with
``DECKCHECK_UPDATE_GOLDEN=1 python -m pytest tests/test_render.py``.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from deckcheck import render
from deckcheck.errors import EXIT_ILLEGAL, EXIT_OK
from deckcheck.model import Banlist, Deck, DeckEntry, Finding
from deckcheck.render.github import escape_data, escape_property
from deckcheck.report import DeckReport, Summary, exit_code
from deckcheck.validate import unreadable, validate_deck
from tests.test_rules import BASE, CARDS, FILLERS

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("DECKCHECK_UPDATE_GOLDEN") == "1"
LIST = Banlist("2026.05 TEST", "test", dt.date(2026, 5, 18), limits={23434538: 1, 100: 0})
DATE = dt.date(2026, 6, 1)


def _deck(
    source: str, main: list[int], extra: tuple[int, ...] = (), side: tuple[int, ...] = ()
) -> Deck:
    deck = Deck(source=source)
    line = 0
    for section, ids in (("main", main), ("extra", extra), ("side", side)):
        line += 1  # the section marker
        for cid in ids:
            line += 1
            deck.section(section).append(DeckEntry(section, cid, line))
    return deck


def sample_reports() -> list[DeckReport]:
    fill = [i for i in FILLERS[:13] for _ in range(3)]
    legal = _deck("decks/legal.ydk", fill + [102], (200, 201))
    illegal = _deck(
        "decks/odd, name: 100%.ydk", fill[:36] + [23434538, 23434539, 200, 700], (102,), (100,)
    )
    illegal.findings.append(
        Finding("DC101", "unreadable-line", "error", "cannot read line: 'abc'", "main", 3)
    )
    return [
        validate_deck(legal, BASE, LIST, CARDS, date=DATE),
        validate_deck(illegal, BASE, LIST, CARDS, date=DATE),
        unreadable("decks/broken.ydk", "cannot read the deck: binary input", BASE, LIST),
        DeckReport(
            "decks/warned.ydk",
            True,
            {"main": 40, "extra": 0, "side": 0},
            (Finding("DC502", "not-released", "warning", "Multi\nline, 50% sure", "main", 7),),
            "test",
            "2026.05 TEST",
            "2026-05-18",
        ),
    ]


META = render.Meta(
    "test", "Test Advanced", "2026.05 TEST", "2026-05-18", "2026-06-01",
    list_source="tests/test_render.py (hand-made list)", list_date_exact=True,
)


def run(kind: str, reports: list[DeckReport], color: bool = False) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    r = render.make(kind, out, err, color=color)
    r.start(META)
    summary = Summary()
    for rep in reports:
        summary.add(rep)
        r.deck(rep)
    r.finish(summary)
    return out.getvalue(), err.getvalue()


SUFFIX = {"text": "txt", "json": "json", "github": "txt", "junit": "xml", "csv": "csv"}


@pytest.mark.parametrize("kind", sorted(render.KINDS))
def test_golden(kind: str) -> None:
    out, err = run(kind, sample_reports())
    path = GOLDEN / f"validate.{kind}.{SUFFIX[kind]}"
    if UPDATE:
        path.write_text(out, encoding="utf-8")
    assert out == path.read_text(encoding="utf-8"), f"golden {path.name} differs"
    assert err == (
        "4 decks checked (Test Advanced, 2026.05 TEST (effective 2026-05-18), 2026-06-01): "
        "2 legal, 2 illegal, 1 with warnings\n"
    )


def test_sample_reports_are_what_the_golden_files_claim() -> None:
    legal, illegal, broken, _ = sample_reports()
    assert legal.legal and not legal.findings
    assert sorted({f.code for f in illegal.findings}) == [
        "DC101",
        "DC301",
        "DC302",
        "DC402",
        "DC403",
    ]
    assert not broken.legal and broken.findings[0].code == "DC101"


def test_json_parses_and_has_spec_keys() -> None:
    out, _ = run("json", sample_reports())
    doc = json.loads(out)
    assert doc["schema_version"] == 1
    assert doc["format"]["id"] == "test"
    assert doc["banlist"] == {  # source and date_exact: issue 15 (SPEC §7 adds them)
        "name": "2026.05 TEST", "effective": "2026-05-18",
        "source": "tests/test_render.py (hand-made list)", "date_exact": True,
    }
    assert doc["summary"] == {"decks": 4, "legal": 2, "illegal": 2}
    deck = doc["decks"][1]
    assert set(deck) >= {"input", "legal", "counts", "findings"}
    limited = next(f for f in deck["findings"] if f["code"] == "DC403")
    assert limited == {
        "code": "DC403",
        "rule": "limited",
        "severity": "error",
        "message": 'Maxx "C" (23434538): 2 copies, but it is Limited (1) on 2026.05 TEST '
        "(effective 2026-05-18)",
        "section": "main",
        "line": 38,
        "card": {"id": 23434538, "name": 'Maxx "C"'},
        "count": 2,
        "limit": 1,
    }


def test_json_parses_with_no_decks_and_no_list() -> None:
    out, err = io.StringIO(), io.StringIO()
    r = render.make("json", out, err)
    r.start(render.Meta("legacy", "Legacy", None, None, "2026-06-01"))
    r.finish(Summary())
    doc = json.loads(out.getvalue())
    assert doc["decks"] == [] and doc["banlist"] is None


def test_github_escapes_data_and_properties() -> None:
    assert escape_data("a%b\r\nc") == "a%25b%0D%0Ac"
    assert escape_property("x, y: z%") == "x%2C y%3A z%25"
    out, _ = run("github", sample_reports()[1:2])
    lines = out.splitlines()
    assert all(line.startswith("::error file=decks/odd%2C name%3A 100%25.ydk,") for line in lines)
    card_line = next(line for line in lines if "700" in line or "DC403" in line)
    # The message part keeps ':' and ',' (only properties escape them).
    assert card_line.endswith("on 2026.05 TEST (effective 2026-05-18)")
    assert ",line=38,title=DC403 limited::" in card_line


def test_github_escapes_card_names_with_commas_and_colons() -> None:
    f = Finding(
        "DC402", "forbidden", "error", "Card, with: punctuation (700): 100% out\n", "main", 4
    )
    rep = DeckReport("a:b,c.ydk", False, {"main": 1, "extra": 0, "side": 0}, (f,), "test")
    out, _ = run("github", [rep])
    assert out == (
        "::error file=a%3Ab%2Cc.ydk,line=4,title=DC402 forbidden::"
        "Card, with: punctuation (700): 100%25 out%0A\n"
    )


def test_warning_annotation() -> None:
    out, _ = run("github", sample_reports()[3:])
    assert out.startswith("::warning file=decks/warned.ydk,line=7,title=DC502 not-released::")
    assert "Multi%0Aline, 50%25 sure" in out


def test_junit_one_testcase_per_deck_failures_list_findings() -> None:
    out, _ = run("junit", sample_reports())
    root = ET.fromstring(out)
    cases = root.findall("./testsuite/testcase")
    assert [c.get("name") for c in cases] == [
        "decks/legal.ydk",
        "decks/odd, name: 100%.ydk",
        "decks/broken.ydk",
        "decks/warned.ydk",
    ]
    assert cases[0].find("failure") is None
    failure = cases[1].find("failure")
    assert failure is not None and "DC403" in (failure.text or "")
    assert cases[3].find("failure") is None


def test_csv_one_row_per_deck() -> None:
    out, _ = run("csv", sample_reports())
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["input", "legal", "main", "extra", "side", "codes"]
    assert rows[1] == ["decks/legal.ydk", "true", "40", "2", "0", ""]
    assert rows[2][0] == "decks/odd, name: 100%.ydk"
    assert rows[2][5] == "DC101 DC301 DC302 DC402 DC403"
    assert len(rows) == 5


def test_text_colour_only_when_asked() -> None:
    plain, _ = run("text", sample_reports())
    coloured, _ = run("text", sample_reports(), color=True)
    assert "\x1b[" not in plain
    assert "\x1b[31millegal\x1b[0m" in coloured


def test_exit_code() -> None:
    legal, illegal, _, warned = sample_reports()
    assert exit_code([legal]) == EXIT_OK
    assert exit_code([]) == EXIT_OK
    assert exit_code([legal, illegal]) == EXIT_ILLEGAL
    assert exit_code([warned]) == EXIT_OK
    assert exit_code([warned], strict=True) == EXIT_ILLEGAL
    s = Summary()
    s.add(warned, strict=True)
    assert exit_code(s) == EXIT_ILLEGAL
    s2 = Summary()
    s2.add(legal)
    s2.add(warned)
    assert exit_code(s2) == EXIT_OK


def test_reports_are_frozen() -> None:
    rep = sample_reports()[0]
    with pytest.raises(AttributeError):
        rep.legal = False  # type: ignore[misc]
    assert isinstance(rep.findings, tuple)
