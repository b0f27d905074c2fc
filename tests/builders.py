"""Shared test builders: command runs (in process and as a child process) and small
EDOPro card databases, so the tests say what they check instead of repeating the set-up."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent


def child_env(home: Path | None = None, **extra: str) -> dict[str, str]:
    """This environment for a child process that imports this checkout's deckcheck
    (``PYTHONPATH`` first), with ``DECKCHECK_HOME=home`` when given, and ``extra``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    if home is not None:
        env["DECKCHECK_HOME"] = str(home)
    env.update(extra)
    return env


def run_process(
    cmd: Sequence[str | Path], *, timeout: float | None = None, **kw: Any
) -> subprocess.CompletedProcess[str]:
    """``cmd`` as a child process, its stdout and stderr captured as text; a failing exit
    code is the test's to judge, not an exception (``cwd``, ``env``, ``input``: as given)."""
    return subprocess.run(
        [str(c) for c in cmd], capture_output=True, text=True, timeout=timeout, check=False, **kw
    )


def run_deckcheck(
    *argv: str | Path, timeout: float | None = None, **kw: Any
) -> subprocess.CompletedProcess[str]:
    """``python -m deckcheck ARGV`` as a child process (see ``run_process``); pass an ``env``
    with ``PYTHONPATH`` where the test runs outside the repository."""
    return run_process([sys.executable, "-m", "deckcheck", *argv], timeout=timeout, **kw)


def validate_json(home: Path, *argv: str | Path) -> Any:
    """The report of ``python -m deckcheck validate -o json ARGV`` over the data home
    ``home`` (the run must end legal or illegal, exit 0 or 1)."""
    proc = run_deckcheck("validate", "-o", "json", *argv, env=child_env(home), timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def killed_after(seconds: float, *argv: str | Path) -> int:
    """``python -m deckcheck ARGV`` (this checkout's, output dropped) killed with SIGKILL
    ``seconds`` after its start, or finished by then: its exit status."""
    p = subprocess.Popen(
        [sys.executable, "-m", "deckcheck", *map(str, argv)],
        env=child_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(seconds)
    p.send_signal(signal.SIGKILL)
    return p.wait()


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    """``deckcheck ARGV`` in this process: (exit code, stdout, stderr) of that command only."""
    from deckcheck.cli import main

    capsys.readouterr()
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


# --------------------------------------------------------------------------- card databases

#: ``datas`` and ``texts`` as an EDOPro cards.cdb has them
DATAS = (
    "CREATE TABLE datas (id INTEGER PRIMARY KEY, ot INTEGER, alias INTEGER, setcode INTEGER, "
    "type INTEGER, atk INTEGER, def INTEGER, level INTEGER, race INTEGER, attribute INTEGER, "
    "category INTEGER)"
)
TEXTS = "CREATE TABLE texts (id INTEGER PRIMARY KEY, name TEXT, desc TEXT)"
#: a card's ``datas`` row after its id: (ot, alias, setcode, type, atk, def, level, race,
#: attribute, category); ot 3 is OCG and TCG
SPELL_ROW = (3, 0, 0, 0x2, 0, 0, 0, 0, 0, 0)  # a Normal Spell
MONSTER_ROW = (3, 0, 0, 0x11, 1000, 1000, 4, 1, 1, 0)  # a Level 4 Normal Monster (Warrior, EARTH)


def write_cdb(
    path: Path,
    names: Mapping[int, str],
    *,
    kinds: Mapping[int, tuple[int, ...]] | None = None,
    kind: tuple[int, ...] = SPELL_ROW,
) -> Path:
    """A cards.cdb at ``path`` (its folder made) with one card per ``names`` item (id ->
    name), each of ``kind`` unless ``kinds`` gives the card's own row."""
    path.parent.mkdir(parents=True, exist_ok=True)
    kinds = kinds or {}
    conn = sqlite3.connect(path)
    try:
        conn.execute(DATAS)
        conn.execute(TEXTS)
        conn.executemany(
            "INSERT INTO datas VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(cid, *kinds.get(cid, kind)) for cid in names],
        )
        conn.executemany("INSERT INTO texts VALUES (?, ?, '')", list(names.items()))
        conn.commit()
    finally:
        conn.close()
    return path


def make_cdb(path: Path, rows: Sequence[tuple[int, int, int, int, str]]) -> Path:
    """A cards.cdb with (id, ot, alias, type, name) rows, each at level 4 with 1000 ATK/DEF."""
    kinds = {i: (ot, alias, 0, typ, 1000, 1000, 4, 1, 1, 0) for i, ot, alias, typ, _ in rows}
    return write_cdb(path, {i: name for i, _, _, _, name in rows}, kinds=kinds)


def numbered_cards(count: int, name: str = "Card", first: int = 10_000_000) -> dict[int, str]:
    """``count`` made-up cards: ids from ``first``, names ``"<name> <i>"``."""
    return {first + i: f"{name} {i}" for i in range(count)}


# the official-data card set (tests/fixtures/official refers to these EDOPro rows)
_EFFECT, _SPELL, _SKILL = 0x21, 0x2, 0x8000000
#: id: (ot, alias, type, English name)
TINY: dict[int, tuple[int, int, int, str]] = {
    14558127: (3, 0, _EFFECT, "Ash Blossom & Joyous Spring"),
    14558128: (3, 14558127, _EFFECT, "Ash Blossom & Joyous Spring"),
    24094653: (3, 0, _SPELL, "Polymerization"),
    27847700: (3, 0, _SPELL, "Polymerization"),
    10000: (1, 0, _EFFECT, "Ten Thousand Dragon"),  # EDOPro: OCG only (stale)
    10000080: (3, 0, _EFFECT, "The Winged Dragon of Ra (Sphere Mode)"),  # differs from yaml-yugi
    44444444: (0x40, 0, _EFFECT, "Speed Only"),  # Speed Duel row printed in a TCG set
    100200001: (0x101, 0, _EFFECT, "Brand New Dragon"),  # prerelease of 12345678
    100200002: (0x101, 0, _SPELL, "Prerelease Only"),
    160001000: (0x600, 0, _EFFECT, "Blue-Eyes White Dragon (Rush)"),
    160205001: (0x600, 0, _EFFECT, "Blue-Eyes White Dragon (Rush)"),
    160001015: (0x200, 0, _EFFECT, "Crawling Dragon"),
    300000001: (0x40, 0, _SKILL, "Call of the Haunted (Skill)"),
    160009999: (0x200, 14558127, _EFFECT, "Ash Reprint (Rush)"),  # Rush row "treated as" Ash
    14558137: (2, 14558127, _EFFECT, "Ash Blossom & Joyous Spring"),  # a "TCG version" row
}


def tiny_cdb(path: Path, rows: Mapping[int, tuple[int, int, int, str]] = TINY) -> Path:
    """The official-data card set (``TINY``) as a cards.cdb, every card at level 4."""
    kinds = {
        cid: (ot, alias, 0, typ, 0, 0, 4, 0, 0, 0) for cid, (ot, alias, typ, _) in rows.items()
    }
    return write_cdb(path, {cid: row[3] for cid, row in rows.items()}, kinds=kinds)


def as_schema_3(path: Path) -> Path:
    """The deckcheck card database at ``path`` made what deckcheck wrote before schema 4 (no
    ``card_fields`` table), in place."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("DROP TABLE card_fields")
        conn.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
        conn.commit()
    finally:
        conn.close()
    return path
