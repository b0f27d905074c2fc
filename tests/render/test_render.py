"""Renderers: golden output per kind from one set of reports, escaping, JSON shape, exit codes.

Regenerate the golden files after a deliberate output change with
``python -m pytest tests/render/test_render.py --update-golden`` (the suite's one switch, see the
``golden`` fixture in tests/conftest.py), then re-run without it.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from deckcheck import render
from deckcheck.engine import Engine
from deckcheck.errors import EXIT_ILLEGAL, EXIT_OK
from deckcheck.model import SECTIONS, Banlist, Deck, DeckEntry, Finding
from deckcheck.render.github import escape_data, escape_property
from deckcheck.report import DeckReport, Summary, Waivers, exit_code
from deckcheck.validate import Target, unreadable, validate_deck
from tests.conftest import GoldenCheck
from tests.rules.test_rules import BASE, CARDS, FILLERS

GOLDEN = Path(__file__).parent.parent / "golden"
LIST = Banlist("2026.05 TEST", "test", dt.date(2026, 5, 18), limits={23434538: 1, 100: 0})
DATE = dt.date(2026, 6, 1)


def _deck(
    source: str, main: list[int], extra: tuple[int, ...] = (), side: tuple[int, ...] = ()
) -> Deck:
    deck = Deck(source=source)
    line = 0
    for section, ids in zip(SECTIONS, (main, extra, side), strict=True):
        line += 1  # the section marker
        for cid in ids:
            line += 1
            deck.section(section).append(DeckEntry(section, cid, line))
    return deck


def sample_reports() -> list[DeckReport]:
    fill = [i for i in FILLERS[:13] for _ in range(3)]
    legal = _deck("decks/legal.ydk", [*fill, 102], (200, 201))
    illegal = _deck(
        "decks/odd, name: 100%.ydk", [*fill[:36], 23434538, 23434539, 200, 700], (102,), (100,)
    )
    illegal.findings.append(
        Finding("DC101", "unreadable-line", "error", "cannot read line: 'abc'", "main", 3)
    )
    return [
        validate_deck(Engine(CARDS), legal, Target(BASE, LIST, DATE)),
        validate_deck(Engine(CARDS), illegal, Target(BASE, LIST, DATE)),
        unreadable(
            "decks/broken.ydk", "cannot read the deck: binary input", Target(BASE, LIST, DATE)
        ),
        DeckReport(
            "decks/warned.ydk",
            True,
            {"main": 40, "extra": 0, "side": 0},
            (Finding("DC502", "not-released", "warning", "Multi\nline, 50% sure", "main", 7),),
            "test",
            "2026.05 TEST",
            "2026-05-18",
        ),
        Waivers(ignore=["DC501"]).apply(
            DeckReport(
                "decks/p1.ydk",
                False,
                {"main": 40, "extra": 0, "side": 0},
                (Finding("DC501", "not-in-region", "error", "OCG only", "main", 9, 700, "X"),),
                "test",
                "2026.05 TEST",
                "2026-05-18",
                player="Alice | Smith",
            )
        ),
    ]


META = render.Meta(
    "test",
    "Test Advanced",
    "2026.05 TEST",
    "2026-05-18",
    "2026-06-01",
    list_source="tests/render/test_render.py (hand-made list)",
    list_date_exact=True,
)


def run(kind: str, reports: list[DeckReport], color: bool = False) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    r = render.make(kind, out, err, color=color)
    if hasattr(r, "clock"):  # JUnit times: a clock that ticks 0.25 s per call
        ticks = iter(range(1000))
        r.clock = lambda: next(ticks) * 0.25  # type: ignore[attr-defined]
    r.start(META)
    summary = Summary()
    for rep in reports:
        summary.add(rep)
        r.deck(rep)
    r.finish(summary)
    return out.getvalue(), err.getvalue()


SUFFIX = {"text": "txt", "json": "json", "github": "txt", "junit": "xml", "csv": "csv"}
SUFFIX["html"] = "html"  # issue 17


@pytest.mark.parametrize("kind", sorted(render.KINDS))
def test_golden(kind: str, golden: GoldenCheck) -> None:
    out, err = run(kind, sample_reports())
    golden(GOLDEN / f"validate.{kind}.{SUFFIX[kind]}", out)
    assert err == (
        "5 decks checked (Test Advanced, 2026.05 TEST (effective 2026-05-18), 2026-06-01): "
        "3 legal, 2 illegal, 1 with warnings\n"
    )


def test_sample_reports_are_what_the_golden_files_claim() -> None:
    legal, illegal, broken, _, waived = sample_reports()
    assert waived.legal and waived.findings[0].waived and waived.waived == 1
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
        "name": "2026.05 TEST",
        "effective": "2026-05-18",
        "source": "tests/render/test_render.py (hand-made list)",
        "date_exact": True,
    }
    assert doc["summary"] == {"decks": 5, "legal": 3, "illegal": 2}
    assert doc["decks"][4]["player"] == "Alice | Smith"
    assert doc["decks"][4]["legal"] is True
    assert doc["decks"][4]["findings"][0]["waived"] is True
    assert "waived" not in doc["decks"][1]["findings"][0]  # added only where it is true
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
    out, _ = run("github", sample_reports()[3:4])
    assert out.startswith("::warning file=decks/warned.ydk,line=7,title=DC502 not-released::")
    assert "Multi%0Aline, 50%25 sure" in out


def test_junit_one_testcase_per_deck_failures_list_findings() -> None:
    out, _ = run("junit", sample_reports())
    root = ET.fromstring(out)
    suite = root.find("testsuite")
    assert suite is not None
    # broken.ydk cannot be read at all: an error; the illegal deck: a failure.
    for node in (root, suite):
        assert {k: node.get(k) for k in ("tests", "failures", "errors", "skipped")} == {
            "tests": "5",
            "failures": "1",
            "errors": "1",
            "skipped": "0",
        }
        assert node.get("time") == "1.500"  # the test clock: 6 ticks of 0.25 s
    cases = root.findall("./testsuite/testcase")
    assert [c.get("name") for c in cases] == [
        "decks/legal.ydk",
        "decks/odd, name: 100%.ydk",
        "decks/broken.ydk",
        "decks/warned.ydk",
        "decks/p1.ydk",
    ]
    assert [c.get("time") for c in cases] == ["0.250"] * 5
    assert cases[0].find("failure") is None and cases[0].find("error") is None
    failure = cases[1].find("failure")
    assert failure is not None and "DC403" in (failure.text or "")
    assert "error DC402 [forbidden]" in (failure.text or "")
    assert failure.get("message") == "5 finding(s): DC101, DC301, DC302, DC402, DC403"
    error = cases[2].find("error")
    assert error is not None and "binary input" in (error.text or "")
    assert cases[3].find("failure") is None
    assert "warning DC502" in (cases[3].findtext("system-out") or "")
    assert cases[4].find("failure") is None
    assert "waived error DC501" in (cases[4].findtext("system-out") or "")
    prop = cases[4].find("properties/property")
    assert prop is not None and prop.get("value") == "Alice | Smith"


def test_junit_strict_makes_warnings_failures() -> None:
    out, err = io.StringIO(), io.StringIO()
    r = render.make("junit", out, err)
    r.start(render.Meta("test", "Test", None, None, "2026-06-01", strict=True))
    s = Summary()
    warned = sample_reports()[3]
    s.add(warned, strict=True)
    r.deck(warned)
    r.finish(s)
    root = ET.fromstring(out.getvalue())
    assert root.get("failures") == "1"
    f = root.find("./testsuite/testcase/failure")
    assert f is not None and f.get("message") == "1 finding(s): DC502"


def test_csv_one_row_per_finding() -> None:
    out, _ = run("csv", sample_reports())
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == [
        "deck",
        "player",
        "verdict",
        "code",
        "severity",
        "waived",
        "section",
        "line",
        "card_id",
        "card_name",
        "message",
    ]
    assert rows[0]["deck"] == "decks/legal.ydk" and rows[0]["code"] == ""
    assert rows[0]["verdict"] == "legal"
    odd = [r for r in rows if r["deck"] == "decks/odd, name: 100%.ydk"]
    assert [r["code"] for r in odd] == ["DC101", "DC403", "DC301", "DC302", "DC402"]
    limited = odd[1]
    assert limited == {
        "deck": "decks/odd, name: 100%.ydk",
        "player": "",
        "verdict": "illegal",
        "code": "DC403",
        "severity": "error",
        "waived": "false",
        "section": "main",
        "line": "38",
        "card_id": "23434538",
        "card_name": 'Maxx "C"',
        "message": 'Maxx "C" (23434538): 2 copies, but it is Limited (1) on 2026.05 TEST '
        "(effective 2026-05-18)",
    }
    warned = next(r for r in rows if r["deck"] == "decks/warned.ydk")
    assert warned["message"] == "Multi line, 50% sure" and warned["verdict"] == "warnings"
    p1 = rows[-1]
    assert (p1["player"], p1["waived"], p1["verdict"]) == ("Alice | Smith", "true", "legal")
    assert len(rows) == 1 + 5 + 1 + 1 + 1


def test_csv_decks_one_row_per_deck() -> None:
    out, err = io.StringIO(), io.StringIO()
    r = render.make("csv", out, err)
    r.per_deck = True  # type: ignore[attr-defined]
    r.start(META)
    for rep in sample_reports():
        r.deck(rep)
    r.finish(Summary())
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[0] == [
        "input",
        "player",
        "legal",
        "verdict",
        "main",
        "extra",
        "side",
        "errors",
        "warnings",
        "waived",
        "codes",
    ]
    assert rows[1] == ["decks/legal.ydk", "", "true", "legal", "40", "2", "0", "0", "0", "0", ""]
    assert rows[2][0] == "decks/odd, name: 100%.ydk"
    assert rows[2][10] == "DC101 DC301 DC302 DC402 DC403"
    assert rows[5][1:4] == ["Alice | Smith", "true", "legal"] and rows[5][9:] == ["1", ""]
    assert len(rows) == 6


def test_text_marks_waived_findings_and_names_a_player_line() -> None:
    out, _ = run("text", sample_reports()[4:])
    assert out.splitlines() == [
        "decks/p1.ydk [player Alice | Smith]: legal (main 40, extra 0, side 0; 1 waived)",
        "  main:9 waived error DC501 [not-in-region] OCG only",
    ]


def test_github_waived_is_a_notice_and_step_summary_table() -> None:
    from deckcheck.render.github import step_summary

    out, _ = run("github", sample_reports()[4:])
    assert out == "::notice file=decks/p1.ydk,line=9,title=DC501 not-in-region (waived)::OCG only\n"
    s = Summary()
    rows = []
    for rep in sample_reports():
        s.add(rep)
        live = len(rep.findings) - rep.waived
        rows.append((rep.input, rep.player, rep.verdict(), live, rep.first_reason()))
    md = step_summary(rows, META, s)
    lines = md.splitlines()
    assert lines[0] == "## deckcheck"
    assert lines[4] == "| deck | player | verdict | findings | first reason |"
    assert lines[6] == "| decks/legal.ydk |  | ✅ legal | 0 |  |"
    assert lines[7].startswith("| decks/odd, name: 100%.ydk |  | ❌ illegal | 5 | DC101 cannot")
    assert lines[9] == "| decks/warned.ydk |  | ⚠️ warnings | 1 | DC502 Multi line, 50% sure |"
    assert lines[10] == "| decks/p1.ydk | Alice \\| Smith | ✅ legal | 0 |  |"


def test_text_colour_only_when_asked() -> None:
    plain, _ = run("text", sample_reports())
    coloured, _ = run("text", sample_reports(), color=True)
    assert "\x1b[" not in plain
    assert "\x1b[31millegal\x1b[0m" in coloured


def test_exit_code() -> None:
    legal, illegal, _, warned, waived = sample_reports()
    assert exit_code([waived], strict=True) == EXIT_OK  # a waived error fails nothing
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
