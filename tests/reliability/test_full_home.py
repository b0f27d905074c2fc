"""A full disk or a read-only data home during `banlist import`, `db import` and `update`
(issue 32): one short line naming the home and about how much free space the new data needs,
never shutil's list of every file that could not be copied (59 KB in one "line"), and the
installed data unchanged."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.builders import MONSTER_ROW, write_cdb
from tests.reliability.test_reliability_data import lflist_text
from tests.reliability.test_reliability_errors import one_error, remount_ro, run, tmpfs

_NEEDS = re.compile(r"needs about ([0-9.]+) (bytes|KB|MB) free there, ([0-9.]+) (bytes|KB|MB)")
_UNIT = {"bytes": 1, "KB": 1000, "MB": 1000**2}


def _needed(line: str) -> tuple[float, float]:
    m = _NEEDS.search(line)
    assert m, line
    return float(m.group(1)) * _UNIT[m.group(2)], float(m.group(3)) * _UNIT[m.group(4)]


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_copying_the_lists_onto_a_full_disk_is_one_short_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    many = tmp_path / "many.lflist.conf"
    many.write_text(lflist_text(1, lists=12, entries=400))  # 12 lists of ~20 KB of YAML each
    one = tmp_path / "one.lflist.conf"
    one.write_text("!2027.01 TCG\n55144522 0 -- Pot of Greed\n")
    with tmpfs(tmp_path / "disk", "1m") as disk:
        home = disk / "home"
        monkeypatch.setenv("DECKCHECK_HOME", str(home))
        monkeypatch.setenv("DECKCHECK_CACHE", str(tmp_path / "cache"))
        rc, _, err = run(capsys, "banlist", "import", str(many))
        assert rc == 0, err
        before = _files(home / "banlists")
        lists_size = sum(len(b) for b in before.values())
        fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
        try:  # fill the disk but for a little: the copy of the lists runs out half-way
            while os.write(fd, b"\0" * 4096):
                pass
        except OSError:
            pass
        os.close(fd)
        os.truncate(disk / "filler", (disk / "filler").stat().st_size - 60_000)
        rc, _, err = run(capsys, "banlist", "import", str(one))
        line = one_error(rc, err, f"{home}: No space left on device", "nothing was changed")
        assert len(err) < 400, err  # was the Python list of every file of the lists
        needed, free_now = _needed(line)
        assert needed >= lists_size and free_now < needed
        assert _files(home / "banlists") == before
        assert sorted(p.name for p in home.glob("state-*")) == [(home / "current").readlink().name]
        (disk / "filler").unlink()
        rc, _, err = run(capsys, "banlist", "import", str(one))
        assert rc == 0, err


def _cdb(path: Path, rows: dict[int, str]) -> Path:
    return write_cdb(path, rows, kind=MONSTER_ROW)


def _tiny_mirror(root: Path) -> Path:
    """Every file `update` requires, in the mirror layout, with a few hundred cards."""
    cards = {10_000_000 + i: f"Card {i} " + "z" * 80 for i in range(600)}
    _cdb(root / "ProjectIgnis/BabelCDB/cards.cdb", cards)
    for lang in ("de-DE", "en-US", "es-ES", "fr-FR", "it-IT", "ja-JP", "ko-KR", "pt-PT", "zh-CN"):
        _cdb(
            root / f"mycard/ygopro-database/locales/{lang}/cards.cdb", dict(list(cards.items())[:5])
        )
    for name, family in [
        ("0TCG", "TCG"),
        ("OCG", "OCG"),
        ("Traditional", "Traditional"),
        ("World", "World"),
        ("Speed", "Speed"),
        ("GOAT", "GOAT"),
        ("Rush", "Rush"),
    ]:
        f = root / f"ProjectIgnis/LFLists/{name}.lflist.conf"
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(f"!2026.01 {family}\n10000000 1 -- Card 0\n")
    (root / "Fluorohydride/ygopro").mkdir(parents=True)
    (root / "Fluorohydride/ygopro/lflist.conf").write_text("!2026.01 TCG\n10000000 1 --Card 0\n")
    return root


def test_update_onto_a_full_disk_is_one_short_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mirror = _tiny_mirror(tmp_path / "mirror")
    with tmpfs(tmp_path / "disk", "160k") as disk:
        home = disk / "home"
        monkeypatch.setenv("DECKCHECK_HOME", str(home))
        monkeypatch.setenv("DECKCHECK_CACHE", str(tmp_path / "cache"))
        rc, _, err = run(capsys, "update", "--source", str(mirror))
        line = one_error(rc, err, f"{home}: No space left on device", "nothing was changed")
        assert len(line) < 400
        needed, free = _needed(line)
        assert needed > free
        assert not (home / "current").exists() and not list(home.glob("state-*"))
        remount_ro(disk)
        rc, _, err = run(capsys, "update", "--source", str(mirror))
        line = one_error(rc, err, f"{home}: Read-only file system", "DECKCHECK_HOME")
        assert len(line) < 300
