"""Issue 20: a deck with several hard links is rewritten in place (every link sees the edit),
which is not atomic; a process killed (real SIGKILL) in that copy leaves the complete new text
as ``<deck>.deckcheck-backup``, and the next edit or show of the deck finds it and says so in
one line instead of working on a half-written file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck.cli import main
from tests.reliability.test_reliability_data import _env

DECK = "#main\n14558127\n14558127\n14558127\n55144522\n55144522\n#extra\n!side\n"

# `deck remove` in a process that kills itself (SIGKILL) the moment the new, shorter text has
# been written over the old in place and before the file is cut to its length: the deck is
# torn (new text followed by the old text's tail), the worst point of the copy.
_KILLED_IN_THE_COPY = (
    "import os, signal, sys\n"
    "def die(fd, n):\n"
    "    os.kill(os.getpid(), signal.SIGKILL)\n"
    "os.ftruncate = die\n"
    "from deckcheck.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def killed_edit(deck: Path) -> int:
    p = subprocess.run(
        [
            sys.executable,
            "-c",
            _KILLED_IN_THE_COPY,
            "deck",
            "remove",
            str(deck),
            "14558127",
            "-n",
            "2",
        ],
        env=_env(),
        capture_output=True,
        timeout=120,
        check=False,
    )
    return p.returncode


def test_killed_in_place_rewrite_is_found_and_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck, other = tmp_path / "a.ydk", tmp_path / "b.ydk"
    deck.write_text(DECK)
    os.link(deck, other)
    assert killed_edit(deck) == -9
    backup = tmp_path / "a.ydk.deckcheck-backup"
    assert backup.is_file()
    expected = "#main\n14558127\n55144522\n55144522\n#extra\n!side\n"
    assert backup.read_text() == expected  # the whole edit, ready to be used
    assert deck.read_text() != expected and deck.read_text() != DECK  # torn
    for argv in (
        ["deck", "add", str(deck), "14558127"],
        ["deck", "show", str(deck)],
        ["deck", "add", str(other), "14558127"],
    ):
        capsys.readouterr()
        assert main(argv) == 2
        err = [
            ln
            for ln in capsys.readouterr().err.splitlines()
            if not ln.startswith("deckcheck: note:")
        ]
        assert len(err) == 1 and "an earlier edit of this file was interrupted" in err[0], err
        assert str(backup) in err[0]
    assert deck.read_text() != DECK and backup.is_file()  # nothing touched meanwhile
    # the way out the message gives: copy the backup over the deck (every link sees it)
    deck.write_bytes(backup.read_bytes())
    assert main(["deck", "add", str(deck), "14558127"]) == 0
    assert not backup.exists()  # same text as the deck: the rewrite had finished
    assert other.read_text() == "#main\n14558127\n14558127\n55144522\n55144522\n#extra\n!side\n"
    assert deck.stat().st_ino == other.stat().st_ino


def test_a_finished_rewrite_whose_backup_stayed_is_tidied(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck, other = tmp_path / "a.ydk", tmp_path / "b.ydk"
    deck.write_text(DECK)
    os.link(deck, other)
    # killed after the copy, before the backup was removed: both hold the same text
    (tmp_path / "a.ydk.deckcheck-backup").write_text(DECK)
    assert main(["deck", "remove", str(deck), "55144522"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.ydk", "b.ydk"]
    assert other.read_text().count("55144522") == 1


def test_an_edit_that_completes_leaves_no_backup(tmp_path: Path) -> None:
    deck, other = tmp_path / "a.ydk", tmp_path / "b.ydk"
    deck.write_text(DECK)
    os.link(deck, other)
    assert main(["deck", "remove", str(deck), "14558127", "-n", "2"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.ydk", "b.ydk"]
    assert other.read_text() == "#main\n14558127\n55144522\n55144522\n#extra\n!side\n"
