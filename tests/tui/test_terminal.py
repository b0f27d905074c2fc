"""The deck editor in a real terminal: ``deckcheck deck edit`` under tmux (80x24), typed at
with real keys: search, add, save, quit; the file on disk has the card, the rest is kept."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.tui.conftest import DATE, KURIBOH

TMUX = shutil.which("tmux")


def _wait(what: Callable[[], bool], seconds: float = 20.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if what():
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def tmux(tmp_path: Path) -> Callable[..., str]:
    """``tmux(*args)``: a tmux command on this test's own server (its own socket)."""
    if TMUX is None:
        if os.environ.get("DECKCHECK_REQUIRE_TOOLS"):
            pytest.fail("tmux is not installed (.ci/run installs it)")
        pytest.skip("tmux is not installed")
    sock = str(tmp_path / "tmux.sock")

    def run(*args: str) -> str:
        got = subprocess.run(
            [TMUX, "-S", sock, "-f", os.devnull, *args],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        return got.stdout

    yield run  # type: ignore[misc]
    run("kill-server")


def test_type_add_save_quit_in_tmux(deck_file: Path, tmux: Callable[..., str]) -> None:
    before = deck_file.read_text()
    env = [f"PYTHONPATH={REPO}", f"DECKCHECK_HOME={os.environ['DECKCHECK_HOME']}", "TERM=xterm"]
    cmd = [
        "env",
        *env,
        sys.executable,
        "-m",
        "deckcheck",
        "deck",
        "edit",
        str(deck_file),
        "-f",
        "dm6",
        "-d",
        DATE.isoformat(),
        ";",
        "echo",
        "EXITED=$?",
        ";",
        "sleep",
        "30",
    ]
    tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "edit", " ".join(cmd))

    def screen() -> str:
        return tmux("capture-pane", "-p", "-t", "edit")

    assert _wait(lambda: "Findings" in screen() and "DC" in screen()), screen()
    time.sleep(1.0)  # drawn is not yet reading keys: the first ones would be lost
    tmux("send-keys", "-t", "edit", "/")
    tmux("send-keys", "-t", "edit", "-l", "kuriboh")
    assert _wait(lambda: "Kuriboh" in screen()), screen()
    time.sleep(0.3)  # the search's debounce, then its results
    tmux("send-keys", "-t", "edit", "Enter")
    assert _wait(lambda: "added Kuriboh" in screen()), screen()
    tmux("send-keys", "-t", "edit", "C-s")
    assert _wait(lambda: "saved deck.ydk" in screen()), screen()
    tmux("send-keys", "-t", "edit", "Tab")  # (an esc then q is alt+q in a terminal)
    tmux("send-keys", "-t", "edit", "q")
    assert _wait(lambda: "EXITED=0" in screen()), screen()
    after = deck_file.read_text()
    assert after.count(str(KURIBOH)) == before.count(str(KURIBOH)) + 1
    assert after.startswith(before.splitlines()[0])
