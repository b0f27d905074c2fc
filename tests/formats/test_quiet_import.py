"""`banlist import` is quiet by default (issue 32): a summary line and the notes counted by
kind instead of every path written and every note; ``-v`` says them all."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck.cli import main
from deckcheck.commands.quiet import NoteTally
from deckcheck.notes import note


def _lists(path: Path, n: int) -> Path:
    body = "".join(f"!2026.{m:02d} TCG\n55144522 {m % 3}\n" for m in range(1, n + 1))
    path.write_text(body, encoding="utf-8")
    return path


def test_banlist_import_is_quiet_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _lists(tmp_path / "many.lflist.conf", 12)
    assert main(["banlist", "import", str(src)]) == 0
    out, err = capsys.readouterr()
    assert out == ""  # before: one path per list written
    assert err.splitlines()[0] == "12 list(s): 12 written, 0 unchanged"
    assert len(err.splitlines()) <= 4, err
    src = _lists(tmp_path / "more.lflist.conf", 3)
    (tmp_path / "out").mkdir()
    assert main(["banlist", "import", "-v", "--out", str(tmp_path / "out"), str(src)]) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 3 and all(line.endswith(".yaml") for line in out.splitlines())


def test_notes_are_counted_by_kind(capsys: pytest.CaptureFixture[str]) -> None:
    with NoteTally(verbose=False) as tally:
        for i in range(5):
            note(f"deckcheck: note: ocg 2020-0{i}-01: a and b differ on 2 card(s): …")
        note("deckcheck: note: x.vector.json: 1 id(s) or name(s) map to no card (e.g. 1)")
        note("deckcheck: warning: tcg 2026-01-01 (x) not installed: the list is empty")
        note("deckcheck: note: another import or update holds /h/.lock; waiting for it")
        note("deckcheck: note: something else")
    err = capsys.readouterr().err
    assert err == "deckcheck: note: another import or update holds /h/.lock; waiting for it\n"
    lines = tally.lines("see -v")
    assert lines == [
        (
            "deckcheck: 7 note(s): 5 list(s) two sources disagree on (the official one kept), "
            "1 list(s) with entries that map to no card (left out), 1 other note(s)"
        ),
        (
            "deckcheck: warning: 1 upstream list(s) refused as faults (the previous list stays "
            "in force): tcg 2026-01-01"
        ),
        "deckcheck: details: see -v",
    ]
    with NoteTally(verbose=True) as loud:
        note("deckcheck: note: said at once")
    assert capsys.readouterr().err == "deckcheck: note: said at once\n" and loud.lines("x") == []


def test_other_warnings_are_said_whole_a_few_at_most() -> None:
    with NoteTally(verbose=False) as tally:
        for i in range(5):
            note(f"deckcheck: warning: odd thing {i}")
    assert tally.lines("d") == [
        "deckcheck: warning: odd thing 0",
        "deckcheck: warning: odd thing 1",
        "deckcheck: warning: odd thing 2",
        "deckcheck: warning: and 2 more warning(s)",
        "deckcheck: details: d",
    ]
