"""Issue 20: a file or card name holding a newline or a control character never splits an
output line (spoofed verdicts, `::error::` workflow commands) nor breaks JUnit XML — in every
renderer."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from deckcheck.cli import main
from deckcheck.render.common import one_line, xml_text

SPOOF = "x\nevil.ydk: legal (main 40, extra 0, side 0)\n::error file=a::spoofed\x01\x1b[2J\x0c.ydk"
DECK = "#main\n14558127\n#extra\n!side\n"  # one card: illegal (main too small)


@pytest.fixture
def hostile_deck(tmp_path: Path, isolated_home: Path) -> Path:
    from deckcheck.formats.importer import import_lflists
    from tests.conftest import FIXTURES

    import_lflists([FIXTURES / "hostile" / "tiny.lflist.conf"], dest=isolated_home / "banlists")
    p = tmp_path / SPOOF
    p.write_text(DECK)
    return p


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(
        ["validate", "--date", "2020-03-01", *args]
    )  # within the 2020.01 list's 200 days (no DC602)
    out, err = capsys.readouterr()
    return rc, out, err


def test_text_keeps_one_line_per_deck(capsys, hostile_deck: Path) -> None:
    rc, out, err = run(capsys, "-o", "text", str(hostile_deck))
    assert rc == 1, err
    lines = out.splitlines()
    assert not any(ln.startswith(("evil.ydk", "::error")) for ln in lines), out
    assert lines[0].endswith("illegal (main 1, extra 0, side 0)"), out
    assert "\x1b" not in out and "\x01" not in out and "\x0c" not in out
    assert "\\n" in lines[0] and "\\x1b" in lines[0]


def test_github_annotations_cannot_be_spoofed(capsys, hostile_deck: Path) -> None:
    rc, out, _ = run(capsys, "-o", "github", str(hostile_deck))
    assert rc == 1
    lines = out.splitlines()
    assert lines and all(ln.startswith("::error file=") for ln in lines), out
    assert not any(
        "spoofed" in ln.split("::")[1].split(",")[0] and ln.startswith("::error file=a")
        for ln in lines
    )
    assert "\x1b" not in out and "\x01" not in out


def test_junit_is_valid_xml_and_keeps_the_name(capsys, hostile_deck: Path) -> None:
    rc, out, _ = run(capsys, "-o", "junit", str(hostile_deck))
    assert rc == 1
    root = ET.fromstring(out)  # control characters made this raise before
    (case,) = root.iter("testcase")
    assert "evil.ydk" in case.get("name", "") and "\\x01" in case.get("name", "")


def test_csv_one_row_one_line(capsys, hostile_deck: Path) -> None:
    rc, out, _ = run(capsys, "-o", "csv", str(hostile_deck))
    assert rc == 1
    assert len(out.splitlines()) == 2, out
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[1][0].endswith(one_line(SPOOF))


def test_html_escapes_the_name(capsys, hostile_deck: Path) -> None:
    rc, out, _ = run(capsys, "-o", "html", str(hostile_deck))
    assert rc == 1
    assert "evil.ydk" in out and "\x1b" not in out and "\x01" not in out


def test_json_keeps_the_exact_name(capsys, hostile_deck: Path) -> None:
    import json

    rc, out, _ = run(capsys, "-o", "json", str(hostile_deck))
    assert rc == 1
    data = json.loads(out)
    assert data["decks"][0]["input"] == str(hostile_deck)


def test_helpers() -> None:
    assert one_line("a\nb\rc\x1b\x85\u2028\td") == "a\\nb\\rc\\x1b\\x85\\u2028\td"
    assert xml_text("a\ufffe\x00") == "a\\ufffe\\x00"
    ET.fromstring(f"<a b='{xml_text(''.join(map(chr, range(0x20))))}'/>")


def test_markdown_and_text_diff_names(capsys, tmp_path: Path) -> None:
    from deckcheck.render.listdiff import _md, _md_code

    assert "\n" not in _md("a\n| b") and "\\|" in _md("a\n| b")
    assert "`" not in _md_code("a`\nb")


def test_deck_edit_output_names_the_file_on_one_line(capsys, tmp_path: Path) -> None:
    p = tmp_path / "a\n::error::b.ydk"
    p.write_text(DECK)
    capsys.readouterr()
    rc = main(["deck", "add", str(p), "14558127"])
    out, err = capsys.readouterr()
    assert rc in (0, 1), err
    assert not any(ln.startswith("::error::") for ln in out.splitlines()), out
    assert "a\\n::error::b.ydk: added" in out
