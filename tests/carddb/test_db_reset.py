"""`db reset` asks before it deletes the card database (issue 32: it deleted unasked);
`--yes` for scripts, and without a terminal to ask on it refuses in one line."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from deckcheck.cli import main
from deckcheck.commands import db as db_cmd
from deckcheck.errors import EXIT_ERROR, EXIT_OK
from tests.reliability.test_reliability_errors import GOOD, cdb


def test_db_reset_asks_and_needs_yes_without_a_terminal(
    tmp_path: Path,
    isolated_home: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    isolated_home.mkdir(parents=True, exist_ok=True)
    good = cdb(tmp_path / "cards.cdb", [GOOD], [(46986414, "Dark Magician")])
    assert main(["db", "import", str(good)]) == EXIT_OK
    installed = isolated_home / "cards.sqlite3"
    assert installed.exists()
    capsys.readouterr()
    # no terminal (a script, CI): refused, nothing removed
    assert main(["db", "reset"]) == EXIT_ERROR
    err = capsys.readouterr().err
    assert err.startswith("deckcheck: error: db reset removes ") and "--yes" in err, err
    assert installed.exists()
    # a terminal: asked; "no" (the default) keeps it, "y" removes it
    monkeypatch.setattr(db_cmd, "_can_ask", lambda: True)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    assert main(["db", "reset"]) == EXIT_OK
    err = capsys.readouterr().err
    assert "Remove the card database" in err and "nothing removed" in err
    assert installed.exists()
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))
    assert main(["db", "reset"]) == EXIT_OK
    assert "removed" in capsys.readouterr().err and not installed.exists()
    # --yes never asks
    assert main(["db", "import", str(good)]) == EXIT_OK
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["db", "reset", "--yes"]) == EXIT_OK
    assert not installed.exists()
    assert main(["db", "reset"]) == EXIT_OK  # nothing to remove: nothing to ask
    assert "nothing to remove" in capsys.readouterr().err
