"""Issue 20, "Data lost": concurrent edits, imports during updates, user imports kept by an
update, silent drops in the readers, unreadable folders, locale-only imports. Real processes,
real SIGKILL, real files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck import decks
from deckcheck.cli import main

REPO = Path(__file__).resolve().parent.parent
ASH = 14558127

# A process that imports deckcheck, then waits for the go file: N of them start their edit
# within a millisecond or so of each other (a barrier across real processes).
_BARRIER = (
    "import os, sys, time\n"
    "from deckcheck.cli import main\n"
    "go = sys.argv[1]\n"
    "while not os.path.exists(go):\n"
    "    time.sleep(0.0005)\n"
    "sys.exit(main(sys.argv[2:]))\n"
)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def run_together(argvs: list[list[str]], go: Path, timeout: float = 120) -> list[int]:
    """Start one process per argv, release them at once, return their exit codes."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _BARRIER, str(go), *argv], env=_env(),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        for argv in argvs
    ]
    import time

    time.sleep(1.5)  # every process has imported deckcheck and is polling
    go.touch()
    codes = []
    for p in procs:
        _, err = p.communicate(timeout=timeout)
        codes.append(p.returncode)
        assert b"Traceback" not in err, err.decode()
        if p.returncode:
            print(err.decode())
    return codes


def copies(path: Path, card: int) -> int:
    """Copies of ``card`` (a text list's names resolved through the sample database)."""
    from deckcheck.carddb import open_db
    from deckcheck.decks.resolve import resolve_deck
    from deckcheck.lookup import Index

    d = decks.read_path(path)
    db = open_db()
    d = resolve_deck(d, db, Index.for_db(db))
    return sum(e.count for e in d.entries() if e.card_id == card)


@pytest.mark.parametrize("suffix", [".ydk", ".txt"])
def test_concurrent_deck_add_keeps_every_edit(tmp_path: Path, suffix: str) -> None:
    deck = tmp_path / f"d{suffix}"
    assert main(["deck", "new", str(deck)]) == 0
    assert main(["deck", "add", str(deck), str(ASH)]) == 0  # warms the lookup cache
    n = 6
    codes = run_together(
        [["deck", "add", str(deck), str(ASH), "--force"] for _ in range(n)], tmp_path / "go"
    )
    # every process that said it added its copy has it in the file
    assert copies(deck, ASH) == 1 + codes.count(0)
    assert codes.count(0) == n, codes


def test_edit_refused_when_the_file_changed_since_it_was_read(tmp_path: Path) -> None:
    from deckcheck import deckedit
    from deckcheck.carddb import open_db
    from deckcheck.errors import InputError
    from deckcheck.lookup import Index

    deck = tmp_path / "d.ydk"
    deck.write_text("#main\n14558127\n#extra\n!side\n")
    db = open_db()
    df = deckedit.load(deck, db, Index.for_db(db))
    df.lines.append("14558127")
    df.lock.release() if df.lock else None  # another program ignores the lock…
    deck.write_text("#main\n55144522\n#extra\n!side\n")  # …and writes the file meanwhile
    with pytest.raises(InputError, match="changed while it was being edited"):
        deckedit.save(df)
    assert deck.read_text() == "#main\n55144522\n#extra\n!side\n"
