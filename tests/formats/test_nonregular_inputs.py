"""`--banlist` and `banlist diff --deck` on a FIFO or a device name what is wrong (issue 32:
"list file not found" for a FIFO that is there, "no such file or folder" for /dev/null)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from deckcheck.cli import main
from deckcheck.errors import EXIT_ERROR

DECK = Path(__file__).parent.parent.parent / "examples" / "dm6" / "legal.ydk"


def _error(capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    capsys.readouterr()
    assert main(args) == EXIT_ERROR
    lines = [ln for ln in capsys.readouterr().err.splitlines() if "note:" not in ln]
    assert len(lines) == 1, lines
    return lines[0]


def test_banlist_on_a_fifo_or_device(
    tmp_path: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "list.lflist.conf"
    os.mkfifo(fifo)  # no writer: opening it would block; it is never opened
    for arg in (str(fifo), "/dev/null", f"{fifo}#2024.4 OCG"):
        got = _error(capsys, ["validate", "-f", "dm6", "--banlist", arg, str(DECK)])
        where = arg.partition("#")[0]
        assert got == (
            f"deckcheck: error: {where}: not a regular file (a .yaml or .lflist.conf file is)"
        )
    got = _error(
        capsys, ["validate", "-f", "dm6", "--banlist", str(tmp_path / "x.conf"), str(DECK)]
    )
    assert got.endswith("x.conf: list file not found")


def test_banlist_diff_deck_on_a_device_or_fifo(
    tmp_path: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "deck.ydk"
    os.mkfifo(fifo)
    diff = ["banlist", "diff", "dm5@2026-01-01", "dm6@2026-01-01", "--deck"]
    for arg in ("/dev/null", str(fifo)):
        got = _error(capsys, [*diff, arg])
        assert got == f"deckcheck: error: {arg}: not a regular file (a deck file or folder is)"
    got = _error(capsys, [*diff, str(tmp_path / "none.ydk")])
    assert got.endswith("none.ydk: no such file or folder")
