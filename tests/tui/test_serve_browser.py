"""``deckcheck deck edit DECK --serve`` in a real browser: Debian's headless chromium opens
the page textual-serve serves on a free loopback port; the page loads its terminal, connects
its websocket, and the app started for that tab draws the deck (its card names reach the
page's terminal). Bounded in time; the server and every app it started are ended after."""

from __future__ import annotations

import base64
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests import chromium
from tests.conftest import REPO
from tests.tui.conftest import DATE

#: seconds for each step: the server up, the page loaded, the deck drawn
STEP = 60.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _up(url: str, proc: subprocess.Popen[bytes]) -> str:
    end = time.monotonic() + STEP
    while time.monotonic() < end:
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                return str(r.read().decode("utf-8"))
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"the server did not answer {url} in {STEP:.0f} s")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """The server and the app processes it started (its own process group)."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    try:  # apps the server started and that outlived it
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    if proc.stderr is not None:
        proc.stderr.close()


def _frames_until(browser: chromium.Browser, wanted: list[str]) -> str:
    """What the page's websocket received (the app's output), until every ``wanted`` text
    is in it."""
    got = b""
    end = time.monotonic() + STEP
    while time.monotonic() < end:
        ev = browser.wait_event("Network.webSocketFrameReceived")
        resp = ev["params"]["response"]
        data = resp["payloadData"]
        got += base64.b64decode(data) if resp.get("opcode") == 2 else data.encode("utf-8")
        text = got.decode("utf-8", errors="replace")
        if all(w in text for w in wanted):
            return text
    raise AssertionError(f"the page's terminal was not sent {wanted} in {STEP:.0f} s")


def test_serve_in_headless_chromium_shows_the_deck(deck_file: Path, workdir: Path) -> None:
    chromium.require()
    port = _free_port()
    url = f"http://127.0.0.1:{port}/"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, "-m", "deckcheck", "deck", "edit", str(deck_file)]
    cmd += ["--format", "dm6", "--date", DATE.isoformat(), "--serve", "--port", str(port)]
    proc = subprocess.Popen(
        cmd,
        cwd=workdir,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own group: the apps it starts end with it
    )
    try:
        page = _up(url, proc)
        assert "deckcheck deck edit deck.ydk" in page  # the app's name on the page
        with chromium.Browser(timeout=STEP) as browser:
            browser.events.clear()  # about:blank's own load event
            browser.call("Page.navigate", url=url)
            browser.wait_event("Page.loadEventFired")
            ws = browser.js(
                "document.querySelector('.textual-terminal').dataset.sessionWebsocketUrl"
            )
            assert ws.startswith(f"ws://127.0.0.1:{port}/")  # back to where the page came from
            shown = _frames_until(browser, ["Blue-Eyes White Dragon", "Pot of Greed", "DC403"])
            assert "illegal: 3 problems" in shown  # the findings pane, as in a terminal
            assert browser.js("document.querySelectorAll('.xterm-screen canvas').length") > 0
    finally:
        _stop(proc)
