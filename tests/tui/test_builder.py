"""The deck being edited, without Textual: edits through the deck editor (the file keeps its
kind and comments), undo and redo, the check after each edit, and the save that never
writes over a change made on disk meanwhile."""

from __future__ import annotations

import datetime as dt
import shutil
import threading
import time
from pathlib import Path

import pytest

from deckcheck import deckedit
from deckcheck.cli import main
from deckcheck.tui.builder import Conflict, ReadOnly
from tests.conftest import FIXTURES
from tests.tui.conftest import (
    B_E_ULTIMATE,
    BLUE_EYES,
    DATE,
    KURIBOH,
    OBELISK,
    POT,
    RAIGEKI,
    open_builder,
)


def codes(b: object) -> list[str]:
    return [f.code for f in b.verdict.report.findings]  # type: ignore[attr-defined]


def test_edits_undo_redo_and_the_findings_after_each(deck_file: Path) -> None:
    b = open_builder(deck_file)
    assert codes(b) == ["DC403", "DC402", "DC502"]
    original = deck_file.read_text()
    b.remove(OBELISK)
    assert codes(b) == ["DC201", "DC403"]  # 39 cards: DM6 wants at least 40
    b.add(KURIBOH)
    assert codes(b) == ["DC403"]
    b.remove(POT)
    assert codes(b) == ["DC201"]
    assert b.dirty
    assert b.undo() == "undone: removed Pot of Greed from the Main Deck (now 1)"
    assert codes(b) == ["DC403"]
    b.redo()
    assert codes(b) == ["DC201"]
    for _ in range(3):
        b.undo()
    assert b.df.text == original and not b.dirty
    assert codes(b) == ["DC403", "DC402", "DC502"]
    assert b.undo() is None and b.redo() is not None
    assert deck_file.read_text() == original  # nothing is written before a save


def test_a_new_edit_clears_redo(deck_file: Path) -> None:
    b = open_builder(deck_file)
    b.remove(OBELISK)
    b.undo()
    b.add(RAIGEKI)
    assert b.redo() is None


def test_extra_deck_monsters_go_to_the_extra_deck_and_side_and_move(deck_file: Path) -> None:
    b = open_builder(deck_file)
    assert "Extra Deck" in b.add(B_E_ULTIMATE)
    assert b.add(KURIBOH, side=True).startswith("added Kuriboh to the Side Deck")
    assert b.df.deck.counts() == {"main": 40, "extra": 3, "side": 1}
    b.move(BLUE_EYES, "main")
    assert b.df.deck.counts() == {"main": 39, "extra": 3, "side": 2}
    b.move(B_E_ULTIMATE, "extra")
    b.move(B_E_ULTIMATE, "side")  # back from the Side Deck: to where it belongs
    assert b.df.deck.counts() == {"main": 39, "extra": 3, "side": 2}
    assert "DC201" in codes(b)  # a Main Deck of 39: DM6 wants at least 40


def test_refused_edits_change_nothing(deck_file: Path) -> None:
    b = open_builder(deck_file)
    before = b.df.text
    with pytest.raises(deckedit.EditError, match="no copy"):
        b.remove(RAIGEKI, "side")
    with pytest.raises(deckedit.EditError, match="token"):
        b.add(946)
    assert b.df.text == before and not b.undo_stack


def test_save_keeps_the_file_and_its_comments(deck_file: Path) -> None:
    b = open_builder(deck_file)
    b.remove(OBELISK)
    b.add(KURIBOH, side=True)
    b.save()
    assert not b.dirty
    text = deck_file.read_text()
    assert text.startswith("#created by deckcheck examples\n#main\n")
    assert str(OBELISK) not in text and text.rstrip().endswith(f"!side\n{KURIBOH}")
    assert main(["validate", "-f", "dm6", "-d", DATE.isoformat(), str(deck_file)]) == 1  # Pot
    b.undo()  # after a save, an undo is an unsaved edit again
    assert b.dirty


@pytest.mark.parametrize("name", ["named.ydk", "subheaders.txt"])
def test_save_keeps_each_file_kind(name: str, workdir: Path) -> None:
    shutil.copy(FIXTURES / "deckedit" / name, workdir / name)
    b = open_builder(name, "tcg", dt.date(2025, 1, 1))
    kind = b.df.kind
    b.add(14558127)  # Ash Blossom, a third copy
    b.save()
    df = deckedit.load(Path(name), b.db, b.index)
    assert df.kind == kind
    assert dict(+deckedit.tally(df.deck))[("main", 14558127)] == 3
    if kind == "text":
        assert "3 Ash Blossom & Joyous Spring" in Path(name).read_text()
        assert "Main Deck (5)" in Path(name).read_text()  # its header count follows
    else:
        assert "# Ash Blossom & Joyous Spring" in Path(name).read_text()


def test_ydke_file_stays_one_link(workdir: Path) -> None:
    b = open_builder("d.ydke", "tcg", dt.date(2025, 1, 1))
    assert b.is_new and not b.dirty
    b.add(14558127)
    b.save()
    text = Path("d.ydke").read_text()
    assert text.startswith("ydke://") and text.count("\n") == 1


def test_a_new_path_is_created_on_save_with_the_format_asked(workdir: Path) -> None:
    b = open_builder("new.ydk", "dm6")
    assert b.is_new and not Path("new.ydk").exists()
    b.add(POT)
    b.save()
    text = Path("new.ydk").read_text()
    assert "#format dm6" in text and f"#main\n{POT}\n" in text
    assert not b.is_new and not b.dirty


def test_a_file_changed_on_disk_is_never_overwritten_silently(deck_file: Path) -> None:
    b = open_builder(deck_file)
    b.remove(OBELISK)
    # meanwhile a `deck add` writes the file
    assert main(["deck", "add", str(deck_file), str(RAIGEKI), "-f", "dm6", "-d", "2002-08-01"]) == 0
    theirs = deck_file.read_text()
    with pytest.raises(Conflict, match="changed on disk"):
        b.save()
    assert deck_file.read_text() == theirs
    failed = b.reload(keep_edits=True)  # their edit, and this session's applied again
    assert failed == []
    held = dict(+deckedit.tally(b.df.deck))
    assert ("main", OBELISK) not in held and held[("main", RAIGEKI)] == 2
    assert b.dirty
    b.save()
    held = dict(+deckedit.tally(deckedit.load(deck_file, b.db, b.index).deck))
    assert ("main", OBELISK) not in held and held[("main", RAIGEKI)] == 2


def test_overwrite_is_a_choice(deck_file: Path) -> None:
    b = open_builder(deck_file)
    b.remove(OBELISK)
    deck_file.write_text(deck_file.read_text() + "# touched\n")
    with pytest.raises(Conflict):
        b.save()
    b.save(overwrite=True)
    assert "# touched" not in deck_file.read_text() and str(OBELISK) not in deck_file.read_text()


def test_a_file_created_meanwhile_is_a_conflict_too(workdir: Path) -> None:
    b = open_builder("new.ydk")
    b.add(POT)
    Path("new.ydk").write_text("#main\n")
    with pytest.raises(Conflict, match="was created"):
        b.save()
    assert Path("new.ydk").read_text() == "#main\n"


def test_reload_reports_what_it_could_not_apply(deck_file: Path) -> None:
    b = open_builder(deck_file)
    b.remove(OBELISK)
    text = deck_file.read_text().replace(f"{OBELISK}\n", "")
    deck_file.write_text(text)  # someone removed it too
    failed = b.reload(keep_edits=True)
    assert len(failed) == 1 and "Obelisk the Tormentor" in failed[0]
    assert not b.dirty  # nothing of this session's is left to save


def test_save_waits_for_a_deck_command_holding_the_edit_lock(deck_file: Path) -> None:
    b = open_builder(deck_file)
    b.remove(OBELISK)
    other = deckedit.load(deck_file, b.db, b.index)  # takes the edit lock, like `deck add`
    assert other.lock is not None and other.lock.fd is not None
    done: list[BaseException | None] = []

    def save() -> None:
        try:
            b.save()
            done.append(None)
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            done.append(exc)

    t = threading.Thread(target=save)
    t.start()
    time.sleep(0.3)
    assert done == []  # waiting on the lock
    on = b.checking.on
    deckedit.add(other, RAIGEKI, 1, None, on, b.db, b.index)
    deckedit.save(other)  # writes and releases the lock
    t.join(10)
    assert len(done) == 1 and isinstance(done[0], Conflict)  # seen, not clobbered
    assert deck_file.read_text().count(str(RAIGEKI)) == 2


def test_unreadable_lines_open_read_only(workdir: Path) -> None:
    Path("bad.ydk").write_text(f"#main\n{POT}\nnot a passcode\n", encoding="utf-8")
    b = open_builder("bad.ydk")
    assert b.read_only and "line 3" in b.read_only
    assert "DC101" in codes(b)
    with pytest.raises(ReadOnly):
        b.add(POT)
    with pytest.raises(ReadOnly):
        b.save()
    assert not b.dirty
    Path("bad.ydk").write_text(f"#main\n{POT}\n", encoding="utf-8")  # fixed
    b.reload()
    assert b.read_only is None and "DC101" not in codes(b)
    b.add(POT)


def test_an_unreadable_file_opens_read_only_with_validates_finding(workdir: Path) -> None:
    Path("bin.ydk").write_bytes(b"\x00\x01\x02binary\xff" * 50)
    b = open_builder("bin.ydk")
    assert b.read_only
    assert codes(b) == ["DC101"]
    assert "cannot read the deck" in b.verdict.report.findings[0].message
    with pytest.raises(ReadOnly):
        b.save()
    assert Path("bin.ydk").read_bytes().startswith(b"\x00\x01")


def test_format_and_date_change_the_check(deck_file: Path) -> None:
    b = open_builder(deck_file)
    b.set_format("legacy", dt.date(2002, 8, 1))
    assert b.checking.banlist is None and "DC402" not in codes(b)
    b.set_format("dm6", dt.date(2009, 1, 1))
    (late,) = [f for f in b.verdict.report.findings if f.code == "DC502"]
    assert "cut-off" in late.message and "event date" not in late.message  # released by then


def test_a_format_without_a_list_checks_the_rest_and_says_so(deck_file: Path) -> None:
    b = open_builder(deck_file, "tcg", dt.date(2025, 1, 1))
    assert b.checking.banlist is None
    assert b.verdict.skipped and "no 'tcg' list is in force" in b.verdict.skipped


def test_an_unknown_format_line_falls_back_to_tcg_with_a_note(workdir: Path) -> None:
    Path("f.ydk").write_text(f"#format nope\n#main\n{POT}\n", encoding="utf-8")
    b = open_builder("f.ydk", None)
    assert b.checking.fmt.id == "tcg"
    assert b.notes and "#format nope" in b.notes[0]
    Path("g.ydk").write_text(f"#format dm6\n#main\n{POT}\n", encoding="utf-8")
    assert open_builder("g.ydk", None).checking.fmt.id == "dm6"
