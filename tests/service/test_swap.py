"""New data from ``deckcheck update`` (a new ``state-N`` behind the ``current`` link) is
picked up without a restart, and a request sees the old data or the new, never a mix."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from tests.conftest import FIXTURES
from tests.service._serve import env_for
from tests.service.conftest import make_client

SPEED = FIXTURES / "lflist" / "speed.lflist.conf"
DECK = b"#main\n55144522\n55144522\n"  # Pot of Greed twice: Unlimited (3) on the first list
WHEN = {"format": "speed", "date": "2025-08-01"}


def import_list(home: Path, tmp: Path, pot_of_greed: int) -> None:
    """What an update does, in another process: the list imported into a new state."""
    text = SPEED.read_text().replace("55144522 3 ", f"55144522 {pot_of_greed} ")
    f = tmp / f"speed-{pot_of_greed}.lflist.conf"
    f.write_text(text)
    subprocess.run(
        [sys.executable, "-m", "deckcheck", "banlist", "import", str(f)],
        env=env_for(home),
        check=True,
        capture_output=True,
        timeout=120,
    )


def codes(c: Any) -> set[str]:
    resp = c.post("/v1/check", params=WHEN, content=DECK)
    assert resp.status_code == 200, resp.text
    return {f["code"] for f in resp.json()["findings"]}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("DECKCHECK_HOME", str(home))
    import_list(home, tmp_path, 3)
    return home


def test_an_update_is_served_without_a_restart(home: Path, tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        assert c.get("/health").json()["data"]["state"] == "state-1"
        assert "DC403" not in codes(c)
        import_list(home, tmp_path, 1)  # Pot of Greed now Limited
        assert "DC403" in codes(c)
        health = c.get("/health").json()
        assert health["data"]["state"] == "state-2" and health["swaps"] == 1
        import_list(home, tmp_path, 3)
        assert "DC403" not in codes(c)
        assert c.get("/health").json()["data"]["state"] == "state-3"
        # the service let go of state-1 when it moved on: the writer of state-3 removed it
        # (a state still read is held, and spared)
        assert "state-1" not in {p.name for p in home.glob("state-*")}


def test_a_call_sees_one_state_from_start_to_end(home: Path, tmp_path: Path) -> None:
    with make_client(tmp_path) as c:
        host = c.app.state.host
        started, resume = threading.Event(), threading.Event()

        def held(engine: Any) -> tuple[str, set[str], str]:
            before = engine.state
            started.set()
            resume.wait(30)
            # the update has switched the link meanwhile: this call still reads its state
            report = engine.check(DECK, "speed", None, None)
            return before, {f.code for f in report.report.findings}, engine.state

        async def during_update() -> tuple[str, set[str], str]:
            call = asyncio.ensure_future(host.call(held, timeout=60))
            await asyncio.to_thread(started.wait, 30)
            await asyncio.to_thread(import_list, home, tmp_path, 1)
            resume.set()
            return await call

        before, found, after = asyncio.run(during_update())
        assert before == after and before.endswith("state-1")
        assert "DC403" not in found  # the old list, whole
        assert "DC403" in codes(c)  # the next request: the new one
        assert c.get("/health").json()["data"]["state"] == "state-2"
