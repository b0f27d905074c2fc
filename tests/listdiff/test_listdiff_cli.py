"""`banlist diff` on small hand-written lflist.conf files: renderers, escaping, errors.

Runs without ../shared/data (the lists are given as file paths).
"""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from deckcheck.commands.banlist_diff import diff
from deckcheck.errors import InputError
from deckcheck.inputs import deck_paths
from deckcheck.render.listdiff import _md

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "listdiff"
OLD, NEW = str(FIXTURES / "old.lflist.conf"), str(FIXTURES / "new.lflist.conf")
POT, MAXX, ASH = 55144522, 23434538, 14558127
DARK_HOLE, RAIGEKI, REBORN = 53129443, 12580477, 83764718


def run(cmd: click.Command, args: list[str]) -> tuple[int, str, str]:
    r = CliRunner().invoke(cmd, args, standalone_mode=False, catch_exceptions=False)
    return r.return_value, r.stdout, r.stderr


def test_json_diff_of_two_files() -> None:
    code, out, _ = run(diff, [OLD, NEW, "-o", "json"])
    assert code == 0
    data = json.loads(out)
    assert data["schema_version"] == 1
    assert (data["old"]["name"], data["new"]["name"]) == ("2025.01 Test", "2025.04 Test")
    got = {
        c["card"]["id"]: (c["kind"], c["old"]["limit"], c["new"]["limit"]) for c in data["changes"]
    }
    assert got == {
        REBORN: ("forbidden", 3, 0),
        RAIGEKI: ("limited", 3, 1),
        MAXX: ("moved", 1, 0),
        ASH: ("moved", 2, 1),
        DARK_HOLE: ("unlimited", 1, 3),
    }
    assert data["summary"]["moved"] == 2 and data["summary"]["unlimited"] == 1
    assert "decks" not in data


def test_text_diff_is_in_announcement_order() -> None:
    code, out, _ = run(diff, [OLD, NEW])
    assert code == 0
    headings = [ln for ln in out.splitlines() if ln and not ln.startswith(" ")][2:]
    assert headings == [
        "Newly Forbidden (1)",
        "Newly Limited (1)",
        "Limited → Forbidden (1)",
        "Semi-Limited → Limited (1)",
        "No longer on the list (Unlimited) (1)",
    ]
    assert "  Monster Reborn [83764718]  (was Unlimited)" in out
    assert "  Dark Hole [53129443]  (was Limited)" in out


def test_markdown_diff_tables() -> None:
    code, out, _ = run(diff, [OLD, NEW, "-o", "markdown"])
    assert code == 0
    assert out.startswith("## Forbidden & Limited list changes: 2025.04 Test\n")
    assert (
        "### Limited → Forbidden (1)\n\n| Card | Passcode | Was | Now |\n|---|---:|---|---|\n"
        in out
    )
    assert '| Maxx "C" | 23434538 | Limited | Forbidden |' in out
    assert "| Ash Blossom & Joyous Spring | 14558127 | Semi-Limited | Limited |" in out
    # Every table row has the same number of cells as its header.
    for line in out.splitlines():
        if line.startswith("| ") and "Passcode" not in line:
            assert line.count(" | ") == 3, line


def test_no_changes_between_a_list_and_itself() -> None:
    code, out, _ = run(diff, [OLD, OLD, "-o", "markdown"])
    assert code == 0
    assert "No card changed status." in out
    code, out, _ = run(diff, [OLD, OLD])
    assert "no changes" in out


def test_markdown_escaping_keeps_tables_intact() -> None:
    assert _md("A|B") == "A\\|B"
    assert _md("*Star* _under_ <tag> [x]") == "\\*Star\\* \\_under\\_ \\<tag\\> \\[x\\]"
    assert _md('Maxx "C"') == 'Maxx "C"'


def test_missing_deck_path_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError):
        deck_paths([tmp_path / "nope.ydk"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError):
        deck_paths([tmp_path / "empty"])
    got = deck_paths([FIXTURES / "decks"])
    assert [p.name for p in got] == ["plain.ydk", "splash.ydk"]


def test_unknown_list_ref_exits_2() -> None:
    from deckcheck.cli import main

    assert main(["banlist", "diff", OLD, "tcg@1900-01-01"]) == 2


def test_blacklist_to_whitelist_is_flagged(tmp_path: Path) -> None:
    white = tmp_path / "white.lflist.conf"
    white.write_text(
        '!2025.06 Pool\n$whitelist\n55144522 0 --Pot of Greed\n23434538 3 --Maxx "C"\n',
        encoding="utf-8",
    )
    code, out, _ = run(diff, [OLD, str(white), "-o", "json"])
    assert code == 0
    data = json.loads(out)
    assert data["mode_changed"] is True
    got = {c["card"]["id"]: (c["old"]["limit"], c["new"]["limit"]) for c in data["changes"]}
    # Named by the new pool: Maxx back to 3; named only by the old list: out of the pool.
    assert got == {MAXX: (1, 3), DARK_HOLE: (1, None), ASH: (2, None)}
    code, md, _ = run(diff, [OLD, str(white), "-o", "markdown"])
    assert "> Note: 2025.01 Test is a blacklist and 2025.06 Pool a whitelist" in md


def test_banlist_group_lists_diff_and_history(capsys: pytest.CaptureFixture[str]) -> None:
    from deckcheck.cli import main

    assert main(["banlist", "--help"]) == 0
    out = capsys.readouterr().out
    assert "diff" in out and "history" in out
    assert main(["banlist", "diff", "--help"]) == 0
    assert "--fail-on-impact" in capsys.readouterr().out
