"""Issue 20: a deck with several hard links is rewritten in place (every link sees the edit),
which is not atomic; a process killed (real SIGKILL) in that copy leaves the complete new text
as ``<deck>.deckcheck-backup``, and the next edit or show of the deck finds it and finishes
the interrupted edit from it (issue 32), or, when nothing vouches for the backup, says so in
one line instead of working on a half-written file."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from deckcheck.cli import main
from tests.builders import child_env, run_process

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


def _linked(folder: Path) -> tuple[Path, Path]:
    """``DECK`` as ``a.ydk`` in ``folder``, and ``b.ydk`` a second hard link to it."""
    deck, other = folder / "a.ydk", folder / "b.ydk"
    deck.write_text(DECK)
    os.link(deck, other)
    return deck, other


def killed_edit(deck: Path) -> int:
    argv = ["deck", "remove", str(deck), "14558127", "-n", "2"]
    p = run_process(
        [sys.executable, "-c", _KILLED_IN_THE_COPY, *argv], env=child_env(), timeout=120
    )
    return p.returncode


def test_killed_in_place_rewrite_is_recovered_by_the_next_edit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck, other = _linked(tmp_path)
    assert killed_edit(deck) == -9
    backup = tmp_path / "a.ydk.deckcheck-backup"
    assert backup.is_file()
    expected = "#main\n14558127\n55144522\n55144522\n#extra\n!side\n"
    assert backup.read_text() == expected  # the whole edit, ready to be used
    assert deck.read_text() != expected and deck.read_text() != DECK  # torn
    # the next edit, through the other name, finishes the interrupted one first (issue 32:
    # it refused, and the backup blocked every later edit until the user acted)
    capsys.readouterr()
    assert main(["deck", "add", str(other), "14558127"]) == 0
    err = capsys.readouterr().err
    assert "an earlier edit was interrupted" in err and f"finished it from {backup}" in err
    assert not backup.exists()
    assert other.read_text() == "#main\n14558127\n14558127\n55144522\n55144522\n#extra\n!side\n"
    assert deck.stat().st_ino == other.stat().st_ino
    assert main(["deck", "show", str(deck)]) == 0


def test_a_backup_nothing_vouches_for_is_named_not_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from deckcheck import paths

    deck, _other = _linked(tmp_path)
    assert killed_edit(deck) == -9
    for m in (paths.cache_dir() / "locks").glob("rewrite-*"):
        m.unlink()  # the cache cleared: which text is whose can no longer be told
    backup = tmp_path / "a.ydk.deckcheck-backup"
    for argv in (["deck", "add", str(deck), "14558127"], ["deck", "show", str(deck)]):
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


def test_a_backup_of_a_rewrite_that_never_began_is_removed(tmp_path: Path) -> None:
    import json

    from deckcheck import fsio, paths

    deck, other = _linked(tmp_path)
    backup = tmp_path / "a.ydk.deckcheck-backup"
    backup.write_text("#main\n55144522\n#extra\n!side\n")
    st = deck.stat()
    marker = paths.cache_dir() / "locks" / f"rewrite-{st.st_dev}-{st.st_ino}"
    marker.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "backup": str(backup),
        "old": fsio.sha256_bytes(DECK.encode()),
        "new": fsio.sha256_bytes(backup.read_bytes()),
    }
    marker.write_text(json.dumps(record))
    # killed before the first byte of the deck changed: the deck is whole, the edit never was
    assert main(["deck", "remove", str(deck), "55144522"]) == 0
    assert not backup.exists() and not marker.exists()
    assert other.read_text().count("55144522") == 1 and other.read_text().count("14558127") == 3


def test_no_backup_when_the_rewrite_fails_before_the_file_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from deckcheck import fsio

    deck, _other = _linked(tmp_path)
    real_open = os.open

    def refuse(path: object, flags: int, *a: object) -> int:
        if str(path) == str(deck) and flags & os.O_WRONLY:
            raise OSError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *a)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(OSError, match="Permission denied"):
        fsio.write_atomic(deck, "#main\n#extra\n!side\n")
    monkeypatch.setattr(os, "open", real_open)
    assert deck.read_text() == DECK
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.ydk", "b.ydk"]  # no backup


def test_a_finished_rewrite_whose_backup_stayed_is_tidied(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck, other = _linked(tmp_path)
    # killed after the copy, before the backup was removed: both hold the same text
    (tmp_path / "a.ydk.deckcheck-backup").write_text(DECK)
    assert main(["deck", "remove", str(deck), "55144522"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.ydk", "b.ydk"]
    assert other.read_text().count("55144522") == 1


def test_an_edit_that_completes_leaves_no_backup(tmp_path: Path) -> None:
    deck, other = _linked(tmp_path)
    assert main(["deck", "remove", str(deck), "14558127", "-n", "2"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.ydk", "b.ydk"]
    assert other.read_text() == "#main\n14558127\n55144522\n55144522\n#extra\n!side\n"
