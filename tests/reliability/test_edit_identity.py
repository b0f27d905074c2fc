"""Edit locks per file identity (issue 32): edits of one deck through two hard-link names (and
a symlink) wait for each other, so none that exited 0 is lost; the backup of an in-place
rewrite exists only while a write is really interrupted, and the next edit recovers it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from deckcheck.cli import main
from tests.reliability.test_reliability_data import ASH, copies, run_together


def test_edits_through_hard_links_and_a_symlink_keep_every_edit(tmp_path: Path) -> None:
    deck = tmp_path / "a.ydk"
    assert main(["deck", "new", str(deck)]) == 0
    assert main(["deck", "add", str(deck), str(ASH)]) == 0  # warms the lookup cache
    os.link(deck, tmp_path / "b.ydk")
    (tmp_path / "c.ydk").symlink_to("b.ydk")
    names = [deck, tmp_path / "b.ydk", tmp_path / "c.ydk"]
    n = 9
    for rnd in range(1):
        before = copies(deck, ASH)
        codes = run_together(
            [["deck", "add", str(names[i % 3]), str(ASH), "--force"] for i in range(n)],
            tmp_path / f"go{rnd}",
        )
        # every process that said it added its copy has it in the file (before: the lock was
        # per name, and an edit through the other name was written over)
        assert copies(deck, ASH) == before + codes.count(0), codes
        assert codes.count(0) == n, codes
    assert deck.stat().st_ino == (tmp_path / "b.ydk").stat().st_ino  # still one file
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix != "") == [
        "a.ydk",
        "b.ydk",
        "c.ydk",
    ]  # no backup left behind


def test_the_lock_follows_the_file_not_the_name(tmp_path: Path) -> None:
    from deckcheck.deckedit.files import EditLock

    deck = tmp_path / "a.ydk"
    deck.write_text("#main\n")
    os.link(deck, tmp_path / "b.ydk")
    first = EditLock(deck)
    import fcntl

    from deckcheck import paths

    folder = paths.cache_dir() / "locks"
    st = deck.stat()
    held = folder / f"file-{st.st_dev}-{st.st_ino}.lock"
    fd = os.open(held, os.O_RDWR)
    try:
        with pytest.raises(BlockingIOError):  # the identity lock is held by the first edit
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        first.release()
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # and free once it is released
    finally:
        os.close(fd)
