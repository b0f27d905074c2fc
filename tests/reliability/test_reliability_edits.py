"""Issue 20, "Edits that replace the path": `deck add/remove/move` edit the real file — a
symlink's target, with its mode, owner and hard links kept — refuse FIFOs and devices, and
work on names near the file-system limit (short temp names)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from deckcheck import fsio
from deckcheck.cli import main
from deckcheck.errors import EXIT_ERROR

ASH = "14558127"
DECK = "#main\n14558127\n#extra\n!side\n"


def add(capsys: pytest.CaptureFixture[str], path: Path | str) -> tuple[int, str]:
    capsys.readouterr()
    rc = main(["deck", "add", str(path), ASH])
    return rc, capsys.readouterr().err


def ash_count(path: Path) -> int:
    return path.read_text().splitlines().count(ASH)


def test_symlink_edits_the_target_and_stays_a_link(tmp_path: Path, capsys) -> None:
    real = tmp_path / "decks" / "real.ydk"
    real.parent.mkdir()
    real.write_text(DECK)
    link = tmp_path / "link.ydk"
    link.symlink_to(real)
    rc, err = add(capsys, link)
    assert rc in (0, 1), err
    assert link.is_symlink(), "the link was replaced by a regular copy"
    assert ash_count(real) == 2, "the real deck was not edited"


def test_mode_is_kept(tmp_path: Path, capsys) -> None:
    deck = tmp_path / "private.ydk"
    deck.write_text(DECK)
    deck.chmod(0o600)
    add(capsys, deck)
    assert ash_count(deck) == 2
    assert stat.S_IMODE(deck.stat().st_mode) == 0o600


@pytest.mark.skipif(os.geteuid() != 0, reason="changing a file's owner needs root")
def test_owner_and_group_are_kept(tmp_path: Path, capsys) -> None:
    deck = tmp_path / "theirs.ydk"
    deck.write_text(DECK)
    os.chown(deck, 1234, 5678)
    add(capsys, deck)
    st = deck.stat()
    assert (st.st_uid, st.st_gid) == (1234, 5678)
    assert ash_count(deck) == 2


def test_hard_links_see_the_edit(tmp_path: Path, capsys) -> None:
    deck = tmp_path / "a.ydk"
    deck.write_text(DECK)
    other = tmp_path / "b.ydk"
    os.link(deck, other)
    add(capsys, deck)
    assert deck.stat().st_ino == other.stat().st_ino, "the hard link was broken"
    assert ash_count(other) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.ydk", "b.ydk"]  # no backup left


def test_fifo_is_refused_and_stays_a_fifo(tmp_path: Path, capsys) -> None:
    fifo = tmp_path / "pipe.ydk"
    os.mkfifo(fifo)
    rc, err = add(capsys, fifo)
    assert rc == EXIT_ERROR
    assert "not a regular file" in err and err.count("\n") == 1, err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_character_device_is_refused(tmp_path: Path, capsys) -> None:
    dev = tmp_path / "null.ydk"
    try:
        os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a /dev/null of our own
    except PermissionError:
        pytest.skip("mknod of a character device is not permitted here (not root)")
    rc, err = add(capsys, dev)
    assert rc == EXIT_ERROR and "not a regular file" in err, err
    assert stat.S_ISCHR(os.lstat(dev).st_mode)


def test_symlink_to_a_fifo_is_refused(tmp_path: Path, capsys) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "deck.ydk"
    link.symlink_to(fifo)
    rc, err = add(capsys, link)
    assert rc == EXIT_ERROR and "not a regular file" in err, err
    assert link.is_symlink() and stat.S_ISFIFO(os.stat(link).st_mode)


def test_a_long_name_can_be_edited(tmp_path: Path, capsys) -> None:
    deck = tmp_path / ("d" * 245 + ".ydk")  # 249 characters: NAME_MAX is 255
    deck.write_text(DECK)
    rc, err = add(capsys, deck)
    assert rc in (0, 1), err
    assert ash_count(deck) == 2


def test_new_files_follow_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        fsio.write_atomic(tmp_path / "new.txt", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o640


def test_replacing_refuses_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    with pytest.raises(fsio.NotRegularFile):
        fsio.write_atomic(fifo, "x")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
